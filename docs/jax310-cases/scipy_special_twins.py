"""scipy.special functions next to their jax.scipy.special twins: same values? fails on a tracer?"""
import numpy as np
import scipy.special as ss
import jax
import jax.numpy as jnp
import jax.scipy.special as js

jax.config.update("jax_enable_x64", True)
x = np.array([0.1, 0.5, 0.9])
pos = np.array([0.5, 2.0, 7.5])
CASES = {
    "erf": (x,), "erfc": (x,), "erfinv": (x,), "expit": (pos,), "logit": (x,), "gammaln": (pos,),
    "digamma": (pos,), "xlogy": (pos, pos), "xlog1py": (pos, x), "logsumexp": (pos,), "ndtr": (x,),
    "ndtri": (x,), "log_ndtr": (x,), "i0": (pos,), "i0e": (pos,), "i1": (pos,), "i1e": (pos,),
    "betaln": (pos, pos), "betainc": (pos, pos, x), "gammainc": (pos, pos), "gammaincc": (pos, pos),
    "zeta": (pos + 1.5, pos), "polygamma": (np.array([1, 2, 3]), pos), "entr": (x,), "gamma": (pos,),
    "factorial": (pos,), "hyp1f1": (pos, pos, x), "hyp2f1": (0.5, pos, 1.5, -x), "spence": (pos,),
    "expi": (pos,), "exp1": (pos,), "expn": (np.array([1, 2, 3]), pos), "kl_div": (pos, x), "rel_entr": (pos, x),
    "softmax": (pos,), "log_softmax": (pos,), "bernoulli": (3,), "sph_harm": None, "lpmn": None,
}
for name, args in CASES.items():
    if args is None or not hasattr(js, name):
        print(f"| `{name}` | no jax.scipy.special twin | | |")
        continue
    want = np.asarray(getattr(ss, name)(*args), dtype=np.float64)
    got = np.asarray(getattr(js, name)(*args), dtype=np.float64)
    same = np.allclose(want, got, rtol=1e-10, atol=1e-12)
    try:
        jax.jit(lambda *a: getattr(ss, name)(*a))(*args)
        traced = "works"
    except Exception as e:  # noqa: BLE001
        traced = type(e).__name__
    print(f"| `{name}` | {'same (rtol 1e-10, x64)' if same else 'differs: max ' + format(float(np.max(np.abs(want - got))), '.2e')} | scipy under jit: {traced} | |")

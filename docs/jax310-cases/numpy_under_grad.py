"""NumPy handed a tracer that still holds its value (grad, jacfwd alone) fails as under jit."""
import jax, jax.numpy as jnp, numpy as np
def f(x):
    return np.sin(x) * 2
def g(d):
    return np.stack([d[k] for k in ("a", "b")]).sum()
for name, thunk in [
    ("grad(np.sin)", lambda: jax.grad(f)(1.0)),
    ("jacfwd(np.stack of dict values)", lambda: jax.jacfwd(g)({"a": 1.0, "b": 2.0})),
    ("jit(np.sin)", lambda: jax.jit(f)(1.0)),
]:
    try:
        thunk(); print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__)

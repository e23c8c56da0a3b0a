"""Does a value traced only by differentiation still have a concrete value? (jax 0.10.2, CPU)

Each row runs one concrete sink on the differentiated argument, under one transform, outside any
jit; "ok" means the Python-level use worked, otherwise the exception's type.
"""
import jax
import jax.numpy as jnp

SINKS = {
    "int(x)": lambda x: x * int(x),
    "range(int(x))": lambda x: sum((x for _ in range(int(x))), 0.0),
    "jnp.zeros(int(x))": lambda x: x * jnp.zeros(int(x)).sum() + x,
    "if x > 0": lambda x: x if x > 0 else -x,
    "bool(x > 0)": lambda x: x * bool(x > 0),
    "float(x)": lambda x: x * float(x),
    "float(x) >= 0 (if)": lambda x: x if float(x) >= 0.0 else -x,
    "x.item()": lambda x: x * x.item(),
    "x.item() >= 0 (if)": lambda x: x if x.item() >= 0.0 else -x,
}
TRANSFORMS = {
    "grad": lambda f: jax.grad(f)(3.0),
    "value_and_grad": lambda f: jax.value_and_grad(f)(3.0),
    "jacfwd": lambda f: jax.jacfwd(f)(3.0),
    "jacrev": lambda f: jax.jacrev(f)(3.0),
    "hessian": lambda f: jax.hessian(f)(3.0),
    "jvp": lambda f: jax.jvp(f, (3.0,), (1.0,)),
    "vjp": lambda f: jax.vjp(f, 3.0)[1](1.0),
    "linearize": lambda f: jax.linearize(f, 3.0)[1](1.0),
    "jit(grad)": lambda f: jax.jit(jax.grad(f))(3.0),
    "grad(vmap)": lambda f: jax.grad(lambda x: jax.vmap(f)(jnp.stack([x, x])).sum())(3.0),
}
print("| sink | " + " | ".join(TRANSFORMS) + " |")
print("|---" * (len(TRANSFORMS) + 1) + "|")
for sink, fn in SINKS.items():
    cells = []
    for run in TRANSFORMS.values():
        try:
            run(fn)
            cells.append("ok")
        except Exception as error:  # noqa: BLE001 - the type is the finding
            cells.append(type(error).__name__)
    print(f"| `{sink}` | " + " | ".join(cells) + " |")

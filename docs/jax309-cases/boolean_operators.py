"""Python's `not`/`and`/`or` and `float()` on traced values, and their array forms (jax 0.10.2, CPU).

Each row runs one expression of `x` (a float scalar, a bool scalar, a float vector) eagerly,
under `jax.jit` and under `jax.vmap` over a vector; "ok" cells show the result, otherwise the
exception's type. The rows after each Python form are the rewrites JAX309 and JAX304 write.
"""
import jax
import jax.numpy as jnp

CASES = {
    "not x": lambda x: not x,
    "jnp.logical_not(x)": lambda x: jnp.logical_not(x),
    "x > 0 and x < 3": lambda x: x > 0 and x < 3,
    "jnp.logical_and(x > 0, x < 3)": lambda x: jnp.logical_and(x > 0, x < 3),
    "x > 2 or x < 1": lambda x: x > 2 or x < 1,
    "jnp.logical_or(x > 2, x < 1)": lambda x: jnp.logical_or(x > 2, x < 1),
    "float(x) * 2": lambda x: float(x) * 2,
    "x * 2": lambda x: x * 2,
    "bool(x > 1)": lambda x: bool(x > 1),
    "jnp.bool_(x > 1)": lambda x: jnp.bool_(x > 1),
}


def show(run, value):
    try:
        out = run(value)
        if hasattr(out, "tolist"):
            return f"{getattr(out, 'dtype', type(out).__name__)} {out.tolist()}"
        return f"{type(out).__name__} {out}"
    except Exception as error:  # noqa: BLE001 - the type is the finding
        return type(error).__name__


scalar, flag, vector = jnp.float32(2.0), jnp.bool_(True), jnp.array([0.0, 2.0, 4.0])
print("| expression | eager, 2.0 | jit, 2.0 | eager, True | jit, True | vmap over [0, 2, 4] |")
print("|---|---|---|---|---|---|")
for name, fn in CASES.items():
    cells = [show(fn, scalar), show(jax.jit(fn), scalar), show(fn, flag), show(jax.jit(fn), flag),
             show(jax.vmap(fn), vector)]
    print(f"| `{name}` | " + " | ".join(cells) + " |")

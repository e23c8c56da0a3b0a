"""A boolean mask computed from a traced array, used as an index (jax 0.10.2, CPU).

Each row runs one use of `mask = x < 5` on `x = jnp.arange(10)`, eagerly and under `jax.jit`;
"ok" shows the result, otherwise the exception's type. The last rows are the rewrites.
"""
import jax
import jax.numpy as jnp

x = jnp.arange(10)
xf = jnp.arange(10.0)
CASES = {
    "x.at[x < 5].set(0)": lambda x: x.at[x < 5].set(0),
    "x.at[x < 5].add(3)": lambda x: x.at[x < 5].add(3),
    "x.at[x < 5].multiply(2)": lambda x: x.at[x < 5].multiply(2),
    "x[x < 5]": lambda x: x[x < 5],
    "x[x < 5].sum()": lambda x: x[x < 5].sum(),
    "jnp.sum(x[x < 5])": lambda x: jnp.sum(x[x < 5]),
    "jnp.where(x < 5, 0, x)": lambda x: jnp.where(x < 5, 0, x),
    "jnp.where(x < 5, x + 3, x)": lambda x: jnp.where(x < 5, x + 3, x),
    "jnp.where(x < 5, x * 2, x)": lambda x: jnp.where(x < 5, x * 2, x),
    "jnp.where(x < 5, x, 0).sum()": lambda x: jnp.where(x < 5, x, 0).sum(),
    "x.at[x < 5].set(0.5)": lambda x: x.at[x < 5].set(0.5),
    "jnp.where(x < 5, 0.5, x)": lambda x: jnp.where(x < 5, 0.5, x),
}


def show(run, value):
    try:
        out = run(value)
        return f"{out.dtype} {out.tolist()}"
    except Exception as error:  # noqa: BLE001 - the type is the finding
        return type(error).__name__


print("| use | eager | jit | eager, float x | jit, float x |")
print("|---|---|---|---|---|")
for name, fn in CASES.items():
    cells = [show(fn, x), show(jax.jit(fn), x), show(fn, xf), show(jax.jit(fn), xf)]
    print(f"| `{name}` | " + " | ".join(cells) + " |")

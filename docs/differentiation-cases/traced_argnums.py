"""Can `argnums` of a differentiation be a traced value? (jax 0.10.2, CPU; jax#6134)

Each row builds `grad(f, argnums=i)` with `i` given one way; "ok" prints the derivative,
otherwise the exception's type. Also the equinox MLP under `jax.jit(jax.grad(loss))`
against `eqx.filter_jit(eqx.filter_grad(loss))` (equinox#361).
"""
import equinox as eqx
import jax
import jax.numpy as jnp


def f(x, y):
    return x**3 + 2.0 * y**3


def d(i):
    return jax.grad(f, argnums=i)(1.0, 1.0)


ROWS = {
    "Python int": lambda: d(1),
    "Python loop over range(2)": lambda: jnp.stack([d(i) for i in range(2)]),
    "vmap over jnp.array([0, 1])": lambda: jax.vmap(d)(jnp.array([0, 1])),
    "jit, i traced": lambda: jax.jit(d)(1),
    "jit, i static": lambda: jax.jit(d, static_argnums=0)(1),
    "lax.map over jnp.arange(2)": lambda: jax.lax.map(d, jnp.arange(2)),
}


def loss(model, x):
    return jnp.mean(jax.vmap(model)(x) ** 2)


mlp = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0))
x = jnp.ones((3, 2))
ROWS["jax.jit(jax.grad(loss))(mlp)"] = lambda: jax.jit(jax.grad(loss))(mlp, x)
ROWS["eqx.filter_jit(eqx.filter_grad(loss))(mlp)"] = lambda: eqx.filter_jit(eqx.filter_grad(loss))(mlp, x)

print("| argnums given as | result |")
print("|---|---|")
for name, run in ROWS.items():
    try:
        result = run()
        shown = "ok" if not hasattr(result, "shape") else f"ok {[round(float(v), 3) for v in jnp.atleast_1d(result)]}"
    except Exception as error:  # noqa: BLE001 - the table records which error
        shown = type(error).__name__
    print(f"| {name} | {shown} |")

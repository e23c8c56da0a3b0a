import dataclasses
import functools as ft

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Static:
    """The non-array half of the model: a static argument, so jit hashes it, field by field."""

    widths: list
    scale: float = 1.0


@ft.partial(jax.jit, static_argnums=1)
@jax.grad
def loss(params, static, x, y):
    h = x
    for i, width in enumerate(static.widths):
        h = jnp.tanh(h @ params[i])[:, :width]
    return jnp.mean((static.scale * h.sum(axis=1) - y) ** 2)


key1, key2 = jax.random.split(jax.random.PRNGKey(0))
params = [jax.random.normal(key1, (3, 4)), jax.random.normal(key2, (4, 2))]
static = Static((4, 2), scale=0.5)
x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
y = jnp.arange(5.0)
for g in loss(params, static, x, y):
    print(jnp.round(g, 3))

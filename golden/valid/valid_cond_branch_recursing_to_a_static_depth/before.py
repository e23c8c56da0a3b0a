# Looks like jax#13796 (a function recursing through a lax.cond branch), but the branch recurses
# only while `depth`, a Python int, is positive: the tracing of the branches ends at depth 0.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=1)
def smooth(x, depth):
    def refine(x):
        return smooth(0.5 * (x + jnp.roll(x, 1)), depth - 1) if depth > 0 else x

    return jax.lax.cond(jnp.max(jnp.abs(x)) > 1.0, refine, lambda x: x, x)


print(smooth(jnp.array([0.0, 4.0, 0.0, 0.0]), 3).tolist())

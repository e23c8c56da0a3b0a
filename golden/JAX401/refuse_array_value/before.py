# Refused: the value is an array; no static option can hash it.
import jax
import jax.numpy as jnp


def shift(x, k):
    return x + k


shift_jit = jax.jit(shift, static_argnums=1)
print(jax.make_jaxpr(shift_jit)(jnp.ones(2), jnp.array(1.0)))

# jnp.arange(n.item()) in a function jitted inline: jax.jit(ramp)(4, 0.5).
import jax
import jax.numpy as jnp


def ramp(n, scale):
    return jnp.arange(n) * scale


print(jax.jit(ramp, static_argnames=("n",))(4, 0.5))

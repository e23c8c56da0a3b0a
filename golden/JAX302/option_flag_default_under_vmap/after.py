# jax#1120: a Python bool option picks the computation. Mapped with vmap it
# keeps its default; jitted with the option passed, jit traces it.
import jax
import jax.numpy as jnp


def activation(x, squared=False):
    if squared:
        return x * x
    return jnp.abs(x)


xs = jnp.arange(-2.0, 2.0)
print(jax.vmap(activation)(xs))
print(jax.vmap(jax.jit(activation))(xs))
fast = jax.jit(activation, static_argnames=("squared",))
print(fast(xs, True))
print(fast(xs, squared=True))

# jnp.floor_divide on array metadata, as a reshape size and as a slice bound.
import jax
import jax.numpy as jnp


@jax.jit
def halves(x):
    pairs = jnp.reshape(x, (jnp.floor_divide(x.size, 2), 2))
    return pairs[: jnp.floor_divide(len(x), 4)]


print(halves(jnp.arange(8.0)))

# Hand fix for jax-ml/jax#13769: jnp.split wants static split points; the list
# of Python ints is static as it is, jnp.array is what makes it a traced array.
import jax
import jax.numpy as jnp

LAYERS = ((3, 4), (4, 2), (2, 1))


def split_points(layers):
    sizes = [n_in * n_out + n_out for n_in, n_out in layers]
    return [sum(sizes[:i + 1]) for i in range(len(sizes) - 1)]


@jax.jit
def unflatten(flat):
    chunks = jnp.split(flat, split_points(LAYERS))
    return [c.sum() for c in chunks]


print([round(float(v), 1) for v in unflatten(jnp.arange(32.0))])

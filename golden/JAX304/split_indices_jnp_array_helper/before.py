# Cut down from jax-ml/jax#13769 ("Improve jnp.split API", carlosgmartin's
# comment): a list of plain Python ints, "constructed by a complex series of
# function calls", is passed through jnp.array to jnp.split inside jit.
import jax
import jax.numpy as jnp

LAYERS = ((3, 4), (4, 2), (2, 1))


def param_sizes(layers):
    return [n_in * n_out + n_out for n_in, n_out in layers]


def split_points(layers):
    sizes = param_sizes(layers)
    points = []
    total = 0
    for size in sizes[:-1]:
        total += size
        points.append(total)
    return points


@jax.jit
def unflatten(flat):
    chunks = jnp.split(flat, jnp.array(split_points(LAYERS)))
    return [c.sum() for c in chunks]


print([round(float(v), 1) for v in unflatten(jnp.arange(32.0))])

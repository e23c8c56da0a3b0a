# Hand fix for jax-ml/jax#5100 following jakevdp's answer: choose a maximum size,
# fill only the first rand_shape.sum() rows, and pass that count along (here as
# a mask). The maximum (8) is a choice only the author can make.
import jax
import jax.numpy as jnp

MAX_SAMPLES = 8


@jax.jit
def f(data, rng_key):
    n, m = data.shape
    shape_key, sub_key = jax.random.split(rng_key)
    rand_shape = jax.random.poisson(shape_key, 1, (2,))
    count = jnp.minimum(rand_shape.sum(), MAX_SAMPLES)
    sub_indices = jax.random.randint(sub_key, (MAX_SAMPLES, 3), 0, n)
    mask = jnp.arange(MAX_SAMPLES) < count
    return data[sub_indices, :], mask


rng_key = jax.random.PRNGKey(0)
subsamples, mask = f(jax.numpy.arange(10 * 5).reshape((10, 5)), rng_key)
print(subsamples.shape, int(mask.sum()))

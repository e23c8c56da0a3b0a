# Cut down from jax-ml/jax#5100 ("Array Shape as Random Variable"): the number
# of subsample indices is itself drawn from a Poisson inside the jitted function.
import jax


@jax.jit
def f(data, rng_key):
    n, m = data.shape
    shape_key, sub_key = jax.random.split(rng_key)
    rand_shape = jax.random.poisson(shape_key, 1, (2,))  # <--- Random Variable
    sub_indices = jax.random.randint(sub_key, (rand_shape.sum(), 3), 0, n)
    subsamples = data[sub_indices, :]
    return subsamples


rng_key = jax.random.PRNGKey(0)
print(f(jax.numpy.arange(10 * 5).reshape((10, 5)), rng_key).shape)

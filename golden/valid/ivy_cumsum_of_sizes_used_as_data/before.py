import jax
import jax.numpy as jnp


def offsets(x, num_or_size_splits=None):
    if num_or_size_splits is None:
        num_or_size_splits = [x.shape[0]]
    if isinstance(num_or_size_splits, (list, tuple)):
        num_or_size_splits = jnp.cumsum(jnp.array(num_or_size_splits))
    return x[: num_or_size_splits.shape[0]] + num_or_size_splits


x = jnp.arange(10.0)
print(offsets(x, [3, 2, 5]).tolist())
print(jax.jit(lambda x: offsets(x, num_or_size_splits=[3, 2, 5]))(x).tolist())

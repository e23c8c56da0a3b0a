# global
import math
import jax
import jax.numpy as jnp
import numpy as np


def split(
    x,
    num_or_size_splits=None,
    axis=0,
    with_remainder=False,
):
    if x.shape == ():
        if num_or_size_splits is not None and num_or_size_splits != 1:
            raise Exception(
                "input array had no shape, but num_sections specified was {}".format(
                    num_or_size_splits
                )
            )
        return [x]
    if num_or_size_splits is None:
        num_or_size_splits = x.shape[axis]
    elif isinstance(num_or_size_splits, int) and with_remainder:
        num_chunks = x.shape[axis] / num_or_size_splits
        num_chunks_int = math.floor(num_chunks)
        remainder = num_chunks - num_chunks_int
        if remainder != 0:
            num_or_size_splits = [num_or_size_splits] * num_chunks_int + [
                int(remainder * num_or_size_splits)
            ]
    if isinstance(num_or_size_splits, (list, tuple)):
        num_or_size_splits = np.cumsum(np.array(num_or_size_splits[:-1]))
    return jnp.split(x, num_or_size_splits, axis)


x = jnp.arange(10.0)
print([p.tolist() for p in split(x, num_or_size_splits=[3, 2, 5])])

compiled = jax.jit(lambda x: split(x, num_or_size_splits=[3, 2, 5]))
print([p.tolist() for p in compiled(x)])

compiled_rem = jax.jit(lambda x: split(x, num_or_size_splits=4, with_remainder=True))
print([p.tolist() for p in compiled_rem(x)])

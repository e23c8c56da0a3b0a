import jax
import jax.numpy as jnp
import numpy as np
from jax._src.core import concrete_or_error


def nonzero_columns(m):
    concrete_or_error(None, m, "`nonzero_columns` needs concrete values")
    return tuple(int(c) for c in np.unique(np.nonzero(np.asarray(m))[1]))


def compress(m):
    m = jnp.asarray(m)
    cols = nonzero_columns(m)
    return m[:, jnp.array(cols)]


base = jnp.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]])
print(compress(base).tolist())


@jax.jit
def scaled(scale):
    return compress(scale * base)


print(scaled(2.0).tolist())

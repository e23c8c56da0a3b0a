import jax.numpy as jnp
import numpy as np
from jax import jit, vmap


def make_weights():
    # values handed over by another library as a plain Python list
    return [np.float32(0.5), np.float32(1.0), np.float32(2.0), np.float32(4.0)]


@jit
def f(idx, mylist):
    return mylist[idx]


mylist = make_weights()
print(float(f(2, mylist)))
print(vmap(f, in_axes=(0, None))(jnp.array([0, 3, 1]), mylist).tolist())

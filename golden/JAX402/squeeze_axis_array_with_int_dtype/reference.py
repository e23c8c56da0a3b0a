# jakevdp: the `axis` argument must be static; a jax array created inside the jitted
# function is traced.  Use a plain Python int for the axis.
import jax
import numpy as np


def fn(inp):
    axis = 1
    return jax.numpy.squeeze(inp, axis)


mykey = jax.random.PRNGKey(0)
inp = jax.random.uniform(mykey, [3, 1], jax.numpy.float32, minval=0, maxval=1)

print(np.round(np.asarray(fn(inp), dtype=np.float64), 4).tolist())
print(np.round(np.asarray(jax.jit(fn)(inp), dtype=np.float64), 4).tolist())


def fn2(inp):
    axis = 0
    return jax.numpy.expand_dims(inp, axis)


inp2 = jax.numpy.array(128, dtype=jax.numpy.float32)
print(np.asarray(fn2(inp2), dtype=np.float64).tolist())
print(np.asarray(jax.jit(fn2)(inp2), dtype=np.float64).tolist())

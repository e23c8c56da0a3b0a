# Evaluating a different function on each of several inputs of different
# lengths (same number of columns) with vmap + lax.switch, then stacking.
import numpy as np
import jax.numpy as jnp
from jax import lax, vmap

rng = np.random.RandomState(0)
x1 = rng.rand(10, 3)
x2 = rng.rand(20, 3)


def f1(x):
    return jnp.sin(x)


def f2(x):
    return jnp.cos(x)


functions = [f1, f2]
xs = [x1, x2]

# i selects both the function and the input; xs is shared by all i
vfunc = vmap(lambda i, xs: lax.switch(i, functions, xs[i]), in_axes=(0, None))

out = vfunc(jnp.arange(2), xs)  # hoping to get the vstack, shape (30, 3)
print(out.shape)
print(round(float(out.sum()), 4))

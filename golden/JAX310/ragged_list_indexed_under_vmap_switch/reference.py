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

# JAX has no ragged arrays: pad every input to a common length and stack them
# into one array that can be indexed with the traced switch index, then drop
# the padding rows (lengths are static Python ints) and vstack.
lengths = [x.shape[0] for x in xs]
max_len = max(lengths)
padded = jnp.stack([jnp.pad(x, ((0, max_len - x.shape[0]), (0, 0))) for x in xs])

vfunc = vmap(lambda i, xs: lax.switch(i, functions, xs[i]), in_axes=(0, None))

out_padded = vfunc(jnp.arange(2), padded)  # shape (2, max_len, 3)
out = jnp.concatenate([out_padded[j, :n] for j, n in enumerate(lengths)])
print(out.shape)
print(round(float(out.sum()), 4))

# The masked values themselves are the result: how many there are depends on the data, so no
# rewrite keeps the program's meaning under jit; reported, with jnp.where and nonzero(size=).
import jax
import jax.numpy as jnp


@jax.jit
def positives(x):
    return x[x > 0]


print(positives(jnp.array([-1.0, 2.0, -3.0, 4.0])).tolist())

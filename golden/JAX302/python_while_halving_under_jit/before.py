# Cut down from https://crackedaicode.com/problems/jax-while-loop-vs-python-while
import jax.numpy as jnp
from jax import lax, jit


@jit
def halve_until_small(x):
    while x > 1.0:
        x = x * 0.5
    return x


print(float(halve_until_small(4.0)))
print([float(halve_until_small(v)) for v in jnp.array([3.0, 10.0])])

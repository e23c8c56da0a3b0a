# Cut down from https://crackedaicode.com/problems/jax-while-loop-vs-python-while
import jax.numpy as jnp
from jax import lax, jit


@jit
def halve_until_small(x):
    def x_cond(x):
        return x > 1.0
    def x_body(x):
        x = x * 0.5
        return x
    x = lax.while_loop(x_cond, x_body, x)
    return x


print(float(halve_until_small(4.0)))
print([float(halve_until_small(v)) for v in jnp.array([3.0, 10.0])])

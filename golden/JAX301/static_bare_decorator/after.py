# @jax.jit with int(n) as scan length; every call passes a Python int (a default,
# a keyword): n becomes static and the stacked outputs keep working.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=("n",))
def run(x, n=2):
    return jax.lax.scan(lambda c, _: (c + 1, c), x, None, length=n)


print(run(jnp.zeros(1)))
print(run(jnp.zeros(1), n=3))

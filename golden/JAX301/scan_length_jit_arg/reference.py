# Hand fix of jax-ml/jax#3603: the length fixes the shape of the stacked outputs,
# so it has to be static; mark the argument static when jitting.
import jax
from functools import partial

@partial(jax.jit, static_argnames="length")
def do_stuff(length):
    def f(carry,x):
        return carry, [None]

    return jax.lax.scan(f,[1], xs=None, length=length)

print(do_stuff(10))

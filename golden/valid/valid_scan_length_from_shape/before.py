# Valid look-alike from jax-ml/jax#3603: do_stuff is jitted with no static
# arguments and passes a `length` to scan, but the length is read off an
# argument's shape (len(xs)), which is a Python int even under jit.
import jax
import jax.numpy as jnp

def do_stuff(xs):
    length = len(xs)
    def f(carry,x):
        return [carry[0] + 1], [None]

    return jax.lax.scan(f,[1], xs=None, length=length)

print(jax.jit(do_stuff)(jnp.zeros(10)))

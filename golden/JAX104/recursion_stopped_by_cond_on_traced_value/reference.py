# Cut down from https://github.com/jax-ml/jax/issues/517
# The recursion becomes a loop over the traced argument.
import jax
from jax import lax


def f(x):
    def body(state):
        acc, x = state
        return acc * x, x - 1

    acc, _ = lax.while_loop(lambda s: s[1] >= 1, body, (1.0, x))
    return acc


print(float(jax.jit(f)(5.0)))

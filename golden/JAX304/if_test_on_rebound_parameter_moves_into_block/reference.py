# A helper rebinds its parameter to a jnp value, then tests it with a Python `if`; it runs inside a
# jitted function, where the comparison is staged. Computed at trace time, the test must move into
# the block with it: after the block, `num_values > 0` would be staged again.
import jax
import numpy as np
from jax import numpy as _jnp


def bump(num_values, dtype=_jnp.int32):
    num_values = np.asarray(num_values, dtype)
    if num_values > 0:
        num_values = num_values + 1
    return num_values


@jax.jit
def policy(logits):
    n = bump(3)
    return _jnp.argmax(logits) % n


print(int(policy(_jnp.array([0.1, 2.0, -1.0, 0.5, 4.0]))))

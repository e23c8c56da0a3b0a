from functools import partial

import jax
import jax.numpy as jnp


def dummy(x, weights):
    out = 0.
    for w in weights:
        out = out + w * x
    return out


weights = [1.0, 2.0, 3.0]
x = jnp.ones(3)

# fixing the list with partial works...
print(jax.jit(partial(dummy, weights=weights))(x))

# ...but marking it static fails
dummy_jit = jax.jit(dummy, static_argnames=["weights"])
print(dummy_jit(x, weights=weights))

# Looks like a Python `assert`/`not` on a scan carry, which a tracer refuses, but the carry's
# second and third elements are containers (an empty list, an empty tuple), as flax's nnx scan
# carries its deques and its arguments (flax/nnx/transforms/iteration.py): Python decides their
# truth and their `==` with a tuple while tracing.
import jax
import jax.numpy as jnp


def step(carry, x):
    total, pending, extra = carry
    assert not pending
    assert extra == ()
    return (total + x, pending, extra), total


init = (jnp.float32(0.0), [], ())
(total, _, _), partial_sums = jax.lax.scan(step, init, jnp.arange(5.0))
print(float(total), partial_sums.tolist())

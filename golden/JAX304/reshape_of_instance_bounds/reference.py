import numpy as np
import jax
import jax.numpy as jnp
from jax import lax


def not_jax_tracer(x):
    return not isinstance(x, jax.core.Tracer)


class DiscreteUniform:
    def __init__(self, low=0, high=1):
        self.low, self.high = low, high
        self.batch_shape = lax.broadcast_shapes(jnp.shape(low), jnp.shape(high))

    def log_prob(self, value):
        shape = lax.broadcast_shapes(jnp.shape(value), self.batch_shape)
        return -jnp.broadcast_to(jnp.log(self.high + 1 - self.low), shape)

    def enumerate_support(self, expand=True):
        if not not_jax_tracer(self.high) or not not_jax_tracer(self.low):
            raise NotImplementedError("Both `low` and `high` must not be a JAX Tracer.")
        if np.any(np.amax(self.low) != self.low):
            raise NotImplementedError(
                "Inhomogeneous `low` not supported by `enumerate_support`."
            )
        if np.any(np.amax(self.high) != self.high):
            raise NotImplementedError(
                "Inhomogeneous `high` not supported by `enumerate_support`."
            )
        low = np.reshape(self.low, -1)[0]
        high = np.reshape(self.high, -1)[0]
        values = jnp.arange(low, high + 1).reshape((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = jnp.broadcast_to(values, values.shape[:1] + self.batch_shape)
        return values


@jax.jit
def expected_value(scale):
    d = DiscreteUniform(1, 3)
    support = d.enumerate_support()
    probs = jnp.exp(d.log_prob(support))
    return (probs * support * scale).sum(0)


print("eager support:", DiscreteUniform(1, 3).enumerate_support().tolist())
print("jitted expectation:", expected_value(2.0))

# Cut down from jax-ml/jax#23637: a Python bool()/if on the carry inside a
# lax.fori_loop body -- the carry is a tracer, so the conversion fails.
import jax
import jax.numpy as jnp
from jax import lax


def leaky_bucket(rain, capacity=5.0, leak=0.5):
    """Fill a bucket with daily rain; it overflows at `capacity`."""

    def body(day, level):
        level = level + rain[day] - leak
        if level > capacity:        # Python control flow on a traced value
            level = capacity
        if level < 0.0:
            level = 0.0
        return level

    return lax.fori_loop(0, rain.shape[0], body, 0.0)


rain = jnp.array([1.0, 2.5, 0.0, 3.0, 2.0, 0.1, 0.0])
print(round(float(leaky_bucket(rain)), 4))

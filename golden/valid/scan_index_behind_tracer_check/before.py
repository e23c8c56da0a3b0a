# Look-alike from numpyro's contrib scan that works: the scan body unpacks its
# carry and uses the step index in a Python condition only behind a check that
# it is not a tracer (the first steps run unrolled, with a Python int).
import jax
import jax.numpy as jnp


def not_jax_tracer(x):
    return not isinstance(x, jax.core.Tracer)


def body_fn(wrapped_carry, x):
    i, total = wrapped_carry
    warmup = True if (not_jax_tracer(i) and i in range(2)) else False
    scale = 0.5 if warmup else 1.0
    return (i + 1, total + scale * x), total


carry = (0, 0.0)
for x in jnp.arange(2.0):  # unrolled steps: `i` is a Python int
    carry, _ = body_fn(carry, x)
carry, ys = jax.lax.scan(body_fn, carry, jnp.arange(2.0, 5.0))
print(int(carry[0]), float(carry[1]), ys.tolist())

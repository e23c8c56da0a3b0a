# A helper applies the jit it is handed, with static options written inside it
# (optax's gradient-estimator variants); every static argument is a Python int,
# which hashes, so nothing is reported.
import jax
import jax.numpy as jnp


def _variant(variant, fn):
    return variant(fn, static_argnums=(1,))


def power_sum(x, n):
    return sum(x ** k for k in range(n))


def scaled(x, scale):
    return x * scale


run = _variant(jax.jit, power_sum)
print(run(jnp.arange(3.0), 4).tolist())
print(jax.jit(scaled)(jnp.arange(3.0), 2.0).tolist())

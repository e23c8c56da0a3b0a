"""Sampling with an optional key, jitted: `if not key:` meant "was a key given?"."""
import jax
import jax.numpy as jnp


@jax.jit
def sample_noise(mean, key=None):
    if key is None:
        raise ValueError("pass a PRNG key")
    return mean + 0.1 * jax.random.normal(key, mean.shape)


key = jax.random.PRNGKey(42)
print(sample_noise(jnp.zeros(3), key=key))
print(sample_noise(jnp.ones(3), key=jax.random.fold_in(key, 1)))

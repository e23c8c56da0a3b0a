# google/flax#2410: a PRNG key passed as a static argument of an assigned jit.
import jax
import jax.numpy as jnp


def noisy_step(params, rng, scale):
    noise = jax.random.normal(rng, params.shape)
    return params + scale * noise


step = jax.jit(noisy_step, static_argnums=(1, 2))
params = jnp.zeros(3)
print(step(params, jax.random.PRNGKey(0), 0.0))

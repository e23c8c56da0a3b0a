# A sampler object in mcx's style whose parameters are arrays: passed to the jitted update as
# ordinary traced arguments, which jit takes.
import jax
import jax.numpy as jnp


class Sampler(object):
    def __init__(self, rng_key, scale, shift):
        self.rng_key = rng_key
        self.parameters = (scale, shift)

    def run(self, steps=5):
        @jax.jit
        def update(rng_key, parameters, state):
            scale, shift = parameters
            return state * scale + shift + 0.01 * jax.random.normal(rng_key, state.shape)

        state = jnp.zeros(3)
        for _ in range(steps):
            self.rng_key, key = jax.random.split(self.rng_key)
            state = update(key, self.parameters, state)
        return state


sampler = Sampler(jax.random.PRNGKey(0), jnp.array(0.5), jnp.array([1.0, 2.0, 3.0]))
print(jnp.round(sampler.run(), 3))

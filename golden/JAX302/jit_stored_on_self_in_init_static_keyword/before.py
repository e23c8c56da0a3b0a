import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, vocab_size=5, seed=0):
        self.head = jax.random.normal(jax.random.PRNGKey(seed), (3, vocab_size))

    def sample_actions(self, rng, observation, *, temperature=0.0):
        logits = observation @ self.head
        if temperature > 0.0:
            return jax.random.categorical(rng, logits / temperature, axis=-1)
        return jnp.argmax(logits, axis=-1)


class Policy:
    def __init__(self, model):
        self._sample_actions = jax.jit(model.sample_actions)

    def infer(self, rng, obs):
        return self._sample_actions(rng, obs, temperature=0.7)


obs = jnp.array([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]])
print(Policy(Sampler()).infer(jax.random.PRNGKey(42), obs).tolist())

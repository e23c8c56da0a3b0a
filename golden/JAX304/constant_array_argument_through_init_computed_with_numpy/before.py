import jax
import jax.numpy as jnp


class Discretizer:
    def __init__(self, bins):
        self._bins = bins

    def flatten(self, indices):
        return jnp.ravel_multi_index(indices, self._bins + 1, mode="clip")


def rollout(discretizer, steps):
    def step(carry, t):
        return carry, discretizer.flatten((t % 4, (3 * t) % 5))

    return jax.lax.scan(step, 0, steps)[1]


discretizer = Discretizer(bins=4 * jnp.array([1, 1]))
print(rollout(discretizer, jnp.arange(6)))

import jax
import jax.numpy as jnp


class Mixture:
    def __init__(self, means, probs):
        self.means = means
        self._probs = probs

    @property
    def probs(self):
        assert jnp.allclose(self._probs.sum(), 1.0), "mixture weights must sum to one"
        return self._probs


def mean_of(mixture):
    return jnp.dot(mixture.probs, mixture.means)


means = jnp.array([0.0, 1.0, 4.0])
print(float(mean_of(Mixture(means, jnp.array([0.2, 0.3, 0.5])))))
batch = jnp.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
print(jax.vmap(lambda p: mean_of(Mixture(means, p)))(batch).tolist())

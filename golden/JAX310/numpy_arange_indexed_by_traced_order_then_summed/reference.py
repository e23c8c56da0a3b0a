# Fix: build the index vector with JAX (jnp.arange / lax.iota) so the indexing is
# staged into the computation instead of being evaluated by NumPy.
import numpy as onp
import jax.numpy as np
from jax import jit


def rank_scores(scores, order):
    """Positions of the items after sorting, weighted by their scores."""
    positions = np.arange(order.shape[0])[order]
    return (positions * scores[order]).sum()


if __name__ == "__main__":
    batches = [np.array([0.3, 1.2, 0.7, 2.0]),
               np.array([1.5, -0.2, 0.4, 0.9])]
    ranked = jit(rank_scores)
    for scores in batches:
        order = np.argsort(scores)
        print(round(float(ranked(scores, order)), 4))

# Cut down from jax-ml/jax#553 ("np.arange weirdness with jit"): a plain NumPy
# array (from onp.arange) is indexed with a traced index array inside jit, so NumPy
# tries to convert the tracer to a concrete ndarray.
import numpy as onp
import jax.numpy as np
from jax import jit


def rank_scores(scores, order):
    """Positions of the items after sorting, weighted by their scores."""
    positions = np.asarray(onp.arange(order.shape[0]))[order]   # NumPy array indexed by a tracer
    return (positions * scores[order]).sum()


if __name__ == "__main__":
    batches = [np.array([0.3, 1.2, 0.7, 2.0]),
               np.array([1.5, -0.2, 0.4, 0.9])]
    ranked = jit(rank_scores)
    for scores in batches:
        order = np.argsort(scores)
        print(round(float(ranked(scores, order)), 4))

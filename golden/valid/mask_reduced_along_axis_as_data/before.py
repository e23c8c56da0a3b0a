# The valid moves as data (jumanji's style, kept jittable): the rebound mask, reduced
# along the last axis, only selects with jnp.where and weights a choice; an eager
# NumPy mask indexes freely.
import jax
import numpy as np
from jax import numpy as jnp

MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])


@jax.jit
def move_scores(key, position, grid_size=3):
    valid = (position + MOVES >= 0) & (position + MOVES < grid_size)
    valid = jnp.all(valid, axis=-1)
    scores = jnp.where(valid, jnp.arange(len(MOVES)), -1)
    pick = jax.random.choice(key, MOVES.shape[0], shape=(), p=valid / valid.sum())
    return scores, pick


moves = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
mask = np.all(moves + np.array([2, 2]) < 3, axis=-1)
print(moves[mask].tolist())
scores, pick = move_scores(jax.random.PRNGKey(0), jnp.array([2, 2]))
print(scores.tolist(), int(pick))

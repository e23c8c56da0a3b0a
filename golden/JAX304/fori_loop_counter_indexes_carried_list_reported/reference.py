# Contract a chain of matrices of different shapes down to a vector.  The
# tensors have different shapes, so the loop carry cannot have a fixed type
# and a traced index cannot select from the Python list: keep the Python loop
# (unrolled at trace time, with a concrete index each iteration).
import jax.numpy as np
from jax import jit, lax, random


@jit
def trace(list_of_tensors):
    L = len(list_of_tensors)
    edge = np.ones((1))
    for i in range(L):
        edge = np.einsum('i,ij->j', edge, list_of_tensors[i])
    return edge


key = random.PRNGKey(0)
shapes = [(1, 2), (2, 4), (4, 8), (8, 1)]
list_of_tensors = [np.full(s, 0.5) for s in shapes]
print(trace(list_of_tensors).tolist())

# Contract a chain of matrices of different shapes down to a vector.  The
# Python loop compiled slowly for long chains, so it was rewritten with
# lax.fori_loop, indexing the Python list with the loop counter.
import jax.numpy as np
from jax import jit, lax, random


def loop_body(i, args):
    edge = np.einsum('i,ij->j', args[1], args[0][i])
    return (args[0], edge)


@jit
def trace(list_of_tensors):
    L = len(list_of_tensors)
    edge = np.ones((1))
    list_of_tensors, edge = lax.fori_loop(0, L, loop_body, (list_of_tensors, edge))
    return edge


key = random.PRNGKey(0)
shapes = [(1, 2), (2, 4), (4, 8), (8, 1)]
list_of_tensors = [np.full(s, 0.5) for s in shapes]
print(trace(list_of_tensors).tolist())

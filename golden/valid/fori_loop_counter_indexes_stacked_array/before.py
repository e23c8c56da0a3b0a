# jax#2962's loop with matrices of one shape, stacked before the loop: the counter indexes an array.
import jax.numpy as np
from jax import jit, lax


def loop_body(i, args):
    edge = np.einsum('i,ij->j', args[1], args[0][i])
    return (args[0], edge)


@jit
def trace(stacked):
    L = stacked.shape[0]
    edge = np.ones((2,))
    stacked, edge = lax.fori_loop(0, L, loop_body, (stacked, edge))
    return edge


list_of_tensors = [np.full((2, 2), 0.5) for _ in range(4)]
print(trace(np.stack(list_of_tensors)).tolist())

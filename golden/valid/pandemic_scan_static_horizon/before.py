# Cut down from https://github.com/jax-ml/jax/issues/2251
import functools
from collections import namedtuple

import numpy as onp
import jax.numpy as np
from jax import jit, lax

n_nodes = 8
n_edges = n_nodes*(n_nodes-1)//2

rng = onp.random.default_rng(0)
trans_times = rng.geometric(rng.beta(2, 5, size=(n_edges,)), size=(n_edges,))


@jit
def jax_squareform(edgelist, n=n_nodes):
    """edgelist to adj. matrix"""
    empty = np.zeros((n, n))
    half = empty.at[np.triu_indices(n, 1)].add(edgelist)
    full = half+half.T
    return full


a = jax_squareform(trans_times)  # transition times
x0 = np.array([1]+(n_nodes-1)*[0])  # infect state

# (infected?, time-left-per-neighbor?)
InfectState = namedtuple('InfectState', ['x', 's_ij'])


@jit
def infect(state, step=1):
    neighbor_set = state.s_ij*state.x  # who knows an infected node
    s_ij = np.where(neighbor_set > 0, state.s_ij - step, state.s_ij)
    newly = ((s_ij <= 0) & (neighbor_set > 0)).any(axis=1)
    x = np.maximum(state.x, newly.astype(state.x.dtype))
    return InfectState(x, s_ij), x.sum()


@functools.partial(jit, static_argnums=(1, 2, 3))
def _pandemic_scan(state, step, t, T):
    return lax.scan(
        infect,
        InfectState(x0, a),
        np.full(T, step)
    )


def pandemic_scan(state, step=1, t=0, T=5):
    return _pandemic_scan(state, step, t, T)


final, n_infected = pandemic_scan(InfectState(x0, a), T=5)
print(n_infected.tolist(), int(final.x.sum()))

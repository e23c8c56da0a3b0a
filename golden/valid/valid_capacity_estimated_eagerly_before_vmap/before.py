# Cut down from https://github.com/jax-md/jax-md/issues/101 (jax_md/partition.py)
# Looks like jax-md#101, but allocation (which needs a concrete capacity) happens once,
# outside any transformation; the vmapped part only fills a buffer whose
# size is a static Python int.
from functools import partial
from typing import NamedTuple

import numpy as onp
import jax.numpy as np
from jax import vmap

batch_size, N, dim = 4, 12, 2
box_size, r_cutoff = 4.0, 1.5


class NeighborList(NamedTuple):
    idx: np.ndarray
    reference_position: np.ndarray


def count_neighbors(R, r_cutoff):
    dR = R[:, None, :] - R[None, :, :]
    d2 = np.sum(dR ** 2, axis=-1)
    return np.sum((d2 < r_cutoff ** 2) & (d2 > 0), axis=1), d2


def _estimate_capacity(R, r_cutoff, buffer_size_multiplier=1.25):
    counts, _ = vmap(count_neighbors, in_axes=(0, None))(R, r_cutoff)
    capacity = onp.max(counts)  # concrete: R is not traced here
    return int(capacity * buffer_size_multiplier)


def update_fn(R, max_occupancy):
    _, d2 = count_neighbors(R, r_cutoff)
    mask = (d2 < r_cutoff ** 2) & (d2 > 0)
    idx = np.where(mask, np.arange(N)[None, :], N)
    idx = np.sort(idx, axis=1)[:, :max_occupancy]
    return NeighborList(idx, R)


rs = onp.random.RandomState(0)
R = np.array(rs.uniform(0.0, box_size, (batch_size, N, dim)), dtype=np.float32)

max_occupancy = _estimate_capacity(R, r_cutoff)
nbrs = vmap(partial(update_fn, max_occupancy=max_occupancy))(R)
print(nbrs.idx.shape, int(np.sum(nbrs.idx < N)))

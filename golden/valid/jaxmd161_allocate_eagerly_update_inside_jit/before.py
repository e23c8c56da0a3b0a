"""Look-alike of jax-md#161 after its fix: the neighbor list is allocated once, eagerly
(allocate() sizes the buffer from concrete positions), and the jitted energy only calls
update(), which refills a buffer of fixed capacity."""
from typing import Callable

import jax
import jax.numpy as jnp
from jax import jit, value_and_grad
from jax.scipy.special import erfc
from flax import struct


@struct.dataclass
class NeighborList:
    idx: jnp.ndarray
    reference_position: jnp.ndarray
    did_buffer_overflow: jnp.ndarray
    update_fn: Callable = struct.field(pytree_node=False)

    def update(self, R):
        return self.update_fn(R, self)


def periodic_displacement(box):
    def displacement(Ra, Rb):
        dR = Ra - Rb
        return dR - box * jnp.round(dR / box)
    return displacement


def neighbor_list(displacement_fn, box, r_cutoff):
    def _candidates(R):
        dR = jax.vmap(jax.vmap(displacement_fn, (None, 0)), (0, None))(R, R)
        d = jnp.sqrt(jnp.sum(dR ** 2, axis=-1) + 1e-12)
        N = R.shape[0]
        return (d < r_cutoff) & ~jnp.eye(N, dtype=bool)

    def _fill(mask, capacity):
        N = mask.shape[0]
        # put neighbor indices first, padding with N
        keys = jnp.where(mask, jnp.arange(N)[None, :], N)
        return jnp.sort(keys, axis=1)[:, :capacity]

    def update_fn(R, nbrs):
        mask = _candidates(R)
        capacity = nbrs.idx.shape[1]
        overflow = jnp.max(mask.sum(axis=1)) > capacity
        return NeighborList(_fill(mask, capacity), R, overflow, update_fn)

    def allocate(R, extra_capacity=0):
        mask = _candidates(R)
        capacity = int(jnp.max(mask.sum(axis=1))) + extra_capacity
        return NeighborList(_fill(mask, capacity), R, jnp.array(False), update_fn)

    class NeighborListFns:
        pass

    fns = NeighborListFns()
    fns.allocate = allocate
    fns.update = update_fn
    return fns


box = 4.0
r_cutoff = 2.5
displacement_fn = periodic_displacement(box)
neighbor_list_fn = neighbor_list(displacement_fn, box, r_cutoff)

grid = jnp.stack(jnp.meshgrid(jnp.arange(2.0), jnp.arange(2.0), jnp.arange(2.0)), -1).reshape(-1, 3)
positions = grid * 2.0 + 0.1 * jnp.sin(jnp.arange(24.0)).reshape(8, 3)
Qlocal = jnp.array([1.0, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])
kappa = 1.2


def real_space(positions, neighbor, Qlocal, box, kappa):
    neighbor = neighbor.update(positions)
    idx = neighbor.idx
    N = positions.shape[0]
    safe_idx = jnp.where(idx < N, idx, 0)
    dR = jax.vmap(jax.vmap(displacement_fn, (None, 0)))(positions, positions[safe_idx])
    mask = idx < N
    dr = jnp.sqrt(jnp.where(mask, jnp.sum(dR ** 2, axis=-1), 1.0))
    qq = Qlocal[:, None] * Qlocal[safe_idx]
    e = jnp.where(mask, qq * erfc(kappa * dr) / dr, 0.0)
    return 0.5 * jnp.sum(e)


jitted_pme_real_energy_and_force = jit(value_and_grad(real_space))
nbrs = neighbor_list_fn.allocate(positions)
ereal, freal = jitted_pme_real_energy_and_force(positions, nbrs, Qlocal, box, kappa)
print(round(float(ereal), 4))
print(round(float(jnp.abs(freal).sum()), 4))

import jax
import jax.numpy as jnp


def batch_cell_list(positions, cutoff, cell, pbc, batch_ptr, max_neighbors, max_total_cells):
    """Stand-in for nvalchemiops.jax.neighbors.batch_cell_list (it coerces cutoff to float)."""
    cutoff = float(cutoff)
    if cutoff <= 0.0:
        raise ValueError("cutoff must be positive")
    d = positions[:, None, :] - positions[None, :, :]
    r = jnp.sqrt(jnp.sum(d * d, axis=-1) + 1e-12)
    n = positions.shape[0]
    mask = (r < cutoff) & ~jnp.eye(n, dtype=bool)
    num_neighbors = mask.sum(axis=1)
    idx = jnp.argsort(~mask, axis=1)[:, :max_neighbors]
    return jnp.where(jnp.take_along_axis(mask, idx, axis=1), idx, n), num_neighbors


pos = jnp.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [7.0, 0.0, 0.0]], jnp.float32)
cell = (jnp.eye(3, dtype=jnp.float32) * 10.0)[None]
batch_ptr = jnp.array([0, 3], jnp.int32)


@jax.jit
def build(cutoff):
    return batch_cell_list(pos, cutoff, cell=cell, pbc=jnp.ones((1, 3), bool),
                           batch_ptr=batch_ptr, max_neighbors=8, max_total_cells=64)


nbr_matrix, num_neighbors = build(jnp.asarray(5.0, jnp.float32))
print(num_neighbors)

# Looks like https://github.com/jax-ml/jax/issues/7542, with the bound given as size=2
# Neighbour table of a ring lattice: column indices of the ones in each row of
# a 0/1 adjacency matrix (every site has exactly two neighbours).
import numpy as np
import jax
import jax.numpy as jnp

L = 6
x = np.zeros((L, L), dtype=np.int32)
for i in range(L):
    x[i, (i - 1) % L] = x[i, (i + 1) % L] = 1

# NumPy reference
print(np.apply_along_axis(np.where, 1, x).squeeze().tolist())


def neighbour_table(adj):
    # jnp.apply_along_axis vmaps func1d over the rows
    return jnp.stack(jnp.apply_along_axis(jnp.where, 1, adj, size=2)).squeeze()


@jax.jit
def ising_energy(spins, nbrs):
    return -0.5 * jnp.sum(spins[:, None] * spins[nbrs])


nbrs = neighbour_table(x)
print(nbrs.tolist())
spins = jnp.array([1, 1, -1, -1, 1, -1])
print(float(ising_energy(spins, nbrs)))

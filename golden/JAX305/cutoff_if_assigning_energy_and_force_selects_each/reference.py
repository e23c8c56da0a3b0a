import jax
import jax.numpy as jnp


class PairPotential:
    def __init__(self, epsilon, sigma, cutoff):
        self.epsilon = epsilon
        self.sigma = sigma
        self.cutoff = cutoff

    def energy_and_force(self, r):
        sr6 = (self.sigma / r) ** 6
        inside = r < self.cutoff
        energy = jnp.where(inside, 4.0 * self.epsilon * (sr6 ** 2 - sr6), 0.0)
        force = jnp.where(inside, 24.0 * self.epsilon * (2.0 * sr6 ** 2 - sr6) / r, 0.0)
        return energy, force


lj = PairPotential(1.0, 1.0, 2.5)
distances = jnp.linspace(0.9, 3.0, 8)
energies, forces = jax.vmap(lj.energy_and_force)(distances)
print(energies.round(4), forces.round(4))

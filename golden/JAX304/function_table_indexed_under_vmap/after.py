# jax#5261: each particle has a potential, picked from a list of functions by
# a per-particle integer. Under vmap the index is a tracer, and a Python list
# needs a concrete int to index it.
import jax
import jax.numpy as jnp


def harmonic(r):
    return 0.5 * r**2


def quartic(r):
    return 0.25 * r**4


POTENTIALS = [harmonic, quartic, lambda r: jnp.cosh(r) - 1.0]


def energy(kind, r):
    return jax.lax.switch(kind, POTENTIALS, r)


kinds = jnp.array([0, 1, 2, 1])
radii = jnp.array([1.0, 2.0, 0.5, 1.5])
print(jax.vmap(energy)(kinds, radii))
print(float(jax.jit(jax.vmap(energy))(kinds, radii).sum()))

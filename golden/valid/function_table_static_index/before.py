# Look-alike of jax#5261 that works: the list of functions is indexed by a
# Python int (a static argument, and a Python loop), never by a tracer.
from functools import partial

import jax
import jax.numpy as jnp


def harmonic(r):
    return 0.5 * r**2


def quartic(r):
    return 0.25 * r**4


POTENTIALS = [harmonic, quartic]


@partial(jax.jit, static_argnums=0)
def energy(kind, r):
    return POTENTIALS[kind](r)


@jax.jit
def total(r):
    return sum(POTENTIALS[k](r) for k in range(len(POTENTIALS)))


radii = jnp.array([1.0, 2.0])
print(energy(1, radii), total(radii))

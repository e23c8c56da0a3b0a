# galax-style composite gravitational potential: the mapping of component
# potentials is passed to a jitted kernel as a static argument.
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as xp
from frozendict import frozendict

G = 4.498502151469554e-12  # kpc^3 / (Msun Myr^2)


class ImmutableDict(Mapping):
    """Hashable, read-only mapping (usable as a static jit argument)."""

    def __init__(self, *args, **kwargs):
        self._data = dict(*args, **kwargs)

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def __hash__(self):
        return hash(tuple(self._data.items()))

    def __or__(self, other):
        return type(self)({**self._data, **dict(other)})


@dataclass(frozen=True)
class KeplerPotential:
    m: float

    def potential_energy(self, q, t):
        return -G * self.m / xp.linalg.norm(q, axis=-1)


@dataclass(frozen=True)
class NFWPotential:
    m: float
    r_s: float

    def potential_energy(self, q, t):
        r = xp.linalg.norm(q, axis=-1)
        return -G * self.m / r * xp.log(1.0 + r / self.r_s)


@partial(jax.jit, static_argnames=("components",))
def _composite_potential_energy(components, q, t):
    return sum(p.potential_energy(q, t) for p in components.values())


class CompositePotential:
    def __init__(self, **potentials):
        self._data = dict(potentials)

    def potential_energy(self, q, t):
        return _composite_potential_energy(frozendict(self._data), q, t)


pot = CompositePotential(bulge=KeplerPotential(m=1e10), halo=NFWPotential(m=1e12, r_s=15.0))
q = xp.array([[8.0, 0.0, 0.0], [0.0, 20.0, 1.0]])
print([round(float(e) * 1e3, 4) for e in pot.potential_energy(q, 0.0)])

from dataclasses import dataclass
from typing import Tuple, Union

from jax import jit
from jax import numpy as jnp
from jax.tree_util import register_pytree_node_class

Number = Union[float, int]


@dataclass(frozen=True)
class Domain:
    N: Tuple[int, ...]
    dx: Tuple[float, ...]


@register_pytree_node_class
class Medium:
    domain: Domain
    sound_speed: Number = 1.0
    density: Number = 1.0
    attenuation: Number = 0.0
    pml_size: Number = 20.0

    def __init__(self, domain, sound_speed=1.0, density=1.0, attenuation=0.0, pml_size=20):
        self.domain = domain
        self.sound_speed = sound_speed
        self.density = density
        self.attenuation = attenuation
        self.pml_size = pml_size

    def tree_flatten(self):
        children = (self.sound_speed, self.density, self.attenuation)
        aux = (self.domain, self.pml_size)
        return (children, aux)

    @classmethod
    def tree_unflatten(cls, aux, children):
        sound_speed, density, attenuation = children
        pml_size = aux[1]
        domain = aux[0]
        a = cls(domain, sound_speed, density, attenuation, pml_size)
        return a


def td_pml_on_grid(medium: Medium, dt: float, exponent=4.0, alpha_max=2.0,
                   c0=1.0, dx=1.0, coord_shift=0.0) -> jnp.ndarray:
    x_right = ((jnp.arange(1, medium.pml_size+1, 1) + coord_shift) / medium.pml_size)
    x_left = ((jnp.arange(medium.pml_size, 0, -1) - coord_shift) / medium.pml_size)
    x_right = x_right ** exponent
    x_left = x_left ** exponent

    alpha_left = jnp.exp(alpha_max * (-1) * x_left * dt * c0 / 2 / dx)
    alpha_right = jnp.exp(alpha_max * (-1) * x_right * dt * c0 / 2 / dx)
    _alpha_left = jnp.expand_dims(alpha_left, -1)
    _alpha_right = jnp.expand_dims(alpha_right, -1)

    pml_shape = tuple(list(medium.domain.N) + [len(medium.domain.N)])
    pml = jnp.ones(pml_shape)
    pml = pml.at[:medium.pml_size, :, 0].set(_alpha_left)
    pml = pml.at[-medium.pml_size:, :, 0].set(_alpha_right)
    pml = pml.at[:, :medium.pml_size, 1].set(alpha_left)
    pml = pml.at[:, -medium.pml_size:, 1].set(alpha_right)
    return pml


@jit
def run_simulation(p0, medium):
    dt = 0.3 * medium.domain.dx[0] / jnp.max(medium.sound_speed)
    pml = td_pml_on_grid(medium, dt, c0=1500.0, dx=medium.domain.dx[0])
    p = p0
    for _ in range(10):
        p = p * pml[..., 0] * pml[..., 1]
    return p


domain = Domain(N=(64, 64), dx=(0.1e-3, 0.1e-3))
medium = Medium(domain=domain, sound_speed=jnp.full(domain.N, 1500.0),
                density=1000.0, pml_size=10)
p0 = jnp.zeros(domain.N).at[32, 32].set(1.0).at[2, 2].set(1.0)
p = run_simulation(p0, medium)
print("centre:", p[32, 32], "inside pml:", p[2, 2])

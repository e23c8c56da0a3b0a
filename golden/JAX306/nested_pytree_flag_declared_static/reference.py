"""jax-gcm's surface fluxes, cut to the stability flag: a bool kept in a nested parameters pytree."""
import dataclasses

import jax
import jax.numpy as jnp
from jax import jit


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class SurfaceFluxParameters:
    fstab: jnp.ndarray   # Amplitude of stability correction (fraction)
    lscasym: bool   # true : use an asymmetric stability coefficient

    @classmethod
    def default(cls):
        return SurfaceFluxParameters(fstab=jnp.array(0.67), lscasym=True)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Parameters:
    surface_flux: SurfaceFluxParameters


@jit
def stability_correction(dtheta, parameters: Parameters):
    astab = jax.lax.cond(parameters.surface_flux.lscasym, lambda: 0.5, lambda: 1.0)
    return 1.0 + parameters.surface_flux.fstab * jnp.tanh(astab * dtheta)


params = Parameters(surface_flux=SurfaceFluxParameters.default())
print(stability_correction(jnp.linspace(-3.0, 3.0, 4), params))

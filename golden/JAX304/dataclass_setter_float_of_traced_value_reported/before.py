import dataclasses
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp

eta0 = 376.730313668
eps0 = 8.8541878128e-12


@dataclass(frozen=True)
class SimulationConfig:
    resolution: float
    time_step_duration: float
    dtype: Any = jnp.float32


@dataclass(frozen=True)
class PerfectlyMatchedLayer:
    axis: int
    direction: str
    thickness: int = 10
    sigma_start: float = 0.0
    sigma_end: Any = None
    sigma_order: float = 3.0
    _config: Any = None

    def aset(self, name, value):
        return dataclasses.replace(self, **{name: value})

    def place_on_grid(self, config):
        self = self.aset("_config", config)

        if self.sigma_end is None:
            pml_thickness = self.thickness * self._config.resolution
            sigma_end_calculated = -(self.sigma_order + 1) * jnp.log(1e-6) / (2 * (eta0 / 1.0) * pml_thickness)
            self = self.aset("sigma_end", float(sigma_end_calculated))

        return self

    def _compute_pml_profile(self, start, end, order, dtype):
        x = (jnp.arange(self.thickness, dtype=dtype) + 0.5) / self.thickness
        return start + (end - start) * x ** order

    def attenuation(self):
        sigma = self._compute_pml_profile(self.sigma_start, self.sigma_end, self.sigma_order, self._config.dtype)
        return jnp.exp(-sigma * self._config.time_step_duration / eps0)


@jax.jit
def absorb(field, resolution):
    config = SimulationConfig(resolution=resolution, time_step_duration=resolution / 6e8)
    pml = PerfectlyMatchedLayer(axis=0, direction="-").place_on_grid(config)
    return field[: pml.thickness] * pml.attenuation()


field = jnp.ones(32)
out = absorb(field, 50e-9)
print("attenuated:", [round(v, 4) for v in out.tolist()])

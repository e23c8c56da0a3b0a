# Looks like waymax#14 (a loop over a property of a jitted state), but the property is computed
# from the trajectory's shape alone: metadata, a Python int while tracing, so range() has its count.
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class SimulatorState:
    log_trajectory: jax.Array
    timestep: jax.Array

    @property
    def num_timesteps(self):
        return self.log_trajectory.shape[1]


@jax.jit
def replay(state):
    total = jnp.float32(0.0)
    for t in range(state.num_timesteps):
        total = total + state.log_trajectory[:, t].sum()
    return total


log = jnp.arange(24.0).reshape(3, 4, 2)
print(float(replay(SimulatorState(log_trajectory=log, timestep=jnp.array(1)))))

# Cut down from https://github.com/waymo-research/waymax/issues/14
# Replaying the logged trajectory to the end of a scenario inside jax.jit.
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class SimulatorState:
    log_trajectory: jax.Array  # (num_objects, num_timesteps, 2)
    sim_trajectory: jax.Array  # (num_objects, num_timesteps, 2)
    timestep: jax.Array

    @property
    def remaining_timesteps(self):
        return self.log_trajectory.shape[1] - 1 - self.timestep


def update_state_by_log(state: SimulatorState, num_steps: int) -> SimulatorState:
    t = state.timestep + num_steps
    pos = jax.lax.dynamic_index_in_dim(state.log_trajectory, t, axis=1, keepdims=True)
    sim = jax.lax.dynamic_update_slice_in_dim(state.sim_trajectory, pos, t, axis=1)
    return state.replace(sim_trajectory=sim, timestep=t)


@jax.jit
def benchmark(state):
    state = jax.lax.fori_loop(0, state.remaining_timesteps, lambda _, state: update_state_by_log(state, num_steps=1), state)
    return state


log = jnp.stack([jnp.arange(12.0).reshape(3, 4), 0.5 * jnp.arange(12.0).reshape(3, 4)], axis=-1)
scenario = SimulatorState(log_trajectory=log, sim_trajectory=jnp.zeros_like(log),
                          timestep=jnp.array(1))
state = benchmark(scenario)
print(int(state.timestep), float(state.sim_trajectory.sum()))

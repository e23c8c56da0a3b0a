# Cut down from climate-analytics-lab/jax-gcm, jcm/model.py at the parent of commit
# 6e6ff4e ("Fix static argnums").  The dinosaur dycore, physics and boundary data are
# replaced by a tiny relaxation model; Model.run_from_state / resume keep the original shape.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:  # stand-in for dinosaur.primitive_equations.State (a tree_math struct)
    temperature: jax.Array
    sim_time: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class BoundaryData:  # stand-in for jcm.boundaries.BoundaryData
    sst: jax.Array


class Model:
    def __init__(self, time_step=30.0):
        self.dt_minutes = time_step  # model time step in minutes
        self._final_modal_state = State(temperature=jnp.full((4, 8), 250.0), sim_time=jnp.array(0.0))

    def _create_step_fn(self, boundaries: BoundaryData):
        def step_fn(state):
            relax = (boundaries.sst - state.temperature) / (5.0 * 24 * 60)
            return State(state.temperature + self.dt_minutes * relax,
                         state.sim_time + self.dt_minutes * 60.0)
        return step_fn

    @partial(jax.jit, static_argnums=(0, 3, 4))  # Note: will not recompile if model fields change
    def run_from_state(self,
                       initial_state: State,
                       boundaries: BoundaryData,
                       save_interval=10.0,
                       total_time=120.0,
    ):
        step_fn = self._create_step_fn(boundaries)

        inner_steps = int(save_interval / (self.dt_minutes / (24 * 60)))
        outer_steps = int(total_time / save_interval)
        times = save_interval * jnp.arange(outer_steps)

        def outer(state, _):
            state = jax.lax.fori_loop(0, inner_steps, lambda i, s: step_fn(s), state)
            return state, state.temperature.mean()

        final_modal_state, predictions = jax.lax.scan(outer, initial_state, None, length=outer_steps)
        return final_modal_state, (predictions, times)

    def resume(self, boundaries: BoundaryData = None, save_interval=10.0, total_time=120.0):
        final_modal_state, predictions = self.run_from_state(
            initial_state=self._final_modal_state,
            boundaries=boundaries,
            save_interval=save_interval,
            total_time=total_time
        )
        self._final_modal_state = final_modal_state
        return predictions


model = Model(time_step=30.0)
boundaries = BoundaryData(sst=jnp.full((4, 8), 290.0))
mean_t, times = model.resume(boundaries=boundaries, save_interval=1.0, total_time=5.0)
print(times, mean_t)

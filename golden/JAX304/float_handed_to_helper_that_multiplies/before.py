# Cut down from blackjax-devs/blackjax#1029 ("chees_adaptation: float() on a traced
# step_size makes mass_matrix_estimation unusable under jit").
# blackjax is not installed: this is a minimal stand-in for the tail of
# `chees_adaptation(...).run` (the final trajectory-length floor), with
# `_apply_length_floor` copied in cut-down form from blackjax/adaptation/chees_adaptation.py.
from typing import NamedTuple

import jax
import jax.numpy as jnp

CHEES_LENGTH_FLOOR_FACTOR = 1.0  # stand-in value


class ChEESAdaptationState(NamedTuple):
    log_step_size_moving_average: jax.Array
    log_trajectory_length_moving_average: jax.Array


def _apply_length_floor(
    trajectory_length,
    lambda_max,
    engaged,
    enable: bool,
    max_leapfrog_steps: int = 1000,
    step_size: float = 0.1,
):
    if not enable:
        return trajectory_length, jnp.asarray(False)

    floor_value = jnp.where(
        engaged, CHEES_LENGTH_FLOOR_FACTOR * jnp.sqrt(lambda_max), 0.0
    )
    cap = max_leapfrog_steps * step_size
    floored_length = jnp.maximum(trajectory_length, floor_value)
    consumed_length = jnp.minimum(floored_length, cap)
    floor_clipped_by_cap = jnp.logical_and(
        jnp.logical_and(engaged, enable), floor_value > cap
    )
    return consumed_length, floor_clipped_by_cap


def chees_adaptation(max_leapfrog_steps=1000, mass_matrix_estimation=None, _length_floor=True):
    estimate_mass_matrix = mass_matrix_estimation == "diagonal"
    enable_length_floor = estimate_mass_matrix and _length_floor

    def run(last_adaptation_state, lambda_max, final_engaged):
        if enable_length_floor:
            trajectory_length_ma = jnp.exp(
                last_adaptation_state.log_trajectory_length_moving_average
            )
            step_size_ma = jnp.exp(last_adaptation_state.log_step_size_moving_average)
            consumed_trajectory_length_ma, floor_clipped_by_cap = _apply_length_floor(
                trajectory_length_ma,
                lambda_max,
                final_engaged,
                _length_floor,
                max_leapfrog_steps,
                float(step_size_ma),
            )
            num_leapfrog_steps = consumed_trajectory_length_ma / step_size_ma
        else:
            num_leapfrog_steps = jnp.exp(
                last_adaptation_state.log_trajectory_length_moving_average
                - last_adaptation_state.log_step_size_moving_average
            )
            floor_clipped_by_cap = jnp.asarray(False)
        parameters = {
            "step_size": jnp.exp(last_adaptation_state.log_step_size_moving_average),
            "integration_steps_params": (num_leapfrog_steps,),
        }
        return parameters, floor_clipped_by_cap

    return run


state = ChEESAdaptationState(jnp.log(jnp.array(0.5)), jnp.log(jnp.array(1.0)))
for max_leapfrog_steps in (100, 4):
    run = chees_adaptation(max_leapfrog_steps, mass_matrix_estimation="diagonal")
    parameters, clipped = jax.jit(run)(state, jnp.array(9.0), jnp.array(True))
    print(
        round(float(parameters["step_size"]), 4),
        round(float(parameters["integration_steps_params"][0]), 4),
        bool(clipped),
    )

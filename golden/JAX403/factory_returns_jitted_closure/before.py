# Cut down from rlouf/mcx#58: a factory returns a jitted closure whose array arguments
# are marked static.
from functools import partial
from typing import Callable, Tuple

import jax
from jax import numpy as np


def leapfrog(potential):
    grad_fn = jax.grad(potential)

    def step(position, momentum, step_size):
        momentum = momentum - 0.5 * step_size * grad_fn(position)
        position = position + step_size * momentum
        momentum = momentum - 0.5 * step_size * grad_fn(position)
        return position, momentum

    return step


def longest_batch_before_turn(integrator_step: Callable) -> Callable:
    @partial(jax.jit, static_argnums=(0, 1, 2, 3))
    def run(
        initial_position,
        initial_momentum,
        step_size: float,
        num_integration_steps: int,
    ):
        def cond(state: Tuple) -> bool:
            iteration, position, momentum = state
            is_u_turn = np.dot(momentum, position - initial_position) < 0
            return (iteration < num_integration_steps) & ~is_u_turn

        def update(state: Tuple) -> Tuple:
            iteration, position, momentum = state
            iteration += 1
            position, momentum = integrator_step(position, momentum, step_size)
            return (iteration, position, momentum)

        result = jax.lax.while_loop(
            cond, update, (0, initial_position, initial_momentum)
        )
        return result[0]

    return run


potential = lambda x: 0.5 * np.sum(x ** 2)
run = longest_batch_before_turn(leapfrog(potential))
n = run(np.array([1.0, 0.5]), np.array([0.2, -0.1]), 0.1, 100)
print(int(n))

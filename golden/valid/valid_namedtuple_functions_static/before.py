# The fixed form of jax#953: the NamedTuple of optimizer functions is static on the jit, and a
# NamedTuple of arrays beside it is an ordinary pytree argument, traced leaf by leaf.
from typing import Any, Callable, NamedTuple

import jax.numpy as jnp
from jax import grad, jit
from jax.example_libraries import optimizers


class Optimizer(NamedTuple):
    init: Callable[[Any], Any]
    update: Callable[[int, Any, Any], Any]
    get: Callable[[Any], Any]


class Target(NamedTuple):
    center: Any
    weight: Any


def loss(params, target):
    return jnp.sum(target.weight * (params - target.center) ** 2)


def episode(optimizer: Optimizer, params, target: Target, num_steps: int = 5):
    state = optimizer.init(params)
    for i in range(num_steps):
        state = optimizer.update(i, grad(loss)(optimizer.get(state), target), state)
    return optimizer.get(state)


optimizer = Optimizer(*optimizers.adam(step_size=1e-1))
target = Target(jnp.array([1.0, -2.0, 0.5]), jnp.array([1.0, 2.0, 0.5]))
params = jit(episode, static_argnums=0)(optimizer, jnp.zeros(3), target)
print([round(float(p), 4) for p in params])

# Cut down from jax-ml/jax#953
# ("Improved error messages and documentation regarding what can/cannot be `jit`ed").
# `jax.experimental.optimizers` now lives at `jax.example_libraries.optimizers`;
# the body of `ddpg_episode` (elided in the report) is a small stand-in.
from typing import Any, Callable, NamedTuple, TypeVar

import jax.numpy as jnp
from jax import grad, jit
from jax.example_libraries import optimizers

OptState = TypeVar("OptState")

class Optimizer(NamedTuple):
  init: Callable[[Any], OptState]
  update: Callable[[int, Any, OptState], OptState]
  get: Callable[[OptState], Any]

def critic_loss(params):
  return jnp.sum((params - jnp.array([1.0, -2.0, 0.5])) ** 2)

def ddpg_episode(
    optimizer: Optimizer,
    params,
    num_steps: int = 5,
):
  opt_state = optimizer.init(params)
  for i in range(num_steps):
    g = grad(critic_loss)(optimizer.get(opt_state))
    opt_state = optimizer.update(i, g, opt_state)
  params = optimizer.get(opt_state)
  return params, critic_loss(params)

optimizer = Optimizer(*optimizers.adam(step_size=1e-1))
params, loss = jit(ddpg_episode)(
    optimizer,
    jnp.zeros(3),
)
print([round(float(p), 4) for p in params], round(float(loss), 4))

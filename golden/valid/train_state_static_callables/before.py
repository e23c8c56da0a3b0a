# Inspired by flax/training/train_state.py: the TrainState dataclass carries
# non-array members (apply_fn, tx) marked struct.field(pytree_node=False), so
# the whole state can be passed to jax.jit as an ordinary (traced) argument.
# Here a custom state adds an extra static callable the same way.
from typing import Callable

import jax
import jax.numpy as jnp
import optax
import flax.linen as nn
from flax import struct
from flax.training import train_state


class TrainState(train_state.TrainState):
  loss_fn: Callable = struct.field(pytree_node=False)


class Model(nn.Module):
  @nn.compact
  def __call__(self, x):
    return nn.Dense(1)(x)


def mse(preds, targets):
  return jnp.mean((preds - targets) ** 2)


@jax.jit
def train_step(state, x, y):
  def loss(params):
    return state.loss_fn(state.apply_fn({'params': params}, x), y)
  l, grads = jax.value_and_grad(loss)(state.params)
  return state.apply_gradients(grads=grads), l


model = Model()
x = jnp.linspace(0., 1., 8).reshape(8, 1)
y = 2. * x + 1.
params = model.init(jax.random.PRNGKey(0), x)['params']
state = TrainState.create(apply_fn=model.apply, params=params,
                          tx=optax.sgd(0.5), loss_fn=mse)
losses = []
for _ in range(5):
  state, l = train_step(state, x, y)
  losses.append(round(float(l), 4))
print("step:", int(state.step))
print("losses:", losses)

# Cut down from google/flax#1495 ("... cannot be hashed -> doesn't work with
# jax.jit static_argnums"): a train_step that is generic over the network
# receives the Flax module itself as a static argument. This model keeps its
# layer widths in a list attribute.
import functools
from typing import Sequence

import jax
import jax.numpy as jnp
import optax
import flax.linen as nn


class MLP(nn.Module):
  features: Sequence[int]

  @nn.compact
  def __call__(self, x):
    for feat in self.features[:-1]:
      x = nn.relu(nn.Dense(feat)(x))
    x = nn.Dense(self.features[-1])(x)
    return x


tx = optax.sgd(0.1)


@functools.partial(jax.jit, static_argnums=0)
def train_step(model, params, opt_state, batch):
  def loss_fn(params):
    preds = model.apply(params, batch['x'])
    return jnp.mean((preds - batch['y']) ** 2)
  loss, grads = jax.value_and_grad(loss_fn)(params)
  updates, opt_state = tx.update(grads, opt_state)
  params = optax.apply_updates(params, updates)
  return params, opt_state, loss


model = MLP((12, 8, 4))
batch = {'x': jnp.linspace(-1., 1., 40).reshape(4, 10),
         'y': jnp.zeros((4, 4))}
params = model.init(jax.random.PRNGKey(0), batch['x'])
opt_state = tx.init(params)
for _ in range(3):
  params, opt_state, loss = train_step(model, params, opt_state, batch)
print('loss: %.4f' % loss)

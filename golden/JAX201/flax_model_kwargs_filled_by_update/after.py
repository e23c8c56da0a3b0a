import functools

import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn
from jax import random
from frozendict import frozendict


class TransformerEncoder(nn.Module):
  vocab_size: int
  emb_dim: int
  mlp_dim: int
  num_classes: int
  classifier: bool = True

  @nn.compact
  def __call__(self, inputs):
    x = nn.Embed(self.vocab_size, self.emb_dim)(inputs.astype(jnp.int32))
    x = nn.Dense(self.mlp_dim)(x)
    x = nn.relu(x)
    if self.classifier:
      x = x.mean(axis=1)
    return nn.Dense(self.num_classes)(x)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, flax_module, input_shape, model_kwargs):
  """Creates and initializes the model."""
  module = flax_module(**model_kwargs)
  initial_params = module.init(key, jnp.ones(input_shape, jnp.float32))
  return initial_params


model_kwargs = {}
model_kwargs.update({
    'vocab_size': 16,
    'emb_dim': 8,
    'mlp_dim': 12,
    'classifier': True,
    'num_classes': 10
})

rng = random.PRNGKey(0)
rng, init_rng = random.split(rng)
input_shape = (2, 5)
params = create_model(init_rng, TransformerEncoder, input_shape, frozendict(model_kwargs))
n_params = sum(int(np.prod(p.shape)) for p in jax.tree_util.tree_leaves(params))
print(n_params)

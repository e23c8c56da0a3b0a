from functools import partial
from typing import Dict, Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct
from flax.training.train_state import TrainState
from jaxtyping import PRNGKeyArray


class BatchNormMLP(nn.Module):
  mlp_dim: int
  out_dim: int

  @nn.compact
  def __call__(self, x: jax.Array, train: bool) -> jax.Array:
    x = nn.Dense(self.mlp_dim)(x)
    x = nn.BatchNorm(use_running_average=not train, momentum=0.99)(x)
    x = nn.relu(x)
    x = nn.Dense(self.out_dim)(x)
    return x


class WorldModel(struct.PyTreeNode):
  value_model: TrainState
  batch_stats: Dict
  action_dim: int = struct.field(pytree_node=False)
  latent_dim: int = struct.field(pytree_node=False)

  @classmethod
  def create(cls, action_dim: int, latent_dim: int, mlp_dim: int,
             key: PRNGKeyArray) -> 'WorldModel':
    value_module = BatchNormMLP(mlp_dim, 1)
    variables = value_module.init(
        key, jnp.zeros((1, latent_dim + action_dim)), train=False)
    value_model = TrainState.create(
        apply_fn=value_module.apply,
        params=variables['params'],
        tx=optax.adam(1e-3))
    return cls(value_model=value_model,
               batch_stats=variables['batch_stats'],
               action_dim=action_dim,
               latent_dim=latent_dim)

  @partial(jax.jit, static_argnames=('train',))
  def Q(self, z: jax.Array, a: jax.Array, params: Dict, key: PRNGKeyArray,
        train: bool) -> Tuple[jax.Array, Dict]:
    z = jnp.concatenate([z, a], axis=-1)
    Q, updates = self.value_model.apply_fn(
        {'params': params, 'batch_stats': self.batch_stats}, z, train=train,
        rngs={'dropout': key}, mutable=['batch_stats'])
    return Q, updates


key = jax.random.PRNGKey(0)
model_key, z_key, a_key, q_key = jax.random.split(key, 4)
world_model = WorldModel.create(action_dim=2, latent_dim=6, mlp_dim=16,
                                key=model_key)
z = jax.random.normal(z_key, (4, 6))
a = jax.random.uniform(a_key, (4, 2), minval=-1, maxval=1)

Q, updates = world_model.Q(z, a, world_model.value_model.params, q_key, True)
print(np.round(np.asarray(Q, dtype=np.float64), 4).tolist())
Q, _ = world_model.Q(z, a, world_model.value_model.params, q_key, False)
print(np.round(np.asarray(Q, dtype=np.float64), 4).tolist())

from typing import Mapping, Sequence

from flax import linen as nn
import jax
from jax import random
import jax.numpy as jnp
import optax


class NerfModel(nn.Module):
  """Nerf NN Model (cut down)."""
  embeddings_dict: Mapping[str, Sequence[int]]
  near: float
  far: float
  nerf_trunk_width: int = 16
  num_coarse_samples: int = 8
  warp_embed_key: str = 'warp'

  @property
  def num_warp_embeds(self):
    return max(self.embeddings_dict[self.warp_embed_key]) + 1

  def setup(self):
    self.warp_embed = nn.Embed(num_embeddings=self.num_warp_embeds, features=4)
    self.trunk = nn.Dense(self.nerf_trunk_width)
    self.head = nn.Dense(4)

  def __call__(self, origins, directions, metadata):
    t = jnp.linspace(self.near, self.far, self.num_coarse_samples)
    points = origins[:, None, :] + t[None, :, None] * directions[:, None, :]
    embed = self.warp_embed(metadata[self.warp_embed_key])
    embed = jnp.broadcast_to(embed[:, None, :], points.shape[:2] + (4,))
    raw = self.head(nn.relu(self.trunk(jnp.concatenate([points, embed], -1))))
    rgb, sigma = nn.sigmoid(raw[..., :3]), nn.softplus(raw[..., 3])
    weights = sigma / (jnp.sum(sigma, axis=-1, keepdims=True) + 1e-6)
    return jnp.sum(weights[..., None] * rgb, axis=-2)


def train_step(model, optimizer, params, opt_state, batch):
  def loss_fn(params):
    rgb = model.apply(params, batch['origins'], batch['directions'], batch['metadata'])
    return jnp.mean((rgb - batch['rgb']) ** 2)
  loss, grads = jax.value_and_grad(loss_fn)(params)
  grads = jax.lax.pmean(grads, axis_name='batch')
  updates, opt_state = optimizer.update(grads, opt_state, params)
  params = optax.apply_updates(params, updates)
  return params, opt_state, jax.lax.pmean(loss, axis_name='batch')


def main():
  rng = random.PRNGKey(0)
  embeddings_dict = {'warp': [0, 1, 2, 3], 'appearance': [0, 1, 2, 3]}
  model = NerfModel(embeddings_dict=embeddings_dict, near=0.5, far=2.0)
  optimizer = optax.adam(1e-2)

  k1, k2, k3 = random.split(rng, 3)
  batch = {
      'origins': random.normal(k1, (8, 3)),
      'directions': random.normal(k2, (8, 3)),
      'metadata': {'warp': jnp.arange(8) % 4},
      'rgb': random.uniform(k3, (8, 3)),
  }
  params = model.init(rng, batch['origins'], batch['directions'], batch['metadata'])
  opt_state = optimizer.init(params)

  n_local_devices = jax.local_device_count()
  replicate = lambda tree: jax.tree.map(lambda x: jnp.stack([x] * n_local_devices), tree)
  shard = lambda tree: jax.tree.map(lambda x: x.reshape((n_local_devices, -1) + x.shape[1:]), tree)
  params, opt_state, pbatch = replicate(params), replicate(opt_state), shard(batch)

  ptrain_step = jax.pmap(
      train_step,
      axis_name='batch',
      # model and optimizer are compile-time static.
      static_broadcasted_argnums=(0, 1),
  )
  for step in range(3):
    params, opt_state, loss = ptrain_step(model, optimizer, params, opt_state, pbatch)
    print('step', step, 'loss', round(float(loss[0]), 5))


if __name__ == '__main__':
  main()

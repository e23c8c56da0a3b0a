from typing import Mapping, Sequence
from functools import partial
from flax import linen as nn
import jax
import jax.numpy as jnp


class NerfModel(nn.Module):
  embeddings_dict: Mapping[str, Sequence[int]]
  near: float

  @nn.compact
  def __call__(self, x):
    n = 4 if self.embeddings_dict['warp'] == [0, 1, 2, 3] else 2
    return nn.Dense(n)(x) * self.near


@partial(jax.jit, static_argnums=0)
def step(model, params, x):
  return model.apply(params, x)


def main():
  embeddings_dict = {'warp': [0, 1, 2, 3], 'appearance': [0, 1, 2, 3]}
  model = NerfModel(embeddings_dict=embeddings_dict, near=0.5)
  x = jnp.ones((2, 3))
  params = model.init(jax.random.PRNGKey(0), x)
  print(step(model, params, x).sum())


main()

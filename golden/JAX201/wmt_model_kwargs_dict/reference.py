# Hand fix for google/flax#587, as the flax/MLPerf wmt code later did
# (transformer_kwargs = flax.core.FrozenDict({...})): freeze the kwargs where
# they are built; ** unpacking and ['emb_dim'] read a frozen mapping the same way.
import functools

import jax
import jax.numpy as jnp
from immutabledict import immutabledict
from jax import random


def Transformer(key, input_shape, target_shape, vocab_size, output_vocab_size,
                emb_dim, num_heads, num_layers, max_len):
  k1, k2 = random.split(key)
  return {'embed': random.normal(k1, (vocab_size, emb_dim)),
          'logits': random.normal(k2, (emb_dim, output_vocab_size)),
          'pos': jnp.zeros((max_len, emb_dim)),
          'heads': jnp.zeros((num_layers, num_heads, emb_dim // num_heads))}


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
  return functools.partial(Transformer, **model_kwargs)(key, input_shape, target_shape)


def main(batch_size=4, max_target_length=16, vocab_size=32):
  input_shape = (batch_size, max_target_length)
  transformer_kwargs = immutabledict(
      vocab_size=vocab_size, output_vocab_size=vocab_size, emb_dim=8,
      num_heads=2, num_layers=2, max_len=max_target_length)
  model = create_model(random.PRNGKey(0), input_shape, input_shape,
                       transformer_kwargs)
  return {k: v.shape for k, v in model.items()}, transformer_kwargs['emb_dim']


print(main())

# Cut down from google/flax#587 ("example/wmt broken by passing dict as static arg
# to jitted function"): create_model marks model_kwargs static, and main() hands
# it the transformer_kwargs dict; the dict is also read later for the LR schedule.
import functools

import jax
import jax.numpy as jnp
from jax import random
from frozendict import frozendict


def Transformer(key, input_shape, target_shape, vocab_size, output_vocab_size,
                emb_dim, num_heads, num_layers, max_len):
  k1, k2 = random.split(key)
  return {'embed': random.normal(k1, (vocab_size, emb_dim)),
          'logits': random.normal(k2, (emb_dim, output_vocab_size)),
          'pos': jnp.zeros((max_len, emb_dim)),
          'heads': jnp.zeros((num_layers, num_heads, emb_dim // num_heads))}


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
  """Instantiate transformer model and associated autoregressive cache def."""
  model_def = functools.partial(Transformer, **model_kwargs)
  return model_def(key, input_shape, target_shape)


def main(batch_size=4, max_target_length=16, vocab_size=32):
  input_shape = (batch_size, max_target_length)
  target_shape = (batch_size, max_target_length)
  transformer_kwargs = frozendict({
      'vocab_size': vocab_size,
      'output_vocab_size': vocab_size,
      'emb_dim': 8,
      'num_heads': 2,
      'num_layers': 2,
      'max_len': max_target_length,
  })
  model = create_model(random.PRNGKey(0), input_shape, target_shape,
                       transformer_kwargs)
  hidden_size = transformer_kwargs['emb_dim']
  return {k: v.shape for k, v in model.items()}, hidden_size


print(main())

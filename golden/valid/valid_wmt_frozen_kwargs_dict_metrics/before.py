# The fixed form of google/flax#587 as the MLPerf wmt code has it
# (transformer_kwargs = flax.core.FrozenDict({...}), tuple(input_shape)), here
# with frozendict; a plain dict of metrics still goes into a jitted step, but as
# a traced pytree argument, not a static one.
import functools

import jax
import jax.numpy as jnp
from frozendict import frozendict
from jax import random


def Transformer(key, input_shape, target_shape, vocab_size, emb_dim, max_len):
  return {'embed': random.normal(key, (vocab_size, emb_dim)),
          'pos': jnp.zeros((max_len, emb_dim))}


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
  model_def = functools.partial(Transformer, **model_kwargs)
  return model_def(key, input_shape, target_shape)


@jax.jit
def train_step(model, batch, metrics):
  loss = jnp.mean(model['embed'][batch] ** 2)
  return {'loss': metrics['loss'] + loss,
          'denominator': metrics['denominator'] + batch.size}


def main(batch_size=4, max_target_length=16, vocab_size=32):
  input_shape = [batch_size, max_target_length]
  transformer_kwargs = frozendict({
      'vocab_size': vocab_size,
      'emb_dim': 8,
      'max_len': max_target_length,
  })
  model = create_model(random.PRNGKey(0), tuple(input_shape),
                       tuple(input_shape), transformer_kwargs)
  empty_metrics = {'loss': 0.0, 'denominator': 0}
  batch = jnp.arange(batch_size * max_target_length).reshape(input_shape) % vocab_size
  metrics = train_step(model, batch, empty_metrics)
  return round(float(metrics['loss']), 4), int(metrics['denominator'])


print(main())

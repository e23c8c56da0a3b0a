from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ModelConfig(NamedTuple):
    vocab_size: int
    d_model: int


class TopPGenerationConfig(NamedTuple):
    top_p: float
    max_length: int


def _loop_body_top_p(params, seq, key, model_config, top_p_config):
    logits = params[seq[-1]][: model_config.vocab_size]
    probs = jax.nn.softmax(logits)
    sorted_probs = jnp.sort(probs)[::-1]
    cutoff = sorted_probs[jnp.sum(jnp.cumsum(sorted_probs) < top_p_config.top_p)]
    logits = jnp.where(probs >= cutoff, logits, -jnp.inf)
    token = jax.random.categorical(key, logits)
    return jnp.concatenate([seq, token[None]])


@partial(jax.jit, static_argnames=('model_config',))
def top_p(params, seq, *, key, model_config, top_p_config):
    for _ in range(top_p_config.max_length - seq.shape[0]):
        key, subkey = jax.random.split(key)
        seq = _loop_body_top_p(params, seq, subkey, model_config, top_p_config)
    return seq


config = ModelConfig(vocab_size=7, d_model=4)
top_p_config = TopPGenerationConfig(top_p=0.9, max_length=8)
params = jnp.cos(jnp.arange(49.0)).reshape(7, 7) * 3.0
seq = jnp.array([1, 2], dtype=jnp.int32)
generated_seq = top_p(params, seq, key=jax.random.PRNGKey(0), model_config=config, top_p_config=top_p_config)
print(generated_seq.tolist())

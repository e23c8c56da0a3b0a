# Autoregressive decoding with the lm1b/wmt-style AddPositionEmbs module
# (google/flax#1258): slice sizes for lax.dynamic_slice built with jnp.array.
import dataclasses
from typing import Any, Callable, Optional

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from flax import linen as nn
from flax import struct


@struct.dataclass
class TransformerConfig:
    vocab_size: int = 16
    emb_dim: int = 8
    max_len: int = 12
    posemb_init: Optional[Callable] = None
    decode: bool = False


def sinusoidal_init(max_len=2048, min_scale=1.0, max_scale=10000.0):
    def init(key, shape, dtype=np.float32):
        del key, dtype
        d_feature = shape[-1]
        pe = np.zeros((max_len, d_feature), dtype=np.float32)
        position = np.arange(0, max_len)[:, np.newaxis]
        scale_factor = -np.log(max_scale / min_scale) / (d_feature // 2 - 1)
        div_term = min_scale * np.exp(np.arange(0, d_feature // 2) * scale_factor)
        pe[:, :d_feature // 2] = np.sin(position * div_term)
        pe[:, d_feature // 2: 2 * (d_feature // 2)] = np.cos(position * div_term)
        pe = pe[np.newaxis, :, :]  # [1, max_len, d_feature]
        return jnp.array(pe)
    return init


class AddPositionEmbs(nn.Module):
    config: TransformerConfig
    decode: bool = False

    @nn.compact
    def __call__(self, inputs, inputs_positions=None):
        cfg = self.config
        assert inputs.ndim == 3
        length = inputs.shape[1]
        pos_emb_shape = (1, cfg.max_len, inputs.shape[-1])
        if cfg.posemb_init is None:
            pos_embedding = sinusoidal_init(max_len=cfg.max_len)(None, pos_emb_shape, None)
        else:
            pos_embedding = self.param('pos_embedding', cfg.posemb_init, pos_emb_shape)
        pe = pos_embedding[:, :length, :]

        # We use a cache position index for tracking decoding position.
        if self.decode:
            is_initialized = self.has_variable('cache', 'cache_index')
            cache_index = self.variable('cache', 'cache_index',
                                        lambda: jnp.array(0, dtype=jnp.uint32))
            if is_initialized:
                i = cache_index.value
                cache_index.value = i + 1
                _, _, df = pos_embedding.shape
                pe = lax.dynamic_slice(pos_embedding,
                                       jnp.array((0, i, 0)),
                                       (1, 1, df))
        if inputs_positions is None:
            return inputs + pe
        return inputs + jnp.take(pe[0], inputs_positions, axis=0)


class TinyDecoder(nn.Module):
    config: TransformerConfig

    @nn.compact
    def __call__(self, tokens):
        cfg = self.config
        x = nn.Embed(cfg.vocab_size, cfg.emb_dim)(tokens)
        x = AddPositionEmbs(cfg, decode=cfg.decode)(x)
        return nn.Dense(cfg.vocab_size)(x)


cfg = TransformerConfig()
decode_cfg = dataclasses.replace(cfg, decode=True)
model = TinyDecoder(decode_cfg)

tokens = jnp.zeros((2, cfg.max_len), jnp.int32)
variables = model.init(jax.random.PRNGKey(0), tokens)
params, cache = variables['params'], variables['cache']


@jax.jit
def decode_step(params, cache, tok):
    logits, new_vars = model.apply({'params': params, 'cache': cache}, tok,
                                   mutable=['cache'])
    return logits, new_vars['cache']


tok = jnp.ones((2, 1), jnp.int32)
outs = []
for _ in range(4):
    logits, cache = decode_step(params, cache, tok)
    tok = jnp.argmax(logits, axis=-1).astype(jnp.int32)
    outs.append(logits[:, 0, :].sum())

print("logit sums:", [round(float(o), 4) for o in outs])
print("cache index:", int(cache['AddPositionEmbs_0']['cache_index']))

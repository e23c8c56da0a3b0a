# Cut down from https://github.com/AakashKumarNain/mistral_jax/issues/1
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class Attention(eqx.Module):
    n_heads: int
    n_kv_heads: int
    kv_repeats: int

    def __init__(self, n_heads, n_kv_heads):
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.kv_repeats = self.n_heads // self.n_kv_heads

    @partial(jax.jit, static_argnums=(2, 3))
    def get_cache_slice(self, x, pos, kv_repeats):
        x_slice = x.at[:pos, :, :].get()
        x_slice = jnp.repeat(x_slice, kv_repeats, axis=1)
        return x_slice

    def __call__(self, xq, positions, cache_k):
        if positions.shape[0] > 1:
            key = jnp.repeat(cache_k, self.kv_repeats, axis=1)
        else:
            # single-token generation
            cur_pos = positions[-1].item() + 1
            key = self.get_cache_slice(cache_k, cur_pos, self.kv_repeats)
        scores = jnp.einsum("hd,khd->hk", xq, key)
        return scores.sum()


model = Attention(n_heads=4, n_kv_heads=2)
cache_k = jnp.ones((2, 8, 2, 3))  # (batch, sliding_window, n_kv_heads, head_dim)
xq = jnp.ones((2, 4, 3))

vmapped_model = eqx.filter_vmap(eqx.filter_jit(model), in_axes=(0, None, 0))
pos = jnp.array([4])
out = vmapped_model(xq, pos, cache_k)
print([int(v) for v in out])

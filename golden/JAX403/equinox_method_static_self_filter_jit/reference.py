from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class Encoder(eqx.Module):
    layers: list
    latent: int

    def __init__(self, widths, key):
        keys = jax.random.split(key, len(widths) - 1)
        self.layers = [jax.random.normal(k, (o, i)) * 0.3 for k, i, o in zip(keys, widths[:-1], widths[1:])]
        self.latent = widths[-1]

    @eqx.filter_jit
    def encode(self, x):
        for w in self.layers:
            x = jnp.tanh(w @ x)
        return x.reshape(1, self.latent)


enc = Encoder((3, 5, 2), jax.random.PRNGKey(1))
print(enc.encode(jnp.ones(3)).round(4).tolist())

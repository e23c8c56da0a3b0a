import equinox as eqx
import jax
import jax.numpy as jnp


class Decoder(eqx.Module):
    layers: list
    out_len: int

    def __init__(self, widths, key):
        keys = jax.random.split(key, len(widths) - 1)
        self.layers = [jax.random.normal(k, (o, i)) * 0.3 for k, i, o in zip(keys, widths[:-1], widths[1:])]
        self.out_len = widths[-1]

    def __call__(self, z):
        for w in self.layers:
            z = jnp.tanh(w @ z)
        return z.reshape(self.out_len, 1)

    __call__ = jax.jit(__call__, static_argnums=0)


decoder = Decoder((2, 4, 3), jax.random.PRNGKey(2))
print(decoder(jnp.ones(2)).round(4).tolist())

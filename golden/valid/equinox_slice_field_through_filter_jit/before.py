import equinox as eqx
import jax
import jax.numpy as jnp


class ChannelRenderer(eqx.Module):
    channel_map: slice = eqx.field(static=True)

    def __init__(self, start, stop):
        self.channel_map = slice(start, stop)

    def __call__(self, model):
        return model[self.channel_map]


@eqx.filter_jit
def log_likelihood(model, data, renderer):
    return -0.5 * jnp.sum((renderer(model) - data) ** 2)


renderer = ChannelRenderer(1, 4)
model = jnp.arange(20.0).reshape(5, 4)
print(float(log_likelihood(model, jnp.ones((3, 4)), renderer)))

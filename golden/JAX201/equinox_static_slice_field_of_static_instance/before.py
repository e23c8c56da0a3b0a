from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


class ChannelRenderer(eqx.Module):
    channel_map: slice = eqx.field(static=True)

    def __init__(self, model_channels, obs_channels):
        start = model_channels.index(obs_channels[0])
        stop = model_channels.index(obs_channels[-1]) + 1
        self.channel_map = slice(start, stop)

    def __call__(self, model):
        return model[self.channel_map]


class Observation(eqx.Module):
    data: jax.Array
    weights: jax.Array
    renderer: ChannelRenderer

    def log_likelihood(self, model):
        return _log_likelihood(model, self.data, self.weights, self.renderer)


@partial(jax.jit, static_argnames="renderer")
def _log_likelihood(model, data, weights, renderer):
    return -0.5 * jnp.sum(weights * (renderer(model) - data) ** 2)


model_channels = ["g", "r", "i", "z", "y"]
obs_channels = ["r", "i", "z"]
renderer = ChannelRenderer(model_channels, obs_channels)

model = jr.uniform(jr.PRNGKey(0), (5, 4, 4))
obs = Observation(data=jnp.ones((3, 4, 4)), weights=jnp.full((3, 4, 4), 2.0), renderer=renderer)

print("log L:", round(float(obs.log_likelihood(model)), 4))
print("grad sum:", round(float(jax.grad(obs.log_likelihood)(model).sum()), 4))

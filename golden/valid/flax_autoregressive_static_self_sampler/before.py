# Cut down from https://github.com/ml-jku/DIffUCO/issues/13
from functools import partial

import jax
import jax.numpy as jnp
from flax import linen as nn


class AutoregressiveNN(nn.Module):
    grid_size: int
    features: int = 16

    @nn.compact
    def __call__(self, x):
        L = self.grid_size
        x = x.reshape((x.shape[0], L * L))
        x = nn.Dense(features=self.features)(x)
        x = nn.relu(x)
        x = nn.Dense(features=2)(x)
        return nn.log_softmax(x)

    @partial(jax.jit, static_argnums=(0,))
    def logprobs(self, sample, params):
        batch_size, num_spins = sample.shape
        xhat = jnp.zeros((batch_size, num_spins, 2))
        x = jnp.zeros((batch_size, num_spins))
        for i in range(num_spins):
            prob = self.apply(params, x)
            x = x.at[:, i].set(sample[:, i])
            xhat = xhat.at[:, i, 0].set(prob[:, 0])
            xhat = xhat.at[:, i, 1].set(prob[:, 1])
        return xhat

    def generate_sample_step(self, carry, x):
        s, s2, params, key, epsilon = carry
        i = x
        x_hat = self.apply(params, s[..., 0])
        clipped_log_prob_x_hat = jnp.clip(x_hat, jnp.log(epsilon), jnp.log(1 - epsilon))
        key, subkey = jax.random.split(key)
        sampled_value = jax.random.bernoulli(subkey, jnp.exp(clipped_log_prob_x_hat[:, 0])) * 2 - 1
        s = s.at[:, i, 0].set(sampled_value)
        s2 = s2.at[:, i, 0].set(jnp.squeeze(clipped_log_prob_x_hat[:, 0]))
        s2 = s2.at[:, i, 1].set(jnp.squeeze(clipped_log_prob_x_hat[:, 1]))
        return (s, s2, params, key, epsilon), s

    @partial(jax.jit, static_argnums=(0, 1, 2))
    def generate_sample(self, N, batch_size, params, key, epsilon):
        s = jnp.zeros((batch_size, N, 1), dtype=jnp.int32)
        s2 = jnp.zeros((batch_size, N, 2))
        init_carry = (s, s2, params, key, epsilon)
        (s, s2, _, _, _), sample_list = jax.lax.scan(self.generate_sample_step, init_carry, jnp.arange(0, N))
        return s[..., 0], s2


model = AutoregressiveNN(grid_size=3)
params = model.init(jax.random.PRNGKey(0), jnp.zeros((1, 9)))
spins, log_probs = model.generate_sample(9, 4, params, jax.random.PRNGKey(1), 1e-7)
xhat = model.logprobs(spins.astype(jnp.float32), params)
print(spins.shape, xhat.shape, int(jnp.abs(spins).sum()))

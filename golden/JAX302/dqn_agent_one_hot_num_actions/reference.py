# Cut down from a Dopamine-style JAX DQN agent whose jitted train step
# one-hot encodes the replayed actions.
import functools

import jax
import jax.numpy as jnp
import numpy as onp


class NatureDQNNetwork:
    def __init__(self, num_actions, hidden=8):
        self.num_actions = num_actions
        self.hidden = hidden

    def init(self, key, obs_dim):
        k1, k2 = jax.random.split(key)
        return {"w1": jax.random.normal(k1, (obs_dim, self.hidden)) * 0.3,
                "w2": jax.random.normal(k2, (self.hidden, self.num_actions)) * 0.3}

    def apply(self, params, x):
        return jnp.tanh(x @ params["w1"]) @ params["w2"]


@functools.partial(jax.jit, static_argnums=(0, 4))
def train(network_def, online_params, target_params, replay_elements,
          num_actions, cumulative_gamma, learning_rate):
  """Run a training step."""
  def loss_fn(params, target):
    q_values = network_def.apply(params, replay_elements['state'])
    replay_action_one_hot = jax.nn.one_hot(replay_elements['action'], num_actions)
    replay_chosen_q = jnp.sum(q_values * replay_action_one_hot, axis=1)
    return jnp.mean(jnp.square(replay_chosen_q - target))

  q_next = network_def.apply(target_params, replay_elements['next_state'])
  target = jax.lax.stop_gradient(
      replay_elements['reward'] +
      cumulative_gamma * jnp.max(q_next, axis=1) * (1. - replay_elements['terminal']))
  loss, grad = jax.value_and_grad(loss_fn)(online_params, target)
  online_params = jax.tree.map(lambda p, g: p - learning_rate * g, online_params, grad)
  return online_params, loss


class JaxDQNAgent:
  def __init__(self, num_actions, obs_dim=3, gamma=0.99, update_horizon=1, seed=0):
    self.num_actions = num_actions
    self.cumulative_gamma = gamma ** update_horizon
    self.network_def = NatureDQNNetwork(num_actions=num_actions)
    self.online_params = self.network_def.init(jax.random.PRNGKey(seed), obs_dim)
    self.target_network_params = self.online_params
    self._rng = onp.random.default_rng(seed)
    self.obs_dim = obs_dim

  def _sample_from_replay_buffer(self, batch_size=4):
    return {
        'state': jnp.asarray(self._rng.normal(size=(batch_size, self.obs_dim)), jnp.float32),
        'action': jnp.asarray(self._rng.integers(0, self.num_actions, size=batch_size)),
        'reward': jnp.asarray(self._rng.normal(size=batch_size), jnp.float32),
        'next_state': jnp.asarray(self._rng.normal(size=(batch_size, self.obs_dim)), jnp.float32),
        'terminal': jnp.asarray(self._rng.integers(0, 2, size=batch_size), jnp.float32),
    }

  def _train_step(self):
    replay_elements = self._sample_from_replay_buffer()
    self.online_params, loss = train(self.network_def,
                                     self.online_params,
                                     self.target_network_params,
                                     replay_elements,
                                     self.num_actions,
                                     self.cumulative_gamma,
                                     0.1)
    return loss


agent = JaxDQNAgent(num_actions=3)
losses = [float(agent._train_step()) for _ in range(3)]
print(onp.round(onp.asarray(losses, dtype=onp.float64), 4).tolist())

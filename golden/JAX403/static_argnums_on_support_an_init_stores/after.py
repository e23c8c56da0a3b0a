"""Compact Rainbow (C51) training step for a Cartpole-sized problem.

The flax.nn RainbowNetwork / nn.Model / flax.optim pair used by the agent is
replaced by a small equinox MLP and a flax.struct optimizer wrapper around
optax.adam, and the replay buffer by random transitions.
"""
import collections
import functools
from typing import Any

import equinox as eqx
import flax
import jax
import jax.numpy as jnp
import optax


RainbowNetworkType = collections.namedtuple(
    'c51_network', ['q_values', 'logits', 'probabilities'])


def softmax_cross_entropy_loss_with_logits(labels, logits):
  return -jnp.sum(labels * jax.nn.log_softmax(logits))


class CartpoleRainbowNetwork(eqx.Module):
  """Jax Rainbow network for Cartpole."""
  hidden: eqx.nn.Linear
  out: eqx.nn.Linear
  support: jax.Array
  num_actions: int = eqx.field(static=True)
  num_atoms: int = eqx.field(static=True)

  def __init__(self, key, obs_dim, num_actions, num_atoms, support):
    k1, k2 = jax.random.split(key)
    self.hidden = eqx.nn.Linear(obs_dim, 64, key=k1)
    self.out = eqx.nn.Linear(64, num_actions * num_atoms, key=k2)
    self.support = support
    self.num_actions = num_actions
    self.num_atoms = num_atoms

  def __call__(self, x):
    # We need to add a "batch dimension", yet vmap will have removed the
    # true batch dimension.
    x = x[None, ...]
    x = x.astype(jnp.float32)
    x = x.reshape((x.shape[0], -1))  # flatten
    x = jax.nn.relu(jax.vmap(self.hidden)(x))
    x = jax.vmap(self.out)(x)
    logits = x.reshape((x.shape[0], self.num_actions, self.num_atoms))
    probabilities = jax.nn.softmax(logits)
    support = jax.lax.stop_gradient(self.support)
    q_values = jnp.sum(support * probabilities, axis=2)
    return RainbowNetworkType(q_values, logits, probabilities)


@flax.struct.dataclass
class Optimizer:
  """Minimal stand-in for flax.optim.Optimizer (target + optimizer state)."""
  target: Any
  state: Any
  tx: Any = flax.struct.field(pytree_node=False)

  def apply_gradient(self, grads):
    updates, state = self.tx.update(grads, self.state, self.target)
    return self.replace(target=optax.apply_updates(self.target, updates),
                        state=state)


def create_optimizer(target, learning_rate=6.25e-5, eps=1.5e-4):
  tx = optax.adam(learning_rate, eps=eps)
  return Optimizer(target=target, state=tx.init(target), tx=tx)


@functools.partial(jax.jit, static_argnums=(8,))
def train(target_network, optimizer, states, actions, next_states, rewards,
          terminals, support, cumulative_gamma):
  """Run a training step."""
  def loss_fn(model, target, mean_loss=True):
    logits = jax.vmap(model)(states).logits
    logits = jnp.squeeze(logits)
    # Fetch the logits for its selected action. We use vmap to perform this
    # indexing across the batch.
    chosen_action_logits = jax.vmap(lambda x, y: x[y])(logits, actions)
    loss = jax.vmap(softmax_cross_entropy_loss_with_logits)(
        target,
        chosen_action_logits)
    if mean_loss:
      loss = jnp.mean(loss)
    return loss
  grad_fn = jax.value_and_grad(loss_fn)
  target = target_distribution(target_network,
                               next_states,
                               rewards,
                               terminals,
                               support,
                               cumulative_gamma)
  mean_loss, grad = grad_fn(optimizer.target, target)
  # Get the loss without taking its mean.
  loss = loss_fn(optimizer.target, target, mean_loss=False)
  optimizer = optimizer.apply_gradient(grad)
  return optimizer, loss, mean_loss


@functools.partial(jax.vmap, in_axes=(None, 0, 0, 0, None, None))
def target_distribution(target_network, next_states, rewards, terminals,
                        support, cumulative_gamma):
  """Builds the C51 target distribution as per Bellemare et al. (2017)."""
  is_terminal_multiplier = 1. - terminals.astype(jnp.float32)
  # Incorporate terminal state to discount factor.
  gamma_with_terminal = cumulative_gamma * is_terminal_multiplier
  target_support = rewards + gamma_with_terminal * support
  next_state_target_outputs = target_network(next_states)
  q_values = jnp.squeeze(next_state_target_outputs.q_values)
  next_qt_argmax = jnp.argmax(q_values)
  probabilities = jnp.squeeze(next_state_target_outputs.probabilities)
  next_probabilities = probabilities[next_qt_argmax]
  return jax.lax.stop_gradient(
      project_distribution(target_support, next_probabilities, support))


def project_distribution(supports, weights, target_support):
  """Projects a batch of (support, weights) onto target_support."""
  v_min, v_max = target_support[0], target_support[-1]
  # `N` in Eq7.
  num_dims = target_support.shape[0]
  # delta_z = `\Delta z` in Eq7.
  delta_z = (v_max - v_min) / (num_dims - 1)
  # clipped_support = `[\hat{T}_{z_j}]^{V_max}_{V_min}` in Eq7.
  clipped_support = jnp.clip(supports, v_min, v_max)
  # numerator = `|clipped_support - z_i|` in Eq7.
  numerator = jnp.abs(clipped_support - target_support[:, None])
  quotient = 1 - (numerator / delta_z)
  # clipped_quotient = `[1 - numerator / (\Delta z)]_0^1` in Eq7.
  clipped_quotient = jnp.clip(quotient, 0, 1)
  # inner_prod = `\sum_{j=0}^{N-1} clipped_quotient * p_j(x', \pi(x'))` in Eq7.
  inner_prod = clipped_quotient * weights
  return jnp.squeeze(jnp.sum(inner_prod, -1))


class JaxRainbowAgent:
  """A compact implementation of a simplified Rainbow agent."""

  def __init__(self, num_actions=2, observation_dim=4, num_atoms=51,
               vmin=None, vmax=10., gamma=0.99, update_horizon=1, seed=0):
    # We need this because some tools convert round floats into ints.
    vmax = float(vmax)
    self._num_atoms = num_atoms
    # If vmin is not specified, set it to -vmax similar to C51.
    vmin = vmin if vmin else -vmax
    self._support = jnp.linspace(vmin, vmax, num_atoms)
    self.cumulative_gamma = gamma ** update_horizon
    self._rng = jax.random.PRNGKey(seed)
    self._rng, key = jax.random.split(self._rng)
    online_network = CartpoleRainbowNetwork(
        key, observation_dim, num_actions, num_atoms, self._support)
    self.optimizer = create_optimizer(online_network)
    self.target_network = online_network

  def _train_step(self, replay_elements):
    self.optimizer, loss, mean_loss = train(
        self.target_network,
        self.optimizer,
        replay_elements['state'],
        replay_elements['action'],
        replay_elements['next_state'],
        replay_elements['reward'],
        replay_elements['terminal'],
        self._support,
        self.cumulative_gamma)
    return mean_loss


def sample_replay(key, batch_size=32, observation_dim=4, num_actions=2):
  ks = jax.random.split(key, 5)
  return {
      'state': jax.random.normal(ks[0], (batch_size, observation_dim)),
      'action': jax.random.randint(ks[1], (batch_size,), 0, num_actions),
      'next_state': jax.random.normal(ks[2], (batch_size, observation_dim)),
      'reward': jax.random.uniform(ks[3], (batch_size,)),
      'terminal': jax.random.bernoulli(ks[4], 0.1, (batch_size,)),
  }


def main():
  agent = JaxRainbowAgent()
  key = jax.random.PRNGKey(42)
  for step in range(50):
    key, sub = jax.random.split(key)
    mean_loss = agent._train_step(sample_replay(sub))
    if step % 10 == 0:
      print(f'step {step}: cross-entropy loss {float(mean_loss):.4f}')


if __name__ == '__main__':
  main()

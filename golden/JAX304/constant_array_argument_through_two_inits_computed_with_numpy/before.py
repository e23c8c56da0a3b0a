# Roll out an expert (log-replay) agent with a discretized action space inside
# jax.lax.scan.  The Discretizer / DiscreteActionSpaceWrapper classes are trimmed copies
# of waymax.dynamics.discretizer; a tiny bicycle-style model and a synthetic logged
# trajectory stand in for waymax's InvertibleBicycleModel and the Waymo Open Dataset.
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

DT = 0.1


class BoundedArray(NamedTuple):  # stand-in for dm_env.specs.BoundedArray
    shape: tuple
    dtype: object
    minimum: object
    maximum: object


class Trajectory(NamedTuple):
    x: jax.Array  # (num_objects, num_timesteps)
    y: jax.Array
    yaw: jax.Array
    speed: jax.Array


class Action(NamedTuple):
    data: jax.Array
    valid: jax.Array


class InvertibleBicycleModel:
    """Acceleration / steering-curvature model (stand-in)."""

    def action_spec(self):
        return BoundedArray(shape=(2,), dtype=np.float32,
                            minimum=np.array([-6.0, -0.3]), maximum=np.array([6.0, 0.3]))

    def compute_update(self, action, trajectory, timestep):
        accel, curvature = action.data[..., 0], action.data[..., 1]
        speed = trajectory.speed[:, timestep] + accel * DT
        yaw = trajectory.yaw[:, timestep] + curvature * speed * DT
        x = trajectory.x[:, timestep] + speed * jnp.cos(yaw) * DT
        y = trajectory.y[:, timestep] + speed * jnp.sin(yaw) * DT
        return x, y, yaw, speed

    def inverse(self, trajectory, timestep):
        speed0 = trajectory.speed[:, timestep]
        speed1 = trajectory.speed[:, timestep + 1]
        accel = (speed1 - speed0) / DT
        curvature = (trajectory.yaw[:, timestep + 1] - trajectory.yaw[:, timestep]) / (
            jnp.maximum(speed1, 1e-2) * DT)
        data = jnp.stack([accel, curvature], axis=-1)
        return Action(data=data, valid=jnp.ones(data.shape[:-1] + (1,), bool))


class Discretizer:
  """Discretizes continuous values into a 1-dimensional array."""

  def __init__(
      self, min_value: jax.Array, max_value: jax.Array, bins: jax.Array
  ) -> None:
    if min_value.shape != max_value.shape and min_value.shape != bins.shape:
      raise ValueError('Shapes do not match.')
    self._mins = min_value
    self._maxs = max_value
    self._bins = bins
    self._shift = min_value
    self._scale = bins / (max_value - min_value)
    self._max_discrete_idx = jnp.prod(self._bins + 1) - 1

  def discretize(self, values: jax.Array) -> jax.Array:
    if values.shape[-1] != self._mins.shape[-1]:
      raise ValueError('Input value shape does not match bin shape.')
    normalized_indices = (values - self._shift) * self._scale
    indices_nd = jnp.rint(
        jnp.maximum(jnp.minimum(normalized_indices, self._bins), 0)
    ).astype(jnp.int32)
    indices_1d = jnp.ravel_multi_index(
        jnp.split(indices_nd, self._bins.shape[0], -1),
        self._bins + 1,
        mode='clip',
    )
    return indices_1d

  def make_continuous(self, indices_1d: jax.Array) -> jax.Array:
    indices_nd = jnp.stack(
        jnp.unravel_index(jnp.reshape(indices_1d, [-1]), self._bins + 1),
        axis=-1,
    )
    indices_nd = jnp.reshape(
        indices_nd, list(indices_1d.shape[:-1]) + [self._bins.shape[-1]]
    )
    values = indices_nd.astype(jnp.float32)
    return values / self._scale + self._shift


class DiscreteActionSpaceWrapper:
  """Discrete action version of any dynamics model."""

  def __init__(self, dynamics_model, bins: jax.Array) -> None:
    self._bins = bins
    self._num_bins = int(jnp.prod(bins + 1))
    self._cont_dynamics_model = dynamics_model
    self._discretizer = Discretizer(
        min_value=jnp.asarray(self._cont_dynamics_model.action_spec().minimum),
        max_value=jnp.asarray(self._cont_dynamics_model.action_spec().maximum),
        bins=bins,
    )

  def action_spec(self):
    return BoundedArray(
        shape=(1,), dtype=jnp.int32, minimum=[0], maximum=[self._num_bins - 1]
    )

  def compute_update(self, action, trajectory, timestep):
    actions_cont = Action(
        data=self._discretizer.make_continuous(action.data),
        valid=action.valid,
    )
    return self._cont_dynamics_model.compute_update(actions_cont, trajectory, timestep)

  def inverse(self, trajectory, timestep):
    action_cont = self._cont_dynamics_model.inverse(trajectory, timestep)
    return Action(
        data=self._discretizer.discretize(action_cont.data),
        valid=action_cont.valid,
    )


# ---- synthetic "logged" scenario: 4 objects driving for 12 steps ----
num_objects, num_steps = 4, 12
key = jax.random.PRNGKey(0)
speed = 5.0 + jnp.cumsum(0.2 * jax.random.normal(key, (num_objects, num_steps)), axis=1)
yaw = jnp.cumsum(0.01 * jax.random.normal(jax.random.PRNGKey(1), (num_objects, num_steps)), axis=1)
x = jnp.cumsum(speed * jnp.cos(yaw) * DT, axis=1)
y = jnp.cumsum(speed * jnp.sin(yaw) * DT, axis=1)
log_trajectory = Trajectory(x=x, y=y, yaw=yaw, speed=speed)

# ---- user code ----
dynamics_model = InvertibleBicycleModel()
action_space_dim = jnp.ones(dynamics_model.action_spec().shape, dtype=jnp.int32)
dynamics_model = DiscreteActionSpaceWrapper(
    dynamics_model=dynamics_model,
    bins=128 * jnp.array(action_space_dim)
)


def expert_step(sim_trajectory, timestep):
    # expert actor: infer the logged action and apply it to the simulated trajectory
    action = dynamics_model.inverse(log_trajectory, timestep)
    x, y, yaw, speed = dynamics_model.compute_update(action, sim_trajectory, timestep)
    sim_trajectory = Trajectory(
        x=sim_trajectory.x.at[:, timestep + 1].set(x),
        y=sim_trajectory.y.at[:, timestep + 1].set(y),
        yaw=sim_trajectory.yaw.at[:, timestep + 1].set(yaw),
        speed=sim_trajectory.speed.at[:, timestep + 1].set(speed),
    )
    return sim_trajectory, action.data


sim_trajectory, actions = jax.lax.scan(
    expert_step, log_trajectory, jnp.arange(num_steps - 1)
)
print("discrete actions:", actions[:, :, 0])
print("max position error:", jnp.max(jnp.abs(sim_trajectory.x - log_trajectory.x)))

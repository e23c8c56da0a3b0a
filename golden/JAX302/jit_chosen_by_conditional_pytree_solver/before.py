# Adapted from ott/solvers/linear/continuous_barycenter.py (WassersteinBarycenter).
from typing import NamedTuple, Optional
import jax
import jax.numpy as jnp


class BarycenterProblem(NamedTuple):
  flattened_y: jnp.ndarray
  flattened_b: jnp.ndarray


class BarycenterState(NamedTuple):
  costs: Optional[jnp.ndarray] = None
  x: Optional[jnp.ndarray] = None
  a: Optional[jnp.ndarray] = None


@jax.tree_util.register_pytree_node_class
class WassersteinBarycenter:
  def __init__(self, max_iterations: int = 5, jit: bool = True):
    self.max_iterations = max_iterations
    self.jit = jit

  def tree_flatten(self):
    return (), (self.max_iterations, self.jit)

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(*aux_data)

  def __call__(self, bar_prob, bar_size: int = 100, x_init=None, rng: int = 0) -> BarycenterState:
    run_fn = jax.jit(iterations) if self.jit else iterations
    return run_fn(self, bar_size, bar_prob, x_init, rng)

  def init_state(self, bar_prob, bar_size: int, x_init=None, rng: int = 0) -> BarycenterState:
    if x_init is not None:
      x = x_init
    else:
      indices_subset = jax.random.choice(
          jax.random.PRNGKey(rng), a=bar_prob.flattened_y.shape[0], shape=(bar_size,),
          replace=False, p=bar_prob.flattened_b)
      x = bar_prob.flattened_y[indices_subset, :]
    a = jnp.ones((bar_size,)) / bar_size
    return BarycenterState(-jnp.ones((self.max_iterations,)), x, a)


def iterations(solver, bar_size, bar_prob, x_init, rng) -> BarycenterState:
  def body_fn(iteration, state):
    d = jnp.sum((state.x[:, None, :] - bar_prob.flattened_y[None]) ** 2, axis=-1)
    p = jax.nn.softmax(-d, axis=1) * bar_prob.flattened_b
    p = p / p.sum(axis=1, keepdims=True)
    return state._replace(x=p @ bar_prob.flattened_y, costs=state.costs.at[iteration].set(jnp.sum(d * p)))
  state = solver.init_state(bar_prob, bar_size, x_init, rng)
  return jax.lax.fori_loop(0, solver.max_iterations, body_fn, state)


y = jnp.concatenate([jnp.zeros((4, 2)), jnp.ones((4, 2))]) + jnp.arange(8.0)[:, None] * 0.01
prob = BarycenterProblem(y, jnp.ones(8) / 8)
out = WassersteinBarycenter()(prob, bar_size=3)
print(out.x.shape, out.a, jnp.round(out.costs, 3))

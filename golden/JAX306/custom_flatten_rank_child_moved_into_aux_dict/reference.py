"""Reduced from OTT-JAX (ott/core/was_solver.py + ott/core/gromov_wasserstein.py)."""
from typing import Any, NamedTuple, Optional

import jax
import jax.numpy as jnp


# --- minimal stand-ins for ott.core.sinkhorn.Sinkhorn / sinkhorn_lr.LRSinkhorn ---
@jax.tree_util.register_pytree_node_class
class Sinkhorn:
  def __init__(self, epsilon: float = 1e-1, inner_iterations: int = 100):
    self.epsilon = epsilon
    self.inner_iterations = inner_iterations

  def __call__(self, cost, a, b):
    log_k = -cost / self.epsilon

    def body(_, fg):
      f, g = fg
      f = jnp.log(a) - jax.nn.logsumexp(log_k + g[None, :], axis=1)
      g = jnp.log(b) - jax.nn.logsumexp(log_k + f[:, None], axis=0)
      return f, g

    f, g = jax.lax.fori_loop(0, self.inner_iterations, body,
                             (jnp.zeros_like(a), jnp.zeros_like(b)))
    return jnp.exp(f[:, None] + log_k + g[None, :])

  def tree_flatten(self):
    return [], dict(epsilon=self.epsilon, inner_iterations=self.inner_iterations)

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(**aux_data)


@jax.tree_util.register_pytree_node_class
class LRSinkhorn(Sinkhorn):
  def __init__(self, rank: int = 2, epsilon: float = 1e-1, jit: bool = True, **kwargs):
    super().__init__(epsilon=epsilon, **kwargs)
    self.rank = rank

  def tree_flatten(self):
    return [], dict(rank=self.rank, epsilon=self.epsilon,
                    inner_iterations=self.inner_iterations)


class QuadraticProblem(NamedTuple):
  geom_xx: jnp.ndarray
  geom_yy: jnp.ndarray
  a: jnp.ndarray
  b: jnp.ndarray

  def linearize(self, transport):
    # square-loss GW linearisation (up to terms constant in the plan)
    return -2.0 * self.geom_xx @ transport @ self.geom_yy.T


# --- was_solver.py -------------------------------------------------------------
@jax.tree_util.register_pytree_node_class
class WassersteinSolver:
  """A generic solver for problems that use a linear reg-OT pb in inner loop."""

  def __init__(
      self,
      epsilon: Optional[float] = None,
      rank: int = -1,
      linear_ot_solver: Any = None,
      min_iterations: int = 5,
      max_iterations: int = 50,
      threshold: float = 1e-3,
      jit: bool = True,
      store_inner_errors: bool = False,
      **kwargs: Any,
  ):
    default_epsilon = 1.0
    self.epsilon = epsilon if epsilon is not None else default_epsilon
    self.rank = rank
    self.linear_ot_solver = linear_ot_solver
    if self.linear_ot_solver is None:
      if self.is_low_rank:
        if epsilon is None:
          self.linear_ot_solver = LRSinkhorn(rank=self.rank, jit=False, **kwargs)
        else:
          self.linear_ot_solver = LRSinkhorn(
              rank=self.rank, epsilon=self.epsilon, **kwargs
          )
      else:
        self.linear_ot_solver = Sinkhorn(**kwargs)

    self.min_iterations = min_iterations
    self.max_iterations = max_iterations
    self.threshold = threshold
    self.jit = jit
    self.store_inner_errors = store_inner_errors
    self._kwargs = kwargs

  @property
  def is_low_rank(self) -> bool:
    """Whether the solver is low-rank."""
    return self.rank > 0

  def tree_flatten(self):
    return ([self.epsilon, self.linear_ot_solver, self.threshold],
            dict(
                min_iterations=self.min_iterations,
                max_iterations=self.max_iterations,
                jit=self.jit,
                rank=self.rank,
                store_inner_errors=self.store_inner_errors,
                **self._kwargs
            ))

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    epsilon, linear_ot_solver, threshold = children
    return cls(
        epsilon=epsilon,
        linear_ot_solver=linear_ot_solver,
        threshold=threshold,
        **aux_data
    )


# --- gromov_wasserstein.py (simplified) ------------------------------------------
@jax.tree_util.register_pytree_node_class
class GromovWasserstein(WassersteinSolver):

  def __call__(self, prob: QuadraticProblem):
    gromov_fn = jax.jit(iterations) if self.jit else iterations
    return gromov_fn(self, prob)

  def init_state(self, prob: QuadraticProblem):
    if self.is_low_rank:
      raise NotImplementedError("low-rank GW is not part of this reduction")
    transport = prob.a[:, None] * prob.b[None, :]
    return transport


def iterations(solver: GromovWasserstein, prob: QuadraticProblem):
  """Jittable Gromov-Wasserstein outer loop."""

  def body_fn(_, transport):
    if solver.is_low_rank:
      raise NotImplementedError
    cost = prob.linearize(transport)
    return solver.linear_ot_solver(cost, prob.a, prob.b)

  return jax.lax.fori_loop(0, solver.max_iterations, body_fn,
                           solver.init_state(prob))


n, m = 6, 5
x = jax.random.normal(jax.random.PRNGKey(0), (n, 2))
y = jax.random.normal(jax.random.PRNGKey(1), (m, 3))
cxx = jnp.sum((x[:, None] - x[None]) ** 2, -1)
cxx = cxx / cxx.max()
cyy = jnp.sum((y[:, None] - y[None]) ** 2, -1)
cyy = cyy / cyy.max()
prob = QuadraticProblem(cxx, cyy, jnp.ones(n) / n, jnp.ones(m) / m)

solver = GromovWasserstein(epsilon=1.0, max_iterations=10)
plan = solver(prob)
print("plan marginals:", plan.sum(1), plan.sum(0))
print("plan shape:", plan.shape)

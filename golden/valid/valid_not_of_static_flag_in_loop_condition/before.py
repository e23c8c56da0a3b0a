# From google/jaxopt (lbfgs.py after PR #350, "Hot fix: corrected condition in lbfgs").
# The loop condition takes `not` of the static flag only, and combines it with the
# traced state through jnp.logical_or: no tracer is converted to a Python bool.
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class LbfgsState(NamedTuple):
  iter_num: jnp.ndarray
  error: jnp.ndarray
  failed_linesearch: jnp.ndarray


class LBFGS:
  def __init__(self, tol=1e-3, maxiter=10, stop_if_linesearch_fails=False):
    self.tol = tol
    self.maxiter = maxiter
    self.stop_if_linesearch_fails = stop_if_linesearch_fails

  def _cond_fun(self, state):
    # We continue the optimization loop while the error tolerance is not met and,
    # either failed linesearch is disallowed or linesearch hasn't failed.
    return (state.error > self.tol) & jnp.logical_or(not self.stop_if_linesearch_fails, ~state.failed_linesearch)

  def _body_fun(self, state):
    return LbfgsState(state.iter_num + 1, state.error / 2, state.iter_num >= 3)

  def run(self, error):
    init = LbfgsState(jnp.asarray(0), jnp.asarray(error), jnp.asarray(False))
    return lax.while_loop(self._cond_fun, self._body_fun, init)


for stop in (False, True):
  state = LBFGS(stop_if_linesearch_fails=stop).run(1.0)
  print(stop, state.iter_num.tolist(), round(state.error.tolist(), 6))

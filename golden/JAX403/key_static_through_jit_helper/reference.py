from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.stats import norm as multivariate_normal


class MultiNormalDiagFromLogScale():
  """MultiNormalDiag which directly exposes its input parameters."""

  def __init__(self, loc, log_scale):
    self._log_scale = log_scale
    self._scale = jnp.exp(log_scale)
    self._mean = loc
    self._param_shape = jax.lax.broadcast_shapes(
        self._mean.shape, self._scale.shape)

  def sample(self, shape, seed):
    sample_shape = shape + self._param_shape
    return jax.random.normal(
        seed, shape=sample_shape) * self._scale  + self._mean

  def log_prob(self, x):
    log_prob = multivariate_normal.logpdf(x, loc=self._mean, scale=self._scale)
    sum_axis = [-(i +1) for i in range(len(self._param_shape))]
    return jnp.sum(log_prob, axis=sum_axis)


def multi_normal(loc, log_scale):
  return MultiNormalDiagFromLogScale(loc=loc, log_scale=log_scale)


def score_function_jacobians(
    function: Callable[[Any], float],
    params,
    dist_builder: Callable[..., Any],
    rng,
    num_samples: int) -> Sequence[Any]:
  def surrogate(params):
    dist = dist_builder(*params)
    one_sample_surrogate_fn = lambda x: function(x) * dist.log_prob(x)
    samples = jax.lax.stop_gradient(dist.sample((num_samples,), seed=rng))
    return jax.vmap(one_sample_surrogate_fn)(samples)

  return jax.jacfwd(surrogate)(params)


def _estimator_variant(variant, estimator):
  return variant(estimator, static_argnums=(0, 2, 4))


data_dims = 3
num_samples = 10000
rng = jax.random.PRNGKey(1)
mean = 0.5 * jnp.ones(data_dims)
log_scale = 0.0 * jnp.ones(data_dims)

jacobians = _estimator_variant(jax.jit, score_function_jacobians)(
    np.sum, [mean, log_scale], multi_normal, rng, num_samples)
print("mean jacobian shape:", jacobians[0].shape)
print("mean grads:", np.round(np.mean(jacobians[0], axis=0), 1))

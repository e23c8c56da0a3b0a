import jax.numpy as np
from jax import jit, random


def feature_map(n, d, sigma=1.0, seed=123):
  key = random.PRNGKey(seed)
  W = random.normal(key, (d, n)) / sigma
  w = random.normal(key, (d, )) / sigma
  b = 2 * np.pi * random.uniform(key, (d, ))

  phi = lambda x, t: np.sqrt(2.0 / d) * np.cos(np.matmul(W, x) + w*t + b)
  return jit(phi)

phi = feature_map(5, 3)
print(phi(np.ones(5), 0.5))

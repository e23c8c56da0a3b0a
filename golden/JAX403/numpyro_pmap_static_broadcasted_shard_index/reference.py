import jax
jax.config.update("jax_num_cpu_devices", 4)
import jax.numpy as jnp
import numpy as np
from jax import random

rng = np.random.default_rng(0)
data_x = rng.normal(size=(40, 3)).astype(np.float32)
data_y = (data_x @ np.array([1.0, -2.0, 0.5], dtype=np.float32)
          + 0.1 * rng.normal(size=40).astype(np.float32))

n_shards = len(jax.devices())
shards_x = jnp.stack(np.split(data_x, n_shards))
shards_y = jnp.stack(np.split(data_y, n_shards))


def get_samples(X, y, i):
    coef = jnp.linalg.lstsq(X, y)[0]
    return X, y, random.PRNGKey(i), coef


X, y, keys, coefs = jax.pmap(get_samples)(shards_x, shards_y, jnp.arange(n_shards))
print(X.shape, y.shape, keys.tolist())
print(np.round(np.asarray(coefs, dtype=np.float64), 3).tolist())

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
shards_x = np.split(data_x, n_shards)
shards_y = np.split(data_y, n_shards)


def get_samples(i):
    X = shards_x[i]
    y = shards_y[i]
    return X, y, random.PRNGKey(i)


X, y, keys = jax.pmap(get_samples, static_broadcasted_argnums=0)(jnp.arange(len(jax.devices())))
print(X.shape, y.shape, keys.tolist())

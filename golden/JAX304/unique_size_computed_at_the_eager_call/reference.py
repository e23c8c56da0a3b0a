# Cut down from https://github.com/pyro-ppl/numpyro/issues/853
# Varying-intercepts model for the reedfrogs data, written as a plain JAX
# prior-predictive function (numpyro traces the model with the data as arrays).
import numpy as np
import jax
import jax.numpy as jnp
from jax import random

# reedfrogs-like data: 12 tanks, density, size ('small' -> 0, 'big' -> 1)
density = np.array([10, 10, 10, 10, 25, 25, 25, 25, 35, 35, 35, 35])
volume = np.array([0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1])
tank = np.arange(density.shape[0])


def model(key, tank, density, volume, n_volume):
    k1, k2, k3, k4 = random.split(key, 4)
    # priors
    a_bar = 1.5 * random.normal(k1)
    sigma = random.exponential(k2)
    a = a_bar + sigma * random.normal(k3, tank.shape)
    s = 0.5 * random.normal(k4, (n_volume,))
    # likelihood (expected survivors)
    logits = a[tank] + s[volume]
    return density * jax.nn.sigmoid(logits)


surv_hat = jax.jit(model, static_argnames="n_volume")(
    random.PRNGKey(0), tank, density, volume, n_volume=np.unique(volume).size)
print(surv_hat.shape, round(float(surv_hat.sum()), 3))

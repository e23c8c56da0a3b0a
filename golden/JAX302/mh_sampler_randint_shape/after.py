# Cut down from jax-ml/jax#648 ("TypeError: unhashable type: 'JaxprTracer'"): a
# Metropolis-Hastings sampler with the random numbers moved out of the loop and
# the sample array pre-allocated; the number of samples became a parameter.
import jax.numpy as np
from jax import jit, random
from jax.lax import fori_loop
from functools import partial


def energy(x):
    return -np.sum(x[1:] * x[:-1])


@partial(jit, static_argnames=("n_samps", "N"))
def sample(key, n_samps, N):
    key, subkey1, subkey2 = random.split(key, 3)
    flips = random.randint(subkey1, (n_samps,), 0, N)
    us = random.uniform(subkey2, (n_samps,))
    samples = np.zeros((n_samps, N))

    def body(i, carry):
        x, samples = carry
        x_new = x.at[flips[i]].multiply(-1.)
        accept = us[i] < np.exp(energy(x) - energy(x_new))
        x = np.where(accept, x_new, x)
        return x, samples.at[i].set(x)

    _, samples = fori_loop(0, n_samps, body, (np.ones(N), samples))
    return samples


N = 6
key = random.PRNGKey(1)
n_samps = 10
print(sample(key, n_samps, N).mean(axis=0))

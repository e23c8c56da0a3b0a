# jax-ml/jax#648's shape: a jitted sampler with a static count, called from a jit where the count is traced.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def sample(key, n):
    return jax.random.randint(key, (n,), 0, 10)


@partial(jax.jit, static_argnames=("n",))
def batch_mean(key, n):
    return sample(key, n).mean()


print(batch_mean(jax.random.PRNGKey(0), 4))

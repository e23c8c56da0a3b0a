# Cut down from jax-ml/jax#5013 ("Masking + Jit to deal with dynamic/variable
# shape arrays?", numpyro's HMCECS): the number of subsample indices is
# jnp.sum(block_lengths), where the block lengths are themselves drawn at random
# inside the jitted update; m and l are static.
from functools import partial

import jax.numpy as jnp
from jax import jit, random


@partial(jit, static_argnums=(1, 2))
def _sample_u_poisson(rng_key, m, l):
    pois_key, sub_key = random.split(rng_key)
    block_lengths = random.poisson(pois_key, 1., (l,))
    u = random.randint(sub_key, (jnp.sum(block_lengths), m), 0, m)
    return u, block_lengths


u, block_lengths = _sample_u_poisson(random.PRNGKey(0), 22, 5)
print(u.shape, block_lengths)

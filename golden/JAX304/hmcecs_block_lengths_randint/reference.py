# Hand fix for jax-ml/jax#5013 along the lines of the thread (jakevdp: choose a
# maximum size and mask): draw a fixed number of rows, an upper bound chosen by a
# person (here l * max_block), and return a mask saying which rows are in use.
from functools import partial

import jax.numpy as jnp
from jax import jit, random


@partial(jit, static_argnums=(1, 2, 3))
def _sample_u_poisson(rng_key, m, l, max_block=4):
    pois_key, sub_key = random.split(rng_key)
    block_lengths = jnp.minimum(random.poisson(pois_key, 1., (l,)), max_block)
    u = random.randint(sub_key, (l * max_block, m), 0, m)
    mask = jnp.arange(l * max_block) < jnp.sum(block_lengths)
    return u, block_lengths, mask


u, block_lengths, mask = _sample_u_poisson(random.PRNGKey(0), 22, 5)
print(u.shape, block_lengths, int(mask.sum()))

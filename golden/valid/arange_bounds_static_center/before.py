from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def around(signal, center):
    # `center` is static: both bounds are Python ints, the size is concrete
    idx = jnp.arange(center - 1, center + 2)
    return signal[idx].sum()


signal = jnp.arange(10.0)
print(around(signal, 4), around(signal, 7))

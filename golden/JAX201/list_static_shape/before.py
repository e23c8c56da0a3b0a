# A list used as a static shape, built in the same function as the call.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def grid(shape, step):
    return jnp.arange(shape[0] * shape[1]).reshape(shape) * step + jnp.zeros(shape)


def main():
    shape = [2, 3]
    out = grid(shape, 0.5)
    print(out.shape, [[float(v) for v in row] for row in out])


main()

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("N", "mode"))
def pad(N, x, *, mode):
    return jnp.pad(x, (0, N), mode=mode)


def main():
    x = jnp.array([1.0, 2.0, 3.0])
    print(pad(2, x, mode="edge"))
    print(pad(2, x, mode="constant"))


main()

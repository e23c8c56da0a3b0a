# A keyword-only static already bound by partial stays; the operand N joins it (1k L4).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("N", "mode"))
def pad(N, x, *, mode):
    return jnp.pad(x, (0, N), mode=mode)


def main():
    x = jnp.array([1.0, 2.0, 3.0])
    for pred in (True, False):
        out = jax.lax.cond(pred, partial(pad, mode="edge"), partial(pad, mode="constant"), 2, x)
        print(out)


main()

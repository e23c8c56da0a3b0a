# The jitted body prints the options: a namedtuple would print as another type.
import argparse
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("opts",))
def scale(x, opts):
    print("tracing with", vars(opts))
    return x * opts.scale


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=2.0)
    args = parser.parse_args(argv)
    return scale(jnp.ones(2), opts=args)


print(main([]))

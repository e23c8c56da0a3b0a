# Command-line options passed whole as a static argument.
import argparse
from functools import partial

import jax
import jax.numpy as jnp

parser = argparse.ArgumentParser()
parser.add_argument("--scale", type=float, default=2.0)
args = parser.parse_args([])


@partial(jax.jit, static_argnames=("opts",))
def scale(x, opts):
    return x * opts.scale


print(scale(jnp.ones(2), opts=args))

"""Comments and odd layout inside the config survive: only brackets change and text is added around."""
from functools import partial

import jax
import jax.numpy as jnp

HYPER = {   # tuned by hand
    "depth" : 2,   # odd spacing kept
    "widths": [
        3,  # first layer
        2   # no trailing comma
    ],
    "tags": [ "a" ],
}


@partial( jax.jit , static_argnames = ( "hyper" , ) )
def net(x, hyper):
    for w in hyper["widths"][: hyper["depth"]]:
        x = x[:w] * 2.0
    return x.sum() + len(hyper["tags"])


print(float(net(jnp.arange(4.0), hyper = HYPER)))

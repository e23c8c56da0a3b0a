# One module-level CONFIG feeds two jitted functions: a decorator and an assigned jit.
from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {
    "scale": 3.0,
    "activation": jax.nn.relu,
}


@partial(jax.jit, static_argnames=("config",))
def encode(x, config):
    return config["activation"](x) * config["scale"]


def _decode(y, config):
    return y / config["scale"]


decode = jax.jit(_decode, static_argnums=1)

x = jnp.array([-1.0, 0.5, 2.0])
code = encode(x, config=CONFIG)
print([round(float(v), 3) for v in code])
print([round(float(v), 3) for v in decode(code, CONFIG)])

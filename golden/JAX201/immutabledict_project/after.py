# The module already uses immutabledict: the fix uses it too, spelled as imported.
from functools import partial

import immutabledict
import jax
import jax.numpy as jnp

DEFAULTS = immutabledict.immutabledict({"eps": 1e-6})
OPTIMISER = immutabledict.immutabledict({"name": "sgd", "hyper": immutabledict.immutabledict({"lr": 0.5, "momentum": 0.0})})


@partial(jax.jit, static_argnums=(2,))
def step(params, grads, opt):
    lr = opt["hyper"]["lr"]
    return jax.tree_util.tree_map(lambda p, g: p - lr * (g + DEFAULTS["eps"]), params, grads)


params = {"w": jnp.array([1.0, 2.0])}
grads = {"w": jnp.array([0.5, 0.5])}
print([round(float(v), 4) for v in step(params, grads, OPTIMISER)["w"]])

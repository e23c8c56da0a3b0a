from functools import partial

import jax
import jax.numpy as jnp
from flax import linen as nn, nnx
from flax.core import FrozenDict

# Linen modules are hashable, so they can be passed as static jit arguments.
model = nnx.bridge.ToLinen(nnx.Linear, args=(32, 64), kwargs=FrozenDict({"use_bias": False}))

x = jnp.ones((2, 32))
variables = model.init(jax.random.key(0), x)


@partial(jax.jit, static_argnums=0)
def forward(model, variables, x):
    return model.apply(variables, x)


y = forward(model, variables, x)
print(y.shape, float(y.sum()))

from functools import partial

import jax
import jax.numpy as jnp
import flax.linen as nn

model = nn.Sequential([nn.Dense(3), nn.relu, nn.Dense(1)])
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))


@partial(jax.jit, static_argnums=0)
def predict(model, params, x):
    return model.apply(params, x)


print(predict(model, params, jnp.ones((1, 2))).shape)

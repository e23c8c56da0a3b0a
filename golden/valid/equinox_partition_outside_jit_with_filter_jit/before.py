import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def split_trainable(model, trainable):
    return eqx.partition(model, filter_spec=trainable)


@eqx.filter_jit
def loss(dynamic, static, x):
    model = eqx.combine(dynamic, static)
    return jnp.sum((model[0][0] * x + model[1]) ** 2)


params = ((jnp.array(1.0), jnp.array(2.0)), jnp.array(3.0))
mask = ((True, False), False)
dynamic, static = split_trainable(params, mask)
grads = jax.grad(loss)(dynamic, static, jnp.arange(3.0))
print(jax.tree_util.tree_map(lambda g: float(np.round(np.asarray(g), 4)), grads))

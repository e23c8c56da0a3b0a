# Cut down from patrick-kidger/equinox#11: a module-like dataclass, built by a helper,
# whose method is jitted with self static.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=['W'], meta_fields=[])
@dataclasses.dataclass
class DenseSynapse:
    W: jax.Array


@partial(jax.tree_util.register_dataclass, data_fields=['synapses', 'bias'], meta_fields=['shapes'])
@dataclasses.dataclass
class SimpleModule:
    synapses: list
    bias: list
    shapes: tuple = ((4,), (3,))

    @jax.jit
    def energy(self, x):
        h = jnp.tanh(x @ self.synapses[0].W + self.bias[0])
        return -0.5 * jnp.sum(h ** 2)


def make_module(key):
    k1, k2 = jax.random.split(key)
    return SimpleModule([DenseSynapse(jax.random.normal(k1, (4, 3)))],
                        [jax.random.normal(k2, (3,))])


model = make_module(jax.random.PRNGKey(0))
print(round(float(model.energy(jnp.arange(4.0) / 4)), 4))

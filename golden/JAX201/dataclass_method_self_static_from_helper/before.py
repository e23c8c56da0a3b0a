# Cut down from patrick-kidger/equinox#11: a module-like dataclass, built by a helper,
# whose method is jitted with self static.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class DenseSynapse:
    W: jax.Array


@dataclasses.dataclass
class SimpleModule:
    synapses: list
    bias: list
    shapes: tuple = ((4,), (3,))

    @partial(jax.jit, static_argnums=0)
    def energy(self, x):
        h = jnp.tanh(x @ self.synapses[0].W + self.bias[0])
        return -0.5 * jnp.sum(h ** 2)


def make_module(key):
    k1, k2 = jax.random.split(key)
    return SimpleModule([DenseSynapse(jax.random.normal(k1, (4, 3)))],
                        [jax.random.normal(k2, (3,))])


model = make_module(jax.random.PRNGKey(0))
print(round(float(model.energy(jnp.arange(4.0) / 4)), 4))

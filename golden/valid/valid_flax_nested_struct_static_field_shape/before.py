# Look-alike from tdmpc2-jax (tdmpc2_jax/tdmpc2.py): a flax.struct.PyTreeNode agent holds its world
# model, itself a PyTreeNode whose action_dim is a static field; the jitted plan method sizes its
# samples with self.model.action_dim.
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct


class WorldModel(struct.PyTreeNode):
    weights: jax.Array
    action_dim: int = struct.field(pytree_node=False)


class TDMPC2(struct.PyTreeNode):
    model: WorldModel
    horizon: int = struct.field(pytree_node=False)
    population_size: int = struct.field(pytree_node=False)

    @partial(jax.jit, static_argnames=("train",))
    def plan(self, z, train):
        actions = jnp.zeros((self.population_size, self.horizon, self.model.action_dim))
        return actions + z.sum() * self.model.weights.sum()


agent = TDMPC2(model=WorldModel(jnp.ones(2), action_dim=3), horizon=4, population_size=2)
print(agent.plan(jnp.ones(5), train=False).shape)

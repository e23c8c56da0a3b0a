# The merged state of nissymori/JAX-CORL#59: the pydantic config defines
# __hash__ (on its repr), so it can be the static argument of the classmethod
# jitted by assignment; equal configs compare equal through pydantic's __eq__.
from typing import Sequence

import jax
import jax.numpy as jnp
from pydantic import BaseModel


class TD3BCConfig(BaseModel):
    seed: int = 42
    batch_size: int = 4
    max_steps: int = 6
    n_jitted_updates: int = 3
    hidden_dims: Sequence[int] = (256, 256)
    tau: float = 0.005  # target network update rate

    def __hash__(
        self,
    ):  # make config hashable to be specified as static_argnums in jax.jit.
        return hash(self.__repr__())


conf_dict = {"max_steps": 6}
config = TD3BCConfig(**conf_dict)


class TD3BC(object):
    @classmethod
    def update_n_times(self, train_state, data, rng, config: TD3BCConfig):
        for _ in range(config.n_jitted_updates):  # we can jit for roop for static unroll
            rng, batch_rng = jax.random.split(rng, 2)
            batch_idx = jax.random.randint(batch_rng, (config.batch_size,), 0, len(data))
            train_state = train_state * (1 - config.tau) + config.tau * data[batch_idx].mean()
        return train_state, {"critic_loss": jnp.abs(train_state).mean()}


algo = TD3BC()
update_fn = jax.jit(algo.update_n_times, static_argnums=(3,))
rng = jax.random.PRNGKey(config.seed)
train_state, dataset = jnp.zeros(3), jnp.arange(10.0)
num_steps = config.max_steps // config.n_jitted_updates
for i in range(1, num_steps + 1):
    rng, update_rng = jax.random.split(rng)
    train_state, update_info = update_fn(train_state, dataset, update_rng, config)
print(round(float(update_info["critic_loss"]), 5))

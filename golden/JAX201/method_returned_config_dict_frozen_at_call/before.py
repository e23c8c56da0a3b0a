"""A trainer whose config dict comes from a method, passed as a static argument of a jitted rollout."""
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, n_steps, decay=0.9):
        self.n_steps = n_steps
        self.decay = decay

    def rollout_config(self):
        return {"n_steps": self.n_steps, "decay": self.decay}

    def run(self, x):
        return jax.jit(rollout, static_argnames="cfg")(x, cfg=self.rollout_config())


def rollout(x, cfg):
    for _ in range(cfg["n_steps"]):
        x = x * cfg["decay"] + 1.0
    return x


print(Trainer(3).run(jnp.zeros(2)))
print(Trainer(5, decay=0.5).run(jnp.ones(2)))

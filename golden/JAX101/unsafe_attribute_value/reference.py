import jax.numpy as jnp


class Config:
    depth = 3


cfg = Config()
print(jnp.stack([jnp.ones(2)] * cfg.depth))

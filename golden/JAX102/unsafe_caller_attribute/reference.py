import jax.numpy as jnp


class Settings:
    width = 3


settings = Settings()
print(jnp.ones(settings.width) * 2.0)

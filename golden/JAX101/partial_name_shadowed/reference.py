import jax.numpy as jnp


def summarize(flag, x):
    part = x[:2] if flag else x[-2:]
    return part.sum()


print(summarize(True, jnp.arange(6.0)))
print(summarize(False, jnp.arange(6.0)))

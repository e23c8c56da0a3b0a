import jax
import jax.numpy as jnp


@jax.jit
def rollout(x, n):
    for _ in range(int(n)):
        x = x * 0.5 + 1.0
    return x


def default_rollout(x):
    return rollout(x, 4)

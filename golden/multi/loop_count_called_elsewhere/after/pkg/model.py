import jax
import jax.numpy as jnp


@jax.jit
def rollout(x, n):
    x = jax.lax.fori_loop(0, n, lambda _, x: x * 0.5 + 1.0, x)
    return x


def default_rollout(x):
    return rollout(x, 4)

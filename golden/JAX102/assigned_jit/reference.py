import jax.numpy as jnp


def extremes(k, x, want_top):
    s = jnp.sort(x)
    return s[-k:] if want_top else s[:k]


x = jnp.array([5.0, 1.0, 4.0, 2.0, 3.0])
print(extremes(2, x, True))
print(extremes(3, x, False))

import jax
import jax.numpy as jnp


def _grow(n, x):
    return jnp.concatenate([x] * n)


def _shrink(n, x):
    return jnp.zeros(n * x.shape[0])


REPEATS = 2


def apply(flag, x):
    return _grow(REPEATS + 1, x) if flag else _shrink(REPEATS + 1, x)


print(apply(True, jnp.array([1.0, 2.0])))
print(apply(False, jnp.array([1.0, 2.0])))

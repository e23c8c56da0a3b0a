# Hand fix: the outer function does not trace its count; the caller's Python int stays a Python int.
import jax
import jax.numpy as jnp


def pad(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])


pad = jax.jit(pad, static_argnums=1)


def pad_one_more(x, n):
    return pad(x, n + 1)


pad_one_more = jax.jit(pad_one_more, static_argnums=1)
print(pad_one_more(jnp.arange(3.0), 2))

# The module uses `partial` as a variable name, so the fix must not import one.
import jax
import jax.numpy as jnp
import functools


def head(n, x):
    return x[:n]


def tail(n, x):
    return x[-n:]


head_j = jax.jit(head, static_argnums=0)
tail_j = jax.jit(tail, static_argnums=0)


def summarize(flag, x):
    partial = jax.lax.cond(flag, functools.partial(head_j, 2), functools.partial(tail_j, 2), x)
    return partial.sum()


print(summarize(True, jnp.arange(6.0)))
print(summarize(False, jnp.arange(6.0)))

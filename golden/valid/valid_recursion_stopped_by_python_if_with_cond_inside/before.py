# Looks like jax#13796 (recursion with lax.cond), but the recursion is decided by a Python `if`
# on a length, and lax.cond only picks a value on traced data inside each step: no branch recurses.
import jax
import jax.numpy as jnp


def clip_or_double(x):
    return jax.lax.cond(x[0] > 2, lambda x: jnp.minimum(x, 3), lambda x: x * 2, x)


@jax.jit
def rec(x):
    if len(x) <= 1:
        return x
    head = clip_or_double(x[:1])
    return jnp.concatenate([head, rec(x[1:])])


print(rec(jnp.arange(6.0)).tolist())

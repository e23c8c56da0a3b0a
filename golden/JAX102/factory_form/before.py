"""The enclosing jit is the decorator-factory form with static_argnames as a string."""
import jax
import jax.numpy as jnp


def grow(k, x):
    return jnp.repeat(x, k)


def same(k, x):
    return jnp.tile(x, k)


grow_j = jax.jit(grow, static_argnums=0)
same_j = jax.jit(same, static_argnums=0)


@jax.jit(static_argnames='interleave')
def stretch(k, x, interleave):
    if interleave:
        return jax.lax.cond(x[0] > 0, grow_j, same_j, k, x)
    return jnp.zeros(k * x.shape[0])


print(stretch(2, jnp.array([1.0, 2.0]), True))
print(stretch(3, jnp.array([-1.0, 2.0]), True))
print(stretch(2, jnp.array([1.0, 2.0]), interleave=False))

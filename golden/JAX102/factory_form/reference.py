import jax.numpy as jnp


def stretch(k, x, interleave):
    if interleave:
        return jnp.repeat(x, k) if x[0] > 0 else jnp.tile(x, k)
    return jnp.zeros(k * x.shape[0])


print(stretch(2, jnp.array([1.0, 2.0]), True))
print(stretch(3, jnp.array([-1.0, 2.0]), True))
print(stretch(2, jnp.array([1.0, 2.0]), interleave=False))

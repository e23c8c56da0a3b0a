# Cut down from jax-ml/jax#21994 (the second function of the report): a boolean mask
# after a slice in an `.at[...]` update, under jit.
import jax
import jax.numpy as jnp


def f2(x):
    return x.at[:4].set(jnp.where(jnp.mod(x[0], 2) == 0, 0, x[:4]))


x2 = jnp.reshape(jnp.arange(36), shape=(6, 6))
print(f2(x2).tolist())
print(jax.jit(f2)(x2).tolist())

# Cut down from jax-ml/jax#21994 ("Add support for boolean mask indices inside jit").
import jax
import jax.numpy as jnp

def f(x):
    return jnp.where(x < 5, 0, x)

def g(x):
    return jnp.where(x < 5, 0, x)

x = jnp.arange(10)
assert jnp.array_equal(f(x), g(x))  # type: ignore

print(jax.jit(g)(x).tolist())  # no error
print(jax.jit(f)(x).tolist())  # error

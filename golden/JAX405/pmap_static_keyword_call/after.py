# Cut down from jax-ml/jax#3007 (pmap static_broadcasted_argnums does not
# respect keyword arguments).
import jax
import jax.numpy as jnp


def f(a, b):
  return a + b


g = jax.pmap(f, static_broadcasted_argnums=(1,))
n = jax.local_device_count()
print(g(jnp.ones((n, 1)), 1))

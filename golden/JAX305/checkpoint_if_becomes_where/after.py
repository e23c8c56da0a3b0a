# Cut down from jax-ml/jax#24511 ("improve concreteness error message in remat").
import jax
import jax.numpy as jnp

@jax.remat
def f(x):
  return jnp.where(x > 0, x, jnp.sin(x))

print(round(float(f(3.)), 4))
print(round(float(jax.grad(f)(3.)), 4), round(float(jax.grad(f)(-1.)), 4))

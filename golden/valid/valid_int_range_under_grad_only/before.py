from jax import grad
import jax.numpy as jnp


def f(x):
  n = int(x)
  acc = 0.0
  for k in range(n):
    acc = acc + x ** k
  return acc

print(grad(f)(3.0))

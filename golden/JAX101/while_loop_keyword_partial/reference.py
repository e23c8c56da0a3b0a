import jax.numpy as jnp

total, k = jnp.zeros(2), 0
while k < 3:
    total, k = total + 5, k + 1
print(total, k)

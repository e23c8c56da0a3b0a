import jax.numpy as jnp

N = 2
carry = jnp.ones(3)
sums = []
for _ in range(3):
    sums.append(carry.sum())
    carry = carry * N
print(carry)
print(jnp.stack(sums))

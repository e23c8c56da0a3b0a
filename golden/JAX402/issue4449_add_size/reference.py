# Hand fix: no jit needed to see the answer.
import jax.numpy as jnp

print(jnp.ones((4,)))

# Hand fix: no vmap at all; a Python loop per count, with the count a Python int.
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = [1, 2, 3]


def iterate_for_steps(iters):
    carry = init
    for _ in range(iters):
        carry = carry * 2
    return carry


print(jnp.stack([iterate_for_steps(n) for n in iterations]))

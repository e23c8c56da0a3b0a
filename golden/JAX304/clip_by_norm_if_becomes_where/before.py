# Written to pin JAX304's select: gradient clipping as people write it eagerly, with a
# Python `if` on the norm JAX computes under jit. The `if` only picks what to return.
import jax
import jax.numpy as jnp


@jax.jit
def clip_by_norm(g, max_norm):
    norm = jnp.linalg.norm(g)
    if norm > max_norm:
        return g * (max_norm / norm)
    return g


print([round(v, 4) for v in clip_by_norm(jnp.array([3.0, 4.0]), 1.0).tolist()])
print([round(v, 4) for v in clip_by_norm(jnp.array([0.3, 0.4]), 1.0).tolist()])

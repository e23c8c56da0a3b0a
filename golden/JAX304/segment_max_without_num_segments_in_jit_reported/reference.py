# After jax-ml/jax#6350: segment_max inside a jitted pooling step, num_segments left out, so the
# library computes it from the traced ids.
import jax
import jax.numpy as jnp


@jax.jit
def pool(x, ids):
    return jax.ops.segment_max(x, ids, num_segments=3)


print(pool(jnp.arange(6.0), jnp.array([0, 0, 1, 1, 2, 2])))

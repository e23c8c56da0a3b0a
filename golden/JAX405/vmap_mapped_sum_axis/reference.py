# Hand fix of jax-ml/jax#10493: an axis must be static, and under vmap it must be
# the same for every example, so pass one Python tuple of axes, unmapped
# (in_axes=None), instead of a per-example integer array.
from jax import vmap
import jax.numpy as jnp

x = jnp.ones((3, 2, 2))
y = jnp.array([[0, 1]] * 3)

print(jnp.sum(x[0], y[0]))
print(vmap(lambda x, y: jnp.sum(x, y), in_axes=(0, None))(x, (0, 1)))

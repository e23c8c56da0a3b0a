# Cut down from jax-ml/jax#10493 (improve error when vmapped array passed as axes
# argument), YouJiacheng's runnable repro: the second vmapped argument lands in
# jnp.sum's axis parameter, and vmap maps it like data.
from jax import vmap
import jax.numpy as jnp

x = jnp.ones((3, 2, 2))
y = jnp.array([[0, 1]] * 3)

print(jnp.sum(x[0], y[0]))
print(vmap(lambda x, y: jnp.sum(x, y))(x,y))

# Hand fix of jax-ml/jax#5617 (jakevdp): static keyword arguments go in by
# closure, the vmap is applied to the closed function.
import jax
import jax.numpy as jnp

f = jax.vmap(lambda x, y: jax.scipy.ndimage.map_coordinates(x, y, order=1))

x = jnp.arange(12.).reshape(2, 6)
y = jnp.array([[[0.5, 1.5, 2.5]], [[1.0, 2.0, 3.0]]])
print(f(x, y))

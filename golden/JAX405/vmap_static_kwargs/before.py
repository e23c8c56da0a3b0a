# Cut down from jax-ml/jax#5617 (Impossible to have static kwargs with vmap).
import jax
import jax.numpy as jnp


@jax.vmap
def f(x, y, **kwarg):
  return jax.scipy.ndimage.map_coordinates(x, y, **kwarg)


x = jnp.arange(12.).reshape(2, 6)
y = jnp.array([[[0.5, 1.5, 2.5]], [[1.0, 2.0, 3.0]]])
print(f(x, y, order=1))

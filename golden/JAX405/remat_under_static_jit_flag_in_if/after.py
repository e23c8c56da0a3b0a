import numpy as np
import jax
import jax.numpy as jnp


def f(a_bool, y):
  if a_bool:
    return y + 1
  else:
    return y


out = jax.jit(jax.remat(f, static_argnums=(0,)), static_argnums=0)(True, 1.)
out2 = jax.jit(jax.remat(f, static_argnums=(0,)), static_argnums=0)(False, jnp.arange(3.))
print(np.round(np.asarray(out), 4))
print(np.round(np.asarray(out2), 4))

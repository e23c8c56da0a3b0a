# Cut down from jax-ml/jax#23065: a custom_jvp gather whose integer index array
# is declared in nondiff_argnums, then jitted and differentiated with jacobian.
import jax
import jax.numpy as jnp
from functools import partial


@jax.custom_jvp
def f(x, indices):
  return x[indices]


@f.defjvp
def f_jvp(primals, tangents):
  x, indices = primals
  x_dot, _ = tangents
  return f(x, indices), x_dot[indices]


jf = jax.jit(f)

x = jnp.arange(10.0)
indices = jnp.array([1, 3, 5])

jac = jax.jacobian(jf)(x, indices)
print(jac.shape)
print(jac.astype(int).tolist())

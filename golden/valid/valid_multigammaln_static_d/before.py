# The resolution of jax-ml/jax#5073 (d must be static): multigammaln jitted with
# d in static_argnums, next to a plain jit of gammaln, whose argument is data.
import jax.numpy as jnp
from jax import jit
from jax.scipy.special import gammaln, multigammaln

mgl = jit(multigammaln, static_argnums=1)
print(round(float(mgl(1, 2)), 4))
a = jnp.array([1.5, 2.0, 3.0])
print(mgl(a, 3).round(4))
print(jit(gammaln)(a).round(4))

from jax import jit
from jax.nn import one_hot

print(jit(one_hot, static_argnums=1)(3, 5))

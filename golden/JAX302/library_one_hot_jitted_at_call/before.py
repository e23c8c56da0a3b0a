from jax import jit
from jax.nn import one_hot

print(jit(one_hot)(3, 5))

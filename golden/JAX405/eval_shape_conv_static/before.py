# Cut down from jax-ml/jax discussion #19020 / PR #19026 (eval_shape with a
# function that has static arguments).
import jax
from jax import lax
import jax.numpy as jnp

x = jax.ShapeDtypeStruct((1, 1, 28, 28), jnp.float32)
kernel = jax.ShapeDtypeStruct((32, 1, 3, 3), jnp.float32)

out = jax.eval_shape(lax.conv_general_dilated, x, kernel, (1, 1), "SAME")
print(out.shape)
print(out.dtype)

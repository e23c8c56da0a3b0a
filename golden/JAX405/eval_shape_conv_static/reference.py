# Hand fix (the docstring example PR #19026 added): static arguments are bound
# by closure before eval_shape abstracts every remaining argument.
import jax
from jax import lax
import jax.numpy as jnp

x = jax.ShapeDtypeStruct((1, 1, 28, 28), jnp.float32)
kernel = jax.ShapeDtypeStruct((32, 1, 3, 3), jnp.float32)

out = jax.eval_shape(lambda a, k: lax.conv_general_dilated(a, k, (1, 1), "SAME"), x, kernel)
print(out.shape)
print(out.dtype)

import jax.numpy as jnp
import numpy as np
from jax import grad, vmap


def target_function(x, y):
    single_input = jnp.array([x, y])
    return jnp.sum(single_input ** 3)


single_input = jnp.array([1., 1.])

# second derivative of target_function w.r.t. each of its arguments
vmap_second_derivatives = (
    lambda variable_position: grad(grad(target_function, variable_position), variable_position)(*single_input)
)

variable_positions = jnp.array([0, 1])

second_derivatives = vmap(vmap_second_derivatives)(variable_positions)
print(np.round(np.asarray(second_derivatives), 4))

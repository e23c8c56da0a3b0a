import jax.numpy as jnp
import numpy as np
from jax import grad


def target_function(x, y):
    single_input = jnp.array([x, y])
    return jnp.sum(single_input ** 3)


single_input = jnp.array([1., 1.])

# second derivative of target_function w.r.t. each of its arguments
second_derivative = (
    lambda variable_position: grad(grad(target_function, variable_position), variable_position)(*single_input)
)

# argnums has to be a concrete Python int: loop over the positions in Python
# instead of vmapping over an array of positions.
variable_positions = range(len(single_input))

second_derivatives = jnp.stack([second_derivative(p) for p in variable_positions])
print(np.round(np.asarray(second_derivatives), 4))

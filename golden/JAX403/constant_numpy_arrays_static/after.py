import numpy as np
import jax.numpy as jnp
from jax import jit

# "I have a JIT'ed function that I specify with static_argnums.
#  The static arguments are really just constant arrays."
W = np.linspace(0.0, 1.0, 12).reshape(3, 4)


def main_function(x, weights):
    return jnp.tanh(x @ weights) + 1


main_function_jit = jit(main_function)


def wrapper(x):
    return main_function_jit(x, W)


x = jnp.ones((2, 3))
print(wrapper(x))

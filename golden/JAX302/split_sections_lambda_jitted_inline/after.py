import jax as api  # the 2020 report called api.jit from the old jax.api module
import jax.numpy as np

print(np.split(np.zeros((6, 2)), 2))  # eager: works

print(api.jit(lambda idx: np.split(np.zeros((6,2)), idx), static_argnames=("idx",))(2))

from functools import partial

from jax import jit


@partial(jit, static_argnums=1)
def f(x, y=0):
    return x + y


# In old JAX this raised IndexError / "called with only 1 positional arguments";
# current JAX applies the default for the omitted static argument.
print(f(5))
print(f(5, 2))

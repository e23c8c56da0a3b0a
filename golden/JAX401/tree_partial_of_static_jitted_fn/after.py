# Cut down from jax-ml/jax#5609 (Function with `static_argnums` as `jit`ed
# function argument).
from functools import partial
import jax
import jax.numpy as jnp


@jax.jit
def f(x, fn):
    return fn(fn(x))


@partial(jax.jit, static_argnums=(0,))
def fn_with_static_arg(p, x):
    return jnp.tile(x, (p,))


@jax.jit
def fn_simple(p, x):
    return x ** p


x = jnp.arange(3)
p = 2
print(f(x, jax.tree_util.Partial(fn_simple, p)))  # works fine
print(f(x, jax.tree_util.Partial(partial(fn_with_static_arg, p))))  # ValueError

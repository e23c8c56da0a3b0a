# Hand fix of jax-ml/jax#5609 (jakevdp): mark the function argument static, so
# the Partial and its bound p stay Python values.
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
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
print(f(x, partial(fn_simple, p)))
print(f(x, partial(fn_with_static_arg, p)))

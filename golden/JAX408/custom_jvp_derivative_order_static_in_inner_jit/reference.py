import functools

import jax
import jax.numpy as jnp
from jax.lax import fori_loop


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
@functools.partial(jax.jit, static_argnums=2)
def fun(x, n, dx):
    """The dx th derivative of the function x^n."""
    if dx == 0:
        return x**n
    out = x**(n - dx)
    coef = fori_loop(0, dx, lambda i, x: x * (n - i), 1)
    return coef * out


@fun.defjvp
def _fun_jvp(dx, a, adot):
    """Custom derivative rule for the function.

    This is just the same function called with dx+1.
    """
    (x, n) = a
    (xdot, ndot) = adot
    f = fun(x, n, dx)
    df = fun(x, n, dx + 1)
    return f, df * xdot


x = jnp.arange(1.0, 6.0)
n = 3
dx = 0

print(jax.jit(fun, static_argnums=2)(x, n, dx).tolist())
print(jax.vmap(jax.grad(fun), in_axes=(0, None, None))(x, n, dx).tolist())

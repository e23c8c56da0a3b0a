import jax
import jax.numpy as jnp
from jax.lax import scan


def f(x):
    return jnp.sin(x) * x ** 2


def deriv(f, x):
    """ Returns grad function and grad evaluated at x."""
    y, vjp_fn = jax.vjp(f, x)
    return lambda x: vjp_fn(x)[0], vjp_fn(jnp.ones(y.shape))[0]


x = jnp.linspace(0.0, 1.0, 4)

# This works
df_fn, df = deriv(f, x)
d2f_fn, d2f = deriv(df_fn, x)
d3f_fn, d3f = deriv(d2f_fn, x)
print(df, d2f, d3f)

# This fails
du = scan(lambda carry, _: deriv(carry, x), f, None, length=3)
print(du[1])

# Looks like jax#6539 (a function as a scan carry), but the function stays outside the carry: the
# body closes over it, and a cond's branches are functions, its operand an array. It runs.
import jax
import jax.numpy as jnp
from jax.lax import scan


def f(x):
    return jnp.sin(x) * x ** 2


def step(carry, _):
    y, vjp_fn = jax.vjp(f, carry)
    return carry - 0.1 * vjp_fn(jnp.ones_like(y))[0], y.sum()


x = jnp.linspace(0.0, 1.0, 4)
x, ys = scan(step, x, None, length=3)
print(x, ys)
print(jax.lax.cond(ys[-1] > 0, f, jnp.cos, x))

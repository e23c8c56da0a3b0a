# Cut down from jax-ml/jax#2708 ("Feature request: allow jnp.allclose to accept tracers").
from jax import numpy as jnp
from jax.lax import while_loop


def bf(x):
    return x + 1.0


def cf_ac(x):
    return jnp.logical_not(jnp.allclose(x, 10.0))


def cf_explicit(x):
    return jnp.abs(x - 10.0) > 1e-4


print(float(while_loop(cf_explicit, bf, 0.0)))
print(float(while_loop(cf_ac, bf, 0.0)))

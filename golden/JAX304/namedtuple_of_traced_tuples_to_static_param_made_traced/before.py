from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit

GVARS_ = namedtuple('GVARS', ['a', 'b'])
# problem constants
GVARS = GVARS_(((1.0, 2.0), (3.0, 4.0)), (0.5, -0.5))


@partial(jit, static_argnums=(0, 1))
def func2_w_staticargs(a, b):
    a = jnp.asarray(a)
    b = jnp.asarray(b)
    return a * 2.0, b + 1.0


@partial(jit, static_argnums=(1,))
def func3_w_staticargs(x, GVARS_new):
    a = jnp.asarray(GVARS_new.a)
    b = jnp.asarray(GVARS_new.b)
    return a @ x + b


def model(x):
    out = x
    for i in range(1):
        # calling the function with two static arguments
        print('Starting loop')
        a_static, b_static = func2_w_staticargs(GVARS.a, GVARS.b)

        # converting to arrays to tuple to pass as static arguments
        # to the next function call
        a_static_tuple = tuple(map(tuple, a_static))
        b_static_tuple = tuple(b_static)
        GVARS_new_ = namedtuple('GVARS_new', ['a', 'b'])
        GVARS_new = GVARS_new_(a_static_tuple, b_static_tuple)

        out = func3_w_staticargs(out, GVARS_new)
    return jnp.sum(out ** 2)


# the inference loop compiles the model (as numpyro's MCMC does)
potential = jax.jit(jax.value_and_grad(model))
x = jnp.array([1.0, -1.0])
val, g = potential(x)
print(float(val), [round(float(v), 4) for v in g])

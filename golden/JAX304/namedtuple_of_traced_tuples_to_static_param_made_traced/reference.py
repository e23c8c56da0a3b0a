from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
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


# the static values only depend on the constants in GVARS, so compute them once,
# outside of any trace, and turn them into plain Python floats
a_static, b_static = func2_w_staticargs(GVARS.a, GVARS.b)
a_static_tuple = tuple(map(tuple, np.asarray(a_static).tolist()))
b_static_tuple = tuple(np.asarray(b_static).tolist())
GVARS_new_ = namedtuple('GVARS_new', ['a', 'b'])
GVARS_new = GVARS_new_(a_static_tuple, b_static_tuple)


def model(x):
    out = x
    for i in range(1):
        print('Starting loop')
        out = func3_w_staticargs(out, GVARS_new)
    return jnp.sum(out ** 2)


# the inference loop compiles the model (as numpyro's MCMC does)
potential = jax.jit(jax.value_and_grad(model))
x = jnp.array([1.0, -1.0])
val, g = potential(x)
print(float(val), [round(float(v), 4) for v in g])

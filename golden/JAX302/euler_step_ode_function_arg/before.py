# Cut down from NACLab/ngc-learn PR #79 ("remove JIT decoration from Euler
# stepping function") and its review: ngc-learn's step_euler takes the ODE
# co-routine dfx as an argument; jitted without marking dfx static it crashes.
from jax import numpy as jnp, jit
from functools import partial


@jit
def _step_forward(t, x, dx_dt, dt, x_scale): ## internal step co-routine
    _t = t + dt ## advance time forward by dt (denominator)
    _x = x * x_scale + dx_dt * dt ## advance variable(s) forward by dt (numerator)
    return _t, _x


@jit
def step_euler(t, x, dfx, dt, params, x_scale=1.):
    dx_dt = dfx(t, x, params)
    _t, _x = _step_forward(t, x, dx_dt, dt, x_scale)
    return _t, _x


def dfx_rate_cell(t, x, params):
    tau, = params
    return -x / tau


t, x = 0., jnp.ones((2,))
for _ in range(3):
    t, x = step_euler(t, x, dfx_rate_cell, 0.1, (10.,))
print(round(float(t), 4), jnp.round(x, 5))

# Valid look-alike cut down from NACLab/ngc-learn ngclearn/utils/diffeq/ode_utils.py
# (the code PR #79 touched): the ODE function is static in step_euler and is
# passed on, positionally, to the static slot of the jitted _euler.
from jax import numpy as jnp, random, jit #, nn
from functools import partial


@jit
def _step_forward(t, x, dx_dt, dt, x_scale): ## internal step co-routine
    _t = t + dt ## advance time forward by dt (denominator)
    _x = x * x_scale + dx_dt * dt ## advance variable(s) forward by dt (numerator)
    return _t, _x


@partial(jit, static_argnums=(2))
def step_euler(t, x, dfx, dt, params, x_scale=1.):
    carry = (t, x)
    next_state, *_ = _euler(carry, dfx, dt, params, x_scale=x_scale)
    _t, _x = next_state
    return _t, _x


@partial(jit, static_argnums=(1))
def _euler(carry, dfx, dt, params, x_scale=1.):
    t, x = carry
    dx_dt = dfx(t, x, params)
    _t, _x = _step_forward(t, x, dx_dt, dt, x_scale)
    new_carry = (_t, _x)
    return new_carry, (new_carry, carry)


def dfx_rate_cell(t, x, params):
    tau, = params
    return -x / tau


t, x = 0., jnp.ones((2,))
for _ in range(3):
    t, x = step_euler(t, x, dfx_rate_cell, 0.1, (10.,))
print(round(float(t), 4), [round(v, 5) for v in x.tolist()])

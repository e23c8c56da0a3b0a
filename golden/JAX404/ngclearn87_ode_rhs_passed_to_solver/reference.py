# Cut down from ngc-learn's ngclearn/utils/diffeq/{odes.py,ode_solver.py}:
# ODE right-hand sides are jitted with the time argument marked static, and a
# scan-based RK4 solver integrates them.
# Fix (ngc-learn PR #87): drop `@partial(jit, static_argnums=(0,))` from the
# right-hand sides -- `t` is a traced array inside the solver, not a constant.
import jax.numpy as jnp
from jax import jit
from functools import partial
from jax.lax import scan as _scan


def lorenz(t, x, params):
    x_ = x[..., 0]
    y_ = x[..., 1]
    z_ = x[..., 2]
    dx = 10 * y_ - 10 * x_
    dy = 28 * x_ - x_ * z_ - y_
    dz = x_ * y_ - 8 / 3 * z_
    return jnp.stack([dx, dy, dz], axis=-1)


@jit
def _sum_combine(*args, **kwargs):  ## fast co-routine for simple addition
    sum = 0
    for arg, val in zip(args, kwargs.values()):
        sum = sum + val * arg
    return sum


@partial(jit, static_argnums=(3, 4))
def _step_forward(t, x, dx_dt, dt, x_scale):  ## internal step co-routine
    _t = t + dt
    _x = x * x_scale + dx_dt * dt
    return _t, _x


@partial(jit, static_argnums=(1, 2, 3, 4))
def rk4(carry, dfx, dt, params, x_scale=1.):
    t, x = carry
    dfx_1 = dfx(t, x, params)
    t2, x2 = _step_forward(t, x, dfx_1, dt * 0.5, x_scale)
    dfx_2 = dfx(t2, x2, params)
    t3, x3 = _step_forward(t, x, dfx_2, dt * 0.5, x_scale)
    dfx_3 = dfx(t3, x3, params)
    t4, x4 = _step_forward(t, x, dfx_3, dt, x_scale)
    dfx_4 = dfx(t4, x4, params)
    _dx_dt = _sum_combine(dfx_1, dfx_2, dfx_3, dfx_4, w_f1=1, w_f2=2, w_f3=2, w_f4=1)
    _t, _x = _step_forward(t, x, _dx_dt / 6, dt, x_scale)
    new_carry = (_t, _x)
    return new_carry, (new_carry, carry)


def solve_ode(method_name, t0, x0, T, dfx, dt, params=None, x_scale=1.):
    method = {"rk4": rk4}[method_name]

    def scanner(carry, _):
        return method(carry, dfx, dt, params, x_scale)

    x_T, (xs_next, xs_carry) = _scan(scanner, init=(t0, x0), xs=jnp.arange(T))
    return xs_next


if __name__ == "__main__":
    x0 = jnp.array([-8, 7, 27], dtype=jnp.float32)
    ts, xs = solve_ode("rk4", t0=0., x0=x0, T=200, dfx=lorenz, dt=0.01, params=None)
    print(round(float(ts[-1]), 4), jnp.round(xs[-1], 3))

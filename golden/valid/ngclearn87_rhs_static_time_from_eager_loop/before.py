# A right-hand side jitted with its time static, handed to an eager Euler loop: every call
# passes a Python float (k * dt), so the static slot hashes it and each step compiles once
# per distinct time. Looks like ngc-learn#87's solver, but nothing is traced at the call.
from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=(0,))
def decay(t, x, rate):
    factor = 1.0 if t < 0.5 else 0.5
    return -rate * factor * x


def euler(dfx, x0, n, dt, rate):
    x = x0
    for k in range(n):
        x = x + dt * dfx(k * dt, x, rate)
    return x


if __name__ == "__main__":
    out = euler(decay, jnp.ones(3), n=10, dt=0.1, rate=2.0)
    print([round(float(v), 5) for v in out])

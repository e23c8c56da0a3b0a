from functools import partial

import jax.numpy as np
from jax import jit
from jax.lax import scan


@partial(jit, static_argnums=(0, 2, 3))
def integrate_euler(f, initial_state, time, dt):
    propagated_state, _ = scan(
        f=lambda state, _: (euler_integration_step(f, state, dt), None),
        init=initial_state,
        length=int(time / dt),
        xs=None,
    )
    return propagated_state


def euler_integration_step(f, state, dt):
    return state + dt * f(state)


# Example: solve dx/dt = 9x/10, for t=1.0, starting with x0 = [1, 2], timestep 0.01.
result = integrate_euler(
    lambda x: 0.9 * x,
    initial_state=np.array([1., 2.]),
    time=1.0,
    dt=1e-2,
)
print(result)

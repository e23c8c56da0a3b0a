from functools import partial

import jax.numpy as np
from jax import jit
from jax.lax import scan
from jax.lax import fori_loop


@partial(jit, static_argnums=(0,))
def integrate_euler(f, initial_state, time, dt):
    propagated_state = fori_loop(0, np.divide(time, dt).astype(int), lambda _, state: euler_integration_step(f, state, dt), initial_state)
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

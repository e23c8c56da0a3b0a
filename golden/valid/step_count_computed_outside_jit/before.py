"""phentax's time grid with the step count computed before jit, as a static argument."""
import math
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp


class IMRPhenomTHM:
    def __init__(self, T=64.0):
        self.T = T

    def num_steps(self, delta_t, T=None):
        return int(np.ceil((self.T if T is None else T) / delta_t))

    @partial(jax.jit, static_argnums=(0,), static_argnames=("num_steps",))
    def compute_polarizations(self, m1, m2, delta_t, num_steps):
        times = -num_steps * delta_t + delta_t * jnp.arange(num_steps)
        with jax.ensure_compile_time_eval():
            half = int(jnp.ceil(num_steps / 2))
        return jnp.where(times < 0.0, (m1 + m2) * jnp.cos(times), 0.0)[:half]


wf = IMRPhenomTHM(T=64.0)
n = wf.num_steps(5.0)
hp = wf.compute_polarizations(30.0, 25.0, 5.0, num_steps=n)
print(hp.shape, math.ceil(64.0 / 5.0))
print(np.round(np.asarray(hp), 4))

"""Time-grid setup of a JAX waveform class (cut down from phentax IMRPhenomTHM)."""
import math
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp


class IMRPhenomTHM:
    def __init__(self, T=64.0):
        self.T = T

    def get_time_grids(self, wf_params, num_steps, delta_t):
        times = -num_steps * delta_t + delta_t * jnp.arange(num_steps)
        times_mask = times < wf_params["tc"]
        return times, times_mask

    def initial_processing(self, m1, m2, chi1z, chi2z, delta_t, T=None):
        wf_params = {"mtot": m1 + m2, "eta": m1 * m2 / (m1 + m2) ** 2,
                     "chi_eff": (m1 * chi1z + m2 * chi2z) / (m1 + m2), "tc": 0.0}
        if T is None:
            T = self.T

        num_steps = math.ceil(T / delta_t)
        times, times_mask = self.get_time_grids(wf_params, num_steps, delta_t)
        return wf_params, times, times_mask

    @partial(jax.jit, static_argnums=(0,), static_argnames=("delta_t", "T"))
    def compute_polarizations(self, m1, m2, chi1z, chi2z, delta_t=2.0, T=None):
        wf_params, times, times_mask = self.initial_processing(m1, m2, chi1z, chi2z, delta_t, T)
        tau = jnp.abs(times) + 1.0
        phase = wf_params["eta"] * tau ** (5.0 / 8.0) * (1.0 + wf_params["chi_eff"])
        amp = wf_params["mtot"] * tau ** (-0.25)
        return jnp.where(times_mask, amp * jnp.cos(phase), 0.0)


wf = IMRPhenomTHM(T=64.0)
hp = wf.compute_polarizations(30.0, 25.0, 0.3, -0.1, delta_t=5.0)
print(hp.shape)
print(np.round(np.asarray(hp), 4))

# Fixed as in climate-analytics-lab/jax-gcm commit 977d100 ("fixing improper handling of
# booleans ... to use jax syntax for if statements"): the Python `if`s on (traced) parameter
# flags become jax.lax.cond.  Only the land branch up to evaporation is kept; the 3-D model state, boundary
# data and jcm.humidity helpers are replaced by small arrays and simple stand-in formulas.
import dataclasses

import jax
import jax.numpy as jnp
from jax import jit

cp, rgas, p0 = 1004.0, 287.0, 1.0e5


def get_qsat(ta, ps, sig):  # stand-in for jcm.humidity.get_qsat
    return 0.622 * 6.108e-3 * jnp.exp(17.27 * (ta - 273.15) / (ta - 35.86)) / (ps * sig)


def rel_hum_to_spec_hum(ta, ps, sig, rh):  # stand-in for jcm.humidity.rel_hum_to_spec_hum
    qsat = get_qsat(ta, ps, sig)
    return rh * qsat, qsat


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class SurfaceFluxParameters:  # a tree_math.struct in jcm/params.py
    fwind0: jnp.ndarray # Ratio of near-sfc wind to lowest-level wind
    ftemp0: jnp.ndarray
    fhum0: jnp.ndarray
    chl: jnp.ndarray  # Heat exchange coefficient over land
    vgust: jnp.ndarray   # Wind speed for sub-grid-scale gusts
    dtheta: jnp.ndarray   # Potential temp. gradient for stability correction
    fstab: jnp.ndarray   # Amplitude of stability correction (fraction)
    lscasym: jnp.bool   # true : use an asymmetric stability coefficient

    @classmethod
    def default(self):
        return SurfaceFluxParameters(
            fwind0 = jnp.array(0.95),
            ftemp0 = jnp.array(1.0),
            fhum0 = jnp.array(0.0),
            chl = jnp.array(1.2e-3),
            vgust = jnp.array(5.0),
            dtheta = jnp.array(3.0),
            fstab = jnp.array(0.67),
            lscasym = True,
        )


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Parameters:
    surface_flux: SurfaceFluxParameters


@jit
def get_surface_fluxes(ta, ua, va, qa, rh, psa, tskin, parameters: Parameters):
    ix, il, kx = ta.shape
    ghum0 = 1.0 - parameters.surface_flux.fhum0
    shf = jnp.zeros((ix, il, 3))
    q1 = jnp.zeros((ix, il, 2))
    qsat0 = jnp.zeros((ix, il, 2))
    denvvs = jnp.zeros((ix, il, 3))

    lfluxland = True # so that jax can trace the function
    if lfluxland: # leaving this here in case we want to implement a better workaround later
        # 1.1 Wind components
        u0 = parameters.surface_flux.fwind0*ua[:, :, kx-1]
        v0 = parameters.surface_flux.fwind0*va[:, :, kx-1]
        t1 = ta[:, :, kx-1]
        t2 = ta[:, :, kx-1] + 1.0

        # 1.3 Density * wind speed (including gustiness factor)
        denvvs = denvvs.at[:, :, 0].set((p0*psa/(rgas*t1))*jnp.sqrt(u0**2 + v0**2 + parameters.surface_flux.vgust**2))

        # 2.2 Stability Correlation
        rdth  = parameters.surface_flux.fstab / parameters.surface_flux.dtheta

        astab = jax.lax.cond(parameters.surface_flux.lscasym, lambda _: jnp.array(0.5), lambda _: jnp.array(1.0), operand=None)

        dthl = jnp.where(
            tskin > t2,
            jnp.minimum(parameters.surface_flux.dtheta, tskin - t2),
            jnp.maximum(-parameters.surface_flux.dtheta, astab * (tskin - t2))
        )
        denvvs = denvvs.at[:, :, 1].set(denvvs[:, :, 0] * (1.0 + dthl * rdth))

        # 2.4 Computing Sensible Heat Flux
        chlcp = parameters.surface_flux.chl * cp
        shf = shf.at[:, :, 0].set(chlcp * denvvs[:, :, 1] * (tskin - t1))

        # 2.5 Computing Evaporation
        def compute_evap_true(operand):
            q1, qsat0, idx = operand
            q1_val, qsat0_val = rel_hum_to_spec_hum(t1, psa, 1.0, rh[:, :, kx-1])
            q1 = q1.at[:, :, idx].set(parameters.surface_flux.fhum0*q1_val + ghum0*qa[:, :, kx-1])
            qsat0 = qsat0.at[:, :, idx].set(qsat0_val)
            return q1, qsat0

        def compute_evap_false(operand):
            q1, qsat0, idx = operand
            q1 = q1.at[:, :, idx].set(qa[:, :, kx-1])
            return q1, qsat0

        q1, qsat0 = jax.lax.cond(parameters.surface_flux.fhum0 > 0.0, compute_evap_true, compute_evap_false, operand=(q1, qsat0, 0))

    return shf, q1


ix, il, kx = 4, 3, 8
key = jax.random.PRNGKey(0)
ta = 260.0 + 20.0 * jax.random.uniform(key, (ix, il, kx))
ua = va = jnp.full((ix, il, kx), 5.0)
qa = jnp.full((ix, il, kx), 5e-3)
rh = jnp.full((ix, il, kx), 0.7)
psa = jnp.ones((ix, il))
tskin = jnp.full((ix, il), 285.0)
shf, q1 = get_surface_fluxes(ta, ua, va, qa, rh, psa, tskin, Parameters(SurfaceFluxParameters.default()))
print(shf[:, :, 0].mean(), q1[:, :, 0].mean())

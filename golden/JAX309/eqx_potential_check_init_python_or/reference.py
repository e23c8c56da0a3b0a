# Cut down from https://github.com/GalacticDynamics/galax/pull/692
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp

LOG2 = jnp.log(2.0)


class LeeSutoTriaxialNFWPotential(eqx.Module):
    m: jax.Array = eqx.field(converter=jnp.asarray)
    r_s: jax.Array = eqx.field(converter=jnp.asarray)
    a1: jax.Array = eqx.field(converter=jnp.asarray, default=1.0)
    a2: jax.Array = eqx.field(converter=jnp.asarray, default=1.0)
    a3: jax.Array = eqx.field(converter=jnp.asarray, default=1.0)

    def __check_init__(self) -> None:
        t = jnp.asarray(0.0)
        _ = eqx.error_if(
            t,
            jnp.logical_or(self.a1 < self.a2, self.a2 < self.a3),
            "a1 >= a2 >= a3 is required",
        )

    @partial(jax.jit)
    def _potential(self, xyz, t):
        v_c2 = 4.498502151469554e-12 * self.m / self.r_s
        e_b2 = 1 - jnp.square(self.a2 / self.a1)
        e_c2 = 1 - jnp.square(self.a3 / self.a1)
        phi0 = v_c2 / (LOG2 - 0.5 + (LOG2 - 0.75) * (e_b2 + e_c2))
        s = jnp.linalg.vector_norm(xyz, axis=-1) / self.r_s
        return -phi0 * jnp.log(1 + s) / s


@jax.jit
def potential_at(m, a2, q):
    pot = LeeSutoTriaxialNFWPotential(m=m, r_s=15.0, a1=1.0, a2=a2, a3=0.8)
    return pot._potential(q, 0.0)


q = jnp.array([1.0, 0.0, 0.0])
print(round(float(potential_at(1e11, 0.9, q)), 6))

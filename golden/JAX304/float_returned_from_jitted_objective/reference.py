from typing import cast

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def compute_objective_batched(
    chis: tuple[jax.Array, jax.Array, jax.Array, jax.Array],
    zetas: jax.Array,
    chols: tuple[jax.Array, jax.Array],
    norm_factors: tuple[jax.Array, jax.Array, jax.Array, jax.Array],
    num_kpts: int,
    penalty_param: float = 0.0,
) -> float:
    """Compute THC objective function.

    Batches evaluation over kpts.
    """
    eri_thc = jnp.einsum(
        "Jpm,Jqm,Jmn,Jrn,Jsn->Jpqrs",
        chis[0].conj(),
        chis[1],
        zetas,
        chis[2].conj(),
        chis[3],
        optimize=True,
    )
    eri_ref = jnp.einsum("Jnpq,Jnrs->Jpqrs", chols[0], chols[1], optimize=True)
    deri = (eri_thc - eri_ref) / num_kpts
    norm_left = norm_factors[0] * norm_factors[1]
    norm_right = norm_factors[2] * norm_factors[3]
    mpq_normalized = (
        jnp.einsum("JP,JPQ,JQ->JPQ", norm_left, zetas, norm_right, optimize=True) / num_kpts
    )

    lambda_z = jnp.sum(jnp.einsum("jpq->j", 0.5 * jnp.abs(mpq_normalized)) ** 2.0)

    res = 0.5 * jnp.sum((jnp.abs(deri)) ** 2) + penalty_param * lambda_z
    return cast(float, res)


rng = np.random.default_rng(7)
nbatch, norb, nthc, nchol = 2, 3, 4, 5
chis = tuple(jnp.asarray(rng.standard_normal((nbatch, norb, nthc))) for _ in range(4))
zetas = jnp.asarray(rng.standard_normal((nbatch, nthc, nthc)))
chols = tuple(jnp.asarray(rng.standard_normal((nbatch, nchol, norb, norb))) for _ in range(2))
norm_factors = tuple(jnp.asarray(rng.uniform(0.5, 1.5, (nbatch, nthc))) for _ in range(4))
objective = compute_objective_batched(chis, zetas, chols, norm_factors, 2, penalty_param=1e-3)
print(round(float(objective), 3))

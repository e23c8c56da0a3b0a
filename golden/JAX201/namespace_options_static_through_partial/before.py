# Cut down from graphcore-research/pyscf-ipu nanoDFT/nanoDFT.py
import argparse
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

HYB_B3LYP = 0.2


def energy(density_matrix, H_core, J, K, E_nuc, _np=jax.numpy):
    E_core = _np.sum(density_matrix * H_core)
    E_J = _np.sum(density_matrix * J)
    E_K = _np.sum(density_matrix * K)
    E = E_core + E_J / 2 - E_K / 4 + E_nuc
    return _np.array([E, E_core, E_J / 2, -E_K / 4, E_nuc])


def get_JK(density_matrix, ERI, opts):
    if opts.backend != "ipu":
        J = jnp.einsum('ijkl,ji->kl', ERI, density_matrix)
        K = jnp.einsum('ijkl,jk->il', ERI, density_matrix)
    else:
        raise NotImplementedError
    return J, K * HYB_B3LYP


def nanoDFT_iteration(i, vals, opts):
    density_matrix, J, K, H_core, L_inv, E_nuc, occupancy, ERI, log = vals
    H = H_core + J - K / 2
    eigvals, eigvects = jnp.linalg.eigh(L_inv @ H @ L_inv.T)
    generalized_eigvects = L_inv.T @ eigvects
    density_matrix = (generalized_eigvects * occupancy * 2) @ generalized_eigvects.T
    J, K = get_JK(density_matrix, ERI, opts)
    log["energy"] = log["energy"].at[i].set(energy(density_matrix, H_core, J, K, E_nuc))
    return [density_matrix, J, K, H_core, L_inv, E_nuc, occupancy, ERI, log]


def _nanoDFT(E_nuc, density_matrix, kinetic, nuclear, O, ERI, mask, L_inv, opts):
    J, K = get_JK(density_matrix, ERI, opts)
    H_core = kinetic + nuclear
    log = {"energy": np.zeros((opts.its, 5))}
    log = jax.lax.fori_loop(0, opts.its, partial(nanoDFT_iteration, opts=opts),
                            [density_matrix, J, K, H_core, L_inv, E_nuc, mask, ERI, log])[-1]
    return H_core, log["energy"]


def init_dft_tensors_cpu(N=4, n_electrons_half=2):
    rng = np.random.default_rng(0)
    A = rng.normal(size=(N, N)) * 0.1
    O = np.eye(N) + (A + A.T) / 4
    kinetic = np.diag(np.arange(1.0, N + 1))
    B = rng.normal(size=(N, N))
    nuclear = -(B @ B.T) / N
    ERI = np.abs(rng.normal(size=(N, N, N, N))) * 0.05
    ERI = (ERI + ERI.transpose(1, 0, 2, 3) + ERI.transpose(0, 1, 3, 2) + ERI.transpose(2, 3, 0, 1)) / 4
    L_inv = np.linalg.inv(np.linalg.cholesky(O))
    density_matrix = np.eye(N) * 0.5
    mask = np.concatenate([np.ones(n_electrons_half), np.zeros(N - n_electrons_half)])
    E_nuc = 1.5
    tensors = tuple(np.asarray(t, dtype=np.float32) for t in
                    (E_nuc, density_matrix, kinetic, nuclear, O, ERI, mask, L_inv))
    return tensors


def nanoDFT(opts):
    tensors = init_dft_tensors_cpu()
    # `opts` only steers tracing (loop length, backend), so pass it as a static argument
    # instead of closing over it with partial.
    jitted_nanoDFT = jax.jit(_nanoDFT, static_argnames=("opts",))
    H_core, logged_energies = jitted_nanoDFT(*tensors, opts=opts)
    return np.asarray(logged_energies, dtype=np.float64)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--its", type=int, default=5)
    parser.add_argument("--backend", type=str, default="cpu")
    opts = parser.parse_args([])
    energies = nanoDFT(opts)
    print(np.round(energies[:, 0], 4).tolist())

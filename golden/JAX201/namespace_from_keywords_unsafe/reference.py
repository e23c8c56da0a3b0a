# Cut down from graphcore-research/pyscf-ipu#20 ("Make 'opt' hashable").
# nanoDFT builds its options with argparse.Namespace and the issue proposes
# passing `opts` to the jitted SCF routine via static_argnames instead of
# functools.partial.  The chemistry (pyscf molecule, ERIs, B3LYP) is replaced by
# a tiny synthetic Hartree-Fock-like fixed-point iteration with the same
# structure (fori_loop over opts.its, optional DIIS-like mixing, eigh).
from argparse import Namespace
from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def nanoDFT_options(float32=True, its=8, diis=True, backend="cpu", xc="b3lyp",
                    n_electrons_half=2, mixing=0.5):
    args = dict(locals())
    args = Namespace(**args)
    args = namedtuple('immutable', vars(args).keys())(**vars(args))  # make immutable / hashable
    if not args.float32:
        jax.config.update('jax_enable_x64', True)
    return args


def get_JK(density_matrix, ERI):
    J = jnp.einsum('ijkl,ji->kl', ERI, density_matrix)
    K = jnp.einsum('ijkl,jk->il', ERI, density_matrix)
    return J, K


def DIIS(i, H, H_prev, opts):
    return opts.mixing * H + (1 - opts.mixing) * H_prev


def nanoDFT_iteration(i, vals, opts, ERI, H_core):
    density_matrix, H_prev, energies = vals
    J, K = get_JK(density_matrix, ERI)
    H = H_core + J - K / 2
    if opts.diis: H = DIIS(i, H, H_prev, opts)
    eigvals, eigvects = jnp.linalg.eigh(H)
    C = eigvects[:, :opts.n_electrons_half]
    density_matrix = 2 * C @ C.T
    energy = jnp.sum(density_matrix * (H_core + H)) / 2
    energies = energies.at[i].set(energy)
    return density_matrix, H, energies


def _nanoDFT(density_matrix, H_core, ERI, opts):
    energies = jnp.zeros(opts.its)
    vals = (density_matrix, H_core, energies)
    vals = jax.lax.fori_loop(0, opts.its, partial(nanoDFT_iteration, opts=opts, ERI=ERI, H_core=H_core), vals)
    return vals[2]


def nanoDFT(opts):
    N = 6
    rng = np.random.RandomState(0)
    A = rng.randn(N, N)
    H_core = jnp.asarray(-(A @ A.T) / N - 2 * np.eye(N), dtype=jnp.float32)
    E = rng.rand(N, N, N, N) * 0.05
    E = E + E.transpose(1, 0, 2, 3); E = E + E.transpose(0, 1, 3, 2); E = E + E.transpose(2, 3, 0, 1)
    ERI = jnp.asarray(E, dtype=jnp.float32)
    density_matrix = jnp.zeros((N, N), dtype=jnp.float32)

    # pyscf-ipu#20: "If we make opt hashable we can instead use static_argnum"
    jitted_nanoDFT = jax.jit(_nanoDFT, static_argnames=("opts",))
    return jitted_nanoDFT(density_matrix, H_core, ERI, opts)


opts = nanoDFT_options()
energies = nanoDFT(opts)
print(np.round(np.asarray(energies), 4).tolist())

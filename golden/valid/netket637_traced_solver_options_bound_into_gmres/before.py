"""Look-alike of netket#637: the solver config in a chain of flax.struct dataclasses is traced
inside the jitted solve, and its traced fields reach gmres through partial; but only `tol`,
`atol` and `maxiter` (gmres takes those traced), while `restart` is declared static."""
from functools import partial
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class SR:
    diag_shift: float = 0.01


@struct.dataclass
class SRLazy(SR):
    tol: float = 1.0e-5
    atol: float = 0.0
    maxiter: int = 50


@struct.dataclass
class SRLazyGMRES(SRLazy):
    restart: int = struct.field(pytree_node=False, default=20)
    solve_method: str = struct.field(pytree_node=False, default="batched")

    def solve_fun(self):
        return partial(
            jax.scipy.sparse.linalg.gmres,
            tol=self.tol,
            atol=self.atol,
            maxiter=self.maxiter,
            restart=self.restart,
            solve_method=self.solve_method,
        )


def mat_vec(v, forward_fn, params, samples, diag_shift):
    f = lambda W: forward_fn(W, samples)
    _, jvp = jax.jvp(f, (params,), (v,))
    jvp = jvp - jnp.mean(jvp)
    _, vjp_fun = jax.vjp(f, params)
    (res,) = vjp_fun(jvp / samples.shape[0])
    return res + diag_shift * v


@partial(jax.jit, static_argnums=0)
def apply_onthefly(apply_fun, params, samples, sr, grad, x0):
    def fun(W, sigma):
        return apply_fun(W, sigma)

    if x0 is None:
        x0 = jnp.zeros_like(grad)

    _mat_vec = partial(
        mat_vec, forward_fn=fun, params=params, samples=samples, diag_shift=sr.diag_shift
    )
    solve_fun = sr.solve_fun()
    out, _ = solve_fun(_mat_vec, grad, x0=x0)
    return out


def log_psi(W, sigma):
    return jnp.tanh(sigma @ W)


samples = jnp.array(
    [[1, -1, 1, -1], [1, 1, -1, -1], [-1, 1, 1, -1], [1, 1, 1, 1],
     [-1, -1, 1, 1], [1, -1, -1, 1], [-1, 1, -1, 1], [-1, -1, -1, -1]],
    dtype=jnp.float32,
)
params = jnp.array([0.1, -0.2, 0.05, 0.3])
grad = jnp.array([0.5, -0.25, 0.1, 0.0])

sr = SRLazyGMRES(diag_shift=0.1)
dw = apply_onthefly(log_psi, params, samples, sr, grad, None)
print([round(float(v), 4) for v in dw])

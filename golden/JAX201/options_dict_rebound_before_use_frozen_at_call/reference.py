# Schrödinger-equation solver (cut down from dynamiqs' sesolve; the ODE solvers are
# replaced by an exact matrix-exponential propagator).
from __future__ import annotations

from functools import partial
from typing import ClassVar

import equinox as eqx
import jax
from jax import Array
from jax import numpy as jnp
from jax.scipy.linalg import expm
from jaxtyping import ArrayLike


def get_cdtype(dtype=None):
    if dtype is None:
        return jnp.complex128 if jax.config.jax_enable_x64 else jnp.complex64
    return dtype


class Options(eqx.Module):
    save_states: bool
    verbose: bool
    _double_precision: bool
    cartesian_batching: bool

    def __init__(
        self,
        *,
        save_states: bool = True,
        verbose: bool = True,
        dtype: jnp.complex64 | jnp.complex128 | None = None,
        cartesian_batching: bool = True,
    ):
        self.save_states = save_states
        self.verbose = verbose
        cdtype = get_cdtype(dtype)
        self._double_precision = cdtype == jnp.complex128
        self.cartesian_batching = cartesian_batching

    @property
    def rdtype(self) -> jnp.float32 | jnp.float64:
        return jnp.float64 if self._double_precision else jnp.float32

    @property
    def cdtype(self) -> jnp.complex64 | jnp.complex128:
        return jnp.complex128 if self._double_precision else jnp.complex64


class Solver(eqx.Module):
    SUPPORTED_GRADIENT: ClassVar[tuple] = ()

    @classmethod
    def assert_supports_gradient(cls, gradient) -> None:
        if gradient is not None:
            raise ValueError(f'Solver `{cls.__name__}` does not support gradients.')


class Propagator(Solver):
    pass


class Result(eqx.Module):
    tsave: Array
    ysave: Array
    Esave: Array | None


@partial(jax.jit, static_argnames=('solver', 'gradient', 'options'))
def sesolve(
    H: ArrayLike,
    psi0: ArrayLike,
    tsave: ArrayLike,
    *,
    exp_ops: list[ArrayLike] | None = None,
    solver: Solver = Propagator(),
    gradient=None,
    options: Options = Options(),
) -> Result:
    # === convert arguments
    H = jnp.asarray(H, dtype=options.cdtype)
    y0 = jnp.asarray(psi0, dtype=options.cdtype)
    ts = jnp.asarray(tsave, dtype=options.rdtype)
    Es = jnp.asarray(exp_ops, dtype=options.cdtype) if exp_ops is not None else None

    # === check gradient is supported
    solver.assert_supports_gradient(gradient)

    # === run solver
    props = jax.vmap(lambda t: expm(-1j * (t - ts[0]) * H))(ts)
    ysave = props @ y0
    Esave = None
    if Es is not None:
        Esave = jnp.einsum('tia,eij,tja->et', ysave.conj(), Es, ysave).real
    if not options.save_states:
        ysave = ysave[-1]

    return Result(ts, ysave, Esave)


# qubit driven around x: H = omega / 2 * sigma_x
omega = 2.0
sx = jnp.array([[0.0, 1.0], [1.0, 0.0]])
sz = jnp.array([[1.0, 0.0], [0.0, -1.0]])
H = 0.5 * omega * sx
psi0 = jnp.array([[1.0], [0.0]])
tsave = jnp.linspace(0.0, 3.0, 7)

result = sesolve(H, psi0, tsave, exp_ops=[sz], options=Options(save_states=False))
print('<sigma_z>(t) =', result.Esave[0])
print('final state =', result.ysave.ravel())

"""Which iterative-solver options jax.scipy.sparse.linalg takes traced (netket#637: gmres's
`restart`, bound from a traced flax.struct field). Each option is handed in as the jitted
function's traced argument; 'fails' gives the error's type."""

import jax
import jax.numpy as jnp
from jax.scipy.sparse.linalg import bicgstab, cg, gmres

A = jnp.array([[3.0, 1.0], [1.0, 2.0]])
b = jnp.array([1.0, 1.0])


def matvec(v):
    return A @ v


if __name__ == "__main__":
    print(f"jax {jax.__version__}")
    print("| solver | option (traced) | under jit |")
    print("|---|---|---|")
    for solver, option, value in (
        (gmres, "restart", 5), (gmres, "maxiter", 5), (gmres, "tol", 1e-5), (cg, "maxiter", 5), (bicgstab, "maxiter", 5),
    ):
        try:
            out = jax.jit(lambda v, solver=solver, option=option: solver(matvec, b, **{option: v})[0])(value)
            result = f"works: {[round(float(x), 4) for x in out]}"
        except Exception as e:  # noqa: BLE001 - the table records the error's type
            result = f"fails: {type(e).__name__}"
        print(f"| `{solver.__name__}` | `{option}` | {result} |")

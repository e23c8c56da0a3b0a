"""G. ``jnp.ravel_multi_index``'s ``dims`` must be a Python or NumPy value under a trace.

waymax#37: a discretizer built with ``bins=128 * jnp.array(...)`` computes ``self._bins + 1`` inside
``lax.scan``. Each row is one spelling; "ok" and what it printed, or the error type.
(``jnp.unravel_index``'s ``shape`` takes a traced vector in this version: no sink.)
"""
import jax
import jax.numpy as jnp
import numpy as np

dims_np = np.array([3, 4])
dims_jnp = jnp.array([3, 4])
idx = (jnp.array([1, 2]), jnp.array([0, 3]))
flat = jnp.array([5, 7])
ROWS = [
    ("ravel_multi_index, NumPy dims + 1, jit", lambda: jax.jit(lambda i: jnp.ravel_multi_index(i, dims_np + 1, mode="clip"))(idx)),
    ("ravel_multi_index, concrete jnp dims closed over, jit", lambda: jax.jit(lambda i: jnp.ravel_multi_index(i, dims_jnp, mode="clip"))(idx)),
    ("ravel_multi_index, jnp dims + 1 computed in jit", lambda: jax.jit(lambda i: jnp.ravel_multi_index(i, dims_jnp + 1, mode="clip"))(idx)),
    ("ravel_multi_index, jnp dims + 1, eager", lambda: jnp.ravel_multi_index(idx, dims_jnp + 1, mode="clip")),
    ("ravel_multi_index, closed-over jnp dims, scan body", lambda: jax.lax.scan(lambda c, i: (c, jnp.ravel_multi_index((i, i), dims_jnp, mode="clip")), 0, jnp.arange(2))[1]),
    ("unravel_index, NumPy shape + 1, jit", lambda: jax.jit(lambda i: jnp.unravel_index(i, dims_np + 1))(flat)),
    ("unravel_index, jnp shape + 1 computed in jit", lambda: jax.jit(lambda i: jnp.unravel_index(i, dims_jnp + 1))(flat)),
]

if __name__ == "__main__":
    print("| call | result |")
    print("|---|---|")
    for label, thunk in ROWS:
        try:
            out = thunk()
            print(f"| {label} | ok: {np.asarray(out).tolist()} |")
        except Exception as error:  # noqa: BLE001 - the error type is the row
            print(f"| {label} | {type(error).__name__} |")

# Adapted from data-apis/array-api PR #999 (review thread on spec/2025.12/tutorial_basic.md):
# the tutorial's array-API HITS power iteration, run with xp = jax.numpy and jitted --
# "which is what I would do first thing after reading this tutorial".
import numpy as np
import jax
import jax.numpy as xp


def is_converged(xprev, x, N, tol):
    err = xp.sum(xp.abs(x - xprev))
    return err < xp.asarray(N * tol)


def hits(A, max_iter=100, tol=1.0e-6, normalized=True):
    A = xp.asarray(A)
    N = A.shape[0]
    h = xp.full(N, 1.0 / N)
    # Power iteration: make up to max_iter iterations
    for _i in range(max_iter):
        hprev = h
        a = hprev @ A
        h = A @ a
        h = h / xp.max(h)
        if is_converged(hprev, h, N, tol):
            break
    else:
        raise Exception("Didn't converge")
    if normalized:
        h = h / xp.sum(xp.abs(h))
        a = a / xp.sum(xp.abs(a))
    return h, a


A = np.array([[0, 1, 1, 0],
              [0, 0, 1, 0],
              [1, 0, 0, 1],
              [0, 0, 1, 0]], dtype=np.float32)

h, a = jax.jit(hits)(A)
print("hubs", np.round(np.asarray(h, dtype=np.float64), 4).tolist())
print("authorities", np.round(np.asarray(a, dtype=np.float64), 4).tolist())

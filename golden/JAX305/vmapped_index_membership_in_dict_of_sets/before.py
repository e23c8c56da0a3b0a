"""X_i(t) = sum_{j not in S_i} B_ij X_j(t) + alpha_j X_j(t) I(t > t0), vectorised over j with vmap."""
import numpy as onp
import jax.numpy as np
from jax import vmap

# S_i: for every output column i, the set of input columns j that are excluded
forbidden_idx = {0: {0, 2}, 1: {1}, 2: {0, 1}, 3: set()}


def _elementwise_op(x_col, b_val, alpha, t0=1):
    x_ret = b_val * x_col
    x_ret = x_ret.at[t0:].add(alpha * x_col[t0:])
    return x_ret


def _elementwise_update(i, x_col, b_val, alpha, j, t0=1):
    if j in forbidden_idx[i]:
        return np.zeros_like(x_col)
    return _elementwise_op(x_col, b_val, alpha, t0)


def predict_X(X, B, alpha, t0=1):
    t_max, m = X.shape
    cols = []
    for i in range(m):
        contrib = vmap(_elementwise_update, in_axes=(None, 1, 0, 0, 0, None))(
            i, X, B[i], alpha, np.arange(m), t0)
        cols.append(contrib.sum(axis=0))
    return np.stack(cols, axis=1)


rng = onp.random.RandomState(0)
X = np.asarray(rng.normal(size=(5, 4)), dtype=np.float32)
B = np.asarray(rng.normal(size=(4, 4)), dtype=np.float32)
alpha = np.asarray(rng.normal(size=(4,)), dtype=np.float32)
X_preds = predict_X(X, B, alpha, t0=2)
print(onp.round(onp.asarray(X_preds), 4))

"""X_i(t) = sum_{j not in S_i} B_ij X_j(t) + alpha_j X_j(t) I(t > t0), vectorised over j with vmap."""
import numpy as onp
import jax.numpy as np
from jax import vmap

# S_i: for every output column i, the set of input columns j that are excluded
forbidden_idx = {0: {0, 2}, 1: {1}, 2: {0, 1}, 3: set()}


def excluded_mask_from_sets(excluded_idx, m):
    # Redesign: the Python dict-of-sets cannot be queried with a traced j, so turn it
    # into a dense (m, m) boolean array once, outside of any transformation.
    mask = onp.zeros((m, m), dtype=bool)
    for i, js in excluded_idx.items():
        for j in js:
            mask[i, j] = True
    return np.asarray(mask)


def _elementwise_op(x_col, b_val, alpha, t0=1):
    x_ret = b_val * x_col
    x_ret = x_ret.at[t0:].add(alpha * x_col[t0:])
    return x_ret


def _elementwise_update(excluded, x_col, b_val, alpha, j, t0=1):
    return np.where(excluded[j], np.zeros_like(x_col), _elementwise_op(x_col, b_val, alpha, t0))


def predict_X(X, B, alpha, t0=1):
    t_max, m = X.shape
    excluded_mask = excluded_mask_from_sets(forbidden_idx, m)
    cols = []
    for i in range(m):
        contrib = vmap(_elementwise_update, in_axes=(None, 1, 0, 0, 0, None))(
            excluded_mask[i], X, B[i], alpha, np.arange(m), t0)
        cols.append(contrib.sum(axis=0))
    return np.stack(cols, axis=1)


rng = onp.random.RandomState(0)
X = np.asarray(rng.normal(size=(5, 4)), dtype=np.float32)
B = np.asarray(rng.normal(size=(4, 4)), dtype=np.float32)
alpha = np.asarray(rng.normal(size=(4,)), dtype=np.float32)
X_preds = predict_X(X, B, alpha, t0=2)
print(onp.round(onp.asarray(X_preds), 4))

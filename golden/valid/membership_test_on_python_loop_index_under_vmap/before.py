import jax.numpy as np
import numpy as onp
from jax import vmap

forbidden_idx = {0: {0, 2}, 1: {1}, 2: {0, 1}, 3: set()}


def column(i, X, B, alpha):
    def update(x_col, b_val, a):
        return b_val * x_col + a

    cols = [update(X[:, j], B[i, j], alpha[j]) for j in range(X.shape[1]) if j not in forbidden_idx[i]]
    return sum(cols) if cols else np.zeros(X.shape[0])


rng = onp.random.RandomState(0)
X = np.asarray(rng.normal(size=(5, 4)), dtype=np.float32)
B = np.asarray(rng.normal(size=(4, 4)), dtype=np.float32)
alpha = np.asarray(rng.normal(size=(4,)), dtype=np.float32)
out = vmap(lambda x: np.stack([column(i, X * x, B, alpha) for i in range(4)], axis=1))(np.array([1.0, 2.0]))
print(onp.round(onp.asarray(out), 4))

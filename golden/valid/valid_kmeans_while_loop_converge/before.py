# The convergence loop of secretflow/spu#148 written the way JAX wants it: a
# lax.while_loop whose condition is the traced test; the only Python loops run
# over literals (n_clusters), and max_iter is a literal bound inside the
# condition, so nothing traced reaches Python control flow.
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax, random


@jax.jit
def fit(X):
    n_clusters, tol, max_iter = 3, 1e-4, 10
    indice = random.choice(random.PRNGKey(0), X.shape[0], shape=(n_clusters,), replace=False)
    centroids = jnp.take(X, indice, axis=0)

    def step(centroids):
        labels = jnp.argmin(jnp.sum((X[:, None, :] - centroids[None]) ** 2, axis=-1), axis=1)
        return jnp.array([jnp.sum(X * (labels == j)[:, jnp.newaxis], axis=0) / jnp.maximum(jnp.sum(labels == j), 1)
                          for j in range(n_clusters)])

    def cond(state):
        i, old, new = state
        return (i < max_iter) & ~jnp.all(jnp.less(jnp.max(jnp.abs(new - old)), tol))

    def body(state):
        i, _, new = state
        return i + 1, new, step(new)

    _, _, centroids = lax.while_loop(cond, body, (1, centroids, step(centroids)))
    return centroids


X = np.random.RandomState(0).rand(30, 2)
print(np.round(np.asarray(fit(X)), 3))

# Hand fix for secretflow/spu#148: an early exit on a traced condition becomes a
# lax.while_loop whose condition is the convergence test (or the iteration cap).
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

# Cut down from secretflow/spu#148 ("Weird jax operations in spu"): a jitted
# k-means whose Python for loop breaks early once the centroids stop moving.
import numpy as np
import jax
import jax.numpy as jnp
from jax import random


@jax.jit
def fit(X: np.ndarray) -> np.ndarray:
    n_clusters = 3
    tol = 1e-4
    max_iter = 10
    indice = random.choice(random.PRNGKey(
        0), X.shape[0], shape=(n_clusters,), replace=False)
    centroids = jnp.take(X, indice, axis=0)

    for i in range(max_iter):
        old_centroids = centroids.copy()
        labels = jnp.argmin(jnp.sum((X[:, None, :] - centroids[None]) ** 2, axis=-1), axis=1)
        centroids = jnp.array(
            [jnp.sum(X * (labels == j)[:, jnp.newaxis], axis=0) / jnp.maximum(jnp.sum(labels == j), 1)
             for j in range(n_clusters)])

        # This is the line that causes the error
        if jnp.all(jnp.less(jnp.max(jnp.abs(centroids - old_centroids)), tol)):
            break

    return centroids


X = np.random.RandomState(0).rand(30, 2)
print(np.round(np.asarray(fit(X)), 3))

# Cut down from alonfnt/pcax#3 ("Error when compiling with jax.jit, ValueError:
# Non-hashable static arguments are not supported"): the library's fit() forwards
# n_components to _fit_full, which marks it static; the user jits fit itself, so
# n_components arrives at the inner static parameter as a tracer.
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class PCAState(NamedTuple):
    components: jax.Array
    means: jax.Array
    explained_variance: jax.Array


def transform(state, x):
    x = x - state.means
    return jnp.dot(x, jnp.transpose(state.components))


def fit(x, n_components, solver="full", rng=None):
    if solver == "full":
        return _fit_full(x, n_components)
    else:
        raise ValueError("solver parameter is not correct")


@partial(jax.jit, static_argnames="n_components")
def _fit_full(x, n_components):
    n_samples, n_features = x.shape

    # Subtract the mean of the input data
    means = x.mean(axis=0, keepdims=True)
    x = x - means

    # Factorize the data matrix with singular value decomposition.
    U, S, Vt = jax.scipy.linalg.svd(x, full_matrices=False)

    # Compute the explained variance
    explained_variance = (S[:n_components] ** 2) / (n_samples - 1)
    components = Vt[:n_components]
    return PCAState(components, means, explained_variance)


x = jax.random.normal(jax.random.PRNGKey(0), (20, 4))
fit_jit = jax.jit(fit, static_argnames=("n_components",))
state = fit_jit(x, 2)
print([round(float(v), 3) for v in state.explained_variance])
print(transform(state, x).shape)

# Annotator-agreement "multinomial" model (cut down from numpyro's
# examples/annotation.py) evaluated through a jitted potential.
# Fix from the PR: keep the data as NumPy arrays and compute the class count
# with NumPy, so it is a concrete Python int at trace time.
import numpy as np

import jax
import jax.numpy as jnp
from jax import nn


def get_data():
    # NB: the first annotator assessed each item 3 times
    positions = np.array([1, 1, 1, 2, 3, 4, 5])
    annotations = np.array([
        [1, 3, 1, 2, 2, 2, 1, 3, 2, 2, 4, 2],
        [1, 3, 1, 2, 2, 2, 1, 3, 2, 2, 4, 2],
        [1, 3, 2, 2, 2, 2, 1, 3, 2, 2, 3, 2],
        [1, 3, 2, 2, 2, 3, 1, 3, 2, 2, 4, 2],
        [1, 4, 2, 2, 2, 2, 1, 3, 2, 2, 4, 2],
        [1, 3, 2, 2, 2, 2, 1, 3, 2, 2, 4, 2],
        [1, 3, 2, 2, 2, 2, 1, 3, 2, 1, 4, 2],
    ]).T - 1
    return positions, annotations


def multinomial(annotations, z):
    """Log joint of Figure 1 of Paun et al.; z is the flat unconstrained vector."""
    num_classes = int(np.max(annotations)) + 1
    num_items, num_positions = annotations.shape
    pi = nn.log_softmax(z[:num_classes])
    zeta = nn.log_softmax(z[num_classes:].reshape(num_classes, num_classes), axis=-1)
    # marginalise the true class c of each item
    ll = pi[None, :] + zeta[:, annotations].sum(axis=-1).T
    return jax.scipy.special.logsumexp(ll, axis=-1).sum()


def make_potential(model, data):
    return jax.jit(lambda z: -model(data, z))


if __name__ == "__main__":
    _, annotations = get_data()
    k = 4
    z0 = jax.random.normal(jax.random.key(0), (k + k * k,)) * 0.1
    potential = make_potential(multinomial, annotations)
    pe, g = potential(z0), jax.grad(potential)(z0)
    print(round(float(pe), 4), round(float(jnp.abs(g).sum()), 4))

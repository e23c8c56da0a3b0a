# numpyro#754's annotation model after its fix, handed to a jitted potential: the data are
# NumPy arrays, so np.max of them is a concrete Python value while the model is traced.
import jax
import jax.numpy as jnp
import numpy as np
from jax import nn


def get_data():
    annotations = np.array([[1, 3, 1, 2], [1, 3, 2, 2], [1, 4, 2, 2]]).T - 1
    return annotations


def multinomial(annotations, z):
    num_classes = int(np.max(annotations)) + 1
    pi = nn.log_softmax(z[:num_classes])
    zeta = nn.log_softmax(z[num_classes:].reshape(num_classes, num_classes), axis=-1)
    ll = pi[None, :] + zeta[:, annotations].sum(axis=-1).T
    return jax.scipy.special.logsumexp(ll, axis=-1).sum()


def make_potential(model, data):
    return jax.jit(lambda z: -model(data, z))


if __name__ == "__main__":
    annotations = get_data()
    k = int(annotations.max()) + 1
    z0 = jax.random.normal(jax.random.key(0), (k + k * k,)) * 0.1
    potential = make_potential(multinomial, annotations)
    print(round(float(potential(z0)), 4), round(float(jnp.abs(jax.grad(potential)(z0)).sum()), 4))

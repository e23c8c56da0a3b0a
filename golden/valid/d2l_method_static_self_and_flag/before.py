# Inspired by d2l-ai/d2l-en PR #2347 ("JAX: Add AlexNet"): methods of a Flax
# module are jitted with @partial(jax.jit, static_argnums=(0, 4)) so that
# `self` (an unbound, hashable Flax module) and the Python bool `averaged`
# are compile-time constants.
from functools import partial
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn


class Classifier(nn.Module):
    num_outputs: int = 3
    num_hiddens: int = 8

    @nn.compact
    def __call__(self, X):
        X = nn.relu(nn.Dense(self.num_hiddens)(X))
        return nn.Dense(self.num_outputs)(X)

    @partial(jax.jit, static_argnums=(0, 4))
    def loss(self, params, X, Y, averaged=True):
        Y_hat = self.apply(params, X)
        Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
        Y = Y.reshape((-1,))
        fn = optax.softmax_cross_entropy_with_integer_labels
        return fn(Y_hat, Y).mean() if averaged else fn(Y_hat, Y)

    @partial(jax.jit, static_argnums=(0, 4))
    def accuracy(self, params, X, Y, averaged=True):
        Y_hat = self.apply(params, X)
        preds = Y_hat.argmax(axis=1).astype(Y.dtype)
        compare = (preds == Y).astype(jnp.float32)
        return compare.mean() if averaged else compare


model = Classifier()
X = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
Y = jnp.array([0, 1, 2, 1, 0])
params = model.init(jax.random.PRNGKey(0), X)

print("mean loss:", round(float(model.loss(params, X, Y)), 4))
print("per-example losses:", model.loss(params, X, Y, False).shape)
print("per-example losses (keyword):", model.loss(params, X, Y, averaged=False).shape)
print("accuracy:", round(float(model.accuracy(params, X, Y)), 4))

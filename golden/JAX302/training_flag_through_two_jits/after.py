# Cut down from a flax.linen DNN with Dropout trained under jax.jit.
# flax.linen / optax are replaced by tiny pure-JAX stand-ins with the same call shapes.
import jax
import jax.numpy as jnp
import numpy as np
from functools import partial


class Dropout:
    def __init__(self, rate, deterministic):
        self.rate = rate
        self.deterministic = deterministic

    def __call__(self, x, rng):
        if (self.rate == 0.0) or self.deterministic:
            return x
        keep = jax.random.bernoulli(rng, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x / (1.0 - self.rate), 0.0)


class DNN:
    def __init__(self, num_hidden_units1, num_hidden_units2, num_outputs, dropout_rate):
        self.num_hidden_units1 = num_hidden_units1
        self.num_hidden_units2 = num_hidden_units2
        self.num_outputs = num_outputs
        self.dropout_rate = dropout_rate

    def init(self, key, x, training):
        sizes = [x.shape[-1], self.num_hidden_units1, self.num_hidden_units2, self.num_outputs]
        keys = jax.random.split(key, 3)
        return {f"Dense_{i}": {"kernel": jax.random.normal(k, (m, n)) / np.sqrt(m), "bias": jnp.zeros(n)}
                for i, (k, m, n) in enumerate(zip(keys, sizes[:-1], sizes[1:]))}

    def apply(self, params, x, training, rngs):
        k1, k2 = jax.random.split(rngs["dropout"])
        x = x @ params["Dense_0"]["kernel"] + params["Dense_0"]["bias"]
        x = jax.nn.relu(x)
        x = Dropout(rate=self.dropout_rate, deterministic=not training)(x, k1)

        x = x @ params["Dense_1"]["kernel"] + params["Dense_1"]["bias"]
        x = jax.nn.relu(x)
        x = Dropout(rate=self.dropout_rate, deterministic=not training)(x, k2)

        x = x @ params["Dense_2"]["kernel"] + params["Dense_2"]["bias"]
        return x


class sgd:
    def __init__(self, learning_rate):
        self.learning_rate = learning_rate

    def init(self, params):
        return ()

    def update(self, grads, opt_state):
        return jax.tree.map(lambda g: -self.learning_rate * g, grads), opt_state


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)


model = DNN(num_hidden_units1=16, num_hidden_units2=8, num_outputs=1, dropout_rate=0.2)
optimizer = sgd(learning_rate=0.05)


def mse(params, X, y, training):
    def squared_error(X, y):
        y_pred = model.apply(params, X, training, rngs={'dropout': jax.random.PRNGKey(114)})
        diff = y_pred - y
        return jnp.inner(diff, diff)
    return jnp.mean(jax.vmap(squared_error)(X, y), axis=0)


@partial(jax.jit, static_argnames=("training",))
def train_setp(params, opt_state, X, y, training):
    loss, grads = jax.value_and_grad(mse)(params, X, y, training)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = apply_updates(params, updates)
    return params, opt_state, loss


@partial(jax.jit, static_argnames=("training",))
def fit(params, opt_state, X, y, training):
    for i in range(5):
        params, opt_state, loss = train_setp(params, opt_state, X, y, training)
    return params


X = jax.random.normal(jax.random.PRNGKey(0), (32, 4))
y = jnp.sum(X, axis=1, keepdims=True)

# Initialization
params = model.init(jax.random.PRNGKey(114), X, False)
opt_state = optimizer.init(params)

params = fit(params, opt_state, X, y, True)
print(np.round(float(mse(params, X, y, False)), 4))

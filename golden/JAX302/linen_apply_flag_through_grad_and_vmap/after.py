# Cut down from google/flax#4085 ("Dropout seems not compatible with jax.jit"): the model's
# `training` flag goes through a jitted train step, value_and_grad and vmap to
# `model.apply`, where `not training` needs a Python bool.
import jax
import jax.numpy as jnp
import optax
import flax.linen as nn
from functools import partial


class DNN(nn.Module):
    num_hidden_units1: int
    num_outputs: int
    dropout_rate: float

    @nn.compact
    def __call__(self, x, training):
        x = nn.Dense(self.num_hidden_units1)(x)
        x = nn.relu(x)
        x = nn.Dropout(rate=self.dropout_rate, deterministic=not training)(x)
        x = nn.Dense(self.num_outputs)(x)
        return x


def mse(params, X, y, training):
    def squared_error(X, y):
        y_pred = model.apply(params, X, training, rngs={'dropout': jax.random.PRNGKey(114)})
        diff = y_pred - y
        return jnp.inner(diff, diff)
    return jnp.mean(jax.vmap(squared_error)(X, y), axis=0)


@partial(jax.jit, static_argnames=("training",))
def train_step(params, opt_state, X, y, training):
    loss, grads = jax.value_and_grad(mse)(params, X, y, training)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


model = DNN(num_hidden_units1=8, num_outputs=1, dropout_rate=0.1)
X = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
y = X.sum(axis=1, keepdims=True)
params = model.init(jax.random.PRNGKey(114), X, False)
optimizer = optax.sgd(0.1)
opt_state = optimizer.init(params)
for i in range(3):
    params, opt_state, loss = train_step(params, opt_state, X, y, True)
    print(i, round(float(loss), 4))

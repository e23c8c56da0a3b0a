import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class Classifier(nn.Module):
    hidden: int = 8

    @nn.compact
    def __call__(self, x, training):
        x = nn.Dense(self.hidden)(x)
        x = nn.relu(x)
        x = x * jnp.where(training, 1.0, 0.5)
        return nn.Dense(2)(x)


def create_state(rng):
    model = Classifier()
    params = model.init(rng, jnp.ones((1, 4)), training=False)["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))


@jax.jit
def loss_fn(state, params, batch, labels, training, dropout_key):
    logits = state.apply_fn({"params": params}, batch, training, rngs={"dropout": dropout_key})
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


state = create_state(jax.random.PRNGKey(0))
batch = jnp.asarray(np.linspace(-1.0, 1.0, 12).reshape(3, 4), dtype=jnp.float32)
labels = jnp.array([0, 1, 0])
loss = loss_fn(state, state.params, batch, labels, False, jax.random.PRNGKey(1))
print(round(float(loss), 4))

# From patrick-kidger/equinox#792 ("Equivalent of flax's TrainState"): the final
# version keeps the optax transformation inside an eqx.Module and the step counter
# as a JAX array. Under eqx.filter_jit the non-array fields (tx, layer config) are
# treated as static and are hashable, while `step` is traced -- this runs fine.
from typing import Generic, TypeVar

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class MLP(eqx.Module):
    layers: list

    def __init__(self, key):
        keys = jax.random.split(key, 3)
        self.layers = [
            eqx.nn.Linear(1, 16, key=keys[0]),
            eqx.nn.Linear(16, 16, key=keys[1]),
            eqx.nn.Linear(16, 1, key=keys[2]),
        ]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x)


M = TypeVar("M", bound=eqx.Module)


class TrainState(eqx.Module, Generic[M]):
    model: M
    tx: optax.GradientTransformation
    opt_state: optax.OptState
    step: jnp.ndarray

    def apply_gradients(self, grads):
        updates, new_opt_state = self.tx.update(grads, self.opt_state, self.model)
        new_model = eqx.apply_updates(self.model, updates)
        return TrainState(new_model, self.tx, new_opt_state, self.step + 1)

    @classmethod
    def create(cls, *, model, tx):
        opt_state = tx.init(eqx.filter(model, eqx.is_array))
        return cls(model=model, tx=tx, opt_state=opt_state, step=jnp.array(0))


@eqx.filter_jit
def train_step(state, x, y):
    def loss_fn(model):
        pred = jax.vmap(model)(x)
        return jnp.mean((pred - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(state.model)
    return state.apply_gradients(grads), loss


x = jnp.linspace(-1.0, 1.0, 32).reshape(-1, 1)
y = x ** 2
state = TrainState.create(model=MLP(jax.random.PRNGKey(0)), tx=optax.adam(1e-2))
for _ in range(50):
    state, loss = train_step(state, x, y)
print(int(state.step), round(float(loss), 3))

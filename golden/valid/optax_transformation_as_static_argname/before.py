from functools import partial

import jax
import jax.numpy as jnp
import optax

n_traces = 0


def loss_fn(params, x, y):
    pred = x @ params["foo"]
    return jnp.mean((pred - y) ** 2)


@partial(jax.jit, static_argnames=("optimizer",))
def train_step(optimizer, params, opt_state, x, y):
    global n_traces
    n_traces += 1  # runs once per compilation
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


def train():
    optimizer = optax.adam(1e-2)
    params = {"foo": jnp.zeros((100, 1))}
    opt_state = optimizer.init(params)
    x = jnp.linspace(-1.0, 1.0, 300).reshape(3, 100)
    y = jnp.array([[1.0], [0.0], [-1.0]])
    for _ in range(10):
        params, opt_state, loss = train_step(optimizer, params, opt_state, x, y)
    return loss


for _ in range(3):
    loss = train()
print(round(float(loss), 4))
print(n_traces)

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Config(NamedTuple):
    epochs: int = 300              # Number of passes through the data set
    output_dim: int = 10           # Output dimension of input and hidden layers
    learning_rate: float = 0.01    # Learning rate for gradient descent
    layer_sizes: tuple = (1, 10, 10, 10, 1)  # Sizes of each layer in the network
    seed: int = 14                 # Random seed for data generation


class LayerParams(NamedTuple):
    W: jax.Array     # weights
    b: jax.Array     # biases


def generate_data(key, data_size=100, x_min=0.0, x_max=5.0):
    x = jnp.linspace(x_min, x_max, num=data_size)
    eps = 0.2 * jax.random.normal(key, shape=(data_size,))
    y = x**0.5 + jnp.sin(x) + eps
    return jnp.reshape(x, (data_size, 1)), jnp.reshape(y, (data_size, 1))


def initialize_layer(in_dim, out_dim, key):
    W = jax.random.normal(key, shape=(in_dim, out_dim)) * jnp.sqrt(2 / in_dim)
    b = jnp.ones((1, out_dim))
    return LayerParams(W, b)


def initialize_network(key, config: Config):
    layer_sizes = config.layer_sizes
    params = []
    for i in range(len(layer_sizes) - 1):
        key, subkey = jax.random.split(key)
        params.append(initialize_layer(layer_sizes[i], layer_sizes[i + 1], subkey))
    return params


def f(θ, x, σ=jnp.tanh):
    *hidden, last = θ
    for layer in hidden:
        x = σ(x @ layer.W + layer.b)
    return x @ last.W + last.b


def loss_fn(θ, x, y):
    return jnp.mean((f(θ, x) - y)**2)


loss_gradient = jax.jit(jax.grad(loss_fn))


def update_parameters(θ, x, y, config: Config):
    λ = config.learning_rate
    gradient = loss_gradient(θ, x, y)
    return jax.tree.map(lambda p, g: p - λ * g, θ, gradient)


@partial(jax.jit, static_argnames=['config'])
def train_jax_model(θ, x, y, config: Config):
    def update(_, θ):
        return update_parameters(θ, x, y, config)
    return jax.lax.fori_loop(0, config.epochs, update, θ)


config = Config()
key = jax.random.key(config.seed)
x_train, y_train = generate_data(key)
θ = initialize_network(jax.random.key(1234), config)
θ = train_jax_model(θ, x_train, y_train, config)
print(len(θ), [layer.W.shape for layer in θ])
print(f"{float(loss_fn(θ, x_train, y_train)):.3f}")

# OptimizedLSTMCell as first written for flax.linen (google/flax#648):
# the split points of the fused gate matmul are computed with jnp.cumsum.
from typing import Any, Callable, Tuple

import numpy as np
import jax
import jax.numpy as jnp
from jax import random
from flax import linen as nn
from flax.linen.activation import sigmoid, tanh
from flax.linen.initializers import lecun_normal, orthogonal, zeros

Array = Any


class DenseParams(nn.Module):
    """Dummy module for creating parameters matching `flax.linen.Dense`."""
    features: int
    use_bias: bool = True
    kernel_init: Callable = lecun_normal()
    bias_init: Callable = zeros

    @nn.compact
    def __call__(self, inputs: Array) -> Tuple[Array, Array]:
        k = self.param('kernel', self.kernel_init, (inputs.shape[-1], self.features))
        b = (self.param('bias', self.bias_init, (self.features,))
             if self.use_bias else jnp.zeros((self.features,)))
        return k, b


class OptimizedLSTMCell(nn.Module):
    gate_fn: Callable = sigmoid
    activation_fn: Callable = tanh
    kernel_init: Callable = lecun_normal()
    recurrent_kernel_init: Callable = orthogonal()
    bias_init: Callable = zeros

    @nn.compact
    def __call__(self, carry, inputs):
        c, h = carry
        hidden_features = h.shape[-1]

        def _concat_dense(inputs, params, use_bias=True):
            kernels, biases = zip(*params.values())
            kernel = jnp.asarray(jnp.concatenate(kernels, axis=-1), jnp.float32)
            y = jnp.dot(inputs, kernel)
            if use_bias:
                bias = jnp.asarray(jnp.concatenate(biases, axis=-1), jnp.float32)
                y = y + bias
            # Split the result back into individual (i, f, g, o) outputs.
            split_indices = np.cumsum([b.shape[0] for b in biases[:-1]])
            ys = jnp.split(y, split_indices, axis=-1)
            return dict(zip(params.keys(), ys))

        dense_params_h = {}
        dense_params_i = {}
        for component in ['i', 'f', 'g', 'o']:
            dense_params_i[component] = DenseParams(
                features=hidden_features, use_bias=False,
                kernel_init=self.kernel_init, bias_init=self.bias_init,
                name=f'i{component}')(inputs)
            dense_params_h[component] = DenseParams(
                features=hidden_features, use_bias=True,
                kernel_init=self.recurrent_kernel_init, bias_init=self.bias_init,
                name=f'h{component}')(h)
        dense_h = _concat_dense(h, dense_params_h, use_bias=True)
        dense_i = _concat_dense(inputs, dense_params_i, use_bias=False)

        i = self.gate_fn(dense_h['i'] + dense_i['i'])
        f = self.gate_fn(dense_h['f'] + dense_i['f'])
        g = self.activation_fn(dense_h['g'] + dense_i['g'])
        o = self.gate_fn(dense_h['o'] + dense_i['o'])

        new_c = f * c + i * g
        new_h = o * self.activation_fn(new_c)
        return (new_c, new_h), new_h

    @staticmethod
    def initialize_carry(rng, batch_dims, size, init_fn=zeros):
        key1, key2 = random.split(rng)
        mem_shape = batch_dims + (size,)
        return init_fn(key1, mem_shape), init_fn(key2, mem_shape)


cell = OptimizedLSTMCell()
key = random.PRNGKey(0)
xs = random.normal(key, (5, 3, 4))          # (time, batch, features)
carry = OptimizedLSTMCell.initialize_carry(key, (3,), 6)
params = cell.init(key, carry, xs[0])


@jax.jit
def run(params, carry, xs):
    def step(carry, x):
        return cell.apply(params, carry, x)
    return jax.lax.scan(step, carry, xs)


(c, h), ys = run(params, carry, xs)
print("ys shape:", ys.shape)
print("h sum:", round(float(h.sum()), 4), "c sum:", round(float(c.sum()), 4))

import jax
from jax import numpy as jnp


def onnx_nonzero(*input_args):
  x, = input_args
  return jnp.stack(jnp.nonzero(x, size=x.size, fill_value=-1))


def onnx_relu(*input_args):
  x, = input_args
  return jnp.maximum(x, 0)


@jax.jit
def infer(inputs):
  return onnx_nonzero(onnx_relu(inputs - 0.5))


inputs = jnp.array([[0.1, 0.9, 0.4], [0.7, 0.2, 0.6]], dtype=jnp.float32)
print(infer(inputs).tolist())

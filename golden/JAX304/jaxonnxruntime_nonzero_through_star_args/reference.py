import functools

import jax
from jax import numpy as jnp


@functools.partial(jax.jit, static_argnames="size")
def onnx_nonzero(*input_args, size):
  """The impl for https://github.com/onnx/onnx/blob/v1.12.0/docs/Operators.md#NonZero."""
  assert len(input_args) == 1
  x, = input_args
  count = jnp.count_nonzero(x)
  return jnp.stack(jnp.nonzero(x, size=size, fill_value=-1)), count


def model_func(params, inputs):
  x = inputs * params["scale"] - params["shift"]
  mask = jnp.where(x > 0, x, 0)
  return onnx_nonzero(mask, size=mask.size)


@jax.jit
def infer(inputs):
  return model_func(params, inputs)


params = {"scale": jnp.float32(2.0), "shift": jnp.float32(1.0)}
inputs = jnp.array([[0.1, 0.9, 0.4], [0.7, 0.2, 0.6]], dtype=jnp.float32)
indices, count = infer(inputs)
print(indices.tolist(), int(count))
print(indices[:, :int(count)].tolist())

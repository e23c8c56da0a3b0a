from functools import partial

import jax
import jax.numpy as np
import numpy as onp


@partial(jax.jit, static_argnums=1)
def gradient(a, axis=None):

  def _gradient_along_axis(a, axis):
    a_swap = np.swapaxes(a, 0, axis)
    a_grad = np.concatenate((
      (a_swap[1]  - a_swap[0])[np.newaxis],
      (a_swap[2:] - a_swap[:-2]) * 0.5,
      (a_swap[-1] - a_swap[-2])[np.newaxis]
      ), axis=0)
    return np.swapaxes(a_grad, 0, axis)

  if axis is None:
    axis = range(a.ndim)
  else:
    if isinstance(axis, int):
      axis = (axis,)
    if not isinstance(axis, tuple):
      raise ValueError("Give `axis` either as int or tuple of ints")

  a_grad = [_gradient_along_axis(a, ax) for ax in axis]
  if len(axis) == 1:
    a_grad = a_grad[0]

  return a_grad


a = np.arange(12.).reshape(3, 4) ** 2
print([g.tolist() for g in gradient(a)])
print(gradient(a, 1).tolist())
print(gradient(a, axis=(0,)).tolist())
print([g.tolist() for g in gradient(a, axis=(1, 0))])
print(all(onp.allclose(x, y) for x, y in zip(gradient(a), onp.gradient(onp.asarray(a)))))

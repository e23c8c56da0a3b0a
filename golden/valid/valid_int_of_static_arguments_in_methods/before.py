import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=(1, 2, 3, 4))
def interpolate_fn(X: jnp.ndarray, t_min: float, t_max: float, refinement_factor: float, kind: str = "linear") -> jnp.ndarray:
  if kind != "linear":
    raise ValueError("Only linear interpolation is supported for now.")
  length = X.shape[1]
  old_grid = jnp.linspace(t_min, t_max, length, dtype=X.dtype)
  new_length = int((length - 1) * refinement_factor + 1)
  new_grid = jnp.linspace(t_min, t_max, new_length, dtype=X.dtype)
  return jax.vmap(jax.vmap(lambda x: jnp.interp(new_grid, old_grid, x), in_axes=1, out_axes=1))(X)


@partial(jax.jit, static_argnums=(1, 2))
def add_time_fn(X: jnp.ndarray, t_min: float, t_max: float) -> jnp.ndarray:
  grid = jnp.linspace(t_min, t_max, X.shape[1], dtype=X.dtype)
  return jnp.concatenate([jnp.tile(jnp.expand_dims(grid, axis=[0, 2]), (X.shape[0], 1, 1)), X], axis=2)


class SigKernel:
  def __init__(self, s0: float = 0., t0: float = 0., S: float = 1., T: float = 1., refinement_factor: float = 1.,
               add_time: bool = False, interpolation: str = "linear"):
    self.s0 = s0
    self.t0 = t0
    self.S = S
    self.T = T
    self.refinement_factor = refinement_factor
    self.add_time = add_time
    self.interpolation = interpolation

  @partial(jax.jit, static_argnums=(0,))
  def kernel_matrix(self, X: jnp.ndarray, Y: jnp.ndarray) -> jnp.ndarray:
    # interpolate on new grid
    X = interpolate_fn(X, t_min=self.s0, t_max=self.S, refinement_factor=self.refinement_factor, kind=self.interpolation)
    Y = interpolate_fn(Y, t_min=self.t0, t_max=self.T, refinement_factor=self.refinement_factor, kind=self.interpolation)

    # add time channel (optionally)
    if self.add_time:
      X = add_time_fn(X, t_min=self.s0, t_max=self.S)
      Y = add_time_fn(Y, t_min=self.t0, t_max=self.T)

    # (stand-in for the PDE solver) inner products of the path increments
    dX = jnp.diff(X, axis=1)
    dY = jnp.diff(Y, axis=1)
    return 1. + jnp.einsum("xtc,ysc->xy", dX, dY)


X = jnp.linspace(0., 1., 2 * 4 * 2).reshape(2, 4, 2)
Y = jnp.sin(jnp.linspace(0., 3., 3 * 5 * 2)).reshape(3, 5, 2)
k = SigKernel(refinement_factor=2.5, add_time=True)
print(interpolate_fn(X, 0., 1., 2.5).shape)
print([[round(v, 4) for v in row] for row in k.kernel_matrix(X, Y).tolist()])

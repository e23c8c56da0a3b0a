# Adapted from brainpy/_src/tools/dicts.py (DotDict) and a jitted update step.
from functools import partial
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


class DotDict(dict):
  """Python dictionaries with advanced dot notation access."""

  attrs_not_keys = ('attrs_not_keys', 'var_names')

  def __init__(self, *args, **kwargs):
    super().__init__(*args, **kwargs)
    self.__dict__ = self
    self.var_names = ()

  def keys(self):
    return tuple(k for k in super(DotDict, self).keys() if k not in self.attrs_not_keys)

  def values(self):
    return tuple(v for k, v in super(DotDict, self).items() if k not in self.attrs_not_keys)


register_pytree_node(
  DotDict,
  lambda x: (x.values(), x.keys()),
  lambda keys, values: DotDict(zip(keys, values))
)


@partial(jax.jit, static_argnames='shared')
def update(V, shared):
  dV = -V / 10. * shared.dt
  if shared.fit:
    dV = dV + 1.
  return V + dV


V = jnp.zeros(3)
for i in range(3):
  V = update(V, shared=DotDict(dt=0.1, fit=(i % 2 == 0)))
  print(i, V)

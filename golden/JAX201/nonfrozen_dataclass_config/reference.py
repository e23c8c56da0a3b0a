# Hand fix for jax-ml/jax#3701, as the report says: a frozen dataclass has a
# value-based __hash__, so it can be a static argument (and equal configs hit the
# cache). Nothing assigns to a Config field after construction.
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
  some_value: int
  num_steps: int = 3


@functools.partial(jax.jit, static_argnums=1)
def do_stuff(data, config):
  for _ in range(config.num_steps):
    data = data * config.some_value
  return data.sum()


def evaluate():
  return do_stuff(jnp.arange(4.0), Config(2))


print(evaluate())
print(evaluate())

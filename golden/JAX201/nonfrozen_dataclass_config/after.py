# Cut down from jax-ml/jax#3701 ("Unhashable objects are silently accepted as
# static arguments to jax.jit"): a plain @dataclasses.dataclass config passed as
# a static argument; today jit refuses it (eq=True sets __hash__ to None).
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
  some_value: int
  # many other values omitted
  num_steps: int = 3


@functools.partial(jax.jit, static_argnums=1)
def do_stuff(data, config):
  for _ in range(config.num_steps):
    data = data * config.some_value
  return data.sum()


def summon_up_evaluation_data():
  return jnp.arange(4.0)


def evaluate():
  config = Config(2)
  data = summon_up_evaluation_data()
  return do_stuff(data, config)


print(evaluate())
print(evaluate())

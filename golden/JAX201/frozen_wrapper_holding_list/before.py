import dataclasses
from typing import Any

import jax


@dataclasses.dataclass(frozen=True)
class Const:
    """Marks a value as a compile-time constant of a model: frozen, so it hashes by its field."""

    const: Any


def foo(x):
    return x.const[0] + 1


jfoo = jax.jit(foo, static_argnums=(0,))

print(jfoo(Const([2])))

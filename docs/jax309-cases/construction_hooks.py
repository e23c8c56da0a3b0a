"""Code run by a construction, and `eqx.error_if`'s predicate, under jit (docs/jax309-behaviour.md, C).

Each row builds an object inside a jitted function (or eagerly), whose construction runs a hook
(`__init__`, `__post_init__`, equinox's `__check_init__`) that tests a value with Python.
"""

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


class Checked(eqx.Module):
    lo: jax.Array = eqx.field(converter=jnp.asarray)
    hi: jax.Array = eqx.field(converter=jnp.asarray)

    def __check_init__(self):
        eqx.error_if(self.lo, (self.lo > self.hi) or (self.hi > 100), "bad")


class CheckedArray(eqx.Module):
    lo: jax.Array = eqx.field(converter=jnp.asarray)
    hi: jax.Array = eqx.field(converter=jnp.asarray)

    def __check_init__(self):
        eqx.error_if(self.lo, jnp.logical_or(self.lo > self.hi, self.hi > 100), "bad")


@dataclasses.dataclass
class Posted:
    n: object

    def __post_init__(self):
        if self.n < 0:
            raise ValueError("negative")


class Spec:
    def __init__(self, num_values):
        num_values = jnp.asarray(num_values)
        if not (num_values > 0).all():
            raise ValueError("bad")
        self.num_values = num_values


class SpecAtTraceTime:
    def __init__(self, num_values):
        with jax.ensure_compile_time_eval():
            num_values = jnp.asarray(num_values)
            num_values_test = not (num_values > 0).all()
        if num_values_test:
            raise ValueError("bad")
        self.num_values = num_values


def row(name, fn, *args):
    try:
        out = fn(*args)
        print(f"| {name} | ok: {out} |")
    except Exception as error:  # noqa: BLE001
        print(f"| {name} | {type(error).__name__} |")


row("eager `Checked(1.0, hi)` (`or` in `__check_init__`)", lambda hi: float(Checked(1.0, hi).hi), 3.0)
row("jit `Checked(1.0, hi)`, `hi` traced", jax.jit(lambda hi: Checked(1.0, hi).hi), 3.0)
row("jit `CheckedArray(1.0, hi)` (`jnp.logical_or`)", jax.jit(lambda hi: CheckedArray(1.0, hi).hi), 3.0)
row("jit `CheckedArray(5.0, hi)`, the check fails", jax.jit(lambda hi: CheckedArray(5.0, hi).hi), 3.0)
row("jit `Posted(n)` (`if` in `__post_init__`), `n` traced", jax.jit(lambda n: Posted(n).n), 3)
row("jit `Spec(3)` (`jnp.asarray` then `if` in `__init__`)", jax.jit(lambda x: x % Spec(3).num_values), 7)
row("jit `SpecAtTraceTime(3)` (block and test inside it)", jax.jit(lambda x: x % SpecAtTraceTime(3).num_values), 7)

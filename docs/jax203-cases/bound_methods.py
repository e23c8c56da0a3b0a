"""Which JAX functions hash the function they are given, and which bound methods hash? (jax 0.10.2, equinox 0.13.8, CPU)

An equinox module's method, read from an instance, is an `equinox.BoundMethod`: itself a module,
whose hash covers its fields, the instance included. Each row hands one callable to one JAX
function; "ok" means it ran, otherwise the exception.
"""
import dataclasses
import typing

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct
from jax import lax


class Cell(eqx.Module):
    w: jax.Array

    def step(self, c, x):
        return c + x * self.w, x * self.w

    def f(self, x):
        return x * self.w

    def body(self, i, c):
        return c + self.w

    def wbody(self, c):
        return c + self.w


class CallCell(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        return x * self.w


class StepCell(eqx.Module):
    w: jax.Array

    def __call__(self, c, x):
        return c + x * self.w, x


class IntsOnly(eqx.Module):
    n: int = 3

    def step(self, c, x):
        return c + x * self.n, x


@struct.dataclass
class FlaxCell:
    w: jax.Array

    def step(self, c, x):
        return c + x * self.w, x


@dataclasses.dataclass
class DataCell:
    w: jax.Array

    def step(self, c, x):
        return c + x * self.w, x


@dataclasses.dataclass
class Scale:
    w: jax.Array

    def __call__(self, x):
        return x * self.w


class TupleCell(typing.NamedTuple):
    w: jax.Array

    def step(self, c, x):
        return c + x * self.w, x


cell = Cell(jnp.array(2.0))
xs = jnp.arange(3.0)
CASES = {
    "lax.scan(cell.step, ...)": lambda: lax.scan(cell.step, 0.0, xs),
    "lax.fori_loop(0, 3, cell.body, ...)": lambda: lax.fori_loop(0, 3, cell.body, 0.0),
    "lax.while_loop(cond, cell.wbody, ...)": lambda: lax.while_loop(lambda c: c < 5, cell.wbody, 0.0),
    "lax.cond(p, cell.f, cell.f, ...)": lambda: lax.cond(True, cell.f, cell.f, 1.0),
    "lax.switch(0, [cell.f, cell.f], ...)": lambda: lax.switch(0, [cell.f, cell.f], 1.0),
    "jax.jit(cell.f)": lambda: jax.jit(cell.f)(1.0),
    "jax.checkpoint(cell.f)": lambda: jax.checkpoint(cell.f)(1.0),
    "lax.map(cell.f, ...)": lambda: lax.map(cell.f, xs),
    "jax.vmap(cell.f)": lambda: jax.vmap(cell.f)(xs),
    "jax.grad(cell.f)": lambda: jax.grad(cell.f)(1.0),
    "eqx.filter_jit(cell.f)": lambda: eqx.filter_jit(cell.f)(1.0),
    "lax.scan(lambda c, x: cell.step(c, x), ...)": lambda: lax.scan(lambda c, x: cell.step(c, x), 0.0, xs),
    "jax.jit(lambda x: cell.f(x))": lambda: jax.jit(lambda x: cell.f(x))(1.0),
    "inside filter_jit: lax.scan(self.step)": lambda: eqx.filter_jit(lambda m: lax.scan(m.step, 0.0, xs))(cell),
    "lax.scan(IntsOnly().step, ...)": lambda: lax.scan(IntsOnly().step, 0.0, xs),
    "lax.scan(flax struct .step, ...)": lambda: lax.scan(FlaxCell(jnp.array(2.0)).step, 0.0, xs),
    "lax.scan(dataclass .step, ...)": lambda: lax.scan(DataCell(jnp.array(2.0)).step, 0.0, xs),
    "lax.scan(NamedTuple .step, ...)": lambda: lax.scan(TupleCell(jnp.array(2.0)).step, 0.0, xs),
    "jax.jit(module)  (the module itself, with __call__)": lambda: jax.jit(CallCell(jnp.array(2.0)))(1.0),
    "lax.scan(module, ...)": lambda: lax.scan(StepCell(jnp.array(2.0)), 0.0, xs),
    "jax.jit(Scale(w))  (a dataclass, eq, not frozen)": lambda: jax.jit(Scale(jnp.array(2.0)))(1.0),
    "jax.jit(lambda x: scale(x))": lambda: jax.jit(lambda x: Scale(jnp.array(2.0))(x))(1.0),
}
print("| call | result |")
print("|---|---|")
for name, run in CASES.items():
    try:
        run()
        print(f"| `{name}` | ok |")
    except Exception as error:  # noqa: BLE001 - the type is the finding
        print(f"| `{name}` | {type(error).__name__}: {str(error).splitlines()[0][:50]} |")

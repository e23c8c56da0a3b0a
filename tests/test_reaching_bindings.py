"""Which binding a read sees when its name is bound more than once in a function.

`constants.reaching_parameter` (a parameter rebound only later: ``thing = thing[thing > 0]``)
and `constants.dominating_binding` (the last assignment above the read in its block) let the
tracedness of a read be followed where a single binding does not exist.
"""

from __future__ import annotations

from jaxfix.transforms import Options, check, check_source

FILTERED = """\
import jax
import jax.numpy as jnp


@jax.jit
def log_positive(thing):
    thing = thing[thing > 0]
    return jnp.log(thing)
"""

REBOUND_BY_WITH = """\
import jax


def f(x):
    y = not x
    with open("a") as x:
        pass
    return y


jax.jit(f)(1.0)
"""


def test_a_parameter_rebound_by_its_own_read_is_still_the_parameter() -> None:
    """The right side of ``thing = thing[thing > 0]`` reads the traced parameter: its mask is a
    tracer, and the boolean index is reported (jax#2765)."""
    assert [f.code for f in check_source(FILTERED, Options())] == ["JAX308"]


def test_a_binding_by_a_with_statement_is_read_without_error() -> None:
    """A `with` statement's parentheses are one node or a sentinel, not a list: finding where it
    starts once crashed the whole module ('MaybeSentinel' object is not subscriptable)."""
    assert [f.code for f in check(REBOUND_BY_WITH).findings] == ["JAX309"]  # `not x` of the traced parameter


UNPACKED_OVER_ITSELF = """\
import jax
import jax.numpy as jnp


def split_positive(thing):
    return thing[thing > 0], thing.sum()


@jax.jit
def f(thing):
    thing, total = split_positive(thing)
    return thing, total
"""


def test_a_parameter_rebound_by_unpacking_its_own_read_is_still_the_parameter() -> None:
    """``thing, total = split_positive(thing)``: the right side runs before the names are bound, so
    the helper receives the traced parameter, and its boolean index is reported."""
    assert [f.code for f in check_source(UNPACKED_OVER_ITSELF, Options())] == ["JAX308"]


COMPREHENSIONS = """\
def f(sizes, y):
    bounds = list(sizes)
    bounds = sorted(bounds)
    a = [part for part in split(y, bounds)]
    b = [bounds[i] for i in range(3)]
    c = [bounds + i for i in range(3) if (bounds := i)]
    return a, b, c
"""


def _reads_of(src: str, name: str) -> list[tuple[int, int | None]]:
    """(line of each read of `name`, line of the binding `reaching_binding` gives it, or None)."""
    import libcst as cst

    from jaxfix.transforms.semantics.constants import reaching_binding
    from jaxfix.transforms.semantics.module import ModuleContext

    ctx = ModuleContext(src, cst.parse_module(src), Options())
    out = []
    for node in ctx.nodes_of(cst.Name):
        parent = ctx.parent(node)
        if node.value != name or isinstance(parent, (cst.AssignTarget, cst.NamedExpr)) and parent.target is node:
            continue
        binding = reaching_binding(ctx, node)
        out.append((ctx.span(node).start.line, ctx.span(binding).start.line if binding is not None else None))
    return out


def test_a_read_in_a_comprehension_sees_the_last_binding_before_its_statement() -> None:
    """A comprehension repeats its reads, but rebinds nothing of the function (flax#648 written
    over two statements: ``bounds = jnp.cumsum(bounds)`` then ``[... for p in jnp.split(y,
    bounds)]``); a walrus in the comprehension is the binding its element reads."""
    assert _reads_of(COMPREHENSIONS, "bounds") == [(3, 2), (4, 3), (5, 3), (6, 6)]

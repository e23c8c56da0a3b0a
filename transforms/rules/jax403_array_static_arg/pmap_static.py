"""JAX403 for pmap: an array handed to a slot ``static_broadcasted_argnums`` makes static.

pmap hashes each static broadcasted argument to key its cache, as jit hashes
a static one, and no array is hashable: ``jax.pmap(f,
static_broadcasted_argnums=0)(jnp.arange(4))`` fails with "Non-hashable
static arguments are not supported" (numpyro#494). A static broadcasted
argument is one value every device sees; a value per device is a mapped
argument, and what the body does with it (index a Python list of shards, say)
then decides whether it can be traced at all.

One case has a fix that keeps the meaning: pmap's own ``in_axes`` already
says ``None`` at the position (BCD-Nets#1: the data ``Xs`` both broadcast and
static). ``in_axes`` counts every positional argument, static ones included,
and ``None`` broadcasts the value as a tracer (docs/jax405-behaviour.md), so
dropping the position from ``static_broadcasted_argnums`` gives every device
the same array, traced; the fix is safe when nothing in the pmapped def
needs the value concrete (`concrete_uses`), unsafe when that cannot be told,
and a report when something does. Everything else is reported with both ways out.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import constant_value
from jaxfix.transforms.semantics.jit_signature import Kind
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.pmap_statics import OPTION, BroadcastArgument, broadcast_arguments
from jaxfix.transforms.semantics.transform_options import option_arg


def pmap_findings(analysis: Analysis) -> Iterator[Finding]:
    """A pmapped call passing an array at a position ``static_broadcasted_argnums`` lists."""
    for found in broadcast_arguments(analysis):
        origin = array_origin(analysis, found.argument)
        if origin is not None:
            yield _broadcast_fix(analysis, found, origin) or _report(analysis, found, origin)


def _head(analysis: Analysis, found: BroadcastArgument, origin: str) -> str:
    return (
        f"`{OPTION}` makes argument {found.number} of this `jax.pmap` static, but the call passes "
        f"`{analysis.ctx.code(found.argument)}` ({origin}): pmap hashes a static argument, and no array is hashable"
    )


def _report(analysis: Analysis, found: BroadcastArgument, origin: str, why: str | None = None) -> Finding:
    number = found.number
    return analysis.ctx.finding(
        "JAX403",
        found.argument,
        f"{_head(analysis, found, origin)}; not rewritten: "
        + (why or "a static broadcasted argument is one value for every device, so what the function does "
           "with a value per device decides the redesign"),
        notes=(
            f"option: a value per device is a mapped argument: drop {number} from `{OPTION}` and pass "
            "the per-device data stacked along the first axis (a Python list indexed by it must become an array)",
            "option: one value for every device: pass a hashable Python value (`int(...)`, `tuple(....tolist())`)",
        ),
    )


def _broadcast_fix(analysis: Analysis, found: BroadcastArgument, origin: str) -> Finding | None:
    """Drop the position from the static option where pmap's in_axes already broadcasts it."""
    ctx = analysis.ctx
    axes_arg = option_arg(found.made, "in_axes")
    axes = constant_value(ctx, axes_arg.value) if axes_arg is not None else None
    if not (isinstance(axes, tuple) and found.number < len(axes) and axes[found.number] is None):
        return None
    fn = found.function
    if not isinstance(fn, cst.FunctionDef):
        return None
    params = function_info(ctx, fn).signature.params
    if found.number >= len(params) or params[found.number].kind not in (Kind.POSITIONAL_ONLY, Kind.POSITIONAL_OR_KEYWORD):
        return None
    param = params[found.number].name
    use = ConcreteUses(ctx).first_need(fn, param)
    if use is not None and use.need is Need.NEEDS:
        return _report(analysis, found, origin, f"`{param}` must be concrete in `{fn.name.value}`: {use.reason}")
    edits = StaticEditor(ctx).drop_numbers(found.made, OPTION, frozenset({found.number}))
    if isinstance(edits, str):
        return _report(analysis, found, origin, edits)
    notes = ["`in_axes` counts the static positions too, and its `None` there gives every device the same value"]
    if use is not None:
        notes.insert(0, f"unsafe: {use.reason}; if it needs `{param}` concrete, the traced value fails there")
    return ctx.finding(
        "JAX403",
        found.argument,
        f"{_head(analysis, found, origin)}; `in_axes` already broadcasts it (`None` at {found.number}) and nothing in "
        f"`{fn.name.value}` needs `{param}` concrete, so it becomes a broadcast (traced) argument",
        edits,
        Applicability.UNSAFE if use is not None else Applicability.SAFE,
        description=f"drop {found.number} from `{OPTION}`: `{param}` is broadcast by `in_axes`",
        notes=tuple(notes),
    )

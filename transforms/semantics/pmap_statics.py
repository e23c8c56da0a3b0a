"""Arguments ``jax.pmap``'s ``static_broadcasted_argnums`` makes static: pmap hashes each one.

pmap keys its cache by hashing every static broadcasted argument, as jit hashes a static one:
a dict there fails with "Non-hashable static arguments are not supported" (hypernerf#33, a flax
model holding a dict passed at position 0), and so does an array (numpyro#494). Only the
positional form is read, its option a literal int or tuple of ints, called without ``*``: a pmap
written at the call or bound once to a name (``jax.pmap(f, static_broadcasted_argnums=1)(x, d)``,
whatever ``f`` is), and every call the tracing model sees run a def of this module through one pmap
layer and nothing else (``@partial(pmap, static_broadcasted_argnums=(2,))``, ``g = jax.pmap(f,
...)`` handed on, a method).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.semantics.call_binding import ArgumentSlot
from jaxfix.transforms.semantics.callables import def_target, resolve_callable
from jaxfix.transforms.semantics.constants import assigned_value, constant_value, single_binding
from jaxfix.transforms.semantics.jit_signature import Kind
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis

PMAP = "jax.pmap"
OPTION = "static_broadcasted_argnums"


def pmap_call(ctx: ModuleContext, func: cst.BaseExpression) -> cst.Call | None:
    """``jax.pmap(f, ...)`` as the callee, written there or bound once to a name."""
    if isinstance(func, cst.Name):
        binding = single_binding(ctx, func)
        func = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None  # type: ignore[assignment]
    if isinstance(func, cst.Call) and ctx.names.qualified_name(func.func) == PMAP:
        return func
    return None


def broadcast_positions(ctx: ModuleContext, made: cst.Call) -> tuple[int, ...] | None:
    """The positions the pmap `made` makes static; None when its option is not literal ints."""
    option = next((a for a in made.args if a.keyword is not None and a.keyword.value == OPTION), None)
    if option is None:
        return ()
    value = constant_value(ctx, option.value)
    numbers = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return None
    return numbers  # type: ignore[return-value]


@dataclass(frozen=True)
class BroadcastArgument:
    """One static broadcasted argument of a pmapped call."""

    call: cst.Call
    #: The call holding the option: ``jax.pmap(f, ...)``, or ``partial(pmap, ...)`` as a decorator.
    made: cst.Call
    number: int
    argument: cst.BaseExpression
    #: The def of this module pmap runs, when the tracing model names it.
    function: FunctionNode | None = None


def broadcast_arguments(analysis: Analysis) -> Iterator[BroadcastArgument]:
    """Each static broadcasted argument of a pmapped call, once."""
    ctx = analysis.ctx
    seen: set[cst.CSTNode] = set()
    for call in ctx.calls:
        made = pmap_call(ctx, call.func)
        if made is None or any(a.star for a in call.args):
            continue
        for found in _at(ctx, call, made, None):
            seen.add(found.argument)
            yield found
    if OPTION not in ctx.text:
        return
    for function in ctx.nodes_of(cst.FunctionDef):
        for route in analysis.traces.routes(function) or ():
            pmaps = [w for w in route.wraps if w.name == PMAP]
            if len(route.wraps) != 1 or not pmaps or pmaps[0].options is None or route.call is None:
                continue
            if route.escapes or route.bound or route.uncertain or route.from_call:
                continue
            for found in _at(ctx, route.call, pmaps[0].options, function):
                if found.argument not in seen:
                    seen.add(found.argument)
                    yield found


def _at(ctx: ModuleContext, call: cst.Call, made: cst.Call, function: FunctionNode | None) -> Iterator[BroadcastArgument]:
    if any(a.star for a in call.args):
        return
    positional = [a.value for a in call.args if a.keyword is None]
    for number in broadcast_positions(ctx, made) or ():
        if 0 <= number < len(positional):
            yield BroadcastArgument(call, made, number, positional[number], function)


def broadcast_slots(analysis: Analysis) -> Iterator[ArgumentSlot]:
    """`broadcast_arguments` as slots of the pmapped def of this module (its parameter at the
    position), for the rules that follow the value into the function."""
    for found in broadcast_arguments(analysis):
        slot = _slot(analysis.ctx, found)
        if slot is not None:
            yield slot


def broadcast_slot(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> ArgumentSlot | None:
    """The slot of `arg` when `call` is a pmapped call and `arg` one of its static broadcasted
    arguments; None otherwise."""
    made = pmap_call(ctx, call.func)
    if made is None or arg.keyword is not None or arg.star or any(a.star for a in call.args):
        return None
    positional = [a for a in call.args if a.keyword is None]
    number = positional.index(arg)
    if number not in (broadcast_positions(ctx, made) or ()):
        return None
    return _slot(ctx, BroadcastArgument(call, made, number, arg.value))


def _slot(ctx: ModuleContext, found: BroadcastArgument) -> ArgumentSlot | None:
    """The slot of the def pmap runs, at the argument's position."""
    call, made, number, argument = found.call, found.made, found.number, found.argument
    if found.function is not None:
        target = def_target(ctx, found.function)
    else:
        target = resolve_callable(ctx, made.args[0].value) if made.args else None
    if target is None or target.jit is not None or target.implicit_self:
        return None
    params = target.function.signature.params
    if number >= len(params) or params[number].kind not in (Kind.POSITIONAL_ONLY, Kind.POSITIONAL_OR_KEYWORD):
        return None
    arg = next(a for a in call.args if a.value is argument)
    return ArgumentSlot(call, arg, target, params[number].name, True, broadcast=True)

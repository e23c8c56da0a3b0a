"""Arguments ``jax.pmap``'s ``static_broadcasted_argnums`` makes static: pmap hashes each one.

pmap keys its cache by hashing every static broadcasted argument, as jit hashes a static one:
a dict there fails with "Non-hashable static arguments are not supported" (hypernerf#33, a flax
model holding a dict passed at position 0), and so does an array (numpyro#494). Only the
positional form is read: ``jax.pmap(f, static_broadcasted_argnums=(0, 1))`` written at the call
or bound once to a name, its option a literal int or tuple of ints, called without ``*``.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.semantics.call_binding import ArgumentSlot
from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.constants import assigned_value, constant_value, single_binding
from jaxfix.transforms.semantics.jit_signature import Kind
from jaxfix.transforms.semantics.module import ModuleContext

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


def broadcast_arguments(ctx: ModuleContext) -> Iterator[tuple[cst.Call, cst.Call, int, cst.BaseExpression]]:
    """(the call, its ``jax.pmap(...)``, the position, the argument) for each static broadcasted
    argument of a pmapped call."""
    for call in ctx.calls:
        made = pmap_call(ctx, call.func)
        if made is None or any(a.star for a in call.args):
            continue
        positional = [a.value for a in call.args if a.keyword is None]
        for number in broadcast_positions(ctx, made) or ():
            if 0 <= number < len(positional):
                yield call, made, number, positional[number]


def broadcast_slots(ctx: ModuleContext) -> Iterator[ArgumentSlot]:
    """`broadcast_arguments` as slots of the pmapped def of this module (its parameter at the
    position), for the rules that follow the value into the function."""
    for call, made, number, argument in broadcast_arguments(ctx):
        slot = _slot(ctx, call, made, number, argument)
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
    return _slot(ctx, call, made, number, arg.value) if number in (broadcast_positions(ctx, made) or ()) else None


def _slot(ctx: ModuleContext, call: cst.Call, made: cst.Call, number: int, argument: cst.BaseExpression) -> ArgumentSlot | None:
    """The slot of the def `made` (``jax.pmap(f, ...)``) pmaps, at `number`, for `argument` of `call`."""
    target = resolve_callable(ctx, made.args[0].value) if made.args else None
    if target is None or target.jit is not None or target.implicit_self:
        return None
    params = target.function.signature.params
    if number >= len(params) or params[number].kind not in (Kind.POSITIONAL_ONLY, Kind.POSITIONAL_OR_KEYWORD):
        return None
    arg = next(a for a in call.args if a.value is argument)
    return ArgumentSlot(call, arg, target, params[number].name, True, broadcast=True)

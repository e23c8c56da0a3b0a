"""Which argument of a call lands in which parameter, and whether jit makes it static.

A call is followed when its callee resolves to a def of this module
(`callables.resolve_callable`: a decorated def, an assigned jit, an inline
``jax.jit(f, ...)(...)``, ``self.method``); the arguments are bound as Python
binds them and marked static by jax.jit's own rule (`staticspec.bind_call`,
negative ``static_argnums`` counted per call).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.jit_signature import BindError, Kind, StaticSpec, bind_call
from jaxfix.transforms.semantics.jit_wrappers import Target
from jaxfix.transforms.semantics.module import ModuleContext

_SELF = "<self>"


@dataclass(frozen=True)
class ArgumentSlot:
    """Where one argument of a call goes."""

    call: cst.Call
    arg: cst.Arg
    target: Target
    #: The parameter's name; "*args[i]" / "**kwargs[k]" when a star parameter catches it.
    param: str
    #: jit hashes it (only when the target is jitted).
    static: bool
    #: A static broadcasted argument of ``jax.pmap`` (`pmap_statics`): pmap hashes it, and the
    #: target is the def pmap runs.
    broadcast: bool = False

    @property
    def jitted(self) -> bool:
        return self.target.jit is not None

    @property
    def caught_by_star(self) -> bool:
        return self.param.startswith("*")


def bind_arguments(ctx: ModuleContext, call: cst.Call) -> dict[cst.Arg, ArgumentSlot] | None:
    """Every argument of `call` and its slot; None when the callee or the binding cannot be seen."""
    target = resolve_callable(ctx, call.func)
    if target is None:
        return None
    spec = StaticSpec()
    if target.jit is not None:
        if target.jit.spec is None:
            return None
        spec = target.jit.spec
    if any(a.star for a in call.args):
        return _keywords_beside_stars(call, target, spec)
    positional: list[object] = [_SELF] if target.implicit_self else []
    positional.extend(i for i, a in enumerate(call.args) if a.keyword is None)
    keywords = {a.keyword.value: i for i, a in enumerate(call.args) if a.keyword is not None}  # type: ignore[union-attr]
    try:
        bound = bind_call(target.function.signature, spec, positional, keywords)  # type: ignore[arg-type]
    except BindError:
        return None
    return {
        call.args[b.source]: ArgumentSlot(call, call.args[b.source], target, name, b.static)  # type: ignore[index]
        for name, b in bound.items()
        if isinstance(b.source, int)
    }


def _keywords_beside_stars(call: cst.Call, target: Target, spec: StaticSpec) -> dict[cst.Arg, ArgumentSlot]:
    """``f(*tensors, opts=opts)``: where the unpacked values land is unknown, but a keyword
    naming a parameter lands there (were it filled twice, Python would raise before jit
    hashed anything). jit marks a keyword static by name alone (`StaticSpec.resolved`)."""
    signature = target.function.signature
    _, names = spec.resolved(signature)
    out: dict[cst.Arg, ArgumentSlot] = {}
    for arg in call.args:
        if arg.star or arg.keyword is None:
            continue
        param = signature.param(arg.keyword.value)
        if param is not None and param.kind in (Kind.POSITIONAL_OR_KEYWORD, Kind.KEYWORD_ONLY):
            out[arg] = ArgumentSlot(call, arg, target, param.name, param.name in names)
    return out


def static_arguments(ctx: ModuleContext) -> Iterator[ArgumentSlot]:
    """Every argument, in source order, that lands in a static parameter of a jitted function."""
    for call in ctx.calls:
        slots = bind_arguments(ctx, call)
        if slots is None:
            continue
        for arg in call.args:
            slot = slots.get(arg)
            if slot is not None and slot.jitted and slot.static:
                yield slot


def static_receivers(ctx: ModuleContext) -> Iterator[ArgumentSlot]:
    """``model.energy(x)`` where ``energy``'s jit makes ``self`` static: the receiver, hashed
    like any static argument (its slot's `arg` wraps the receiver expression; only `arg.value`
    is in the module's tree)."""
    for call in ctx.calls:
        func = call.func
        if not isinstance(func, cst.Attribute):
            continue
        target = resolve_callable(ctx, func)
        if target is None or not target.implicit_self or target.jit is None or target.jit.spec is None:
            continue
        signature = target.function.signature
        if not signature.params:
            continue
        receiver = signature.params[0].name
        if receiver in target.jit.spec.declared_static(signature):
            yield ArgumentSlot(call, cst.Arg(value=func.value), target, receiver, True)

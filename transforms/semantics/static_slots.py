"""Which arguments of a call to a jitted function of this module land in its static slots.

A call ``pad(x, n)`` binds as Python binds it, and jit decides per call which
arguments are static (`staticspec.bind_call`: argnums and argnames, negative
indices counted on the call). The callee is followed with
`callables.resolve_callable`: a jitted def, an assigned or inline jit, a
method through ``self``. Calls with ``*args``/``**kwargs``, or whose callee
cannot be followed, have no slots here.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.jit_signature import BindError, bind_call
from jaxfix.transforms.semantics.jit_wrappers import Target
from jaxfix.transforms.semantics.module import ModuleContext

SELF = "<self>"


@dataclass(frozen=True)
class Slot:
    """One argument as the jitted callee receives it."""

    param: str
    expr: cst.BaseExpression
    static: bool
    #: Passed by keyword at the call.
    keyword: bool


@dataclass(frozen=True)
class JittedCall:
    call: cst.Call
    target: Target
    slots: tuple[Slot, ...]

    @property
    def static_slots(self) -> tuple[Slot, ...]:
        return tuple(s for s in self.slots if s.static)

    @property
    def callee_name(self) -> str:
        return self.target.function.name


def jitted_call(ctx: ModuleContext, call: cst.Call) -> JittedCall | None:
    """The call's arguments against the jit of its callee, or None when that cannot be read."""
    target = resolve_callable(ctx, call.func)
    if target is None or target.jit is None or target.jit.spec is None:
        return None
    return bind_slots(call, target)


def bind_slots(call: cst.Call, target: Target) -> JittedCall | None:
    if any(a.star for a in call.args):
        return None
    positional = [a.value for a in call.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}  # type: ignore[union-attr]
    sources: list[object] = [SELF] if target.implicit_self else []
    sources.extend(range(len(positional)))
    try:
        bound = bind_call(target.function.signature, target.jit.spec, sources, {k: k for k in keywords})  # type: ignore[arg-type, union-attr]
    except BindError:
        return None
    slots: list[Slot] = []
    for param, b in bound.items():
        if b.source == SELF:
            continue
        if isinstance(b.source, int):
            slots.append(Slot(param, positional[b.source], b.static, False))
        elif isinstance(b.source, str):
            slots.append(Slot(param, keywords[b.source], b.static, True))
    return JittedCall(call, target, tuple(slots))

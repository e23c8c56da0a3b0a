"""How a primitive calls a callable, and what its author meant the call to bind.

A control-flow primitive calls its branch with its operands, positionally,
after whatever a ``partial`` already binds. `intended_binding` says which
value the author meant for each parameter: it differs from Python's binding
only where Python raises "multiple values" (``partial(f, N=N)`` with ``N``
first, jax-behaviour.md 1d).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from jaxfix.transforms.semantics.jit_signature import Kind, Signature


@dataclass(frozen=True)
class Value:
    """A value to bind: its source text and whether it may be inlined in a lambda."""

    key: Hashable
    text: str
    literal: bool


@dataclass(frozen=True)
class Operand:
    """The j-th operand the primitive passes at run time."""

    index: int


SELF = "<self>"


@dataclass(frozen=True)
class CallShape:
    """How the callable is called today: f(*positional, **keywords)."""

    positional: tuple[Hashable, ...]
    keywords: tuple[tuple[str, Hashable], ...]


def intended_binding(sig: Signature, shape: CallShape) -> dict[str, Hashable] | None:
    """What the author meant: keywords first, then positionals fill the free slots in order.

    It differs from Python's binding only where Python raises "multiple values"
    (the ``partial(f, N=N)`` mistake, 1d). None if the positionals overflow.
    """
    out: dict[str, Hashable] = {}
    for name, source in shape.keywords:
        # A keyword naming a positional-only parameter is an error in Python,
        # but what the author meant is plain: that parameter, that value.
        param = sig.param(name)
        if param is None or param.kind in (Kind.VAR_POSITIONAL, Kind.VAR_KEYWORD):
            return None
        out[name] = source
    free = [p for p in sig.positional if p.name not in out]
    if len(shape.positional) > len(free):
        return None
    for param, source in zip(free, shape.positional):
        out[param.name] = source
    for p in sig.params:
        if p.name not in out and not p.has_default and p.kind not in (Kind.VAR_POSITIONAL, Kind.VAR_KEYWORD):
            return None
    return out

"""Choose how to bind static values into a callable a primitive will call.

The primitive calls the callable with its operands, positionally. Some of those
operands (and any values a ``partial`` already binds) belong in static
parameters. We know what the author meant: every bound value goes to its
parameter, and the remaining operands fill the remaining positional parameters
in order. The candidate forms, tried in this order (jax-behaviour.md 1k):

1. ``partial(f, a, b, k=c)``: a positional prefix, the rest by keyword (this
   covers the pure positional and pure keyword forms);
2. ``lambda x, y, N=N: f(x, N, y)``: everything in place, values captured as
   defaults (a plain closure late-binds in loops, 1k);
3. the same lambda passing what it can by keyword.

Each candidate is *simulated* with `staticspec.bind_call` and kept only when
every parameter gets the intended value, every declared static parameter is
static in that call, and no operand lands in a static slot.
"""

from __future__ import annotations

import keyword
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from jaxfix.transforms.semantics.call_shapes import SELF, Operand, Value
from jaxfix.transforms.semantics.jit_signature import BindError, Kind, Signature, StaticSpec, bind_call


@dataclass(frozen=True)
class Plan:
    """A replacement callable expression for a branch or body."""

    text: str
    uses_partial: bool


class _Names:
    """Fresh identifiers for lambda parameters, avoiding names the callee text uses."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)

    def claim(self, wanted: str) -> str:
        name = wanted
        while name in self.taken or keyword.iskeyword(name):
            name += "_"
        self.taken.add(name)
        return name


def plan_known(
    sig: Signature,
    spec: StaticSpec,
    implicit_self: bool,
    callee: str,
    partial_name: str,
    intended: dict[str, Hashable],
    values: dict[Hashable, Value],
    dynamic: Sequence[Operand],
    callee_names: set[str],
) -> Plan | None:
    """A form binding every `values` source, simulated against jit's rule.

    `intended` maps parameters to sources: SELF, a key of `values`, or an
    Operand still passed by the primitive (`dynamic`, in the order passed).
    """
    declared = spec.declared_static(sig)
    positional = list(sig.positional[1:] if implicit_self else sig.positional)
    prefix = [SELF] if implicit_self else []

    def accepts(pos: Sequence[Hashable], kws: dict[str, Hashable]) -> bool:
        try:
            bound = bind_call(sig, spec, [*prefix, *pos], kws)
        except BindError:
            return False
        if set(bound) != set(intended):
            return False
        for name, b in bound.items():
            if b.source != intended[name]:
                return False
            if b.source in values and name in declared and not b.static:
                return False
            if b.source not in values and isinstance(b.source, Operand) and b.static:
                return False
        return True

    bound_params = [p for p in sig.params if intended.get(p.name) in values]
    by_name = {p.name: p for p in sig.params}
    # 1. partial with a positional prefix, the rest by keyword.
    longest = 0
    while longest < len(positional) and intended.get(positional[longest].name) in values:
        longest += 1
    for k in range(longest, -1, -1):
        head = [intended[p.name] for p in positional[:k]]
        tail = {p.name: intended[p.name] for p in bound_params if p not in positional[:k]}
        if any(by_name[n].kind not in (Kind.POSITIONAL_OR_KEYWORD, Kind.KEYWORD_ONLY) for n in tail):
            continue
        if accepts([*head, *dynamic], tail):
            args = [values[s].text for s in head] + [f"{n}={values[s].text}" for n, s in tail.items()]
            return Plan(f"{partial_name}({', '.join([callee, *args])})", True)
    # 2./3. lambdas.
    for by_keyword in (False, True):
        shape = _lambda_call(sig, positional, intended, by_keyword)
        if shape is None:
            continue
        pos, kws = shape
        if accepts(pos, kws):
            return Plan(_lambda_text(callee, pos, kws, values, dynamic, intended, callee_names), False)
    return None


def _lambda_call(sig, positional, intended, by_keyword):
    """Arguments for f inside the lambda: positional while possible, then keywords."""
    pos: list[Hashable] = []
    kws: dict[str, Hashable] = {}
    in_order = True
    for p in positional:
        if p.name not in intended:
            in_order = False
            continue
        if in_order and (not by_keyword or p.kind is Kind.POSITIONAL_ONLY):
            pos.append(intended[p.name])
        elif p.kind is Kind.POSITIONAL_ONLY:
            return None
        else:
            in_order = False
            kws[p.name] = intended[p.name]
    for p in sig.params:
        if p.kind is Kind.KEYWORD_ONLY and p.name in intended:
            kws[p.name] = intended[p.name]
    return pos, kws


def _lambda_text(callee, pos, kws, values, dynamic, intended, callee_names) -> str:
    names = _Names(callee_names)
    operand_name: dict[Hashable, str] = {}
    owner = {source: name for name, source in intended.items()}
    for op in dynamic:
        operand_name[op] = names.claim(owner.get(op, f"operand{op.index}"))
    captures: list[str] = []
    rendered: dict[Hashable, str] = {}
    for source in [*pos, *kws.values()]:
        if source in operand_name:
            rendered[source] = operand_name[source]
        elif source in values and source not in rendered:
            value = values[source]
            if value.literal:
                rendered[source] = value.text
            else:
                local = names.claim(owner.get(source, "value"))
                captures.append(f"{local}={value.text}")
                rendered[source] = local
    params = [operand_name[op] for op in dynamic] + captures
    args = [rendered[s] for s in pos] + [f"{n}={rendered[s]}" for n, s in kws.items()]
    head = f"lambda {', '.join(params)}" if params else "lambda"
    return f"{head}: {callee}({', '.join(args)})"


def plan_opaque(
    callee: str,
    partial_name: str,
    bound_before: Sequence[str],
    bound_keywords: Sequence[tuple[str, str]],
    operands: Sequence[Operand],
    values: dict[Hashable, Value],
    callee_names: set[str],
) -> Plan:
    """Reproduce today's positional call exactly, with some operands bound.

    For a callable whose signature we cannot see: ``partial`` when the bound
    operands are a prefix of the operands, else a lambda that passes every
    argument in its original place.
    """
    bound = [op for op in operands if op in values]
    kw = [f"{n}={t}" for n, t in bound_keywords]
    if operands[: len(bound)] == bound:
        args = [*bound_before, *(values[op].text for op in bound), *kw]
        return Plan(f"{partial_name}({', '.join([callee, *args])})", True)
    names = _Names(callee_names)
    params: list[str] = []
    captures: list[str] = []
    call_args: list[str] = list(bound_before)
    for op in operands:
        if op in values:
            value = values[op]
            if value.literal:
                call_args.append(value.text)
            else:
                local = names.claim(f"operand{op.index}")
                captures.append(f"{local}={value.text}")
                call_args.append(local)
        else:
            local = names.claim(f"operand{op.index}")
            params.append(local)
            call_args.append(local)
    head = f"lambda {', '.join(params + captures)}" if params or captures else "lambda"
    return Plan(f"{head}: {callee}({', '.join(call_args + kw)})", False)

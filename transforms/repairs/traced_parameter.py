"""Make a static parameter traced again: drop it from its jit's static options.

The reverse of `static_parameter`. jit hashes a static argument; data it can
trace (an array, a number, a dict or list of them: a pytree of arrays) needs
no hash, so when such data lands in a static slot and fails to hash, dropping
the slot is the fix (JAX403 for an array, JAX201 for a dict of numbers,
jax#4143). Its proof obligations, checked on the model:

* the edit is on one written jit (a decorator, ``g = jax.jit(f, ...)``,
  ``f = jax.jit(f, ...)``), and it changes only the calls that go through that
  wrapper: a use that never passes it (``jax.vmap(f)`` beside
  ``jax.jit(f, static_argnums=...)``) calls the plain function, unchanged;
* each of those calls passes a value the rule's `Judge` says jit can trace; a
  call passing something else, one whose arguments cannot be read, a jitted
  function that escapes where its calls cannot be seen, or a call from another
  module that is not judged traceable leaves a doubt, and a doubt makes the fix
  unsafe;
* nothing in the body needs the parameter concrete (`ConcreteUses`, asked by
  the rule, which words the refusal).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses
from jaxfix.transforms.semantics.int_values import int_value
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.passed_elsewhere import local_routes, passed_elsewhere
from jaxfix.transforms.semantics.reads import parameter
from jaxfix.transforms.semantics.tracing import JitEntry, Route
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, JIT

#: Layers whose call reaches the function with the arguments it is given: jit, and differentiation.
_PASSES_ARGUMENTS = frozenset({JIT, *DIFFERENTIATION})


@dataclass(frozen=True)
class Judged:
    """What a rule makes of one argument: traceable data it failed to hash (`evidence`), a value
    that is fine either way (neither), or one that may need the static slot (`doubt`)."""

    evidence: str | None = None
    doubt: str | None = None


#: How a rule judges one argument, read with the analysis of the module it is written in.
Judge = Callable[[Analysis, cst.BaseExpression], Judged]


@dataclass(frozen=True)
class CallsThrough:
    """What the calls through one jit pass one parameter."""

    #: "the call on line 14 passes `in2` (...)": why the slot fails to hash.
    evidence: tuple[cst.CSTNode, str] | None
    #: Why the traced parameter may not suit every call (each makes the fix unsafe).
    doubts: tuple[str, ...]
    #: Every call of this module that runs the function through the jit.
    calls: tuple[cst.Call, ...] = ()


def entered_jit(analysis: Analysis, fn: FunctionNode) -> JitEntry | None:
    """The written jit whose static options decide `fn`'s static parameters.

    Every way into `fn` through one jit (`TraceIndex.jit_entry`); else the one
    jit that every jitted way in shares, applied right to `fn`, beside ways in
    that go through no jit at all (``vmap(f)`` as well as ``jit(f, ...)``).
    """
    entry = analysis.traces.jit_entry(fn)
    if entry is not None:
        return entry
    routes = local_routes(analysis, fn)
    if not routes:
        return None
    jits = {id(w.node): w for r in routes for w in r.wraps if w.name == JIT}
    if len(jits) != 1:
        return None
    (wrap,) = jits.values()
    if wrap.jit is None or any(r.bound or r.uncertain for r in routes):
        return None
    if any(wrap in r.wraps and r.wraps.index(wrap) != 0 for r in routes):
        return None  # `jit(vmap(f), ...)`: its positions are vmap's, not f's own
    return JitEntry(wrap.jit, wrap.node)


def through(route: Route, entry: JitEntry) -> bool:
    """Does this use of the function go through the jit being edited?"""
    return any(w.node is entry.node for w in route.wraps) or route.ref is None


def calls_through(analysis: Analysis, fn: FunctionNode, entry: JitEntry, param: str, judge: Judge) -> CallsThrough:
    """Judge what each call of this module through `entry` passes `param`."""
    ctx = analysis.ctx
    info = function_info(ctx, fn)
    evidence: tuple[cst.CSTNode, str] | None = None
    doubts: list[str] = []
    calls: list[cst.Call] = []
    routes = local_routes(analysis, fn)
    if routes is None:
        doubts.append(f"the uses of `{info.name}` cannot all be listed")
    for route in routes or ():
        if not through(route, entry):
            continue  # calls the plain function (or another transform of it): the edit leaves it
        if route.call is not None:
            calls.append(route.call)
        # grad and its kin call the function with the arguments they are given, in place.
        if route.escapes or route.call is None or any(w.name not in _PASSES_ARGUMENTS for w in route.wraps):
            doubts.append(f"`{info.name}` is also used where its arguments cannot be seen")
            continue
        argument = call_argument(route.call, info.signature, param, bound=route.bound, consumed=route.consumed)
        line = ctx.span(route.call).start.line
        if argument is DEFAULT:
            node = parameter(fn, param)
            argument = node.default if node is not None else None
            if argument is None:
                continue
        if not isinstance(argument, cst.BaseExpression):
            doubts.append(f"the call on line {line} passes arguments we cannot follow")
            continue
        judged = judge(analysis, argument)
        if judged.evidence is not None and evidence is None:
            evidence = (route.call, f"the call on line {line} passes `{ctx.code(argument)}` ({judged.evidence})")
        elif judged.doubt is not None:
            doubts.append(f"the call on line {line} passes `{ctx.code(argument)}`, {judged.doubt}")
    return CallsThrough(evidence, tuple(doubts), tuple(calls))


def doubts_elsewhere(analysis: Analysis, fn: FunctionNode, entry: JitEntry, param: str, judge: Judge) -> list[str]:
    """What calls in the project's other modules pass that may not suit a traced `param`."""
    elsewhere = passed_elsewhere(analysis.ctx, fn, entry.node, param)
    if isinstance(elsewhere, str):
        return [elsewhere]
    out = []
    for other in elsewhere:
        argument = other.argument
        if argument is DEFAULT:
            continue  # our own default, read with the local calls
        if not isinstance(argument, cst.BaseExpression) or other.analysis is None:
            out.append(f"{other.where} passes arguments we cannot follow")
            continue
        judged = judge(other.analysis, argument)
        if judged.doubt is not None:
            out.append(f"{other.where} passes `{other.analysis.ctx.code(argument)}`, {judged.doubt}")
    return out


__all__ = ["CallsThrough", "Judge", "Judged", "calls_through", "doubts_elsewhere", "entered_jit", "through"]


def made_traced(analysis: Analysis, callee: FunctionNode, param: str) -> tuple[tuple, list[str]] | None:
    """A traced value handed to a jitted helper's static `param` (JAX404, and JAX304 for a value JAX
    computes, numpyro#1212): when nothing in the helper needs the parameter concrete and its one
    written jit can drop it, (the edits, the doubts the other calls through that jit leave). A
    method whose receiver the jit traces is left to a person (dropping the slot would not make
    the receiver hashable)."""
    ctx = analysis.ctx
    if ConcreteUses(ctx).first_need(callee, param) is not None:
        return None
    entry = entered_jit(analysis, callee)
    if entry is None or entry.wrapper.spec is None or entry.wrapper.call is None:
        return None
    info = function_info(ctx, callee)
    declared = entry.wrapper.spec.declared_static(info.signature)
    if info.method in (MethodKind.INSTANCE, MethodKind.CLASS) and info.signature.params:
        if info.signature.params[0].name not in declared:
            return None
    edit = StaticEditor(ctx).drop(entry.wrapper, entry.node, info.signature, param)
    if isinstance(edit, str):
        return None
    calls = calls_through(analysis, callee, entry, param, traceable)
    unsure = [*calls.doubts, *doubts_elsewhere(analysis, callee, entry, param, traceable)]
    return edit.edits, unsure


def traceable(analysis: Analysis, argument: cst.BaseExpression) -> Judged:
    """What a call passes a parameter that becomes traced: a tracer or a number jit traces as
    well; anything else (a string, a function) jit cannot trace."""
    if analysis.traced.tracer_source(argument) is not None:
        return Judged(evidence="a tracer")
    if int_value(analysis, argument) is not None or array_origin(analysis, argument) is not None:
        return Judged()
    if isinstance(argument, (cst.Integer, cst.Float)):
        return Judged()
    return Judged(doubt="which may not be a number or an array")

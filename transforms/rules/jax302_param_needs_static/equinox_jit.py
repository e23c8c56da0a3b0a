"""JAX302 for an equinox module given to ``jax.jit`` (and ``jax.grad``) that holds a function as a leaf.

An equinox module is a pytree of all its fields. Some keep a function among
them, not declared static: ``eqx.nn.MLP`` (its activations), the pooling layers
(their reduction), ``eqx.nn.Lambda``, a ``Sequential`` holding one of those, or a
module of the program with a ``Callable`` field given a function. ``jax.jit``
can only trace arrays, so every call fails: ``TypeError: Error interpreting
argument to <function f> as an abstract array ... The problematic value is of
type <class 'function'>`` (docs/jax306-behaviour.md, P6). Equinox's answer is
``eqx.filter_jit``, which traces the arrays and keeps every other leaf static.

The fix swaps the jit for ``eqx.filter_jit`` where it is a bare ``@jax.jit``
decorator, ``g = jax.jit(f)`` or ``jax.jit(f)(model, x)`` (no option
``filter_jit`` would spell otherwise); a bare ``jax.grad`` or ``jax.value_and_grad``
layer under the jit becomes ``eqx.filter_grad`` / ``eqx.filter_value_and_grad``,
which differentiate the module's floating arrays (equinox#361). A differentiation
without a jit is not this rule's (it runs on files that say ``jit``). It changes
no program that ran: every call passing such a module failed, and a call passing
arrays alone traces the same under both; a Python number another call passes
becomes static (one compilation per value, as the note says).
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.function_leaves import function_leaf
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.vocabulary import JIT

FILTER_JIT = "equinox.filter_jit"
#: Each JAX layer a module with a function leaf fails under, and equinox's filtered twin, which
#: traces (differentiates) the arrays and keeps every other leaf as it is (equinox#361).
FILTERED = {JIT: FILTER_JIT, "jax.grad": "equinox.filter_grad", "jax.value_and_grad": "equinox.filter_value_and_grad"}


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for fn in ctx.nodes_of(cst.FunctionDef):
        routes = analysis.traces.routes(fn) or ()
        layers = {w.node: w for r in routes for w in r.wraps}
        names = [w.name for w in layers.values()]
        if JIT not in names or any(n not in FILTERED for n in names) or len(set(names)) != len(names):
            continue
        sig = function_info(ctx, fn).signature
        shown = None
        for route in routes:
            if route.call is None or route.escapes or not route.wraps:
                continue
            for param in sig.params:  # the jit traces every argument
                argument = call_argument(route.call, sig, param.name, bound=route.bound, consumed=route.consumed)
                if isinstance(argument, cst.BaseExpression) and (why := function_leaf(analysis, argument, 0)) is not None:
                    shown = (route.call, argument, why)
                    break
            if shown is not None:
                break
        if shown is not None:
            out.append(_finding(analysis, fn, layers, *shown))
    return out


def _finding(analysis: Analysis, fn: cst.FunctionDef, layers: dict, call: cst.Call,
             argument: cst.BaseExpression, why: str) -> Finding:
    ctx = analysis.ctx
    name = fn.name.value
    spelled_layers = " and ".join(f"`{w.name}`" for w in layers.values())
    head = (
        f"`{shorten(ctx.code(argument))}`, passed to `{name}` on line {ctx.span(call).start.line} under {spelled_layers}, "
        f"is an equinox module that holds {why} as a leaf; JAX traces every leaf as an array and fails "
        "(\"Error interpreting argument ... as an abstract array\", \"not a valid JAX type\")"
    )
    edits: list = []
    twins: list[str] = []
    why_not = None
    for node, wrap in layers.items():
        target = _jit_expression(ctx, node)
        options = wrap.name == JIT and (wrap.jit is None or (wrap.jit.call is not None and len(wrap.jit.call.args) > 1))
        spelled = planner(analysis).spell(FILTERED[wrap.name], fn)
        if target is None or options:
            why_not = f"its `{wrap.name}` is not a bare `{wrap.name}`"
            break
        if spelled is None:
            why_not = f"`{FILTERED[wrap.name].replace('equinox.', 'eqx.')}` cannot be spelled here"
            break
        edits.append(ctx.replace(target, spelled.text))
        twins.append(f"`{spelled.text}`")
        if spelled.edit is not None and all(e.content != spelled.edit.content for e in edits):
            edits.append(spelled.edit)
    if why_not is not None:
        return ctx.finding("JAX302", argument, f"{head}; not rewritten: {why_not}",
                           notes=("use equinox's filtered transforms (`eqx.filter_jit`, `eqx.filter_grad`), which trace the arrays "
                                  "and keep the rest static",))
    message = f"{head}; use equinox's filtered twins ({', '.join(twins)}), which trace the arrays and keep every other leaf static"
    return ctx.finding(
        "JAX302", argument, message, tuple(edits), Applicability.SAFE,
        description="equinox's filtered transforms instead of " + ", ".join(f"`{w.name}`" for w in layers.values()),
        notes=("a Python number a call passes becomes static under `filter_jit`: each distinct value compiles once",),
    )


def _jit_expression(ctx, jit_node: cst.CSTNode) -> cst.BaseExpression | None:
    """The ``jax.jit`` to replace: a bare decorator, the callee of ``g = jax.jit(f)``, or of a jit
    applied at its call, ``jax.jit(f)(model, x)``."""
    if isinstance(jit_node, cst.Decorator):
        return jit_node.decorator if not isinstance(jit_node.decorator, cst.Call) else None
    if not isinstance(jit_node, cst.Call) or len(jit_node.args) != 1:
        return None
    parent = ctx.parent(jit_node)
    if isinstance(parent, cst.Assign) or (isinstance(parent, cst.Call) and parent.func is jit_node):
        return jit_node.func
    return None


def seeds(facts: Facts) -> list[ast.AST]:
    """The whole module when it imports equinox (the module may be built anywhere)."""
    return [facts.tree] if "equinox" in facts.text else []

"""JAX304's one fix: a jitted helper, called in traced code with Python values, loses its jit.

A jitted function returns arrays: under an outer jit, tracers, even when every
input is a Python int (``jnp.arange(add1(k))`` fails, jax#35090, #14666). The
maintainers' answer is to call the function without its jit, which inside the
outer jit changes nothing else: the helper is traced into the same program
either way, its static inputs are the same Python values, and only its
result, computed by Python from Python values, stays one. The decorator goes
when that is all it changes:

* the call passes only Python values (`static_values`), so the result is one;
* the decorator is the def's only one, sets only static arguments, and every
  use of the function is a direct call inside traced code of this module, no
  other module importing it (`repairs.redundant_jit`);
* the result of every call flows only where a Python value works as the array
  did (`sinks.Follower`: no ``.astype``, no method, no return to unseen code).

Where the jitted function is a second name for a plain def (``jit_f =
jax.jit(f, static_argnums=0)``, jax#14666), the def is there unjitted: only
this call changes, to call ``f`` itself, when ``f`` at the call is that def and
the call and its result meet the first and last conditions above.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.repairs.redundant_jit import dropped_jit, uses_of_jitted, why_jit_stays
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.sinks import Follower
from jaxfix.transforms.semantics.static_slots import JittedCall
from jaxfix.transforms.semantics.static_values import Kind as Static


def drop_helper_jit(analysis: Analysis, call: cst.Call, jitted: JittedCall) -> Edit | str:
    """The edit removing the helper's jit; else why the jit must stay."""
    ctx = analysis.ctx
    name = jitted.callee_name
    if isinstance(call.func, cst.Call):
        return "the jit is applied at the call"
    target = jitted.target
    node = target.function.node
    if not isinstance(node, cst.FunctionDef) or any(
        d is not target.jit_node and ctx.names.qualified_name(d.decorator) != "builtins.staticmethod"
        for d in node.decorators
    ):
        return f"`{name}` has decorators besides its jit"
    if function_info(ctx, node).method is not MethodKind.FUNCTION:
        return f"`{name}` is a method"
    unproven = _not_a_python_value(analysis, call)
    if unproven is not None:
        return f"`{ctx.code(unproven)}` is not known to be a Python value here"
    stays = why_jit_stays(analysis, target)
    if stays is not None:
        return f"the jit of `{name}` stays: {stays}"
    follower = Follower(ctx)
    for ref in uses_of_jitted(analysis, target) or ():
        use = ctx.parent(ref)
        if not (isinstance(use, cst.Call) and use.func is ref):
            return f"`{name}` is used other than by a call (line {ctx.span(ref).start.line})"
        flow = follower.follow(use)
        if flow.blocked is not None:
            return f"the result of `{name}` on line {ctx.span(use).start.line} must stay an array: {flow.blocked}"
    return dropped_jit(ctx, target)


def call_plain_function(analysis: Analysis, call: cst.Call, jitted: JittedCall) -> Edit | None:
    """``jit_f(N)`` with ``jit_f = jax.jit(f, ...)`` and ``f`` (or ``Model.f``, a static method) the
    plain def where the call is written: the edit calling it instead; None when not this case or
    not proven."""
    ctx = analysis.ctx
    target = jitted.target
    node = target.function.node
    jit_call = target.jit_node
    if not isinstance(jit_call, cst.Call) or not isinstance(node, cst.FunctionDef) or not jit_call.args:
        return None
    assign = ctx.parent(jit_call)
    if not (isinstance(assign, cst.Assign) and assign.value is jit_call and len(assign.targets) == 1):
        return None
    wrapped, *options = jit_call.args
    if wrapped.keyword is not None or wrapped.star:
        return None
    if any(a.keyword is None or a.keyword.value not in ("static_argnums", "static_argnames") for a in options):
        return None  # donation, shardings, a device: what the jit does beyond tracing
    if ctx.code(call.func) == ctx.code(wrapped.value) or not _names_def_at(ctx, wrapped.value, call, node):
        return None
    if _not_a_python_value(analysis, call) is not None:
        return None
    if Follower(ctx).follow(call).blocked is not None:
        return None
    return ctx.replace(call.func, ctx.code(wrapped.value))


def _not_a_python_value(analysis: Analysis, call: cst.Call) -> cst.BaseExpression | None:
    """The first argument of `call` not shown to be a Python value where it is written (`static_values`)."""
    for arg in call.args:
        if arg.star or analysis.staticness.verdict(arg.value).kind is not Static.STATIC:
            return arg.value
    return None


def _names_def_at(ctx, expr: cst.BaseExpression, call: cst.Call, node: cst.FunctionDef) -> bool:
    """Does `expr` (``f``, or ``Model.f`` with ``f`` a static method), written where `call` is,
    name the plain def `node`? Looked up from the call's own scope."""
    head = expr.value if isinstance(expr, cst.Attribute) else expr
    if not isinstance(head, cst.Name):
        return False
    scope = ctx.scope(call)
    if scope is None or head.value not in scope:
        return False
    bindings = scope[head.value]
    if len(bindings) != 1:
        return False
    bound = getattr(next(iter(bindings)), "node", None)
    if isinstance(expr, cst.Name):
        return bound is node and not node.decorators
    cls = ctx.parent(ctx.parent(node))
    static = [ctx.names.qualified_name(d.decorator) for d in node.decorators] == ["builtins.staticmethod"]
    return isinstance(bound, cst.ClassDef) and bound is cls and expr.attr.value == node.name.value and static

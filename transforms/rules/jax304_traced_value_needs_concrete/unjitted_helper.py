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
    for arg in call.args:
        verdict = analysis.staticness.verdict(arg.value)
        if arg.star or verdict.kind is not Static.STATIC:
            return f"`{ctx.code(arg.value)}` is not known to be a Python value here"
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

"""``jnp.reshape(x, jnp.array(shape))`` under jit: the shape parameter becomes static, the wrap goes.

A shape built with ``jnp.array(shape, dtype=jnp.int32)`` from a traced
parameter fails twice over: jit traces the parameter, and a jnp call under a
trace records an array even of static ints (docs/jax4xx-behaviour.md, B). Making
the parameter static alone leaves the wrap a tracer; dropping the wrap alone
leaves the parameter traced (aesara#43 needed both). The two edits together
are proven where:

* the wrap's value goes only to shapes (`Sink.shape`) or axes, which take the
  ints themselves as they take an array of them;
* its operand is a parameter of the traced function read nowhere else, so
  making it static changes no other computation;
* every call passes that parameter a Python int or a tuple or list of ints
  (`IntStatic.int_sequence`), so ``dtype=jnp.int32`` changes nothing, and
  the static-parameter plan's obligations hold (`repairs.static_parameter`).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.repairs.static_parameter import plan_static_parameters
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import reaching_parameter, single_binding
from jaxfix.transforms.semantics.int_values import IntStatic, Kind
from jaxfix.transforms.semantics.jnp_arithmetic import read_op
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.python_values import NotStatic, PythonValue, python_value
from jaxfix.transforms.semantics.reads import parameter_reads
from jaxfix.transforms.semantics.sinks import Flow


def _ints_at_call(analysis: Analysis, expr: cst.BaseExpression) -> PythonValue | NotStatic:
    """A call's argument for the shape parameter: an int, or a tuple or list of ints."""
    ints = IntStatic(analysis)
    if ints.kind(expr).kind is not Kind.INT and ints.int_sequence(expr).kind is not Kind.INT:
        return NotStatic(f"`{analysis.ctx.code(expr)}` is not proven an int or a tuple of ints")
    return python_value(analysis, expr)


def static_shape_unwrapped(
    analysis: Analysis, call: cst.Call, fn: FunctionNode, flow: Flow
) -> tuple[tuple[Edit, ...], str, str] | str:
    """(edits, the parameter, the jit after the edit) making `call`'s shape static; else why not."""
    ctx = analysis.ctx
    op = read_op(ctx, call)
    if op is None or op.kind != "wrap" or op.node is not call:
        return "it is not `jnp.array` of one value"
    if not flow.sinks or flow.blocked is not None or not all(s.shape or s.axis for s in flow.sinks):
        return "its value goes where an array may be wanted"
    operand = op.operands[0]
    if not isinstance(operand, cst.Name):
        return "what it wraps is not a parameter"
    binding = single_binding(ctx, operand) or reaching_parameter(ctx, operand)
    if not isinstance(binding, cst.Param) or ctx.enclosing_function(binding) is not fn:
        return "what it wraps is not a parameter of the traced function"
    param = binding.name.value
    if len(parameter_reads(ctx, fn, param)) != 1:
        return f"`{param}` is read elsewhere in the function, where a static value could compute differently"
    plan = plan_static_parameters(analysis, fn, (param,), judge=_ints_at_call)
    if isinstance(plan, str):
        return plan
    return (*plan.edits, ctx.replace(call, param)), param, plan.jit_text

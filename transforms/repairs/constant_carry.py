"""A Python value threaded through a ``fori_loop`` carry unchanged leaves the carry (jax#1879).

``fori_loop`` traces its carry: a static ``batch_size`` put in it arrives in the
body as a tracer, and a size made of it fails (``lax.dynamic_slice(x, (start,),
(batch_size,))``). The body hands it back unchanged, so every step sees the
value it started with: the body can close over the name instead. The element
leaves, at the same index, the initial carry, the body's unpacking of it, the
body's return and the unpacking of the loop's result, proven where:

* the body unpacks its carry once, whole, into names (``a, b, n = state``),
  binds the name nowhere else, and its one ``return`` gives the name back at
  its place;
* the initial carry is a tuple written out (or a name bound once to one) whose
  element there is a name (the body's reads of its own name for it then read
  that one, which the body must not bind itself), bound once in the function around the
  body and no tracer there, so the body's closure reads the Python value the
  loop started with;
* the loop's result is unpacked and the element there is ``_`` or a name
  nothing reads (or the result is not used).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.tuple_elements import without_element
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, own_returns, single_binding
from jaxfix.transforms.semantics.reads import parameter_reads, reads


def _names(target: cst.BaseExpression) -> list[str] | None:
    if not isinstance(target, (cst.Tuple, cst.List)):
        return None
    names = [e.value.value for e in target.elements if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)]
    return names if len(names) == len(target.elements) else None


def _bound_in(ctx, fn: cst.FunctionDef) -> set[str]:
    """The names `fn`'s own scope binds (its parameters and locals)."""
    scope = ctx.scope(fn.body.body[0]) if isinstance(fn.body, cst.IndentedBlock) and fn.body.body else None
    return {a.name for a in scope.assignments} if scope is not None else set()


def carried_name(analysis: Analysis, read: cst.CSTNode, body: cst.FunctionDef) -> cst.Tuple | None:
    """The names ``a, b, n`` of ``a, b, n = state``, the body's one read `read` of its carry."""
    ctx = analysis.ctx
    positional = [*body.params.posonly_params, *body.params.params]
    if len(positional) != 2 or parameter_reads(ctx, body, positional[1].name.value) != [read]:
        return None
    assign = ctx.parent(read)
    if not isinstance(assign, cst.Assign) or assign.value is not read or len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    return target if _names(target) is not None else None  # type: ignore[return-value]


def drop_constant_carry(
    analysis: Analysis, loop: cst.Call, body: cst.FunctionDef, unpacking: cst.Tuple, index: int
) -> tuple[tuple[Edit, ...], str] | str:
    """(edits, the name) taking element `index` out of the carry of ``fori_loop`` call `loop`."""
    ctx = analysis.ctx
    names = _names(unpacking) or []
    name = names[index]
    target = unpacking.elements[index].value
    if single_binding(ctx, target) is not target:  # type: ignore[arg-type]
        return f"`{name}` is bound again in `{body.name.value}`"
    returns = own_returns(body)
    value = returns[0].value if len(returns) == 1 else None
    if not isinstance(value, cst.Tuple) or len(value.elements) != len(names):
        return f"`{body.name.value}` does not return its carry as a tuple written out"
    returned = value.elements[index].value
    if not (isinstance(returned, cst.Name) and returned.value == name and single_binding(ctx, returned) is target):
        return f"`{body.name.value}` does not hand `{name}` back unchanged"
    args = [a for a in loop.args if a.keyword is None and not a.star]
    if len(args) != 4 or len(loop.args) != 4:
        return "the loop's arguments are not the four written by position"
    init = args[3].value
    if isinstance(init, cst.Name):
        binding = single_binding(ctx, init)
        init = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None  # type: ignore[assignment]
        held = binding
    else:
        held = None
    if not isinstance(init, cst.Tuple) or len(init.elements) != len(names):
        return "the loop's initial carry is not a tuple written out"
    start = init.elements[index].value
    if not isinstance(start, cst.Name):
        return f"the initial carry does not start `{name}` from a name of its own"
    outer = single_binding(ctx, start)
    if outer is None or ctx.enclosing_function(outer) is not ctx.enclosing_function(body):
        return f"`{name}` is not bound once in the function around `{body.name.value}`"
    if analysis.traced.tracer_source(start) is not None:
        return f"`{name}` is a tracer where the loop starts too: closing over it would not make it concrete"
    if held is not None and len(reads(ctx, held)) != 1:  # type: ignore[arg-type]
        return "the initial carry is read elsewhere too"
    edits = [without_element(ctx, init, index), without_element(ctx, unpacking, index), without_element(ctx, value, index)]
    if start.value != name:
        # The body calls it `batch`, the function around it `batch_value`: each read names the outer one.
        uses = [use for use in reads(ctx, target) if use is not returned]  # type: ignore[arg-type]
        scopes = [ctx.scope(use) for use in uses]
        if start.value in _bound_in(ctx, body) or any(
            scope is None or any(a.name == start.value for a in scope.assignments) for scope in scopes
        ):
            return f"`{body.name.value}` binds `{start.value}` of its own, which the closure would read"
        edits.extend(ctx.replace(use, start.value) for use in uses)
    result = ctx.parent(loop)
    if isinstance(result, cst.Assign) and result.value is loop:
        out = result.targets[0].target if len(result.targets) == 1 else None
        out_names = _names(out) if out is not None else None
        if out_names is None or len(out_names) != len(names):
            return "the loop's result is not unpacked into names"
        dropped = out.elements[index].value  # type: ignore[union-attr]
        if out_names[index] != "_" and reads(ctx, dropped):  # type: ignore[arg-type]
            return f"`{out_names[index]}`, the loop's result at that place, is read"
        edits.append(without_element(ctx, out, index))  # type: ignore[arg-type]
    elif not isinstance(result, cst.Expr):
        return "the loop's result is used whole"
    return tuple(edits), name

"""A Python value threaded through a ``fori_loop`` or ``scan`` carry unchanged leaves the carry (jax#1879).

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

``scan`` is the same with its carry first (``body(carry, x)``, ``return carry,
y``, ``carry, ys = scan(...)``); a carry the body rebuilds into a name before
returning it (``carry = (key, cfg, params)``, ``return carry, None``) and a
result carry unpacked on a later line (``key, cfg, params = carry``) are
followed through the name, read once. A body defined elsewhere (a module-level
def, a closure of nothing) cannot read the outer name: it gets a parameter of
the element's name, which the loop binds with ``functools.partial(body,
cfg=cfg)``, where the body's name is read at the loop only (twisted-smc-lm
1f3bc94: a config threaded through a scan carry reached a jit's static
argument as a tracer).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.tuple_elements import without_element
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, own_returns, reaching_binding, single_binding
from jaxfix.transforms.semantics.importers import here, used_elsewhere
from jaxfix.transforms.semantics.reads import reads, reads_seeing
from jaxfix.transforms.semantics.vocabulary import (
    CARRY_PARAMETER,
    FORI_LOOP,
    LAX_PARAMETERS,
    OPERANDS,
    PARTIAL,
    SCAN,
    written_argument,
)


def _names(target: cst.BaseExpression) -> list[str] | None:
    if not isinstance(target, (cst.Tuple, cst.List)):
        return None
    names = [e.value.value for e in target.elements if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)]
    return names if len(names) == len(target.elements) else None


def _bound_in(ctx, fn: cst.FunctionDef) -> set[str]:
    """The names `fn`'s own scope binds (its parameters and locals)."""
    scope = ctx.scope(fn.body.body[0]) if isinstance(fn.body, cst.IndentedBlock) and fn.body.body else None
    return {a.name for a in scope.assignments} if scope is not None else set()


@dataclass(frozen=True)
class DroppedCarry:
    edits: tuple[Edit, ...]
    #: The body's name for the element taken out.
    name: str
    #: How the body gets the value now, for a note.
    given: str
    #: What the loop's initial carry starts the element from, the value the body now gets.
    start: cst.Name


@dataclass(frozen=True)
class CarryLoop:
    """Which parameters of a loop primitive take its body and its initial carry
    (`vocabulary.LAX_PARAMETERS`), and where the body's carry is."""

    body: str
    init: str
    carry_param: int  # the body's parameter that receives the carry
    returns_pair: bool  # the body returns ``(carry, y)``, and the loop ``(carry, ys)``


CARRY_LOOPS = {
    FORI_LOOP: CarryLoop("body_fun", OPERANDS[FORI_LOOP], CARRY_PARAMETER[FORI_LOOP], False),
    SCAN: CarryLoop("f", OPERANDS[SCAN], CARRY_PARAMETER[SCAN], True),
}


def carried_name(analysis: Analysis, read: cst.CSTNode, body: cst.FunctionDef, loop: str = FORI_LOOP) -> cst.Tuple | None:
    """The names ``a, b, n`` of ``a, b, n = state``, the body's one read `read` of its carry."""
    ctx = analysis.ctx
    positional = [*body.params.posonly_params, *body.params.params]
    position = CARRY_LOOPS[loop].carry_param
    if len(positional) != 2 or reads_seeing(ctx, positional[position]) != [read]:
        return None
    assign = ctx.parent(read)
    if not isinstance(assign, cst.Assign) or assign.value is not read or len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    return target if _names(target) is not None else None  # type: ignore[return-value]


def drop_constant_carry(
    analysis: Analysis, loop: cst.Call, body: cst.FunctionDef, unpacking: cst.Tuple, index: int
) -> DroppedCarry | str:
    """The edits taking element `index` out of the carry of loop call `loop` (a ``fori_loop``
    or a ``scan``); else why not."""
    ctx = analysis.ctx
    qualified = ctx.names.qualified_name(loop.func) or ""
    kind = CARRY_LOOPS.get(qualified)
    if kind is None:
        return "the loop is not one whose carry jaxfix follows"
    names = _names(unpacking) or []
    name = names[index]
    target = unpacking.elements[index].value
    if single_binding(ctx, target) is not target:  # type: ignore[arg-type]
        return f"`{name}` is bound again in `{body.name.value}`"
    value = _returned_carry(ctx, body, kind)
    if isinstance(value, str):
        return value
    returned = value.elements[index].value if len(value.elements) == len(names) else None
    if not (isinstance(returned, cst.Name) and returned.value == name and single_binding(ctx, returned) is target):
        return f"`{body.name.value}` does not hand `{name}` back unchanged"
    if any(a.star for a in loop.args):
        return "the loop's arguments are not all written out"
    written = written_argument(loop, LAX_PARAMETERS[qualified], kind.init)
    init = written.value if written is not None else None
    if init is None:
        return "the loop's initial carry cannot be found"
    held = None
    if isinstance(init, cst.Name):
        held = reaching_binding(ctx, init)
        init = assigned_value(ctx, held) if isinstance(held, cst.Name) else None  # type: ignore[assignment]
    if not isinstance(init, cst.Tuple) or len(init.elements) != len(names):
        return "the loop's initial carry is not a tuple written out"
    start = init.elements[index].value
    if not isinstance(start, cst.Name):
        return f"the initial carry does not start `{name}` from a name of its own"
    outer = reaching_binding(ctx, start)
    if outer is None or ctx.enclosing_function(outer) is not ctx.enclosing_function(loop) or _bound_before(ctx, start, outer, loop):
        return f"`{start.value}` is not bound once in the function around the loop"
    if analysis.traced.tracer_source(start) is not None:
        return f"`{name}` is a tracer where the loop starts too: the body would not get it concrete"
    if held is not None and len(reads_seeing(ctx, held)) != 1:
        return "the initial carry is read elsewhere too"
    edits = [without_element(ctx, init, index), without_element(ctx, unpacking, index), without_element(ctx, value, index)]
    closure = ctx.enclosing_function(body) is ctx.enclosing_function(loop) and ctx.enclosing_function(loop) is not None
    given = _closed_over(ctx, body, target, returned, start) if closure else _bound_by_partial(analysis, loop, body, kind, name, start)
    if isinstance(given, str):
        return given
    edits.extend(given)
    after = _result_carry(ctx, loop, kind, len(names), index)
    if isinstance(after, str):
        return after
    edits.extend(after)
    spans = sorted((e.start, e.end) for e in edits)
    if any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:])):
        return f"`{name}` is read inside a carry the edits rewrite whole"
    how = "the body now closes over it" if closure else f"the loop now binds it to `{body.name.value}` with `functools.partial`"
    return DroppedCarry(tuple(edits), name, how, start)


def _bound_before(ctx, start: cst.Name, outer: cst.CSTNode, loop: cst.Call) -> bool:
    """Is `start`'s name bound again before the loop runs, where the body would read it? Bindings
    after the loop (its result unpacked into the name) come after the body's last read."""
    scope = ctx.scope(start)
    assignments = scope.assignments[start.value] if scope is not None else ()
    return any(a.node is not outer and ctx.start(a.node) < ctx.end(loop) for a in assignments)


def _returned_carry(ctx, body: cst.FunctionDef, kind: CarryLoop) -> cst.Tuple | str:
    """The tuple display the body's one ``return`` gives back as its carry (through a name bound
    once to it and read only there)."""
    returns = own_returns(body)
    value = returns[0].value if len(returns) == 1 else None
    if kind.returns_pair:
        value = value.elements[0].value if isinstance(value, cst.Tuple) and len(value.elements) == 2 else None
    if isinstance(value, cst.Name):
        binding = reaching_binding(ctx, value)
        rebuilt = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        if rebuilt is None or reads_seeing(ctx, binding) != [value]:  # type: ignore[arg-type]
            return f"`{body.name.value}` does not return its carry as a tuple written out"
        value = rebuilt
    if not isinstance(value, cst.Tuple):
        return f"`{body.name.value}` does not return its carry as a tuple written out"
    return value


def _closed_over(ctx, body: cst.FunctionDef, target: cst.Name, returned: cst.Name, start: cst.Name) -> list[Edit] | str:
    """A body nested where the loop is reads the outer name (each read renamed to it)."""
    if start.value == target.value:
        return []
    # The body calls it `batch`, the function around it `batch_value`: each read names the outer one.
    uses = [use for use in reads(ctx, target) if use is not returned]
    scopes = [ctx.scope(use) for use in uses]
    if start.value in _bound_in(ctx, body) or any(
        scope is None or any(a.name == start.value for a in scope.assignments) for scope in scopes
    ):
        return f"`{body.name.value}` binds `{start.value}` of its own, which the closure would read"
    return [ctx.replace(use, start.value) for use in uses]


def _bound_by_partial(
    analysis: Analysis, loop: cst.Call, body: cst.FunctionDef, kind: CarryLoop, name: str, start: cst.Name
) -> list[Edit] | str:
    """A body defined elsewhere gets the value as a parameter of its own, bound at the loop."""
    ctx = analysis.ctx
    written = written_argument(loop, LAX_PARAMETERS[ctx.names.qualified_name(loop.func) or ""], kind.body)
    passed = written.value if written is not None else None
    why = _handed_only_here(ctx, passed, body)
    if why is not None:
        return why
    params = body.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params or params.star_kwarg is not None:
        return f"`{body.name.value}` takes more than its two positional parameters"
    spelled = planner(analysis).spell(PARTIAL, loop)
    if spelled is None:
        return "`functools.partial` cannot be spelled at the loop"
    last = [*params.posonly_params, *params.params][-1]
    edits = [
        Edit(ctx.end(last), ctx.end(last), f", {name}"),
        ctx.replace(passed, f"{spelled.text}({ctx.code(passed)}, {name}={start.value})"),  # type: ignore[arg-type]
    ]
    return edits + ([spelled.edit] if spelled.edit is not None else [])


def _handed_only_here(ctx, passed: cst.BaseExpression | None, body: cst.FunctionDef) -> str | None:
    """Is the loop handed `body` (``body``, or ``Model.body`` of a staticmethod) where nothing else
    reads it? Any other caller would not pass the parameter it gets. None when so, else why not."""
    fn = body.name.value
    owner = ctx.parent(ctx.parent(body))
    if isinstance(passed, cst.Name) and passed.value == fn and single_binding(ctx, passed) is body and not body.decorators:
        if reads(ctx, body.name) != [passed]:
            return f"`{fn}` is used elsewhere too, where the parameter it would get is not passed"
        return None
    if (
        isinstance(passed, cst.Attribute)
        and passed.attr.value == fn
        and isinstance(passed.value, cst.Name)
        and isinstance(owner, cst.ClassDef)
        and single_binding(ctx, passed.value) is owner
        and [ctx.names.qualified_name(d.decorator) for d in body.decorators] == ["builtins.staticmethod"]
    ):
        if ctx.attributes_named(fn) != [passed] or used_elsewhere(ctx, here(ctx, owner.name.value)):
            return f"`{fn}` is used elsewhere too, where the parameter it would get is not passed"
        return None
    if body.decorators:
        return f"`{fn}` is decorated, and what the decorator passes on is not followed"
    return f"the loop is not handed `{fn}` by its name"


def _result_carry(ctx, loop: cst.Call, kind: CarryLoop, size: int, index: int) -> list[Edit] | str:
    """The element taken out of what the loop gives back: its result unpacked into names, at
    once or (a scan's carry bound to a name) on the one line that reads that name."""
    result = ctx.parent(loop)
    if isinstance(result, cst.Expr):
        return []
    if not (isinstance(result, cst.Assign) and result.value is loop and len(result.targets) == 1):
        return "the loop's result is used whole"
    out: cst.BaseExpression | None = result.targets[0].target
    if kind.returns_pair:
        out = out.elements[0].value if isinstance(out, cst.Tuple) and len(out.elements) == 2 else None
        if isinstance(out, cst.Name):
            later = reads_seeing(ctx, out)
            if not later:
                return []
            statement = ctx.parent(later[0]) if len(later) == 1 else None
            if not (isinstance(statement, cst.Assign) and statement.value is later[0] and len(statement.targets) == 1):
                return f"`{out.value}`, the loop's carry, is read other than by unpacking it once"
            out = statement.targets[0].target
    out_names = _names(out) if out is not None else None
    if out_names is None or len(out_names) != size:
        return "the loop's result is not unpacked into names"
    dropped = out.elements[index].value  # type: ignore[union-attr]
    if out_names[index] != "_" and reads_seeing(ctx, dropped):
        return f"`{out_names[index]}`, the loop's result at that place, is read"
    return [without_element(ctx, out, index)]  # type: ignore[arg-type]

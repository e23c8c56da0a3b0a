"""``lax.scan`` with a traced length, as a ``lax.fori_loop`` when only its carry is used.

scan cannot take a traced ``length`` (there is no "dynamic length scan",
jax-behaviour.md 3b); ``fori_loop`` can take a traced upper bound (3d). The two
agree exactly when the stacked outputs ``ys`` are thrown away
(``carry, _ = scan(...)`` or ``scan(...)[0]``) and the scan runs over no
``xs``: each step then is ``carry = body(carry, None)[0]``. The body becomes

* the body itself, when it is a def next to the scan, used only there, whose
  ``x`` parameter is unused and whose every ``return`` is a pair with a ``y``
  that can be dropped: its parameters swap (the unused ``x`` takes the loop
  index) and each ``return c, y`` becomes ``return c``;
* otherwise ``lambda _, c: body(c, None)[0]``, which calls the body exactly as
  scan does.

A scan over ``xs=jnp.arange(n)`` hands the body the step's index as its ``x``
(equinox#776, vmapped over ``n``): the body becomes ``lambda i, c: body(c, i)[0]``
(`index_body`), which fori_loop calls with the same indices, 0 to n - 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.purity import is_pure
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.vocabulary import LAX_PARAMETERS, SCAN, written_argument

_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


@dataclass(frozen=True)
class ScanCall:
    call: cst.Call
    f: cst.BaseExpression
    init: cst.BaseExpression
    xs: cst.BaseExpression | None
    #: Other options written (reverse=, unroll=): not carried over to fori_loop.
    options: tuple[str, ...]


def read_scan(call: cst.Call) -> ScanCall | None:
    params = LAX_PARAMETERS[SCAN]
    f, init = written_argument(call, params, "f"), written_argument(call, params, "init")
    if f is None or init is None:
        return None
    xs = written_argument(call, params, "xs")
    xs_value = xs.value if xs is not None and not _is_none(xs.value) else None
    options = tuple(p for p in params[4:] if written_argument(call, params, p) is not None)
    return ScanCall(call, f.value, init.value, xs_value, options)


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


# -- is only the carry used? ---------------------------------------------------


@dataclass(frozen=True)
class CarryUse:
    """Where the fori_loop goes, and the edit that stops unpacking a pair."""

    replaced: cst.BaseExpression
    edits: tuple[Edit, ...]


def carry_use(ctx: ModuleContext, call: cst.Call) -> CarryUse | str:
    """How the scan's result is used when its ys are discarded; else the reason they are used."""
    parent = ctx.parent(call)
    if isinstance(parent, cst.Subscript) and parent.value is call and _is_index_zero(parent):
        return CarryUse(parent, ())
    if isinstance(parent, cst.Assign) and parent.value is call and len(parent.targets) == 1:
        target = parent.targets[0].target
        if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2:
            first, second = target.elements
            if isinstance(first, cst.Element) and isinstance(second, cst.Element) and isinstance(second.value, cst.Name):
                ys = second.value
                uses = reads(ctx, ys)
                if uses:
                    line = ctx.span(uses[0]).start.line
                    return f"its stacked outputs `{ys.value}` are used (line {line})"
                return CarryUse(call, (ctx.replace(target, ctx.code(first.value)),))
        if isinstance(target, cst.Name):
            return f"`{target.value}` keeps both the carry and the stacked outputs"
    return "its stacked outputs (`ys`) are used"


def _is_index_zero(subscript: cst.Subscript) -> bool:
    if len(subscript.slice) != 1:
        return False
    index = subscript.slice[0].slice
    return isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.evaluated_value == 0


# -- the fori_loop body --------------------------------------------------------


@dataclass(frozen=True)
class ForiBody:
    text: str
    #: Edits to the body's def when the body itself becomes the fori_loop body.
    edits: tuple[Edit, ...] = ()
    rewrites_def: bool = False


def fori_body(ctx: ModuleContext, scan: ScanCall) -> ForiBody | str:
    """The fori_loop body for a scan over no xs; a reason string when it reads its xs."""
    f = scan.f
    arity = _arity_problem(ctx, f)
    if arity is not None:
        return arity
    if isinstance(f, cst.Lambda):
        params = _two_plain_params(f.params)
        if params is not None and reads(ctx, params[1].name):
            return f"the body reads its xs (`{params[1].name.value}`)"
        if params is not None and isinstance(f.body, cst.Tuple) and _pair_with_droppable_y(ctx, f.body):
            first = f.body.elements[0].value
            return ForiBody(f"lambda {_param_text(ctx, params[1])}, {_param_text(ctx, params[0])}: {ctx.code(first)}")
        return _wrapper(ctx, f)
    if isinstance(f, cst.Name):
        definition = single_binding(ctx, f)
        if isinstance(definition, cst.FunctionDef):
            params = _two_plain_params(definition.params)
            if params is not None and reads(ctx, params[1].name):
                return f"the body `{f.value}` reads its xs (`{params[1].name.value}`)"
            itself = _body_itself(ctx, scan, definition, f)
            if itself is not None:
                return itself
    return _wrapper(ctx, f)


def scanned_arange(ctx: ModuleContext, arange: cst.Call) -> ScanCall | None:
    """The scan `arange` (``jnp.arange(n)``: one positional argument, no dtype) is the xs of."""
    if len(arange.args) != 1 or arange.args[0].keyword is not None or arange.args[0].star:
        return None
    holder = ctx.parent(arange)
    call = ctx.parent(holder) if isinstance(holder, cst.Arg) and holder.value is arange else None
    if not isinstance(call, cst.Call) or ctx.names.qualified_name(call.func) != "jax.lax.scan":
        return None
    scan = read_scan(call)
    return scan if scan is not None and scan.xs is arange else None


def index_body(ctx: ModuleContext, scan: ScanCall) -> ForiBody | str:
    """``lambda i, c: body(c, i)[0]``: the body called as scan calls it over ``jnp.arange(n)``."""
    arity = _arity_problem(ctx, scan.f)
    if arity is not None:
        return arity
    text = ctx.code(scan.f)
    taken = set(re.findall(r"[A-Za-z_]\w*", text))
    index = next(n for n in ("i", "_i", "index_") if n not in taken)
    carry = next(n for n in ("c", "carry", "carry_") if n not in taken)
    callee = text if isinstance(scan.f, _ATOMS) else f"({text})"
    return ForiBody(f"lambda {index}, {carry}: {callee}({carry}, {index})[0]")


def _arity_problem(ctx: ModuleContext, f: cst.BaseExpression) -> str | None:
    """Why a visible body cannot be called as ``body(carry, x)``, as scan calls it."""
    node = f if isinstance(f, cst.Lambda) else single_binding(ctx, f) if isinstance(f, cst.Name) else None
    if not isinstance(node, (cst.FunctionDef, cst.Lambda)) or (isinstance(node, cst.FunctionDef) and node.decorators):
        return None
    params = node.params
    if isinstance(params.star_arg, cst.Param):
        return None
    positional = [*params.posonly_params, *params.params]
    required = [p for p in positional if p.default is None] + [p for p in params.kwonly_params if p.default is None]
    if len(positional) >= 2 and len(required) <= 2:
        return None
    name = f.value if isinstance(f, cst.Name) else "the body"
    return f"`{name}` cannot be called as `{name}(carry, x)`, which is how scan calls it"


def _wrapper(ctx: ModuleContext, f: cst.BaseExpression) -> ForiBody:
    """``lambda _, c: body(c, None)[0]``: the body called exactly as scan calls it over no xs."""
    text = ctx.code(f)
    taken = set(re.findall(r"[A-Za-z_]\w*", text))
    index = next(n for n in ("_", "_i", "_index") if n not in taken)
    carry = next(n for n in ("c", "carry", "carry_") if n not in taken)
    callee = text if isinstance(f, _ATOMS) else f"({text})"
    return ForiBody(f"lambda {index}, {carry}: {callee}({carry}, None)[0]")


def _body_itself(ctx: ModuleContext, scan: ScanCall, definition: cst.FunctionDef, ref: cst.Name) -> ForiBody | None:
    """Edits turning a ``(carry, x) -> (carry, y)`` def into a ``(i, carry) -> carry`` one, when provably the same."""
    if definition.decorators or definition.returns is not None or definition.asynchronous is not None:
        return None
    if ctx.enclosing_function(definition) is not ctx.enclosing_function(scan.call):
        return None
    params = _two_plain_params(definition.params)
    if params is None or _uses_elsewhere(ctx, definition, ref):
        return None
    returns = _own_returns(definition)
    if returns is None or not returns:
        return None
    edits = [
        Edit(*_param_range(ctx, params[0]), _param_text(ctx, params[1])),
        Edit(*_param_range(ctx, params[1]), _param_text(ctx, params[0])),
    ]
    for ret in returns:
        value = ret.value
        if not isinstance(value, cst.Tuple) or not _pair_with_droppable_y(ctx, value):
            return None
        edits.append(ctx.replace(value, ctx.code(value.elements[0].value)))
    return ForiBody(ctx.code(ref), tuple(edits), rewrites_def=True)


def _two_plain_params(params: cst.Parameters) -> tuple[cst.Param, cst.Param] | None:
    """(carry, x) when the callable takes exactly two plain positional parameters."""
    if params.posonly_params or params.kwonly_params or params.star_kwarg is not None:
        return None
    if isinstance(params.star_arg, cst.Param) or len(params.params) != 2:
        return None
    if any(p.default is not None or p.star not in ("", cst.MaybeSentinel.DEFAULT) for p in params.params):
        return None
    return params.params[0], params.params[1]


def _param_range(ctx: ModuleContext, param: cst.Param) -> tuple[int, int]:
    end = param.annotation if param.annotation is not None else param.name
    return ctx.start(param.name), ctx.end(end)


def _param_text(ctx: ModuleContext, param: cst.Param) -> str:
    start, end = _param_range(ctx, param)
    return ctx.text[start:end]


def _uses_elsewhere(ctx: ModuleContext, definition: cst.FunctionDef, ref: cst.Name) -> bool:
    scope = ctx.scope(definition)
    if scope is None:
        return True
    assignments = scope.assignments[definition.name.value]
    if len(assignments) != 1:
        return True
    return [access.node for access in next(iter(assignments)).references] != [ref]


class _Returns(cst.CSTVisitor):
    """The returns of one function, not of the functions inside it; any yield."""

    def __init__(self, root: cst.FunctionDef) -> None:
        self.root = root
        self.returns: list[cst.Return] = []
        self.yields = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.root

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Return(self, node: cst.Return) -> None:
        self.returns.append(node)

    def visit_Yield(self, node: cst.Yield) -> None:
        self.yields = True


def _own_returns(definition: cst.FunctionDef) -> list[cst.Return] | None:
    visitor = _Returns(definition)
    definition.visit(visitor)
    return None if visitor.yields else visitor.returns


def _pair_with_droppable_y(ctx: ModuleContext, value: cst.Tuple) -> bool:
    if len(value.elements) != 2 or not all(isinstance(e, cst.Element) for e in value.elements):
        return False
    return is_pure(ctx, value.elements[1].value)


def render_fori(fori: str, count: str, body: str, init: str) -> str:
    return f"{fori}(0, {count}, {body}, {init})"

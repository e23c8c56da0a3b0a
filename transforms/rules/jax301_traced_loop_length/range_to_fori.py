"""A Python ``for _ in range(n)`` loop over a traced count, as ``lax.fori_loop``, when provably the same.

Python runs the body n times; fori_loop traces it once and runs it n times on
the device, threading the loop-carried variables through a carry. The two
agree when (DESIGN.md, JAX301 note):

* the body is straight-line assignments to plain names (no ``if``, ``break``,
  ``continue``, ``return``, ``del``, ``global``, item or attribute stores);
* every expression in it is pure (`purity`): tracing it once instead of
  running it n times changes nothing but speed;
* the loop index is not read, and there is no ``else`` clause;
* every carried variable (read before it is written in an iteration, or
  read anywhere outside the loop) is bound before the loop, to be the initial
  carry.

Then the body is kept verbatim inside ``def loop_body(_, c): ... return c``,
followed by ``c = lax.fori_loop(0, n, loop_body, c)``; a body that is one
``c = expr`` line becomes ``c = lax.fori_loop(0, n, lambda _, c: expr, c)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.fresh_names import fresh_name
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.purity import is_pure, resizing_call
from jaxfix.transforms.semantics.reads import names_read, reads


@dataclass(frozen=True)
class LoopState:
    """What a loop body reads and writes, in order."""

    #: Plain names the body assigns, in first-assignment order.
    assigned: tuple[str, ...]
    #: Names read in an iteration before that iteration writes them.
    read_first: frozenset[str]


def _names_read(expr: cst.CSTNode) -> list[str]:
    return [n.value for n in names_read(expr)]


def _target_names(target: cst.BaseExpression) -> list[str] | None:
    """Names a plain assignment target binds; None for item, attribute or starred stores."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        names: list[str] = []
        for element in target.elements:
            if not isinstance(element, cst.Element):
                return None
            inner = _target_names(element.value)
            if inner is None:
                return None
            names.extend(inner)
        return names
    return None


def loop_state(ctx: ModuleContext, body: cst.IndentedBlock) -> LoopState | str:
    """The body's reads and writes; a reason string when it is not straight-line pure assignments."""
    assigned: list[str] = []
    written: set[str] = set()
    read_first: set[str] = set()
    for statement in body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            return "the loop body holds a compound statement"
        for small in statement.body:
            if isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.Assign):
                value, targets = small.value, [t.target for t in small.targets]
                read = _names_read(value)
            elif isinstance(small, cst.AugAssign):
                value, targets = small.value, [small.target]
                read = _names_read(value) + _names_read(small.target)
            else:
                return f"the loop body does more than assign names (`{ctx.code(small)}`)"
            if not is_pure(ctx, value):
                return f"`{ctx.code(value)}` may have effects that running it once would change"
            resized = resizing_call(ctx, value)
            if resized is not None:
                return f"`{ctx.code(value)}` may change a carried value's shape ({resized}), which a fori_loop cannot carry"
            names: list[str] = []
            for target in targets:
                bound = _target_names(target)
                if bound is None:
                    return f"the loop body stores into `{ctx.code(target)}`"
                names.extend(bound)
            read_first.update(n for n in read if n not in written)
            for name in names:
                if name not in written:
                    written.add(name)
                    assigned.append(name)
    return LoopState(tuple(assigned), frozenset(read_first))


@dataclass(frozen=True)
class RangeRewrite:
    edits: tuple[Edit, ...]
    carried: tuple[str, ...]


def rewrite_range_loop(ctx: ModuleContext, loop: cst.For, count: str, fori: str, taken: frozenset[str]) -> RangeRewrite | str:
    """Edits turning the loop into a fori_loop; a reason string when equivalence cannot be shown.

    `count` is the count as the fori_loop takes it, `fori` how the module
    spells ``lax.fori_loop``, `taken` the names a new def must not use.
    """
    if loop.orelse is not None or loop.asynchronous is not None:
        return "the loop has an `else` clause" if loop.orelse is not None else "the loop is async"
    if not isinstance(loop.target, cst.Name):
        return "the loop unpacks its index"
    if reads(ctx, loop.target):
        return f"the loop index `{loop.target.value}` is read"
    if not isinstance(loop.body, cst.IndentedBlock):
        return "the loop body is on the `for` line"
    state = loop_state(ctx, loop.body)
    if isinstance(state, str):
        return state
    outside = _names_outside(ctx, loop)
    carried = tuple(n for n in state.assigned if n in state.read_first or n in outside)
    if not carried:
        return "the loop carries no state out of an iteration"
    unbound = [n for n in carried if not _bound_before(ctx, loop, n)]
    if unbound:
        return f"`{unbound[0]}` is carried by the loop but not bound before it"
    if _one_line_form_fits(ctx, loop, carried):
        return _one_line(ctx, loop, count, fori, carried[0])
    return _def_form(ctx, loop, count, fori, carried, taken)


def _names_outside(ctx: ModuleContext, loop: cst.For) -> frozenset[str]:
    """Every name that appears in the enclosing function (or module) outside the loop body."""
    owner = ctx.enclosing_function(loop) or ctx.module
    inside = (ctx.start(loop.body), ctx.end(loop.body))
    names: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            start = ctx.start(node)
            if not inside[0] <= start < inside[1]:
                names.add(node.value)

    owner.visit(_Names())
    return frozenset(names)


def _bound_before(ctx: ModuleContext, loop: cst.For, name: str) -> bool:
    scope = ctx.scope(loop)
    if scope is None:
        return False
    start = ctx.start(loop)
    for assignment in scope.assignments[name]:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.CSTNode) and ctx.start(node) < start:
            return True
    return False


def _has_comment(ctx: ModuleContext, loop: cst.For) -> bool:
    return "#" in ctx.text[ctx.end(loop.iter) : ctx.end(loop)]


def _one_line_form_fits(ctx: ModuleContext, loop: cst.For, carried: tuple[str, ...]) -> bool:
    """A body of one ``c = expr`` line, nothing else, no comments."""
    body = loop.body
    if len(carried) != 1 or len(body.body) != 1 or _has_comment(ctx, loop):  # type: ignore[union-attr]
        return False
    line = body.body[0]  # type: ignore[union-attr]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return False
    small = line.body[0]
    return (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
        and small.targets[0].target.value == carried[0]
    )


def _one_line(ctx: ModuleContext, loop: cst.For, count: str, fori: str, carry: str) -> RangeRewrite:
    small = loop.body.body[0].body[0]  # type: ignore[union-attr]
    index = ctx.code(loop.target)
    text = f"{carry} = {fori}(0, {count}, lambda {index}, {carry}: {ctx.code(small.value)}, {carry})"  # type: ignore[union-attr]
    end = _after_last_line(ctx, loop)
    return RangeRewrite((Edit(ctx.start(loop), end, text + ctx.newline),), (carry,))


def _def_form(
    ctx: ModuleContext, loop: cst.For, count: str, fori: str, carried: tuple[str, ...], taken: frozenset[str]
) -> RangeRewrite:
    body_text = ctx.text[ctx.start(loop.body) : ctx.end(loop.body)]
    used = taken | set(re.findall(r"[A-Za-z_]\w*", body_text)) | set(carried)
    function = fresh_name("loop_body", used)
    nl = ctx.newline
    outer = ctx.indent_of(loop)
    inner = ctx.indent_of(loop.body.body[0])  # type: ignore[union-attr]
    index = ctx.code(loop.target)
    if len(carried) == 1:
        (param,) = carried
        state = carried[0]
        unpack = ""
    else:
        param = fresh_name("carry", used | {function})
        state = ", ".join(carried)
        unpack = f"{inner}{state} = {param}{nl}"
    initial = carried[0] if len(carried) == 1 else f"({state})"
    header = Edit(ctx.start(loop), ctx.end(loop.iter), f"def {function}({index}, {param})")
    edits = [header]
    if unpack:
        after_header = ctx.line_after(ctx.end(loop.iter))
        edits.append(Edit(after_header, after_header, unpack))
    end = _after_last_line(ctx, loop)
    tail = f"{inner}return {state}{nl}{outer}{state} = {fori}(0, {count}, {function}, {initial}){nl}"
    edits.append(Edit(end, end, tail))
    return RangeRewrite(tuple(edits), carried)


def _after_last_line(ctx: ModuleContext, loop: cst.For) -> int:
    last = loop.body.body[-1]  # type: ignore[union-attr]
    return ctx.line_after(ctx.end(last))

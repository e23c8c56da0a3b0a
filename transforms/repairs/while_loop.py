"""A Python ``while`` on a traced value, written as ``lax.while_loop``.

``while x > 1.0: x = x * 0.5`` under jit asks Python for the bool of a tracer
(TracerBoolConversionError). ``lax.while_loop`` takes the test as a function of
the loop's values and runs it in the compiled code::

    while x > 1.0:                     def x_cond(x):
        x = x * 0.5            ->          return x > 1.0
                                       def x_body(x):
                                           x = x * 0.5
                                           return x
                                       x = jax.lax.while_loop(x_cond, x_body, x)

Proof obligations: the loop has no ``else``; its body is plain assignments to
names (``=`` with one name target, or ``+=`` and its kin), each value pure
(`purity.is_pure`: no call with an effect, which would run once while tracing
instead of once a round), the test pure too; every name the body assigns is
bound before the loop (the loop's values, carried from round to round, start
from it); the new names are free in the function; ``jax.lax`` has a name there.
What is not proven: ``while_loop`` needs each carried value to keep its dtype
and shape from round to round (a Python int grown into a float, an array that
grows, raise at trace time), so the fix is unsafe and says so.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.fresh_names import fresh_name, names_in
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.statements import string_across_lines
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.purity import is_pure

WHILE_LOOP = "jax.lax.while_loop"
#: What a finding that applies the rewrite says of it (JAX302, JAX304).
DESCRIPTION = "write the loop as `lax.while_loop`"
UNSAFE_NOTE = (
    "unsafe: `lax.while_loop` needs each value the loop carries to keep its dtype and shape from round to "
    "round (an int grown into a float raises at trace time): check them"
)


def as_while_loop(analysis: Analysis, loop: cst.While) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the new loop line) writing `loop` as ``lax.while_loop``; else why not."""
    ctx = analysis.ctx
    fn = ctx.enclosing_function(loop)
    if fn is None or not isinstance(fn, cst.FunctionDef):
        return "the loop is not in a function's body"
    if loop.orelse is not None:
        return "the loop has an `else`"
    if not isinstance(loop.body, cst.IndentedBlock):
        return "the loop's body is on its own line"
    if not is_pure(ctx, loop.test):
        return "its test may have an effect besides its value"
    carried: list[str] = []
    for line in loop.body.body:
        if not isinstance(line, cst.SimpleStatementLine):
            return "its body holds more than assignments (a nested block)"
        for small in line.body:
            target = _assigned_name(small)
            if target is None:
                return f"its body holds `{ctx.code(small).strip()}`, which is not an assignment to a name"
            if not is_pure(ctx, small.value):  # type: ignore[attr-defined]
                return f"`{ctx.code(small.value).strip()}` may have an effect besides its value"  # type: ignore[attr-defined]
            if target not in carried:
                carried.append(target)
    if not carried:
        return "its body assigns nothing, so its test never changes"
    unbound = next((n for n in carried if not _bound_before(ctx, loop, fn, n)), None)
    if unbound is not None:
        return f"`{unbound}` is first bound inside the loop, so the loop has no value to start it from"
    grown = next((n for n in carried if _int_grown_into_float(ctx, loop, fn, n)), None)
    if grown is not None:
        return f"`{grown}` starts as a Python int and the loop makes it a float, a dtype `lax.while_loop` cannot carry"
    text = ctx.code(loop)
    if any(line.strip().startswith("#") for line in text.splitlines()[1:]) or string_across_lines(ctx, loop):
        return "its body holds a comment or a string over several lines, which the rewrite would move"
    spelled = planner(analysis).spell(WHILE_LOOP, loop)
    if spelled is None:
        return "no name for `jax.lax.while_loop` is free here"
    used = names_in(fn)
    cond, body = fresh_name(f"{carried[0]}_cond", used), fresh_name(f"{carried[0]}_body", used | {f"{carried[0]}_cond"})
    state = ", ".join(carried)
    packed = carried[0] if len(carried) == 1 else f"({state})"
    indent = ctx.indent_of(loop)
    step = ctx.indent_of(loop.body.body[0])[len(indent):] or "    "
    inner = indent + step
    header = [] if len(carried) == 1 else [f"{inner}{state} = carry"]
    parameter = carried[0] if len(carried) == 1 else "carry"
    statements = [f"{inner}{ctx.code(line).strip()}" for line in loop.body.body]
    comment = loop.body.header.comment
    kept = f"  {comment.value}" if comment is not None else ""  # `while ...:  # refine`: it stays on the test
    lines = [
        f"def {cond}({parameter}):{kept}",
        *header,
        f"{inner}return {ctx.code(loop.test)}",
        f"{indent}def {body}({parameter}):",
        *header,
        *statements,
        f"{inner}return {state}",
        f"{indent}{state} = {spelled.text}({cond}, {body}, {packed})",
    ]
    ending = "\n" if text.endswith("\n") else ""  # the loop's span may end before its last newline
    edits = [ctx.replace(loop, "\n".join(lines) + ending)]
    if spelled.edit is not None:
        edits.append(spelled.edit)
    return tuple(edits), f"{state} = {spelled.text}({cond}, {body}, {packed})"


def _assigned_name(small: cst.BaseSmallStatement) -> str | None:
    """The name ``name = value`` or ``name += value`` binds; None for anything else."""
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value
    if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
        return small.target.value
    return None


def _bound_before(ctx, loop: cst.While, fn: cst.FunctionDef, name: str) -> bool:
    """`name` is a parameter of `fn`, or assigned by a statement of `fn`'s own body before the loop
    (at the loop's level or above it), so it holds a value when the loop starts."""
    if any(p.name.value == name for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)):
        return True
    return bool(_values_before(ctx, loop, fn, name))


def _values_before(ctx, loop: cst.While, fn: cst.FunctionDef, name: str) -> list[cst.BaseExpression]:
    """The values ``name = value`` statements of `fn` give `name` before the loop, each in a block
    that holds the loop (so it ran before it)."""
    start = ctx.start(loop)
    out: list[cst.BaseExpression] = []
    for node in ctx.written_in(fn):
        if isinstance(node, cst.AssignTarget) and isinstance(node.target, cst.Name) and node.target.value == name:
            assign = ctx.parent(node)
            if ctx.start(node) < start and _same_or_outer_block(ctx, node, loop) and isinstance(assign, cst.Assign):
                out.append(assign.value)
    return out


def _int_grown_into_float(ctx, loop: cst.While, fn: cst.FunctionDef, name: str) -> bool:
    """``i = 0`` before the loop, then ``i = i + 0.5`` or ``i /= 2`` in it: the carry changes dtype."""
    if not any(isinstance(v, cst.Integer) for v in _values_before(ctx, loop, fn, name)):
        return False
    for line in loop.body.body:
        for small in line.body:  # type: ignore[attr-defined]
            if _assigned_name(small) != name:
                continue
            if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.DivideAssign):
                return True
            value = small.value  # type: ignore[attr-defined]
            if ctx.descendants(value, cst.Float) or any(isinstance(b.operator, cst.Divide) for b in ctx.descendants(value, cst.BinaryOperation)):
                return True
    return False


def _same_or_outer_block(ctx, node: cst.CSTNode, loop: cst.While) -> bool:
    """The statement of `node` sits in a block that also holds the loop (so it ran before it)."""
    statement = ctx.statement_of(node)
    block = ctx.parent(statement)
    return any(a is block for a in ctx.ancestors(loop))


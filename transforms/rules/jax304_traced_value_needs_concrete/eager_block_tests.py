"""A condition computed just after a ``with jax.ensure_compile_time_eval():`` block, from its values.

Inside the block jnp runs on concrete values and gives concrete arrays; the
next line is traced again, and any operation on those arrays there, ``z > 0``
included, is staged and gives a tracer (jax#9823: the example of
``ensure_compile_time_eval``'s own documentation, ``if z > 0:`` after the
block, raised TracerBoolConversionError). Computing the test inside the block
makes it concrete::

    with jax.ensure_compile_time_eval():        with jax.ensure_compile_time_eval():
        z = jnp.sin(y)                    ->        z = jnp.sin(y)
    if z > 0:                                       z_test = z > 0
                                                if z_test:

Proof obligations: the test is an operator expression (a comparison,
arithmetic, ``not`` of one, an exact reduction of one: ``(n > 0).all()``) of names and literals, one of them bound to what a
JAX call returns (Python values give a Python bool); each name is bound once,
by a plain assignment inside the one ``with`` block that ends right before
the ``if`` (in the same block of statements); the new name is free in the
function.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.edits.fresh_names import fresh_name, names_in
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, reaching_binding, single_binding
from jaxfix.transforms.semantics.sinks import exact_reduction
from jaxfix.transforms.semantics.staged import EAGER_BLOCKS, runs_staged

_OPERATORS = (cst.Comparison, cst.BinaryOperation, cst.UnaryOperation, cst.Call)


def eager_block_tests(analysis: Analysis, seen_sinks: set[int]) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for statement in [*ctx.nodes_of(cst.If), *ctx.nodes_of(cst.While)]:
        if id(statement) in seen_sinks or not isinstance(statement.test, _OPERATORS):
            continue
        block = _block_before(analysis, statement)
        if block is None or not runs_staged(analysis, ctx.enclosing_function(statement)):
            continue
        names = _names(statement.test)
        if names is None or not names or not all(_bound_in(ctx, n, block) for n in names):
            continue
        if not any(_jax_computed(analysis, n) for n in names):
            continue  # Python values: the test outside the block is a Python bool
        fixed = _hoisted(analysis, statement, block, names)
        if fixed is None:
            continue
        seen_sinks.add(id(statement))
        edits, line = fixed
        keyword = "while" if isinstance(statement, cst.While) else "if"
        out.append(
            ctx.finding(
                "JAX304",
                statement.test,
                f"`{shorten(ctx.code(statement.test))}` is computed after the `with jax.ensure_compile_time_eval():` "
                f"block its values come from, so it is traced again and `{keyword}` gets a tracer "
                f"(TracerBoolConversionError); computed inside the block it is concrete: `{line}`",
                edits,
                description="compute the test inside the block",
            )
        )
    return out


def _block_before(analysis: Analysis, statement: cst.CSTNode) -> cst.With | None:
    """The ``with ensure_compile_time_eval():`` statement right before `statement`, in its block."""
    ctx = analysis.ctx
    holder = ctx.parent(statement)
    if not isinstance(holder, cst.IndentedBlock):
        return None
    body = list(holder.body)
    index = body.index(statement)  # type: ignore[arg-type]
    previous = body[index - 1] if index else None
    if not isinstance(previous, cst.With) or len(previous.items) != 1 or previous.asynchronous:
        return None
    manager = previous.items[0].item
    if not isinstance(manager, cst.Call) or manager.args or previous.items[0].asname is not None:
        return None
    if ctx.names.qualified_name(manager.func) not in EAGER_BLOCKS:
        return None
    return previous if isinstance(previous.body, cst.IndentedBlock) else None


def _names(test: cst.BaseExpression) -> list[cst.Name] | None:
    """The names of an operator expression over names and literals; None for anything else."""
    found: list[cst.Name] = []
    stack: list[cst.BaseExpression] = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.append(node)
        elif isinstance(node, cst.Comparison):
            stack.extend([node.left, *(c.comparator for c in node.comparisons)])
        elif isinstance(node, cst.BinaryOperation):
            stack.extend([node.left, node.right])
        elif isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)
        elif (reduced := exact_reduction(node)) is not None:
            stack.append(reduced)  # `(n > 0).all()`: a reduction of such an expression
        elif not isinstance(node, (cst.Integer, cst.Float)):
            return None
    return found


def _bound_in(ctx, name: cst.Name, block: cst.With) -> bool:
    """`name` is bound once, by a plain ``name = ...`` among the block's own statements."""
    binding = single_binding(ctx, name)
    if not isinstance(binding, cst.Name):
        return False
    line = ctx.parent(ctx.parent(binding))
    statement = ctx.parent(line) if isinstance(line, cst.Assign) else None
    return (
        isinstance(ctx.parent(binding), cst.AssignTarget)
        and isinstance(statement, cst.SimpleStatementLine)
        and statement in block.body.body  # type: ignore[attr-defined]
    )


def _jax_computed(analysis: Analysis, expr: cst.BaseExpression | None, depth: int = 0) -> bool:
    """`expr` is an array JAX computes: a JAX call, a method of or an item of one, arithmetic with
    one, or a name bound once to one (``total = weights.sum()`` after ``weights = jnp.hanning(6)``)."""
    ctx = analysis.ctx
    if expr is None or depth > 6:
        return False
    if isinstance(expr, cst.Name):
        binding = reaching_binding(ctx, expr)
        return isinstance(binding, cst.Name) and _jax_computed(analysis, assigned_value(ctx, binding), depth + 1)
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        if qualified.startswith(_JAX):
            return True
        return isinstance(expr.func, cst.Attribute) and _jax_computed(analysis, expr.func.value, depth + 1)
    if isinstance(expr, cst.Subscript):
        return _jax_computed(analysis, expr.value, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return _jax_computed(analysis, expr.left, depth + 1) or _jax_computed(analysis, expr.right, depth + 1)
    return False


_JAX = ("jax.numpy.", "jax.lax.", "jax.random.", "jax.nn.", "jax.scipy.")


def _hoisted(analysis: Analysis, statement: cst.If | cst.While, block: cst.With, names: list[cst.Name]) -> tuple[tuple[Edit, ...], str] | None:
    ctx = analysis.ctx
    fn = ctx.enclosing_function(statement)
    if isinstance(statement, cst.While) or fn is None:
        return None  # a while's test is read again each round, after the block
    fresh = fresh_name(f"{names[0].value}_test", names_in(fn))
    last = block.body.body[-1]  # type: ignore[attr-defined]
    indent = ctx.indent_of(last)
    line = f"{fresh} = {ctx.code(statement.test)}"
    newline = ctx.text.find("\n", ctx.end(last))
    if newline < 0:
        return None
    return (
        Edit(newline + 1, newline + 1, f"{indent}{line}\n"),
        ctx.replace(statement.test, fresh),
    ), line

"""Select with ``jnp.where``: ``if c: return a`` / ``return b`` becomes ``return jnp.where(c, a, b)``.

A Python ``if`` on a tracer has no bool to take. When the ``if`` only picks
which of two values a function returns, ``jnp.where`` takes the condition as
data and picks the same value (per example under vmap). Two rules use it:
JAX305 for a value vmap or pmap maps, JAX304 for a value JAX computes from
data under jit (ott#3: ``if out.errors[-1] < 1 and out.converged:``).

Proof obligations, each refused with the reason:

* the ``if`` is in the function itself, and its arms are one ``return`` each
  (an ``else``, or the function's last ``return`` right after the ``if``);
* the arms and the condition only compute (`_pure`: arithmetic, comparisons,
  names, attributes, subscripts, jax.numpy/jax.nn/math calls): both arms are
  evaluated, and the value of the one not chosen is discarded;
* each arm is an array or a number (not a tuple, a string, ``None``);
* the function is not also called directly, where it returned a Python value;
* no comment in the region (the rewrite would lose it).

A condition written with ``and``/``or``/``not`` is taken by truth value only,
so ``jnp.logical_and``/``logical_or``/``logical_not`` of its operands decide
the same for one example (Python would skip an operand; every operand is then
pure, so evaluating it changes nothing).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.logical_operators import functions, operands, written
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.purity import PURE_FUNCTION_PREFIXES

_WHERE = "jax.numpy.where"
#: Arms jnp.where cannot select between (a pytree, a string, a comprehension).
_NOT_ARRAYS = (
    cst.Tuple, cst.List, cst.Dict, cst.Set, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
    cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp,
)  # fmt: skip
#: Expressions that do more than compute a value, or take a Python bool of one.
_NOT_PURE = (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr, cst.Await, cst.Yield, cst.ListComp)


def select(analysis: Analysis, fn: FunctionNode, branch: cst.If) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the new ``return``) that select with ``jnp.where``; else why not."""
    ctx = analysis.ctx
    then = _single_return(branch.body)
    other: cst.Return | None = None
    replaced_end: cst.CSTNode | None = None
    if isinstance(branch.orelse, cst.Else):
        other = _single_return(branch.orelse.body)
        replaced_end = branch
    elif branch.orelse is None:
        block = ctx.parent(branch)
        body = list(block.body) if isinstance(block, cst.IndentedBlock) else []
        if ctx.parent(block) is fn and len(body) >= 2 and body[-2] is branch:
            last = body[-1]
            if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return):
                other = last.body[0] if last.body[0].value is not None else None
                replaced_end = last
    if then is None or other is None or replaced_end is None:
        return "the arms are not one `return` each"
    if ctx.enclosing_function(branch) is not fn:
        return "the `if` is in a nested function"
    region_end = ctx.text.find("\n", ctx.end(replaced_end))
    region = ctx.text[ctx.start(branch) : region_end if region_end >= 0 else len(ctx.text)]
    if "#" in region:
        return "the arms hold comments a rewrite would lose"
    arms = [then.value, other.value]
    if any(isinstance(arm, _NOT_ARRAYS) or (isinstance(arm, cst.Name) and arm.value == "None") for arm in arms):
        return "an arm returns something other than an array or number"
    direct = [r for r in analysis.traces.routes(fn) or () if not r.wraps and r.call is not None]
    if direct:
        line = ctx.span(direct[0].call).start.line  # type: ignore[arg-type]
        name = fn.name.value if isinstance(fn, cst.FunctionDef) else "the lambda"
        return (
            f"`{name}` is also called directly (line {line}), where it returns a Python value that "
            "`jnp.where` would turn into an array"
        )
    tests = operands(branch.test)
    if not all(_pure(ctx, p) for p in [*tests, *arms]):  # type: ignore[list-item]
        return "an arm or the test does more than compute a value"
    plan = planner(analysis)
    wanted = [_WHERE, *(f"jax.numpy.{name}" for name in functions(branch.test))]
    spelled = {q: plan.spell(q, branch) for q in dict.fromkeys(wanted)}
    if any(s is None for s in spelled.values()):
        return "no name for jax.numpy is free here"
    names = {q.rpartition(".")[2]: s.text for q, s in spelled.items() if s is not None}
    condition = written(ctx, branch.test, names)
    text = f"return {names['where']}({condition}, {ctx.code(then.value)}, {ctx.code(other.value)})"  # type: ignore[arg-type]
    edits = [Edit(ctx.start(branch), ctx.end(replaced_end), text)]
    imports = list(dict.fromkeys(s.edit for s in spelled.values() if s is not None and s.edit is not None))
    if imports:  # each at the end of the leading imports: one insertion, in order
        edits.append(Edit(imports[0].start, imports[0].end, "".join(e.content for e in imports)))
    return tuple(edits), text


def _single_return(block: cst.BaseSuite) -> cst.Return | None:
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Return):
        ret = line.body[0]
        return ret if ret.value is not None else None
    return None


def _pure(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Computes a value and does nothing else; no Python bool of it is taken (no and/or/not, no ifs):
    every call is a jax.numpy/jax.nn/jax.scipy.special/math function, without `*` arguments."""
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, _NOT_PURE) or (isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)):
            return False
        if isinstance(node, cst.Call):
            qualified = ctx.names.qualified_name(node.func) or ""
            if not qualified.startswith(PURE_FUNCTION_PREFIXES) or any(a.star for a in node.args):
                return False
        stack.extend(node.children)
    return True

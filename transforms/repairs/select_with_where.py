"""Select with ``jnp.where``: ``if c: return a`` / ``return b`` becomes ``return jnp.where(c, a, b)``,
and ``if c: x = a`` / ``else: x = b`` becomes ``x = jnp.where(c, a, b)``; an ``elif`` chain (or an
``else`` holding one ``if``) assigning the one name nests: ``x = jnp.where(c, a, jnp.where(d, b, x))``
(jax#575's accept/reject step), and so does an ``elif`` chain of returns (``if k == 0: return a``
``elif k == 1: return b`` ``else: return c``, a branch table written as tests): each test picks
its arm in order, as the chain does. Arms of several assignments select each name the ``if``
sets (`_select_block`), and nested ``if``s of early returns that end the function nest their
selections (`_nested_returns`).

A Python ``if`` on a tracer has no bool to take. When the ``if`` only picks
which of two values a function returns, ``jnp.where`` takes the condition as
data and picks the same value (per example under vmap). Two rules use it:
JAX305 for a value vmap or pmap maps, JAX304 for a value JAX computes from
data under jit (ott#3: ``if out.errors[-1] < 1 and out.converged:``).

Proof obligations, each refused with the reason:

* the ``if`` is in the function itself, and its arms are one ``return`` each
  (an ``else``, or the function's last ``return`` right after the ``if``), or
  one assignment each to the same name; with no ``else``, the other arm is the
  value the name held, which its last assignment above the ``if`` in the same
  block shows to be a number or an array (arithmetic, a number, a jnp call),
  or every binding of the name in the function computes an array given that
  the name held one (a loop-carried ``state``, updated by ``state.at[i].set``),
  or the test orders the name against a written number (``if level < 0.0:``);
* the arms and the condition only compute (`_pure`: arithmetic, comparisons,
  names, attributes, subscripts, jax.numpy/jax.nn/math calls): both arms are
  evaluated, and the value of the one not chosen is discarded;
* each arm is an array or a number (not a tuple, a string, ``None``);
* the function is not also called directly (outside code that is always staged), where it
  returned a Python value;
* comments in the region move above the new statement (`edits.statements.comments_kept`); one
  in a conditional expression is refused (it would have no line of its own).

A condition written with ``and``/``or``/``not`` is taken by truth value only,
so ``jnp.logical_and``/``logical_or``/``logical_not`` of its operands decide
the same for one example (Python would skip an operand; every operand is then
pure, so evaluating it changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.statements import comments_kept
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin, indexed_update
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.class_hashing import called_def
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    binding_before,
    local_bindings,
    own_returns,
    single_binding,
)
from jaxfix.transforms.semantics.logical_operators import functions, operands, written
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.purity import PURE_FUNCTION_PREFIXES, is_pure
from jaxfix.transforms.semantics.reads import names_read, reads
from jaxfix.transforms.semantics.staged import always_staged

_WHERE = "jax.numpy.where"
#: Arms jnp.where cannot select between (a pytree, a string, a comprehension).
_NOT_ARRAYS = (
    cst.Tuple, cst.List, cst.Dict, cst.Set, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
    cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp,
)  # fmt: skip
#: Expressions that do more than compute a value, or take a Python bool of one.
_NOT_PURE = (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr, cst.Await, cst.Yield, cst.ListComp)


#: Array methods that only compute (``x.sum()`` in the example of JAX's error reference).
PURE_METHODS = frozenset(
    {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "dot", "reshape",
     "astype", "ravel", "flatten", "squeeze", "transpose", "clip", "round", "cumsum", "conj"}
)


def _array_or_number(arm: cst.BaseExpression) -> bool:
    """An arm jnp.where can select: not a pytree, a string, a comprehension or ``None``."""
    return not isinstance(arm, _NOT_ARRAYS) and not (isinstance(arm, cst.Name) and arm.value == "None")


def array_method_call(ctx: ModuleContext, call: cst.Call) -> bool:
    """``x.sum()``: a `PURE_METHODS` method read off a value, not a function a module names."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value in PURE_METHODS and ctx.names.qualified_name(func) is None


def gradient_caveat(analysis: Analysis, node: cst.CSTNode) -> str | None:
    """Why a selection is unsafe where reverse-mode differentiation runs the ``if``
    (`TraceIndex.reverse_mode_root`): both arms are differentiated, and an arm not selected that is
    inf or NaN there (a division by a zero the test excludes, ``jnp.sqrt`` of a negative) makes the
    gradient NaN where the ``if`` gave a number (jnp.where multiplies that arm's gradient by zero,
    and 0 * inf is NaN); None where no such differentiation is shown."""
    root = analysis.traces.reverse_mode_root(node)
    if root is None or not _may_not_be_finite(analysis.ctx, node):
        return None
    name = root.name.value if isinstance(root, cst.FunctionDef) else "a lambda"
    return (
        f"unsafe: `{name}` is differentiated in reverse mode, and both arms are: an arm not selected that is "
        "inf or NaN there makes the gradient NaN (`lax.cond` differentiates only the arm taken)"
    )


#: jax.numpy functions finite with a finite derivative wherever their inputs are finite.
_FINITE = frozenset(
    {"sin", "cos", "tanh", "abs", "maximum", "minimum", "clip", "where", "sign", "square", "sum", "mean",
     "dot", "matmul", "zeros_like", "ones_like", "full_like", "asarray", "array", "stack", "concatenate"}
)


def _may_not_be_finite(ctx: ModuleContext, branch: cst.CSTNode) -> bool:
    """Could an arm of the ``if`` (its body, its ``else``, and what follows it in its block: the
    return the function ends with) be inf or NaN, or have such a derivative, at finite inputs? A
    division, a power other than by a literal natural number, or any call but the `_FINITE` jax.numpy
    ones may (``jnp.sqrt`` at 0, ``jnp.log``, ``jnp.exp`` overflowing, a helper of the module); a
    division by a nonzero number written out may not."""
    parts: list[cst.CSTNode] = [branch]
    block = ctx.parent(branch)
    body = list(getattr(block, "body", ()))
    if branch in body:
        parts += body[body.index(branch) + 1 :]
    for part in parts:
        for node in (part, *ctx.descendants(part)):
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Divide, cst.FloorDivide, cst.Modulo)):
                divisor = node.right
                if not (isinstance(divisor, (cst.Integer, cst.Float)) and float(divisor.value.replace("_", "")) != 0):
                    return True  # `x / 2.0` is finite; `x / r` is not where `r` is 0
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power):
                if not (isinstance(node.right, cst.Integer) and int(node.right.value) >= 0):
                    return True
            if isinstance(node, cst.Call):
                qualified = ctx.names.qualified_name(node.func) or ""
                if not (qualified.startswith("jax.numpy.") and qualified[len("jax.numpy.") :] in _FINITE):
                    return True
    return False


def select_expression(analysis: Analysis, fn: FunctionNode, chosen: cst.IfExp) -> tuple[tuple[Edit, ...], str] | str:
    """``return a if c else b`` becomes ``return jnp.where(c, a, b)`` (the example of JAX's error
    reference for TracerBoolConversionError), and so does the expression wherever the function
    uses its value (``x = a.dot(carry) if step < t2 else u`` in a scan body, jax#2300): the
    obligations of the ``if`` form: the conditional expression is in the function itself, both arms
    and the test only compute, each arm is an array or a number (a name bound to a def or a class
    is neither), the function is not also called directly, no comment inside."""
    ctx = analysis.ctx
    if ctx.enclosing_function(chosen) is not fn:
        return "the conditional expression is in a nested function"
    if "#" in ctx.code(chosen):
        return "the expression holds comments a rewrite would lose"
    if not all(_selectable(ctx, arm) and not _names_a_callable(ctx, arm) for arm in (chosen.body, chosen.orelse)):
        return "an arm is something other than an array or number"
    why = _directly_called(analysis, fn)
    if why is not None:
        return why
    return _written(analysis, chosen, chosen, "", [(chosen.test, chosen.body)], chosen.orelse)


def select_where_written(analysis: Analysis, node: cst.If | cst.IfExp) -> tuple[tuple[Edit, ...], str] | str:
    """`select` (an ``if`` statement) or `select_expression` (a conditional expression), in the
    function that holds it, a loop body nested in another function too; else why not."""
    fn = analysis.ctx.enclosing_function(node)
    if fn is None:
        return "the `if` is not in a function"
    return select(analysis, fn, node) if isinstance(node, cst.If) else select_expression(analysis, fn, node)


def _names_a_callable(ctx: ModuleContext, arm: cst.BaseExpression) -> bool:
    """A bare name bound to a def, a lambda, a class or an import: a function, not an array."""
    if not isinstance(arm, cst.Name):
        return False
    binding = single_binding(ctx, arm)
    if isinstance(binding, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Import, cst.ImportFrom)):
        return True
    value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    return isinstance(value, cst.Lambda)


def select(analysis: Analysis, fn: FunctionNode, branch: cst.If) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the new ``return`` or assignment) that select with ``jnp.where``; else why not.
    An ``if`` that ends a chain of assignments (``elif``) is selected with the whole chain."""
    ctx = analysis.ctx
    branch = _chain_head(ctx, branch)
    chain = _assignment_chain(ctx, branch)
    if chain is not None:
        return _select_assignment(analysis, fn, branch, *chain)
    arms = _arms_of_assignments(ctx, branch)
    if arms is not None:
        return _select_block(analysis, fn, branch, *arms)
    then = _single_return(branch.body)
    tested: list[tuple[cst.BaseExpression, cst.Return | None]] = [(branch.test, then)]
    other: cst.Return | None = None
    replaced_end: cst.CSTNode | None = None
    last_if = branch
    while isinstance(last_if.orelse, cst.If):  # `elif c: return b`: one more test, nested (switch_op's chain)
        last_if = last_if.orelse
        tested.append((last_if.test, _single_return(last_if.body)))
    if isinstance(last_if.orelse, cst.Else):
        other = _single_return(last_if.orelse.body)
        replaced_end = branch
    elif last_if.orelse is None:
        block = ctx.parent(branch)
        body = list(block.body) if isinstance(block, cst.IndentedBlock) else []
        if ctx.parent(block) is fn and len(body) >= 2 and body[-2] is branch:
            last = body[-1]
            if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return):
                other = last.body[0] if last.body[0].value is not None else None
                replaced_end = last
    if any(r is None for _, r in tested) or other is None or replaced_end is None:
        nested = _nested_returns(analysis, fn, branch)
        return nested if nested is not None else "the arms are not one `return` each"
    if ctx.enclosing_function(branch) is not fn:
        return "the `if` is in a nested function"
    kept = comments_kept(ctx, branch, ctx.end(replaced_end))
    if kept is None:
        return "the arms' comments cannot be read apart from their strings"
    arms = [*(r.value for _, r in tested), other.value]  # type: ignore[union-attr]
    if not all(_selectable(ctx, arm) for arm in arms):
        return "an arm returns something other than an array or number"
    why = _directly_called(analysis, fn)
    if why is not None:
        return why
    return _written(analysis, branch, replaced_end, "return ", [(test, arm) for (test, _), arm in zip(tested, arms)], arms[-1], kept)


#: What a run of statements returns: an expression, or (test, what the ``if`` arm returns, what
#: the rest returns).
_Returned = cst.BaseExpression | tuple[cst.BaseExpression, "_Returned", "_Returned"]


def _returned(statements: list[cst.BaseStatement]) -> _Returned | None:
    """What the statements return, each path ending in a ``return`` of a value: one ``return``, or
    an ``if`` whose arm returns so, followed by statements that do (or with an ``else``/``elif``
    that does, and nothing after it); None for anything else."""
    if not statements:
        return None
    first = statements[0]
    if isinstance(first, cst.SimpleStatementLine):
        ret = first.body[0] if len(first.body) == 1 else None
        return ret.value if isinstance(ret, cst.Return) and ret.value is not None and len(statements) == 1 else None
    if not isinstance(first, cst.If) or not isinstance(first.body, cst.IndentedBlock):
        return None
    arm = _returned(list(first.body.body))
    if first.orelse is None:
        rest = _returned(statements[1:])
    elif len(statements) > 1:
        return None
    elif isinstance(first.orelse, cst.If):
        rest = _returned([first.orelse])
    else:
        rest = _returned(list(first.orelse.body.body)) if isinstance(first.orelse.body, cst.IndentedBlock) else None
    return (first.test, arm, rest) if arm is not None and rest is not None else None


def _parts(returned: _Returned) -> tuple[list[cst.BaseExpression], list[cst.BaseExpression]]:
    """(the tests, the values) of a `_returned` tree."""
    if isinstance(returned, tuple):
        test, arm, rest = returned
        tests, values = _parts(arm)
        more_tests, more_values = _parts(rest)
        return [test, *tests, *more_tests], [*values, *more_values]
    return [], [returned]


def _nested_returns(analysis: Analysis, fn: FunctionNode, branch: cst.If) -> tuple[tuple[Edit, ...], str] | str | None:
    """``if d1 > d or d2 > d:`` holding ``if d1 < d2: return a`` / ``return b``, then ``return p``
    to end the function (jax_fdm's closest point on a segment): every path from the ``if`` to the
    function's end returns a value, so ``return jnp.where(c, jnp.where(c2, a, b), p)`` returns, for
    each test value, the value the path would (each test is pure: one evaluated where Python would
    not have changes nothing). The obligations of the one-level form; None when the statements are
    not of that shape."""
    ctx = analysis.ctx
    block = ctx.parent(branch)
    body = list(block.body) if isinstance(block, cst.IndentedBlock) else []
    if ctx.parent(block) is not fn or branch not in body:
        return None
    statements = body[body.index(branch):]
    returned = _returned(statements)
    if returned is None:
        return None
    tests, values = _parts(returned)
    last = statements[-1]
    end = ctx.end(last.body[0] if isinstance(last, cst.SimpleStatementLine) else last)
    kept = comments_kept(ctx, branch, end)
    if kept is None:
        return "the arms' comments cannot be read apart from their strings"
    if not all(_selectable(ctx, v) for v in values):
        return "an arm returns something other than an array or number"
    why = _directly_called(analysis, fn)
    if why is not None:
        return why
    spelled = _where_spelled(analysis, branch, tests, values)
    if isinstance(spelled, str):
        return spelled
    names, imports = spelled

    def text(node: _Returned) -> str:
        if isinstance(node, tuple):
            test, arm, rest = node
            return f"{names['where']}({written(ctx, test, names)}, {text(arm)}, {text(rest)})"
        return ctx.code(node)

    selected = f"return {text(returned)}"
    return (Edit(ctx.start(branch), end, kept + selected), *imports), selected


def _directly_called(analysis: Analysis, fn: FunctionNode, *, staged_calls: bool = False) -> str | None:
    """Why not, when `fn` is also called outside any transform (its Python values would become
    arrays). With `staged_calls`, a call written in code every run of which is staged (a scan
    body calling a method) does not count: what the function computes there is a tracer anyway.
    (The ``return`` form keeps counting them: JAX405 leaves a checkpointed ``if`` to JAX305 only
    when it is selected, and JAX305 does not claim one that a staged caller passes a Python value.)"""
    ctx = analysis.ctx
    direct = [
        r for r in analysis.traces.routes(fn) or ()
        if not r.wraps and r.call is not None
        and not (staged_calls and always_staged(analysis, ctx.enclosing_function(r.call)))
    ]
    if not direct:
        return None
    line = ctx.span(direct[0].call).start.line  # type: ignore[arg-type]
    name = fn.name.value if isinstance(fn, cst.FunctionDef) else "the lambda"
    return (
        f"`{name}` is also called directly (line {line}), where it returns a Python value that "
        "`jnp.where` would turn into an array"
    )


def _written(
    analysis: Analysis,
    branch: cst.If | cst.IfExp,
    replaced_end: cst.CSTNode,
    lead: str,
    arms: list[tuple[cst.BaseExpression, cst.BaseExpression]],
    last: cst.BaseExpression | str,
    kept: str = "",
) -> tuple[tuple[Edit, ...], str] | str:
    """The ``if`` (or conditional expression) from its start to `replaced_end` becomes `lead`
    ``jnp.where(test, arm, ...)``, nested for each further test, with `last` where no test holds,
    once the tests and the values are shown to only compute (a value given as text is a name's
    value); `kept`, the comments of what it replaces (`comments_kept`), goes in front."""
    ctx = analysis.ctx
    tests = [test for test, _ in arms]
    values = [value for _, value in arms] + ([] if isinstance(last, str) else [last])
    spelled = _where_spelled(analysis, branch, tests, values)
    if isinstance(spelled, str):
        return spelled
    names, imports = spelled
    selected = last if isinstance(last, str) else ctx.code(last)
    for test, value in reversed(arms):
        selected = f"{names['where']}({written(ctx, test, names)}, {ctx.code(value)}, {selected})"
    text = f"{lead}{selected}"
    return (Edit(ctx.start(branch), ctx.end(replaced_end), kept + text), *imports), text


def _computes_only(ctx: ModuleContext, tests: list[cst.BaseExpression], values: list[cst.BaseExpression]) -> str | None:
    """Why not, when a test is one Python answers (a membership, an identity) or a test's operand
    or a value does more than compute (`_pure`): both arms are evaluated once selected."""
    parts = [t for test in tests for t in operands(test)]
    if any(_python_only_test(t) for t in parts):
        return "the test is a membership or identity test, which no jnp function computes"
    if not all(_pure(ctx, p) for p in [*parts, *values]):
        return "an arm or the test does more than compute a value"
    return None


def _where_spelled(
    analysis: Analysis, at: cst.CSTNode, tests: list[cst.BaseExpression], values: list[cst.BaseExpression]
) -> tuple[dict[str, str], tuple[Edit, ...]] | str:
    """Once the tests and the values are shown to only compute (`_computes_only`): how ``where`` and
    the ``logical_*`` functions the tests need are spelled at `at`, by short name, and the one
    insertion of the imports that adds, if any; else why not."""
    why = _computes_only(analysis.ctx, tests, values)
    if why is not None:
        return why
    plan = planner(analysis)
    wanted = [_WHERE, *(f"jax.numpy.{name}" for test in tests for name in functions(test))]
    spelled = {q: plan.spell(q, at) for q in dict.fromkeys(wanted)}
    if any(s is None for s in spelled.values()):
        return "no name for jax.numpy is free here"
    names = {q.rpartition(".")[2]: s.text for q, s in spelled.items() if s is not None}
    imports = list(dict.fromkeys(s.edit for s in spelled.values() if s is not None and s.edit is not None))
    if not imports:
        return names, ()
    # each at the end of the leading imports: one insertion, in order
    return names, (Edit(imports[0].start, imports[0].end, "".join(e.content for e in imports)),)


def _python_only_test(test: cst.BaseExpression) -> bool:
    """``x in c``, ``x is None``: Python answers them, and jnp.where would be handed what Python
    computed (a bool, or the error of hashing a tracer)."""
    return isinstance(test, cst.Comparison) and any(
        isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in test.comparisons
    )


def _lone_statement(block: cst.BaseSuite) -> cst.BaseSmallStatement | None:
    """The one statement of a block of one line holding one statement."""
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    return line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None


def _single_assignment(block: cst.BaseSuite) -> cst.Assign | None:
    """The block is one ``name = value`` line."""
    assign = _lone_statement(block)
    if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name):
        return assign
    return None


def _assignment_chain(
    ctx: ModuleContext, branch: cst.If
) -> tuple[str, list[tuple[cst.BaseExpression, cst.BaseExpression]], cst.BaseExpression | None] | None:
    """``if c: x = a`` (``elif d: x = b``, or an ``else`` holding one such ``if``; ``else: x = e``):
    (the name, [(c, a), (d, b), ...], e or None when the last ``if`` has no ``else``)."""
    then = _single_assignment(branch.body)
    if then is None:
        return None
    name = then.targets[0].target.value  # type: ignore[attr-defined]
    arms = [(branch.test, then.value)]
    orelse = branch.orelse
    if orelse is None:
        return name, arms, None
    inner = orelse if isinstance(orelse, cst.If) else _lone_if(orelse.body)
    if inner is not None:
        rest = _assignment_chain(ctx, inner)
        if rest is None or rest[0] != name:
            return None
        return name, [*arms, *rest[1]], rest[2]
    other = _single_assignment(orelse.body)
    if other is None or other.targets[0].target.value != name:  # type: ignore[attr-defined]
        return None
    return name, arms, other.value


def _chain_head(ctx: ModuleContext, branch: cst.If) -> cst.If:
    """The first ``if`` of the assignment chain `branch` ends (an ``elif``, or the one ``if`` of an
    ``else``): jax.numpy selects the whole chain at once, every test being data."""
    head = branch
    while True:
        parent = ctx.parent(head)
        if isinstance(parent, cst.If) and parent.orelse is head:
            outer = parent
        elif isinstance(parent, cst.IndentedBlock) and len(parent.body) == 1 and isinstance(ctx.parent(parent), cst.Else):
            outer = ctx.parent(ctx.parent(parent))
        else:
            return head
        if not isinstance(outer, cst.If) or _assignment_chain(ctx, outer) is None:
            return head
        head = outer


def _lone_if(block: cst.BaseSuite) -> cst.If | None:
    """The block is one ``if`` statement (``else:`` holding a nested ``if``)."""
    if isinstance(block, cst.IndentedBlock) and len(block.body) == 1 and isinstance(block.body[0], cst.If):
        return block.body[0]
    return None


def _select_assignment(
    analysis: Analysis,
    fn: FunctionNode,
    branch: cst.If,
    name: str,
    arms: list[tuple[cst.BaseExpression, cst.BaseExpression]],
    last: cst.BaseExpression | None,
) -> tuple[tuple[Edit, ...], str] | str:
    """``if c: x = a`` / ``else: x = b`` becomes ``x = jnp.where(c, a, b)``, and an ``elif`` chain
    nests: ``x = jnp.where(c, a, jnp.where(d, b, e))``; with no last ``else``, the last value is
    what `x` holds before the ``if``: the last assignment above it in its block, when that computes
    a number or an array (a parameter may be a tuple or a string), or, where every binding of `x`
    in the function computes an array (a loop-carried state), `x` itself."""
    ctx = analysis.ctx
    if ctx.enclosing_function(branch) is not fn:
        return "the `if` is in a nested function"
    kept = comments_kept(ctx, branch)
    if kept is None:
        return "the arms' comments cannot be read apart from their strings"
    values: list[cst.BaseExpression] = [value for _, value in arms] + ([last] if last is not None else [])
    if not all(_selectable(ctx, arm) for arm in values):
        return "an arm assigns something other than an array or number"
    if (
        last is None
        and _value_before(ctx, branch, name) is None
        and not _compared_with_a_number(branch.test, name)
        and not _always_array(analysis, _first_target(branch))
    ):
        return f"what `{name}` holds before the `if` is not shown to be an array or a number"
    why = _directly_called(analysis, fn, staged_calls=True)
    if why is not None:
        return why
    return _written(analysis, branch, branch, f"{name} = ", arms, last if last is not None else name, kept)



@dataclass(frozen=True)
class _Step:
    """One line of an arm: ``names = value`` (``x += e`` read as ``x = x + (e)``)."""

    names: tuple[str, ...]
    value: cst.BaseExpression
    #: The value as the selection writes it.
    text: str
    line: cst.SimpleStatementLine


def _arm_steps(ctx: ModuleContext, block: cst.BaseSuite) -> list[_Step] | None:
    """The arm as assignments to names, one per line; None for any other statement."""
    if not isinstance(block, cst.IndentedBlock):
        return None
    steps: list[_Step] = []
    for line in block.body:
        if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
            return None
        small = line.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            names = _plain_names(small.targets[0].target)
            if names is None:
                return None
            steps.append(_Step(names, small.value, ctx.code(small.value), line))
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            operator = ctx.code(small.operator).strip().removesuffix("=")
            text = f"{small.target.value} {operator} {_operand_text(ctx, small.value)}"
            steps.append(_Step((small.target.value,), small.value, text, line))
        else:
            return None
    return steps


def _plain_names(target: cst.BaseExpression) -> tuple[str, ...] | None:
    """``a`` or ``a, b``: the names; None for a store into an item, an attribute or a starred name."""
    if isinstance(target, cst.Name):
        return (target.value,)
    if isinstance(target, (cst.Tuple, cst.List)) and all(
        isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements
    ):
        return tuple(e.value.value for e in target.elements)  # type: ignore[attr-defined]
    return None


def _operand_text(ctx: ModuleContext, expr: cst.BaseExpression) -> str:
    """`expr` written as the right operand of a binary operator: parenthesized unless atomic."""
    atomic = (cst.Name, cst.Integer, cst.Float, cst.Attribute, cst.Subscript, cst.Call)
    text = ctx.code(expr)
    return text if isinstance(expr, atomic) or expr.lpar else f"({text})"


def _arms_of_assignments(ctx: ModuleContext, branch: cst.If) -> tuple[list[_Step], list[_Step]] | None:
    """An ``if`` (with an ``else``, or none) each of whose arms is assignments to names."""
    if isinstance(branch.orelse, cst.If):
        return None
    then = _arm_steps(ctx, branch.body)
    other = _arm_steps(ctx, branch.orelse.body) if isinstance(branch.orelse, cst.Else) else []
    if then is None or other is None:
        return None
    return then, other


def _temporaries(ctx: ModuleContext, branch: cst.If, arm: list[_Step], other: list[_Step]) -> set[str]:
    """The names `arm` binds only for its own later lines (``q1_val, qsat0_val = ...`` read by the
    next line and nowhere else): bound nowhere else in the function, by the other arm neither, and
    every read after their line in the arm. Written before the selections, they are computed
    whatever the test says, which changes nothing for a pure value; every other name the arm binds is
    selected."""
    found: set[str] = set()
    scope = ctx.scope(branch)
    if scope is None:
        return found
    bound_by_other = {n for step in other for n in step.names}
    region_end = ctx.end(arm[-1].line) if arm else 0
    for step in arm:
        start, end = ctx.start(step.line), ctx.end(step.line)
        for name in step.names:
            if name in bound_by_other:
                continue
            bindings = [getattr(a, "node", None) for a in scope.assignments[name]]
            if not all(isinstance(b, cst.CSTNode) and start <= ctx.start(b) < end for b in bindings):
                continue
            target = next(b for b in bindings)
            if not isinstance(target, cst.Name):
                continue
            if all(end <= ctx.start(r) < region_end for r in reads(ctx, target)):
                found.add(name)
    return found


def _merged(then: list[_Step], other: list[_Step], selected: set[str]) -> list[tuple[_Step | None, _Step | None]] | None:
    """The arms' lines in one order keeping each arm's own (a name both arms select is one entry of
    both its lines); None when the arms select two names in different orders."""
    both = {s.names[0] for s in then if s.names[0] in selected} & {s.names[0] for s in other if s.names[0] in selected}
    if [s.names[0] for s in then if s.names[0] in both] != [s.names[0] for s in other if s.names[0] in both]:
        return None
    merged: list[tuple[_Step | None, _Step | None]] = []
    j = 0
    for step in then:
        if step.names[0] in both:
            while other[j].names[0] != step.names[0]:
                merged.append((None, other[j]))
                j += 1
            merged.append((step, other[j]))
            j += 1
        else:
            merged.append((step, None))
    merged.extend((None, s) for s in other[j:])
    return merged


def _select_block(
    analysis: Analysis, fn: FunctionNode, branch: cst.If, then: list[_Step], other: list[_Step]
) -> tuple[tuple[Edit, ...], str] | str:
    """``if c:`` / ``else:`` arms of assignments (jax-gcm's evaporation step: a helper's two results
    unpacked, two arrays updated in one arm, one in the other) become, line by line in the arms'
    order, one ``x = jnp.where(c, a, b)`` for each name read after the ``if`` (the other arm's value
    being what `x` holds, when it does not assign it), and the arm's temporaries as written.

    The selection keeps each name's value for the arm the test picks: with one test value, every
    name the arm has set so far holds what that arm gave it, and every name it has not set yet what
    it held before, which is what the arm's next line reads. Obligations on top of the one-name
    form's: each name assigned once per arm, by a whole-name assignment where it is selected; the
    names both arms assign in the same order; the test reads none of them (it is evaluated at every
    selection); a name one arm leaves alone held an array or a number before."""
    ctx = analysis.ctx
    if ctx.enclosing_function(branch) is not fn:
        return "the `if` is in a nested function"
    kept = comments_kept(ctx, branch)
    if kept is None:
        return "the arms' comments cannot be read apart from their strings"
    for arm in (then, other):
        names = [n for step in arm for n in step.names]
        twice = next((n for n in names if names.count(n) > 1), None)
        if twice is not None:
            return f"an arm assigns `{twice}` twice"
    temporaries = _temporaries(ctx, branch, then, other) | _temporaries(ctx, branch, other, then)
    selected = {n for step in [*then, *other] for n in step.names} - temporaries
    unpacked = next((s for s in [*then, *other] if len(s.names) > 1 and set(s.names) & selected), None)
    if unpacked is not None:
        name = next(n for n in unpacked.names if n in selected)
        return f"`{ctx.code(unpacked.line.body[0])}` unpacks `{name}`, which is read after the `if`"
    if any(n.value in selected | temporaries for n in names_read(branch.test)):
        return "the test reads a name the arms assign"
    merged = _merged(then, other, selected)
    if merged is None:
        return "the arms assign the same names in different orders"
    for step in [*then, *other]:
        if step.names[0] in selected and not _selectable(ctx, step.value):
            return f"`{step.names[0]}` is given something other than an array or number"
    for name in sorted(selected):
        left_alone = any(name not in {n for s in arm for n in s.names} for arm in (then, other))
        target = next(_name_target(s) for s in [*then, *other] if s.names == (name,))
        if (
            left_alone
            and _value_before(ctx, branch, name) is None
            and not _compared_with_a_number(branch.test, name)
            and not _always_array(analysis, target)
        ):
            return f"what `{name}` holds before the `if` is not shown to be an array or a number"
    why = _directly_called(analysis, fn, staged_calls=True)
    if why is not None:
        return why
    spelled = _where_spelled(analysis, branch, [branch.test], [s.value for s in [*then, *other]])
    if isinstance(spelled, str):
        return spelled
    names, imports = spelled
    test = written(ctx, branch.test, names)
    lines: list[str] = []
    for taken, untaken in merged:
        step = taken or untaken
        assert step is not None
        if step.names[0] not in selected:
            lines.append(ctx.code(step.line.body[0]))
            continue
        name = step.names[0]
        when_true = taken.text if taken is not None else name
        when_false = untaken.text if untaken is not None else name
        lines.append(f"{name} = {names['where']}({test}, {when_true}, {when_false})")
    text = (ctx.newline + ctx.indent_of(branch)).join(lines)
    return (Edit(ctx.start(branch), ctx.end(branch), kept + text), *imports), text


def _name_target(step: _Step) -> cst.Name:
    """The Name an assignment step of one name binds."""
    small = step.line.body[0]
    return small.targets[0].target if isinstance(small, cst.Assign) else small.target  # type: ignore[attr-defined,return-value]


def _first_target(branch: cst.If) -> cst.Name:
    """The name the chain's first arm assigns (`_assignment_chain` has read it as one)."""
    return _single_assignment(branch.body).targets[0].target  # type: ignore[union-attr,return-value]


def _always_array(analysis: Analysis, target: cst.Name) -> bool:
    """Every binding of the name `target` assigns, in its function, computes an array given that
    what the name held before is one (`_array_given`): ``state = random.randint(...)`` before a
    loop whose ``if`` may set ``state = state_flipped``, itself ``state.at[i].set(...)``. By
    induction the name always holds an array: its first binding to run cannot read it."""
    bindings = local_bindings(analysis.ctx, target)
    return bool(bindings) and all(
        not isinstance(value, cst.Param) and _array_given(analysis, value, target.value, 0) for value in bindings
    )


def _array_given(analysis: Analysis, expr: cst.BaseExpression, name: str, depth: int) -> bool:
    """`expr` is an array when `name` holds one: an array by `array_origin`, `name` itself, a name
    bound once to such a value, an indexed update ``x.at[i].set(v)`` of one, arithmetic on one."""
    ctx = analysis.ctx
    if depth > 6:
        return False
    if isinstance(expr, cst.Name) and expr.value == name:
        return True
    if array_origin(analysis, expr) is not None:
        return True
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _array_given(analysis, value, name, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return _array_given(analysis, expr.left, name, depth + 1) or _array_given(analysis, expr.right, name, depth + 1)
    updated = indexed_update(expr.func) if isinstance(expr, cst.Call) else None
    return updated is not None and _array_given(analysis, updated, name, depth + 1)



def _value_before(ctx: ModuleContext, branch: cst.If, name: str) -> cst.BaseExpression | None:
    """What `name` holds right before `branch`: its last assignment among the statements above it in
    the same block (`constants.binding_before`), when that is arithmetic, a number or a pure call;
    None otherwise (no assignment there, one inside a compound statement in between, which may or
    may not run, or one that is not ``name = value`` or ``name op= value``)."""
    scope = ctx.scope(branch)
    target = binding_before(ctx, scope, name, branch) if scope is not None else None
    if target is None or ctx.parent(ctx.statement_of(target)) is not ctx.parent(branch):
        return None  # none above, or the last is in a loop's body
    parent = ctx.parent(target)
    if isinstance(parent, cst.AugAssign):
        value = parent.value
    elif isinstance(parent, cst.AssignTarget) and len(ctx.parent(parent).targets) == 1:  # type: ignore[union-attr]
        value = ctx.parent(parent).value  # type: ignore[union-attr]
    else:
        return None
    return value if _numeric(ctx, value) else None


_ORDER = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


def _compared_with_a_number(test: cst.BaseExpression, name: str) -> bool:
    """The test orders `name` against a number written out (``if level < 0.0:``), which only a
    number or an array answers (a tuple or a string raises): what `name` holds before the ``if``
    is one, whatever assigned it."""
    if not isinstance(test, cst.Comparison) or not all(isinstance(t.operator, _ORDER) for t in test.comparisons):
        return False
    operands = [test.left, *(t.comparator for t in test.comparisons)]
    named = [o for o in operands if isinstance(o, cst.Name) and o.value == name]
    return bool(named) and all(o in named or _number_literal(o) for o in operands)


def _number_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _numeric(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Arithmetic, a number, or a call of a pure jax.numpy-like function: a number or an array."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.BinaryOperation, cst.UnaryOperation)):
        return True
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        return qualified.startswith(PURE_FUNCTION_PREFIXES)
    return False


def _single_return(block: cst.BaseSuite) -> cst.Return | None:
    ret = _lone_statement(block)
    return ret if isinstance(ret, cst.Return) and ret.value is not None else None


def _pure(ctx: ModuleContext, expr: cst.CSTNode, _depth: int = 0) -> bool:
    """Computes a value and does nothing else; no Python bool of it is taken (no and/or/not, no ifs):
    every call, without `*` arguments, is a jax.numpy/jax.nn/jax.scipy.special/math function, an
    indexed update (``q1.at[:, :, 0].set(v)``), or a helper of the module that does the same
    (`_computing_helper`)."""
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, _NOT_PURE) or (isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)):
            return False
        if isinstance(node, cst.Call):
            if any(a.star for a in node.args):
                return False
            qualified = ctx.names.qualified_name(node.func) or ""
            updated = indexed_update(node.func) is not None and node.func.attr.value != "apply"  # type: ignore[attr-defined]
            if not (
                array_method_call(ctx, node)
                or qualified.startswith(PURE_FUNCTION_PREFIXES)
                or updated
                or _computing_helper(ctx, node, _depth)
            ):
                return False
        stack.extend(node.children)
    return True


def _computing_helper(ctx: ModuleContext, call: cst.Call, depth: int) -> bool:
    """``rel_hum_to_spec_hum(t1, psa, 1.0, rh)``: an undecorated def of the module whose body only
    binds its locals and returns (`purity.is_pure`), every expression in it `_pure` in turn, a few
    calls deep: calling it computes, and takes no Python bool of what it is given."""
    fn = plain_def(ctx, call.func)
    if fn is None or depth >= 3 or not is_pure(ctx, call):
        return False
    return _pure(ctx, fn.body, depth + 1)


def _selectable(ctx: ModuleContext, value: cst.BaseExpression) -> bool:
    """jnp.where can select `value`: an array or a number as `_array_or_number` reads it, and, for a
    call of a module helper, each ``return`` of the helper so too."""
    fn = plain_def(ctx, value.func) if isinstance(value, cst.Call) else None
    returned = [r.value for r in own_returns(fn)] if fn is not None else []
    return _array_or_number(value) and all(r is not None and _array_or_number(r) for r in returned)


def answers_only_for_arrays(test: cst.BaseExpression, ctx: ModuleContext | None = None, _depth: int = 0) -> bool:
    """Does a Python ``if`` on this test surely fail for a traced value, whatever pytree it is?
    ``x > lam``, ``jnp.abs(x) <= 1``: an order comparison, which only a number or an array answers
    (a tuple against a number raises; ``==`` would not): the traced value is an array. (``if flag:``
    may test a pytree: a tuple is truthy whatever it holds.) JAX305 claims only such tests, and
    JAX405 leaves to JAX305 only the ``if`` it claims and `select` rewrites.
    ``j in table[i]`` (jax#2285) too: a set or a dict hashes what it is asked about, and a list
    compares it with ``==`` and takes the bool: a tracer fails either way. ``not`` of such a test,
    and (given `ctx`) a jax.numpy call or a call of a plain def of the module each of whose returns
    is one (``if not is_valid(p):`` with ``return jnp.all(p >= 0)``), too."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return answers_only_for_arrays(test.expression, ctx, _depth)
    if isinstance(test, cst.Call) and ctx is not None and _depth < 3:
        if (ctx.names.qualified_name(test.func) or "").startswith("jax.numpy."):
            return True  # `jnp.all(p >= 0)`: jax.numpy answers with an array, whatever it is given
        helper = called_def(ctx, test.func)
        returns = own_returns(helper) if helper is not None else []
        return bool(returns) and all(
            r.value is not None and answers_only_for_arrays(r.value, ctx, _depth + 1) for r in returns
        )
    return isinstance(test, cst.Comparison) and all(
        isinstance(c.operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual))
        for c in test.comparisons
    ) or _membership(test)


def _membership(test: cst.BaseExpression) -> bool:
    """``x in c`` / ``x not in c``: one membership test, the traced value on the left."""
    return (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, (cst.In, cst.NotIn))
    )

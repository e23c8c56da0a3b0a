"""JAX305 python-if-on-traced-value: ``if x > lam: return A else: return B`` on a value vmap, pmap or checkpoint traces.

Only the shapes whose rewrite is exact are fixed (`repairs.select_with_where`,
shared with JAX304): an ``if``/``else`` (or an ``if`` followed by the
function's last ``return``) whose two arms are each one ``return`` of an
expression that computes and does nothing else. Then ``return jnp.where(C, A,
B)`` computes, for every example, the arm the ``if`` would have taken (both
arms are evaluated: harmless for pure expressions, whose values the selection
discards). Anything else is a report.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.repairs.select_with_where import (
    answers_only_for_arrays,
    array_method_call,
    gradient_caveat,
    select,
    select_expression,
)
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.optax_schedules import OPTAX_SCHEDULE
from jaxfix.transforms.semantics.optional_defaults import presence_test
from jaxfix.transforms.semantics.reads import parameter_reads
from jaxfix.transforms.semantics.traced_values import Taint
from jaxfix.transforms.semantics.vocabulary import CHECKPOINT, JIT, MAPPING

#: Transforms whose tracers refuse a Python bool (`MAPPING`: vmap, pmap; and checkpoint, which traces
#: abstract values even of a Python float it is given; docs/jax103-305-behaviour.md): grad, jacfwd,
#: jacrev and hessian differentiate with concrete primal values, and a Python `if` works there.
_DATA_TRANSFORMS = MAPPING | CHECKPOINT


class PythonIfs:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        # Not strict: the value is a tracer already, and what jnp computes from it stays one. The
        # routes let it follow an object's field to the methods that read it (ott#81's weights).
        self.uses = ConcreteUses(self.ctx, traces=analysis.traces)
        self.strict = ConcreteUses(self.ctx, strict=True, traces=analysis.traces)

    def findings(self) -> list[Finding]:
        seen: set[int] = set()
        out: list[Finding] = self._presence_tests(seen)
        functions = [*self.ctx.nodes_of(cst.FunctionDef), *self.ctx.nodes_of(cst.Lambda)]
        for fn in sorted(functions, key=self.ctx.start):
            info = function_info(self.ctx, fn)
            for param in info.signature.params:
                source = self.analysis.traced.param_source(fn, param.name)
                if source is None or source.taint is not Taint.TRACED:
                    continue
                if source.jit is not None and source.via is None:
                    if self._jax302s(fn, param.name):
                        continue  # a jitted parameter a static value would serve: JAX302's
                    transform = JIT
                elif source.via is None or source.jit is not None or source.via.name not in (*_DATA_TRANSFORMS, OPTAX_SCHEDULE):
                    continue
                else:
                    transform = source.via.name
                use = self.uses.first_need(fn, param.name)
                if use is None or use.need is not Need.NEEDS:
                    continue
                statement = self.ctx.parent(use.node)
                if isinstance(statement, cst.Assert) and statement.test is use.node and id(statement) not in seen and transform != JIT:
                    seen.add(id(statement))  # ott#81's weights check in a property of the problem vmap maps
                    out.append(self._assert_finding(param.name, statement, source.reason, transform))
                    continue
                if not isinstance(statement, (cst.If, cst.IfExp)) or statement.test is not use.node or id(statement) in seen:
                    continue
                if not isinstance(fn, cst.FunctionDef):
                    continue  # a lambda holds no `if` statement; its conditional expression is the select's
                if not answers_only_for_arrays(statement.test, self.ctx):
                    continue  # `if limit:` may test a pytree (a tuple is truthy whatever it holds)
                if transform == JIT and not self._reads_directly(fn, statement.test, param.name):
                    continue
                seen.add(id(statement))
                out.append(self._finding(fn, param.name, statement, source.reason, transform))
        return out

    def _presence_tests(self, seen: set[int]) -> list[Finding]:
        """``if not (train_state or rng):`` on parameters that default to None, one of them a tracer
        (rejax's DQN.train, jitted and vmapped over keys): the test asks whether they were given,
        which ``is None`` answers without the tracer's truth (`optional_defaults.presence_test`)."""
        ctx = self.ctx
        out: list[Finding] = []
        branches = [*ctx.nodes_of(cst.If), *ctx.nodes_of(cst.While), *ctx.nodes_of(cst.IfExp)]
        for branch in sorted(branches, key=ctx.start):
            if id(branch) in seen or ctx.enclosing_function(branch) is None:
                continue
            found = presence_test(ctx, self.analysis.traces, branch.test, lambda e: array_origin(self.analysis, e) is not None)
            if found is None:
                continue
            text, names = found
            sources = [(n, self.analysis.traced.param_source(ctx.enclosing_function(n), n.value)) for n in names]  # type: ignore[arg-type]
            traced_name, traced = next(((n, s) for n, s in sources if s is not None and s.taint is Taint.TRACED), (None, None))
            if traced is None or traced_name is None:
                continue
            seen.add(id(branch))
            routes = self.analysis.traces.routes(ctx.enclosing_function(names[0])) or ()
            jitted = all(any(w.name == JIT for w in r.wraps) for r in routes)
            given = ", ".join(f"`{n.value}`" for n in names)
            notes = () if jitted else (
                "unsafe: a run not under jit may hand an array of one element, whose truth its value decides",
            )
            out.append(ctx.finding(
                "JAX305",
                branch.test,
                f"`{shorten(ctx.code(branch.test))}` takes the truth of `{traced_name.value}`, a tracer "
                f"({traced.reason}); {given} {'defaults' if len(names) == 1 else 'default'} to None, so the test asks "
                f"whether {'it was' if len(names) == 1 else 'they were'} given, which `is None` answers: `{text}`",
                (ctx.replace(branch.test, text),),
                Applicability.SAFE if jitted else Applicability.UNSAFE,
                description=f"test `{text}`",
                notes=notes,
            ))
        return out

    def _reads_directly(self, fn: cst.FunctionDef, test: cst.BaseExpression, param: str) -> bool:
        """Under jit, only a test written on the parameter itself with operators and array methods
        (``if x.sum() > 3:``, ``if x[0] < 0:``): a helper it calls may return a static value
        (``len(graph.n_node)``), a value a ``jax.*`` call computes is JAX304's, and a field read off
        it (``state.pos``) is JAX306's (a pytree's field may be declared static)."""
        ctx = self.ctx
        reads = [r for r in parameter_reads(ctx, fn, param) if r is test or any(a is test for a in ctx.ancestors(r))]
        if not reads:
            return False
        for read in reads:
            parent = ctx.parent(read)
            if isinstance(parent, cst.Attribute) and parent.value is read:
                called = ctx.parent(parent)
                if not (isinstance(called, cst.Call) and called.func is parent and array_method_call(ctx, called)):
                    return False
        return all(array_method_call(ctx, call) and _rooted_at_a_name(call.func) for call in ctx.descendants(test, cst.Call))

    def _jax302s(self, fn: cst.FunctionDef, param: str) -> bool:
        """JAX302 reads the parameter as a value a static argument would serve: its strict reading
        finds a need (``if flag:``, ``if n > 3:``). A test on what jax.numpy computes from it
        (``if x.sum() > 3:``) stays a tracer even for a static value, and is this rule's."""
        use = self.strict.first_need(fn, param)
        return use is not None and use.need is Need.NEEDS

    def _assert_finding(self, param: str, statement: cst.Assert, why: str, mapped_by: str) -> Finding:
        """``assert jnp.isclose(jnp.sum(w), 1.0)`` on a value each example of a vmap holds: a check
        per example needs a traced check, or the check moved out; which one is the author's."""
        ctx = self.ctx
        each = "the checkpointed" if mapped_by in CHECKPOINT else "each example's"
        head = f"`assert {ctx.code(statement.test)}` needs a concrete bool, but {why}: {each} `{param}` is a tracer"
        return ctx.finding(
            "JAX305",
            statement.test,
            f"{head}; not rewritten: a check on each example's values has no Python bool to take",
            notes=(
                "option: check the values before the transform, on the whole batch (`assert jnp.allclose(...)` outside the vmap)",
                "option: a traced check: `checkify.check(...)` inside `jax.experimental.checkify.checkify(f)`, or `eqx.error_if`",
                "option: make the input valid instead of checking it (normalise the weights), if that is what the caller means",
            ),
        )

    def _finding(self, fn: cst.FunctionDef, param: str, branch: cst.If | cst.IfExp, why: str, mapped_by: str) -> Finding:
        ctx = self.ctx
        test = ctx.code(branch.test)
        each = {JIT: "the jitted", OPTAX_SCHEDULE: "the schedule's"}.get(mapped_by, "the checkpointed" if mapped_by in CHECKPOINT else "each example's")
        written = f"`if {test}:`" if isinstance(branch, cst.If) else f"`... if {test} else ...`"
        head = f"{written} needs a concrete bool, but {why}: {each} `{param}` is a tracer"
        notes = (
            "option: `jnp.where(cond, a, b)` when both arms compute a value (both are evaluated)",
            "option: `lax.cond(cond, true_fn, false_fn, *operands)` when an arm must not run, or returns other types",
        )
        selected = select(self.analysis, fn, branch) if isinstance(branch, cst.If) else select_expression(self.analysis, fn, branch)
        if mapped_by == OPTAX_SCHEDULE and not _only_optax_calls(self.analysis, fn):
            selected = (
                f"`{fn.name.value}` is also called otherwise, where a Python step gives a Python float that "
                "`jnp.where` would turn into a float32 array"
            )
        if isinstance(selected, str):
            if isinstance(branch, cst.If) and _raises(branch):
                notes = (
                    "option: an error per example needs a traced check: `checkify.check(...)` inside "
                    "`jax.experimental.checkify.checkify(f)` (or `eqx.error_if`), or the check moved out of the vmap",
                    *notes[1:],
                )
            return ctx.finding("JAX305", branch.test, f"{head}; not rewritten: {selected}", notes=notes)
        edits, text = selected
        caveat = gradient_caveat(self.analysis, branch)
        return ctx.finding(
            "JAX305",
            branch.test,
            f"{head}; both arms return a value computed from arrays, so it becomes `{shorten(text, 80)}`",
            edits,
            Applicability.UNSAFE if caveat else Applicability.SAFE,
            description=f"select with `{shorten(text, 80)}`",
            notes=(
                "both arms are evaluated"
                + ("" if mapped_by == JIT else " for every example")
                + "; the value of the one not selected is discarded",
                *((caveat,) if caveat else ()),
            ),
        )


def _only_optax_calls(analysis: Analysis, fn: cst.FunctionDef) -> bool:
    """Every use of `fn` is an optax optimizer's learning rate: optax always hands it the step as an
    array (eagerly too; docs/optax-behaviour.md), so selecting with `jnp.where` computes what the
    `if` did wherever it runs."""
    routes = analysis.traces.routes(fn)
    return bool(routes) and all(r.wraps and r.wraps[-1].name == OPTAX_SCHEDULE and not r.escapes for r in routes)




def _rooted_at_a_name(expr: cst.BaseExpression) -> bool:
    """``x.sum`` or ``x[0].max``: an attribute chain on a name, not on what a call returns."""
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        expr = expr.value
    return isinstance(expr, cst.Name)


def _raises(branch: cst.If) -> bool:
    """The ``if``'s own arm is one ``raise`` (a validation)."""
    body = branch.body.body
    return len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Raise)


def _none_defaults(facts: Facts) -> frozenset[str]:
    """The parameters of the module's defs that default to None."""
    found: set[str] = set()
    for node in facts.nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults), *zip(args.kwonlyargs, args.kw_defaults)]
            found.update(a.arg for a, d in pairs if isinstance(d, ast.Constant) and d.value is None)
    return frozenset(found)


def _may_be_presence(test: ast.expr, optional: frozenset[str]) -> bool:
    """`optional_defaults.presence_test`'s shape: names joined by ``not``/``and``/``or``, each a
    parameter some def gives a None default."""
    if isinstance(test, ast.Name):
        return test.id in optional
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _may_be_presence(test.operand, optional)
    return isinstance(test, ast.BoolOp) and all(_may_be_presence(v, optional) for v in test.values)


def _may_answer_for_arrays(test: ast.expr) -> bool:
    """`select_with_where.answers_only_for_arrays`'s shapes, generously: an order comparison or a
    membership, ``not`` of one, or any call (a helper's returns are read by the analysis)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _may_answer_for_arrays(test.operand)
    if isinstance(test, ast.Call):
        return True
    orders = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
    return isinstance(test, ast.Compare) and (
        all(isinstance(o, orders) for o in test.ops)
        or (len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn)))
    )


class PythonIfOnTracedValue305(Rule):
    """A Python ``if`` tests a value that vmap or pmap maps, or checkpoint traces.

    Under ``jax.vmap`` and ``jax.pmap`` a function written for one example
    sees a tracer; ``if`` needs a Python bool (``grad``, ``jacfwd``,
    ``jacrev`` and ``hessian`` differentiate at concrete values, where a
    Python ``if`` works)::

        jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].

    ``jax.checkpoint`` (``jax.remat``) traces abstract values too, even of a
    Python float it is given (jax#24516), and under ``grad`` of it the value
    is data again.

    The value is data, different per example, so it cannot be made static.
    When both arms are one ``return`` of an expression that only computes
    (``if jnp.abs(x) > lam: return 0.0 else: return jnp.exp(-x**2)``), the
    fix selects per example: ``return jnp.where(jnp.abs(x) > lam, 0.0,
    jnp.exp(-x**2))``, exact for the value; both arms are evaluated. So does an
    ``if`` whose arms each assign one name (``if c: lr = a`` / ``else: lr = b``
    becomes ``lr = jnp.where(c, a, b)``; with no ``else``, the value the name
    held before, when its last assignment above computes a number or an
    array), or several names, each selected in the arms' order (``energy`` and
    ``force`` of a cutoff), and nested ``if``s of returns that end the function.
    Any other shape is reported with the options (``jnp.where``, ``lax.cond``). A jitted
    function's parameter is JAX302's where a static value would serve (it can be static when
    callers pass Python values); a test written on the jitted parameter itself with operators and
    array methods (``if x.sum() > 3:``), which stays a tracer even for a static value, is this
    rule's, and so is a conditional expression a function returns: ``return x if x.sum() <
    y.sum() else y`` (the example of JAX's error reference) becomes ``return jnp.where(x.sum() <
    y.sum(), x, y)``. A learning-rate schedule handed to an optax optimizer gets the step count
    from optax, a tracer where the module runs the optimizer's update (or a flax TrainState's
    ``apply_gradients``) under jit: its ``if`` on the step (flax#1903's triangular schedule) is
    selected the same way when optax is its only caller (docs/optax-behaviour.md).
    """

    code = "JAX305"
    name = "python-if-on-traced-value"
    summary = "a Python if tests a value jit, vmap, pmap or checkpoint traces: select with jnp.where"
    required = (("if", "assert"), ("jit", "vmap", "pmap", "checkpoint", "remat"))  # `if(x > 0):` has no space
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The ``if``s (and ``assert``s) testing an order comparison, a membership or a call, in a file
        that spells jit, vmap, pmap or checkpoint."""
        mapped = any(
            isinstance(node, (ast.Name, ast.Attribute))
            and (node.id if isinstance(node, ast.Name) else node.attr) in ("jit", "vmap", "pmap", "checkpoint", "remat")
            and qualified_spellings(facts, node) & (_DATA_TRANSFORMS | {JIT})
            for node in facts.nodes
        )
        if not mapped:
            return []
        optional = _none_defaults(facts)
        tests = [
            node for node in facts.nodes
            if (isinstance(node, (ast.If, ast.IfExp, ast.Assert)) and _may_answer_for_arrays(node.test))
            or (isinstance(node, (ast.If, ast.IfExp, ast.While)) and _may_be_presence(node.test, optional))
        ]
        return [*tests, *facts.optimizer_updates] if tests else []  # an optax schedule's `if`: the jitted step too

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return PythonIfs(analysis).findings()

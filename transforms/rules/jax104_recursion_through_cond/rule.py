"""JAX104: a function recurses through a ``lax.cond``/``lax.switch`` branch.

``lax.cond`` traces both branches, whatever the predicate, eagerly too; so
does ``lax.switch`` every branch. A branch that calls the function the
primitive is in (directly, or through a def of the module it calls) is traced
again inside that trace, which traces the branch again: the recursion never
reaches its base case (RecursionError, or an error in the branch once its
input is cut down to nothing: jax#13796). docs/jax104-behaviour.md shows both.

Where the predicate is a Python value while tracing (a comparison of
``len(x)``, a shape, a static argument: `static_values`), the recursion is
decided by Python, and a Python conditional expression is what was meant:
``return jax.lax.cond(len(x) > 1, return_z, lambda x: 0, x)`` becomes
``return return_z(x) if len(x) > 1 else 0`` (a lambda whose parameters are
the operands' names is written as its body; another branch is called with
the operands). That runs one branch, which ends. A call of the function
under a condition, a loop or a nested def inside the branch may have a base
case of its own, and is not counted. A traced predicate, or
``lax.switch``, is reported: a recursion on traced data needs a loop
(``lax.while_loop``) or a bound on its depth.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.static_values import Kind
from jaxfix.transforms.semantics.vocabulary import CALLABLE_SLOTS

CODE = "JAX104"
#: Code around a call that may keep it from running: the recursion may have a base case there.
_GUARDS = (cst.If, cst.IfExp, cst.While, cst.For, cst.BooleanOperation, cst.Try, cst.ListComp, cst.SetComp,
           cst.DictComp, cst.GeneratorExp, cst.Lambda, cst.FunctionDef)
_PRIMITIVES = frozenset({"jax.lax.cond", "jax.lax.switch"})


class Recursions:
    """One module's JAX104 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        ctx = self.ctx
        for call in ctx.calls:
            qualified = ctx.names.qualified_name(call.func) or ""
            if qualified not in _PRIMITIVES or any(a.star or (a.keyword is not None and a.keyword.value != "operand") for a in call.args):
                continue  # `operand=` is cond's older spelling of its one operand
            fn = ctx.enclosing_function(call)
            if not isinstance(fn, cst.FunctionDef):
                continue
            branches = self._branches(call, qualified)
            routed = {id(r.call) for r in self.analysis.traces.routes(fn) or () if r.call is not None and not r.uncertain}
            recursive = next((b for b in branches if b is not None and self._calls(b, fn, routed, 0)), None)
            if recursive is None:
                continue
            yield self._finding(call, qualified, fn, branches, recursive)

    def _branches(self, call: cst.Call, qualified: str) -> list[FunctionNode | None]:
        """The defs or lambdas the branches are (None for one that cannot be resolved)."""
        positional = [a.value for a in call.args if a.keyword is None]
        written = [positional[i] for i in CALLABLE_SLOTS[qualified][0] if i < len(positional)]
        if qualified == "jax.lax.switch":  # one slot, holding the table
            written = [e.value for e in written[0].elements] if written and isinstance(written[0], (cst.List, cst.Tuple)) else []
        return [self._function(expr) for expr in written]

    def _function(self, expr: cst.BaseExpression) -> FunctionNode | None:
        if isinstance(expr, cst.Lambda):
            return expr
        if isinstance(expr, cst.Name):
            binding = single_binding(self.ctx, expr)
            if isinstance(binding, cst.FunctionDef):
                return binding
            value = assigned_value(self.ctx, binding) if isinstance(binding, cst.Name) else None
            return value if isinstance(value, cst.Lambda) else None
        target = resolve_callable(self.ctx, expr)  # `Model.return_z`, `self.step`
        return target.function.node if target is not None else None

    def _calls(self, branch: FunctionNode, target: cst.FunctionDef, routed: set[int], depth: int) -> bool:
        """`branch` calls `target` (`routed`: the calls the tracing model routes to it: by its name, a
        name the jit is rebound to, ``Model.method``, ``self.method``), or calls a def of the module
        that does (two levels)."""
        for node in _calls_in(branch):
            if any(isinstance(a, _GUARDS) for a in self.ctx.ancestors_within(node, branch)):
                continue  # `f(x, depth - 1) if depth > 0 else x`: a base case of its own may end it
            if id(node) in routed:
                return True
            callee = single_binding(self.ctx, node.func) if isinstance(node.func, cst.Name) else None
            if callee is target:
                return True
            if isinstance(callee, cst.FunctionDef) and callee is not branch and depth < 2 and self._calls(callee, target, routed, depth + 1):
                return True
        return False

    def _finding(
        self, call: cst.Call, qualified: str, fn: cst.FunctionDef, branches: list[FunctionNode | None], recursive: FunctionNode
    ) -> Finding:
        ctx = self.ctx
        primitive = qualified.rsplit(".", 1)[1]
        head = (
            f"`{_name(ctx, recursive)}`, a branch of this `lax.{primitive}`, calls `{fn.name.value}` again, but "
            f"`lax.{primitive}` traces every branch whatever the {'predicate' if primitive == 'cond' else 'index'}: "
            "the recursion never reaches its base case (RecursionError)"
        )
        options = (
            "option: a recursion on traced data needs a loop: `lax.while_loop` over the state the recursion carries",
            "option: a bound on the depth, as a Python int, with the recursion written in Python",
        )
        if primitive != "cond":
            return ctx.finding(CODE, call, f"{head}; not rewritten: a Python index into the branches would not clamp it as `switch` does", notes=options)
        verdict = self.analysis.staticness.verdict(call.args[0].value)
        if verdict.kind is not Kind.STATIC:
            why = f"`{shorten(ctx.code(call.args[0].value))}` is not shown to be a Python value while tracing ({verdict.reason})"
            return ctx.finding(CODE, call, f"{head}; not rewritten: {why}", notes=options)
        operands = [a.value for a in call.args[3:]]  # positional, or the one `operand=`
        arms = [_applied(ctx, b, w.value, operands) for b, w in zip(branches, call.args[1:3])]
        text = f"{arms[0]} if {ctx.code(call.args[0].value)} else {arms[1]}"
        parent = ctx.parent(call)
        if not (isinstance(parent, (cst.Return, cst.Assign, cst.AnnAssign)) and getattr(parent, "value", None) is call):
            text = f"({text})"
        return ctx.finding(
            CODE,
            call,
            f"{head}; the predicate is a Python value while tracing ({verdict.reason}), so Python picks the branch: "
            f"`{shorten(text, 80)}`",
            (ctx.replace(call, text),),
            description=f"pick the branch in Python: `{shorten(text, 60)}`",
            notes=("only the branch taken runs, as the recursion needs",),
        )


def _applied(ctx: ModuleContext, branch: FunctionNode | None, written: cst.BaseExpression, operands: list[cst.BaseExpression]) -> str:
    """The branch called with the operands; a lambda written here whose parameters are the operands'
    names, as its body."""
    texts = [ctx.code(o) for o in operands]
    if isinstance(written, cst.Lambda) and branch is written:
        params = written.params
        names = [p.name.value for p in params.params]
        simple = not params.posonly_params and not params.kwonly_params and not isinstance(params.star_arg, (cst.Param, cst.ParamStar))
        if simple and not isinstance(params.star_kwarg, cst.Param) and names == texts and all(p.default is None for p in params.params):
            body = ctx.code(written.body)
            return body if isinstance(written.body, (cst.Name, cst.Integer, cst.Float, cst.Call, cst.Attribute, cst.Subscript)) else f"({body})"
        return f"({ctx.code(written)})({', '.join(texts)})"
    return f"{ctx.code(written)}({', '.join(texts)})"


def _name(ctx: ModuleContext, fn: FunctionNode) -> str:
    return fn.name.value if isinstance(fn, cst.FunctionDef) else shorten(ctx.code(fn), 40)


def _calls_in(fn: FunctionNode) -> Iterator[cst.Call]:
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            yield node
        stack.extend(node.children)


class RecursionThroughCond104(Rule):
    """A function recurses through a branch of ``lax.cond`` or ``lax.switch``.

    ``lax.cond`` traces both branches, whatever the predicate; a branch that
    calls the function again is traced again, forever::

        @jax.jit
        def rec(x):
            return jax.lax.cond(len(x) > 1, return_z, lambda x: 0, x)   # return_z calls rec(x[1:])
        # RecursionError: maximum recursion depth exceeded (or an IndexError on an empty slice)

    Where the predicate is a Python value while tracing (``len(x)``, a shape,
    a static argument), Python picks the branch, and only that one runs::

            return return_z(x) if len(x) > 1 else 0

    A traced predicate, or ``lax.switch``, is reported: recursion on traced
    data needs ``lax.while_loop`` or a bound on the depth. Valid: a branch
    that calls another function, a recursion written with a Python ``if``.
    """

    code = CODE
    name = "recursion-through-cond"
    summary = "a function recurses through a lax.cond/lax.switch branch, which is traced whatever the predicate"
    required = (("cond", "switch"),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Every cond/switch call."""
        return list(facts.control_flow_calls)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return Recursions(analysis).findings()

"""Which parameters may hold a tracer: an over-approximation from the stdlib ast.

JAX301 reports a loop count only when it can prove the count is traced: it
comes from a parameter that a transform in the module traces (a jit that does
not make it static, vmap, grad, a primitive), or that a direct call fills
with such a value (`tracedness`). This module answers the weaker question
"could it be?" cheaply enough to run before libcst, so that modules where no
count can be traced are never parsed by libcst:

* a parameter may be traced when its function has a decorator spelled like a
  transform, is named in a statement that spells one (``jax.vmap(f)``,
  ``lax.switch(i, [f, g])``), is aliased (``g = f``), or is called somewhere,
  from a function, with an argument for that parameter that may be traced
  there. Any other use (stored in a table, returned, handed to code the
  module does not know) is not a route `tracedness` can prove a tracer
  through, so it is not one here either;
* an expression may be traced when it is not plainly static (literals,
  ``len``, ``.shape``...) and names such a parameter, a local assigned from
  something that may be traced, or a lambda's parameter.

Being wrong in the other direction would hide findings, so every doubt (a
starred argument, recursion too deep) answers "may be traced".
"""

from __future__ import annotations

import ast
import re

from .screen import TRACING_WORDS, Facts, _defs_around, _own_nodes, _params, calls_on, lines_mentioning, plainly_static, spelled_name

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
_MAX_DEPTH = 24


class TracedParams:
    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._params: dict[tuple[int, str], bool] = {}
        self._locals: dict[int, dict[str, list[ast.expr]]] = {}
        self._names: dict[tuple[int, str], bool] = {}

    # -- expressions -----------------------------------------------------------------
    def expression(self, expr: ast.expr, line: int, depth: int = 0) -> bool:
        """May `expr`, written on `line`, hold a tracer when it runs?"""
        if depth > _MAX_DEPTH:
            return True
        if plainly_static(expr):
            return False
        names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
        if not names:
            return False
        lambdas = self._lambdas_around(line)
        if any(names & _params(lam) for lam in lambdas):
            return True
        defs = _defs_around(self.facts, line)
        for name in names:
            owner = next((d for d in reversed(defs) if name in _params(d) or name in self._assigned(d)), None)
            if owner is not None and self.name(owner, name, depth + 1):
                return True
        return False

    def name(self, owner: FunctionNode, name: str, depth: int) -> bool:
        """May a parameter or local of `owner` hold a tracer?"""
        key = (id(owner), name)
        if key not in self._names:
            self._names[key] = False  # in progress: a cycle adds no tracer
            values = self._assigned(owner).get(name, ())
            self._names[key] = any(self.expression(v, getattr(v, "lineno", owner.lineno), depth) for v in values) or (
                name in _params(owner) and self.parameter(owner, name, depth)
            )
        return self._names[key]

    def _lambdas_around(self, line: int) -> list[ast.Lambda]:
        return [
            n
            for stmt in self.facts.statements_on({line})
            for n in _own_nodes(stmt)
            if isinstance(n, ast.Lambda) and n.lineno <= line <= (n.end_lineno or n.lineno)
        ]

    def _assigned(self, function: FunctionNode) -> dict[str, list[ast.expr]]:
        """Local names of a function -> the values assigned to them (loop targets: their iterables)."""
        key = id(function)
        if key not in self._locals:
            out: dict[str, list[ast.expr]] = {}
            for node in ast.walk(function):
                if isinstance(node, ast.Assign):
                    targets, value = node.targets, node.value
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                    targets, value = [node.target], node.value
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    targets, value = [node.target], node.iter
                elif isinstance(node, ast.NamedExpr):
                    targets, value = [node.target], node.value
                elif isinstance(node, (ast.With, ast.AsyncWith)):
                    for item in node.items:
                        if item.optional_vars is not None:
                            for n in ast.walk(item.optional_vars):
                                if isinstance(n, ast.Name):
                                    out.setdefault(n.id, []).append(item.context_expr)
                    continue
                else:
                    continue
                for target in targets:
                    for n in ast.walk(target):
                        if isinstance(n, ast.Name):
                            out.setdefault(n.id, []).append(value)
            self._locals[key] = out
        return self._locals[key]

    # -- parameters ------------------------------------------------------------------
    def parameter(self, function: FunctionNode, name: str, depth: int = 0) -> bool:
        key = (id(function), name)
        if key not in self._params:
            self._params[key] = False  # in progress: a cycle of plain calls adds no tracer
            self._params[key] = depth > _MAX_DEPTH or self._parameter(function, name, depth)
        return self._params[key]

    def _parameter(self, function: FunctionNode, name: str, depth: int) -> bool:
        facts = self.facts
        static_here = False
        for decorator in function.decorator_list:
            words = {spelled_name(n) for n in ast.walk(decorator)} & TRACING_WORDS
            if not words:
                continue
            if words <= {"jit", "partial"} and _static_on(decorator, function, name):
                static_here = True  # static on its jit: traced only if fed a tracer or an array
                continue
            return True
        for line in sorted(lines_mentioning(facts, [function.name]) - {function.lineno}):
            statement = _innermost_statement(facts, line)
            if statement is None:
                continue
            own = list(_own_nodes(statement))
            if not any(spelled_name(n) == function.name and getattr(n, "lineno", 0) == line for n in own):
                continue  # a comment, a string, or a nested statement's line
            words = {spelled_name(n) for n in own} & TRACING_WORDS
            if words - {"partial"}:
                return True  # handed to something spelled like a transform
            if words and isinstance(statement, (ast.Assign, ast.AnnAssign)):
                return True  # ``g = partial(f, ...)``: an alias, which may be traced anywhere
            text = facts.lines[line - 1]
            if _ALIAS.search(text) and re.search(rf"=\s*{re.escape(function.name)}\s*$", text.split("#")[0].rstrip()):
                return True  # an alias: the new name may be traced anywhere
            # Any other use as a value (stored, returned, handed to code we do not
            # know) is no route a transform of this module can be proven to take.
            for call in calls_on(facts, {line}):
                if spelled_name(call.func) != function.name or call.lineno != line:
                    continue
                argument = _argument(call, function, name)
                if argument is _UNKNOWN:
                    return True
                if argument is None:
                    continue  # the default: a value of the def itself
                if static_here and not plainly_static(argument):  # type: ignore[arg-type]
                    return True  # it may be fed an array, or a tracer: "fed"
                if not _defs_around(facts, line) and not self._lambdas_around(line):
                    continue  # a call at module level runs eagerly, on concrete values
                if self.expression(argument, line, depth + 1):  # type: ignore[arg-type]
                    return True
        return False


_UNKNOWN = object()
_ALIAS = re.compile(r"^\s*[A-Za-z_]\w*\s*=")


def _static_on(decorator: ast.expr, function: FunctionNode, name: str) -> bool:
    """Does this jit decorator's literal static_argnums/static_argnames cover the parameter?"""
    from .screen import StaticSlots, _static_calls

    for call in _static_calls(decorator):
        slots = StaticSlots.read(call, function)
        if slots is not None and name in slots.names:
            return True
    return False


def _innermost_statement(facts: Facts, line: int) -> ast.stmt | None:
    statements = facts.statements_on({line})
    return statements[-1] if statements else None


def _argument(call: ast.Call, function: FunctionNode, name: str):
    """The expression a call passes for a parameter; None for its default; _UNKNOWN if unclear."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return _UNKNOWN
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    args = list(call.args)
    if isinstance(call.func, ast.Attribute) and positional and positional[0] in ("self", "cls"):
        if name == positional[0]:
            return call.func.value  # the receiver is the bound instance
        positional = positional[1:]
    if name in positional:
        index = positional.index(name)
        return args[index] if index < len(args) else None
    if function.args.vararg is not None and function.args.vararg.arg == name:
        return _UNKNOWN if len(args) > len(positional) else None
    return None

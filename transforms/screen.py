"""The second pre-filter: cheap facts from the standard library's ast.

libcst with scope and position metadata costs tens of times more than
``ast.parse``, and most files that pass the byte pre-filter (they mention
``static_argnums`` somewhere) still cannot hold a finding. Each rule states,
from these facts, a *necessary* condition for a finding; a file for which no
selected rule's condition holds is never given to libcst.

The facts over-approximate on purpose: names are matched by spelling, not
resolved, so a condition can only be too generous, never too strict. Tests
check every golden case passes its rule's screen.
"""

from __future__ import annotations

import ast
import bisect
import re
from functools import cached_property

STATIC_KEYWORDS = frozenset({"static_argnums", "static_argnames"})
CONTROL_FLOW = frozenset({"cond", "switch", "fori_loop", "while_loop", "scan"})


def _has_static_keyword(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and any(k.arg in STATIC_KEYWORDS for k in n.keywords) for n in ast.walk(node)
    )


_BODY_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _own_nodes(stmt: ast.stmt):
    """The nodes of a statement, leaving out the statements nested in its bodies."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for field, value in ast.iter_fields(node):
            if node is stmt and field in _BODY_FIELDS:
                continue
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))


def _spelled_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class Facts:
    """Facts about one module, each computed at most once."""

    def __init__(self, tree: ast.Module, text: str = "") -> None:
        self.tree = tree
        self.text = text

    @cached_property
    def nodes(self) -> list[ast.AST]:
        return list(ast.walk(self.tree))

    @cached_property
    def calls(self) -> list[ast.Call]:
        return [n for n in self.nodes if isinstance(n, ast.Call)]

    @cached_property
    def lax_aliases(self) -> dict[str, str]:
        """Local names bound by ``from jax.lax import cond as c``: local -> primitive."""
        out: dict[str, str] = {}
        lines = {i for i, line in enumerate(self.lines, 1) if "lax" in line and "import" in line}
        for node in self.statements_on(lines):
            if isinstance(node, ast.ImportFrom) and node.module in ("jax.lax", "jax._src.lax.control_flow"):
                for alias in node.names:
                    if alias.name in CONTROL_FLOW:
                        out[alias.asname or alias.name] = alias.name
        return out

    def control_flow_name(self, call: ast.Call) -> str | None:
        """'cond', 'switch', ... when the call is spelled like a lax primitive."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in CONTROL_FLOW:
            return func.attr
        if isinstance(func, ast.Name):
            if func.id in CONTROL_FLOW:
                return func.id
            return self.lax_aliases.get(func.id)
        return None

    @cached_property
    def control_flow_calls(self) -> list[ast.Call]:
        names = CONTROL_FLOW | set(self.lax_aliases)
        lines = {i for i, line in enumerate(self.lines, 1) if any(n in line for n in names)}
        return [
            n
            for stmt in self.statements_on(lines)
            for n in _own_nodes(stmt)
            if isinstance(n, ast.Call) and self.control_flow_name(n) is not None
        ]

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def static_lines(self) -> frozenset[int]:
        """Lines whose text mentions static_argnums/static_argnames."""
        return frozenset(i for i, line in enumerate(self.lines, 1) if "static_arg" in line)

    def statements_on(self, lines: set[int] | frozenset[int]) -> list[ast.stmt]:
        """Every statement, at any depth, whose own lines hold one of `lines`.

        A targeted descent instead of a walk of the whole tree: big modules
        cost only the statements around the lines the byte filter pointed at.
        """
        wanted = sorted(lines)
        out: list[ast.stmt] = []

        def covers(stmt: ast.stmt) -> bool:
            first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))])
            last = stmt.end_lineno or stmt.lineno
            i = bisect.bisect_left(wanted, first)
            return i < len(wanted) and wanted[i] <= last

        def descend(body: list[ast.stmt]) -> None:
            for stmt in body:
                if covers(stmt):
                    out.append(stmt)
                    for field in _BODY_FIELDS:
                        for child in getattr(stmt, field, ()) or ():
                            if isinstance(child, ast.stmt):
                                descend([child])
                            elif hasattr(child, "body"):  # except handlers, match cases
                                descend(child.body)

        if wanted:
            descend(self.tree.body)
        return out

    @cached_property
    def static_jitted_names(self) -> frozenset[str]:
        """Names (of defs, or assignment targets) that may be jitted with static arguments."""
        out: set[str] = set()
        for node in self.statements_on(self.static_lines):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if any(_has_static_keyword(d) for d in node.decorator_list):
                    out.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                if _has_static_keyword(node.value):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    out.update(n for n in map(_spelled_name, targets) if n)
        return frozenset(out)

    @cached_property
    def sequences(self) -> dict[str, set[str]]:
        """Names assigned a list or tuple display (``branches = [f, g]``) -> names inside it."""
        opening = re.compile(r"=\s*[\[(]")
        lines = {i for i, line in enumerate(self.lines, 1) if opening.search(line)}
        out: dict[str, set[str]] = {}
        for node in self.statements_on(lines):
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Tuple)):
                inner = {n for n in map(_spelled_name, ast.walk(node.value)) if n}
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        out.setdefault(target.id, set()).update(inner)
        return out


def mentions_static_jitted(facts: Facts, node: ast.AST) -> bool:
    """Does the expression name something jitted with static arguments (or jit it inline)?

    A bare name is also followed to a list or tuple it was assigned
    (``lax.switch(i, branches, ...)``).
    """
    names = facts.static_jitted_names
    if isinstance(node, ast.Name) and names & facts.sequences.get(node.id, set()):
        return True
    for inner in ast.walk(node):
        if _spelled_name(inner) in names:
            return True
        if isinstance(inner, ast.Call) and any(k.arg in STATIC_KEYWORDS for k in inner.keywords):
            return True
    return False


def parse(text: str) -> ast.Module | None:
    """The ast, or None when the stdlib parser cannot read it (libcst will say why).

    Newer syntax than this interpreter knows (PEP 695 type parameters, which
    JAX itself uses) is first reduced to something it does know, line for
    line: the screen and the slicer need only names and line numbers.
    """
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        pass
    except (RecursionError, MemoryError):
        return None
    reduced = _without_type_parameters(text)
    if reduced == text:
        return None
    try:
        return ast.parse(reduced)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


_GENERIC = re.compile(r"\b(?:def|class)\s+\w+\s*\[")
_TYPE_ALIAS = re.compile(r"^(\s*)type\s+(\w+)\s*(?:\[[^\]\n]*\])?\s*=", re.MULTILINE)


def _without_type_parameters(text: str) -> str:
    """``def f[T](x)`` -> ``def f(x)``, ``type X[T] = Y`` -> ``X = Y``; newlines kept."""
    text = _TYPE_ALIAS.sub(lambda m: f"{m.group(1)}{m.group(2)} =", text)
    out: list[str] = []
    cursor = 0
    for match in _GENERIC.finditer(text):
        start = match.end() - 1
        if start < cursor:
            continue
        depth, i = 0, start
        while i < len(text):
            if text[i] == "[":
                depth += 1
            elif text[i] == "]":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth != 0 or "\n" in text[start:i]:
            continue
        out.append(text[cursor:start])
        cursor = i + 1
    out.append(text[cursor:])
    return "".join(out)

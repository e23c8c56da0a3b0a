"""What one module offers other modules: its jitted functions and its imports.

A project defines ``@partial(jax.jit, static_argnames=...)`` functions in one
module and uses them in another (``from .model import step``). This summary,
read from the stdlib ast of the defining module, is what the other module's
analysis needs: each top-level function's signature and the static arguments
its jit declares (decorator, ``g = jax.jit(f, ...)``, ``g = partial(jax.jit,
...)(f)``), and the names the module re-exports through its imports (an
``__init__.py`` doing ``from .model import step``). It is plain data, cheap
to build (one stdlib parse of the module's top level), and built at most once
per module per process.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from jaxfix.transforms.core.stdlib_ast import import_bindings
from jaxfix.transforms.project.outline import outline
from jaxfix.transforms.semantics.vocabulary import STATIC_KEYWORDS

_JIT = "jax.jit"
_PARTIAL = "functools.partial"


@dataclass(frozen=True)
class ParamSummary:
    name: str
    kind: str  # "posonly", "pos", "vararg", "kwonly", "varkw"
    default: bool


@dataclass(frozen=True)
class JittedSummary:
    """A top-level function reached through jit, as another module sees it."""

    name: str
    line: int
    params: tuple[ParamSummary, ...]
    #: As written (None: absent); `readable` False when they are not literals.
    argnums: tuple[int, ...] | None
    argnames: tuple[str, ...] | None
    readable: bool
    #: "decorator" or "assignment"
    how: str
    #: The def's own name (differs from `name` for ``g = jax.jit(f)``).
    function: str = ""


@dataclass(frozen=True)
class ModuleSummary:
    jitted: dict[str, JittedSummary]
    #: Local name -> (module as written, imported attribute or None, relative level).
    imports: dict[str, tuple[str, str | None, int]]

    #: Whether the module may declare static arguments (not known here: it may).
    declares_static = True

    def jitted_function(self, name: str) -> JittedSummary | None:
        return self.jitted.get(name)

    def reexport(self, name: str) -> tuple[str, str | None, int] | None:
        """Where the module's import of `name` comes from (None: it imports no such name)."""
        return self.imports.get(name)


EMPTY = ModuleSummary({}, {})


class TextSummary:
    """A module's `ModuleSummary`, parsed only when a question needs it.

    Most modules an import leads to are asked about one name, and most never
    say it (or never say ``jit``): the text answers those without a parse. A
    jit is spelled with ``jit`` somewhere in the module, and a name the module
    binds by an import is written in it.
    """

    def __init__(self, text: str | None) -> None:
        self._text = text or ""
        self._says_jit = "jit" in self._text
        #: Without ``static_arg`` no jit in it has static arguments a rule can read.
        self.declares_static = "static_arg" in self._text
        self._functions: dict[str, JittedSummary | None] = {}

    @functools.cached_property
    def _full(self) -> ModuleSummary:
        """The summary, parsed from the module's outline: the top level is all it reads,
        and bodies are most of a module (`toplevel`). The whole text when there is no
        outline, or (never seen) when the outline does not parse."""
        from jaxfix.transforms.core.stdlib_ast import parse

        reduced = outline(self._text)
        tree = parse(reduced) if reduced is not None else None
        if tree is None:
            tree = parse(self._text)
        return summarize(tree) if tree is not None else EMPTY

    @property
    def jitted(self) -> dict[str, JittedSummary]:
        return self._full.jitted if self._says_jit else {}

    def jitted_function(self, name: str) -> JittedSummary | None:
        known = self._functions
        if name not in known:
            # Only a top-level ``def name`` or ``name = ...`` can be summarized as jitted.
            defined = self._says_jit and name in self._text and _defined_at_top(self._text, name)
            known[name] = self._full.jitted.get(name) if defined else None
        return known[name]

    def reexport(self, name: str) -> tuple[str, str | None, int] | None:
        if name not in self._imported:
            return None
        return self._full.imports.get(name)

    @functools.cached_property
    def _imported(self) -> frozenset[str]:
        """Every name an import statement may bind (any depth, read from the bytes)."""
        from jaxfix.transforms.project.static_names import imported_names

        return imported_names(self._text.encode("utf-8", "surrogatepass"))


def _defined_at_top(text: str, name: str) -> bool:
    """Does a line start with ``def name``, ``async def name`` or ``name =`` / ``name:``?"""
    at = text.find(name)
    while at >= 0:
        line = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
        found = _TOP_DEFINITION.match(text, line)
        if found is not None and (found.group(1) or found.group(2)) == name:
            return True
        at = text.find(name, at + len(name))
    return False


#: One pattern for every name (a pattern per name cost a compilation per name asked about).
_TOP_DEFINITION = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)|(\w+)[ \t]*[:=]")


def summarize(tree: ast.Module) -> ModuleSummary:
    imports = _imports(tree)
    api = _Api(imports)
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    jitted: dict[str, JittedSummary] = {}
    for name, node in defs.items():
        found = _decorator_jit(api, node)
        if found is not None:
            jitted[name] = _summary(node, found, "decorator", name)
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            applied = _jit_application(api, node.value)
            if applied is not None and applied[1] in defs and not defs[applied[1]].decorator_list:
                jitted[node.targets[0].id] = _summary(defs[applied[1]], applied[0], "assignment", node.targets[0].id)
    rebound = _rebound(tree)
    jitted = {name: summary for name, summary in jitted.items() if name not in rebound}
    return ModuleSummary(jitted, imports)


class _Api:
    """Which dotted API a name or attribute chain is, through the module's own imports
    (the local analysis's rule, `jaxapi`, on the stdlib ast: ``jit`` is ``jax.jit`` only
    when imported from jax)."""

    def __init__(self, imports: dict[str, tuple[str, str | None, int]]) -> None:
        self._imports = imports

    def qualified(self, node: ast.expr) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self._imports:
            return None
        module, attribute, level = self._imports[node.id]
        if level:
            return None
        head = f"{module}.{attribute}" if attribute is not None else module
        return ".".join([head, *parts])

    def is_(self, node: ast.expr, api: str) -> bool:
        return self.qualified(node) == api


def _rebound(tree: ast.Module) -> set[str]:
    """Names bound more than once at module level: which binding a caller gets is not known."""
    counts: dict[str, int] = {}
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    return {name for name, count in counts.items() if count > 1}


def _summary(node, keywords: list[ast.keyword] | None, how: str, name: str) -> JittedSummary:
    argnums, argnames, readable = _spec(keywords)
    a = node.args
    params = [
        *(ParamSummary(p.arg, "posonly", False) for p in a.posonlyargs),
        *(ParamSummary(p.arg, "pos", False) for p in a.args),
    ]
    # Defaults belong to the last positional parameters.
    n_defaults = len(a.defaults)
    params = [
        ParamSummary(p.name, p.kind, i >= len(params) - n_defaults) for i, p in enumerate(params)
    ]
    if a.vararg is not None:
        params.append(ParamSummary(a.vararg.arg, "vararg", False))
    for p, default in zip(a.kwonlyargs, a.kw_defaults):
        params.append(ParamSummary(p.arg, "kwonly", default is not None))
    if a.kwarg is not None:
        params.append(ParamSummary(a.kwarg.arg, "varkw", False))
    return JittedSummary(name, node.lineno, tuple(params), argnums, argnames, readable, how, node.name)


def _decorator_jit(api: _Api, node) -> list[ast.keyword] | None:
    """The keywords of the function's jit decorator (empty for a bare ``@jax.jit``); None: not jitted.

    Only the one-decorator case: other decorators may change the signature.
    """
    if len(node.decorator_list) != 1:
        return None
    decorator = node.decorator_list[0]
    if isinstance(decorator, (ast.Name, ast.Attribute)):
        return [] if api.is_(decorator, _JIT) else None
    if isinstance(decorator, ast.Call):
        head = decorator.func
        if api.is_(head, _JIT) and not decorator.args:
            return list(decorator.keywords)  # jax.jit(static_argnums=...)
        if api.is_(head, _PARTIAL) and len(decorator.args) == 1 and api.is_(decorator.args[0], _JIT):
            return list(decorator.keywords)
    return None


def _jit_application(api: _Api, value: ast.expr) -> tuple[list[ast.keyword], str] | None:
    """``jax.jit(f, ...)``, ``partial(jax.jit, ...)(f)``, ``jax.jit(...)(f)``: (keywords, f)."""
    if not isinstance(value, ast.Call):
        return None
    if api.is_(value.func, _JIT):
        if len(value.args) == 1 and isinstance(value.args[0], ast.Name):
            return list(value.keywords), value.args[0].id
        return None
    inner = value.func
    if isinstance(inner, ast.Call) and len(value.args) == 1 and isinstance(value.args[0], ast.Name) and not value.keywords:
        if api.is_(inner.func, _JIT) and not inner.args:
            return list(inner.keywords), value.args[0].id
        if api.is_(inner.func, _PARTIAL) and len(inner.args) == 1 and api.is_(inner.args[0], _JIT):
            return list(inner.keywords), value.args[0].id
    return None


def _spec(keywords: list[ast.keyword] | None) -> tuple[tuple[int, ...] | None, tuple[str, ...] | None, bool]:
    argnums: tuple[int, ...] | None = None
    argnames: tuple[str, ...] | None = None
    for keyword in keywords or ():
        if keyword.arg is None:
            return None, None, False
        if keyword.arg not in STATIC_KEYWORDS:
            continue
        try:
            value = ast.literal_eval(keyword.value)
        except (ValueError, SyntaxError, TypeError):
            return None, None, False
        if value is None:
            continue
        items = tuple(value) if isinstance(value, (tuple, list, set, frozenset)) else (value,)
        if keyword.arg == "static_argnums":
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in items):
                return None, None, False
            argnums = tuple(sorted(items)) if isinstance(value, (set, frozenset)) else items
        else:
            if not all(isinstance(s, str) for s in items):
                return None, None, False
            argnames = items
    return argnums, argnames, True


def _imports(tree: ast.Module) -> dict[str, tuple[str, str | None, int]]:
    """Module-level imports: local name -> (module, attribute or None, relative level)."""
    return import_bindings(tree.body)


#: What `Repository.summary` gives: either answers the same questions.
Summary = ModuleSummary | TextSummary


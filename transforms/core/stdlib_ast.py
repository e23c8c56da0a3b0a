"""The standard library's ast: a parse that pauses the collector and reads newer syntax, and
what a module's import statements bind.

The screen, the slicer and the project index all need these, and none may import another.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from jaxfix.transforms.core.gcpause import collector_paused


def import_pairs(statements: Iterable[ast.AST]) -> Iterator[tuple[str, tuple[str, str | None, int]]]:
    """What the import statements among `statements` bind, in order: (local name, (module
    as written, imported attribute or None, relative level)); star imports bind nothing we can name."""
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    yield alias.asname, (alias.name, None, 0)
                else:
                    top = alias.name.split(".")[0]
                    yield top, (top, None, 0)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, (node.module or "", alias.name, node.level)


def import_bindings(statements: Iterable[ast.AST]) -> dict[str, tuple[str, str | None, int]]:
    """local name -> what the last import among `statements` to bind it binds (`import_pairs`)."""
    return dict(import_pairs(statements))


@collector_paused
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

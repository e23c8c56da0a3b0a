"""The metamorphic variant that splits a program into two modules of one package (issue 19).

The longest head of the program that only imports, defines and binds names (functions, classes,
constants) moves to ``pkg/defs.py``; ``pkg/main.py`` keeps the imports, imports every name the head
binds (``from pkg.defs import grow, shrink, REPEATS``) and runs the rest. Run as ``python -m
pkg.main`` it does what the program did: the head's code refers only to names the head binds, the
imports, and builtins (anything else refuses, `NotApplicable`).
"""

from __future__ import annotations

import builtins

import libcst as cst
from libcst.metadata import MetadataWrapper, ScopeProvider

from .variants import NotApplicable

PACKAGE = "pkg"
HEAD = "defs"
MAIN = "main"

_HEAD_STATEMENTS = (cst.FunctionDef, cst.ClassDef)


def split_module(text: str) -> dict[str, str]:
    """{relative path: text} of the package, or NotApplicable."""
    module = cst.parse_module(text)
    body = list(module.body)
    imports = [s for s in body if _is_import(s)]
    cut = 0
    while cut < len(body) and (_is_import(body[cut]) or _binds_only(body[cut])):
        cut += 1
    head, rest = body[:cut], body[cut:]
    if not any(isinstance(s, _HEAD_STATEMENTS) for s in head):
        raise NotApplicable("no function or class at the head of the program")
    if not rest or any(_is_import(s) for s in rest):
        raise NotApplicable("nothing runs after the head, or it imports again")
    if any(_mentions(s, ("__name__", "__file__", "globals", "global ", "nonlocal ")) for s in body):
        raise NotApplicable("the program reflects on its module")
    bound = _bound_names([s for s in head if not _is_import(s)])
    free = _free_names(module, head)
    if free - bound - _import_names(imports) - set(dir(builtins)):
        raise NotApplicable("the head reads a name the rest binds")
    if not bound:
        raise NotApplicable("the head binds nothing")
    names = ", ".join(sorted(bound))
    defs = module.with_changes(body=head)
    main = module.with_changes(
        header=[],
        body=[
            *imports,
            cst.parse_statement(f"from {PACKAGE}.{HEAD} import {names}\n"),
            *[s.with_changes(leading_lines=s.leading_lines) for s in rest],
        ],
    )
    return {
        f"{PACKAGE}/__init__.py": "",
        f"{PACKAGE}/{HEAD}.py": defs.code,
        f"{PACKAGE}/{MAIN}.py": main.code,
    }


def _is_import(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
    )


def _binds_only(statement: cst.CSTNode) -> bool:
    """A def, a class, or a line of plain ``NAME = value`` assignments whose values call nothing
    (``REPEATS = 2``, ``CONFIG = {"n": 3}``) and no docstring: binding it in another module
    changes nothing."""
    if isinstance(statement, _HEAD_STATEMENTS):
        return True
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets):
            value = small.value
        elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            value = small.value
        else:
            return False
        if _calls_something(value):
            return False
    return True


def _calls_something(node: cst.CSTNode) -> bool:
    found: list[cst.CSTNode] = []

    class Finder(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

        def visit_Lambda(self, lam: cst.Lambda) -> bool:
            return False  # a lambda's body runs when it is called

    node.visit(Finder())
    return bool(found)


def _bound_names(statements: list[cst.CSTNode]) -> set[str]:
    out: set[str] = set()
    for statement in statements:
        if isinstance(statement, _HEAD_STATEMENTS):
            out.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]  # type: ignore[union-attr]
                out.update(t.value for t in targets if isinstance(t, cst.Name))
    return out


def _import_names(imports: list[cst.CSTNode]) -> set[str]:
    out: set[str] = set()
    for statement in imports:
        for small in statement.body:  # type: ignore[attr-defined]
            names = small.names if isinstance(small.names, (list, tuple)) else []
            for alias in names:
                if alias.asname is not None:
                    out.add(alias.asname.name.value)  # type: ignore[union-attr]
                else:
                    out.add(cst.Module([]).code_for_node(alias.name).split(".")[0])
    return out


def _free_names(module: cst.Module, head: list[cst.CSTNode]) -> set[str]:
    """Names read in the head that no scope inside it binds: what the head takes from its module."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    scopes = wrapper.resolve(ScopeProvider)
    module_scope = scopes[module]
    head_nodes: set[int] = set()
    stack = list(head)
    while stack:
        node = stack.pop()
        head_nodes.add(id(node))
        stack.extend(node.children)
    out: set[str] = set()
    for node, scope in scopes.items():
        if not isinstance(node, cst.Name) or id(node) not in head_nodes or scope is None:
            continue
        for access in scope.accesses:
            if access.node is node and not access.referents:
                out.add(node.value)
            elif access.node is node:
                for assignment in access.referents:
                    if getattr(assignment, "scope", None) is module_scope and id(getattr(assignment, "node", None)) not in head_nodes:
                        out.add(node.value)
    return out


def _mentions(statement: cst.CSTNode, words: tuple[str, ...]) -> bool:
    code = cst.Module([]).code_for_node(statement)
    return any(w in code for w in words)

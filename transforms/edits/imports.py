"""How to spell an imported name at a given place, and the import to add if needed.

Emitted code follows the module's own style (DESIGN.md 1): an existing
``from functools import partial as p`` gives ``p``; an existing
``import functools as ft`` gives ``ft.partial``; ``from jax import lax`` gives
``lax.fori_loop``, and a plain ``import jax`` gives ``jax.lax.fori_loop`` for the
submodules the package itself loads (jaxapi.LOADED_WITH_PACKAGE); otherwise one
``from functools import partial`` is added after the module's leading imports.
A name is never added where any scope of the module already binds it (a local
``partial`` would shadow the import): then ``import functools`` is used instead,
and if that name is taken too the caller must refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.statements import is_docstring
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.vocabulary import LOADED_WITH_PACKAGE


@dataclass(frozen=True)
class Spelling:
    text: str
    edit: Edit | None  # the import to add, if any
    added: str | None = None  # the import statement, for messages


if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis


class ImportPlanner:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx

    @cached_property
    def bound_names(self) -> frozenset[str]:
        """Every name bound anywhere in the module, in any scope."""
        return frozenset(a.name for scope in self.ctx.scopes() for a in scope.assignments)

    def spell(self, qualified: str, at: cst.CSTNode) -> Spelling | None:
        """How to refer to `qualified` (``module.attr``) at node `at`."""
        return self._spell(qualified, at, None)

    def spell_aliased(self, qualified: str, at: cst.CSTNode, alias: str) -> Spelling | None:
        """As `spell`, but where the module names `qualified` nowhere, the import added is the
        module under the alias its readers expect (``import numpy as np``, then ``np.cumsum``)
        rather than the bare name (``from numpy import cumsum`` would bind ``cumsum`` for the whole
        module)."""
        return self._spell(qualified, at, alias)

    def _spell(self, qualified: str, at: cst.CSTNode, alias: str | None) -> Spelling | None:
        module, _, attr = qualified.rpartition(".")
        scope = self.ctx.scope(at)
        if scope is None:
            return None
        found = self._spelled(qualified, scope)
        if found is not None:
            return found
        if alias is not None and alias not in self.bound_names:
            statement = f"import {module} as {alias}"
            return Spelling(f"{alias}.{attr}", self._insert(statement), statement)
        if attr not in self.bound_names:
            statement = f"from {module} import {attr}"
            return Spelling(attr, self._insert(statement), statement)
        top = module.split(".")[0]
        if top not in self.bound_names and "." not in module:
            statement = f"import {module}"
            return Spelling(qualified, self._insert(statement), statement)
        return None

    def _spelled(self, qualified: str, scope) -> Spelling | None:
        """`qualified` as a name the module's imports already give in `scope`; None where none does."""
        module, _, attr = qualified.rpartition(".")
        from_imports, module_imports = self._existing(qualified, module)
        resolve = self.ctx.names.target_in_scope
        for local in from_imports:
            if resolve(scope, local) == qualified:
                return Spelling(local, None)
        for local in module_imports:
            if resolve(scope, local) == module:
                return Spelling(f"{local}.{attr}", None)
        for local, package in self._package_imports(module):
            if resolve(scope, local) == package:
                return Spelling(f"{local}{module[len(package):]}.{attr}", None)
        return None

    def _existing(self, qualified: str, module: str) -> tuple[list[str], list[str]]:
        """Local names that module-level and nested imports bind to the object / module."""
        from_names: list[str] = []
        module_names: list[str] = []
        for node in self.ctx.nodes_of(cst.ImportFrom):
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                continue
            source = cst.helpers.get_full_name_for_node(node.module)
            for alias in node.names:
                if f"{source}.{alias.evaluated_name}" == qualified:
                    from_names.append(alias.evaluated_alias or alias.evaluated_name)
                elif f"{source}.{alias.evaluated_name}" == module:  # from jax import lax
                    module_names.append(alias.evaluated_alias or alias.evaluated_name)
        for node in self.ctx.nodes_of(cst.Import):
            for alias in node.names:
                if alias.evaluated_name == module:
                    module_names.append(alias.evaluated_alias or alias.evaluated_name)
        return sorted(set(from_names)), sorted(set(module_names))

    def _package_imports(self, module: str) -> list[tuple[str, str]]:
        """(local name, package) for ``import jax [as j]`` when that package loads `module` itself."""
        if module not in LOADED_WITH_PACKAGE:
            return []
        found: set[tuple[str, str]] = set()
        for node in self.ctx.nodes_of(cst.Import):
            for alias in node.names:
                package = alias.evaluated_name
                if alias.asname is None:
                    package = package.split(".")[0]  # `import jax.numpy` binds `jax`
                if module.startswith(package + "."):
                    found.add((alias.evaluated_alias or package, package))
        return sorted(found)

    def _insert(self, statement: str) -> Edit:
        offset = self._insertion_offset()
        text, newline = self.ctx.text, self.ctx.newline
        if offset == len(text) and text and not text.endswith(("\n", "\r")):
            return Edit(offset, offset, newline + statement + newline)
        return Edit(offset, offset, statement + newline)

    def _insertion_offset(self) -> int:
        """Start of the line after the module's leading imports (after any docstring)."""
        ctx = self.ctx
        body = list(ctx.module.body)
        i = 0
        if body and is_docstring(body[0]):
            i = 1
        last_import = None
        while i < len(body) and _is_import_line(body[i]):
            last_import = body[i]
            i += 1
        if last_import is not None:
            return ctx.lines.line_start(ctx.local_span(last_import).end.line + 1)
        if i < len(body):
            return ctx.lines.line_start(ctx.local_span(body[i]).start.line)
        if body:
            return ctx.lines.line_start(ctx.local_span(body[-1]).end.line + 1)
        return len(ctx.text)


def _is_import_line(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
    )


def planner(analysis: Analysis) -> ImportPlanner:
    """The module's import planner, built once per module and shared by every rule."""
    found = analysis.memo.get("import_planner")
    if found is None:
        found = analysis.memo["import_planner"] = ImportPlanner(analysis.ctx)
    return found  # type: ignore[return-value]


def builtin_spelling(
    analysis: Analysis, name: str, at: cst.CSTNode, *, allow: tuple[str, ...] | None = None
) -> Spelling | None:
    """A builtin such as ``tuple`` or ``range`` spelled at `at`, when nothing in scope shadows it
    (or binds it to one of `allow`'s qualified names); None when something does."""
    scope = analysis.ctx.scope(at)
    if scope is None:
        return None
    if not scope[name]:
        return Spelling(name, None) if name not in planner(analysis).bound_names else None
    return Spelling(name, None) if analysis.ctx.names.target_in_scope(scope, name) in (allow or (f"builtins.{name}",)) else None

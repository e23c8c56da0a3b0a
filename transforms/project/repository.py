"""The other modules of the project, as an analysis may consult them.

Rules stay pure functions of source text: the engine hands them a
`Repository` (files, read on demand, summarized and parsed at most once) and
the `ModuleRef` of the module being analysed. Everything here is resolution:
an import in one module, followed through package ``__init__`` re-exports, to
the module and name that define it.

Resolution is by the project's own layout (a folder with ``__init__.py`` is
a package); a name defined outside the project (jax itself, an installed
library) resolves to nothing, and rules treat it as they always have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from jaxfix.transforms.project.static_names import StaticNames

if TYPE_CHECKING:  # types only: repo_index reads the vocabulary, which imports libcst (see core/lazy.py)
    from jaxfix.transforms.project.repo_index import JittedSummary, Summary

_MAX_HOPS = 8


@dataclass(frozen=True)
class ModuleRef:
    name: str  # dotted ("pkg.model"); for a package, the package's name
    path: str  # as the engine reads it
    package: bool  # an __init__.py
    #: The folder its top-level package (or the module itself) sits in: what
    #: ``sys.path`` must hold to import it by `name`.
    root: str = ""
    #: The project it belongs to (the folder of its pyproject.toml, setup.py,
    #: setup.cfg or .git): imports never lead from one project into another.
    project: str = ""


class Repository(Protocol):
    def module(self, name: str, importer: ModuleRef | None = None) -> ModuleRef | None:
        """The project's module of that dotted name, as `importer` would import it.

        One name may exist under several roots (``examples/a/train.py`` and
        ``examples/b/train.py``): the importer's own root decides, else none.
        """

    def summary(self, ref: ModuleRef) -> Summary:
        """What the module offers others (jitted functions, re-exports)."""

    def text(self, ref: ModuleRef) -> str | None:
        """The module's source text (None when it cannot be read)."""

    def analysis(self, ref: ModuleRef, options: object) -> object | None:
        """That module parsed with libcst, as an `analysis.Analysis` (None when it cannot be)."""

    def modules_importing(self, name: str, definer: ModuleRef) -> list[ModuleRef]:
        """The modules of the definer's project that may use its `name` through an import."""


@dataclass(frozen=True)
class Definition:
    """Where an imported name is defined: a module of the project, and the name in it.

    `attribute` None means the name is the module itself (``import pkg.model as m``).
    """

    module: ModuleRef
    attribute: str | None

    def jitted(self, repo: Repository) -> JittedSummary | None:
        if self.attribute is None:
            return None
        return repo.summary(self.module).jitted_function(self.attribute)


def absolute(importer: ModuleRef, module: str, level: int) -> str | None:
    """The dotted name an import statement's module stands for, from `importer`."""
    if level == 0:
        return module
    base = importer.name if importer.package else importer.name.rpartition(".")[0]
    for _ in range(level - 1):
        if not base:
            return None
        base = base.rpartition(".")[0]
    if not base and level > 0 and not importer.name:
        return None
    return f"{base}.{module}" if module and base else (module or base)


def resolve(
    repo: Repository, importer: ModuleRef, module: str, attribute: str | None, level: int
) -> Definition | None:
    """Follow ``from <module> import <attribute>`` (or ``import <module>``) to its definition."""
    name = absolute(importer, module, level)
    if name is None:
        return None
    return _follow(repo, importer, name, attribute, 0)


def _follow(
    repo: Repository, importer: ModuleRef, module: str, attribute: str | None, hops: int
) -> Definition | None:
    if hops > _MAX_HOPS:
        return None
    if attribute is None:
        ref = repo.module(module, importer)
        return Definition(ref, None) if ref is not None else None
    submodule = repo.module(f"{module}.{attribute}", importer)
    if submodule is not None:
        return Definition(submodule, None)
    ref = repo.module(module, importer)
    if ref is None:
        return None
    summary = repo.summary(ref)
    if summary.jitted_function(attribute) is not None:
        return Definition(ref, attribute)
    reexport = summary.reexport(attribute)
    if reexport is not None:
        target = absolute(ref, reexport[0], reexport[2])
        if target is not None:
            found = _follow(repo, ref, target, reexport[1], hops + 1)
            if found is not None:
                return found
    return Definition(ref, attribute)


def module_attribute(repo: Repository, definition: Definition, attribute: str) -> Definition | None:
    """``m.step`` where ``m`` is a module of the project."""
    if definition.attribute is not None:
        return None
    return _follow(repo, definition.module, definition.module.name, attribute, 0)


@dataclass(frozen=True)
class Project:
    """What the engine knows of the project around one module."""

    repo: Repository
    ref: ModuleRef | None
    #: Functions the project jits with static arguments (any module): a module
    #: that imports one may be a caller the rules must check (pre-filter).
    static_names: StaticNames = StaticNames()
    #: The module may use one of them (the engine knows it from the bytes; None: work it out).
    imports_static_jitted: bool | None = None

    def may_use_static_jitted(self, text: str) -> bool:
        if self.imports_static_jitted is not None:
            return self.imports_static_jitted
        return self.static_names.admits_text(text)

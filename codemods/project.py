"""The project around the files a run covers: module names, summaries, on demand.

Module names come from the folder layout (a folder with ``__init__.py`` is
a package), so ``pkg/model.py`` is ``pkg.model`` wherever the project lives.
A module is read, summarized (`transforms.repo_index`) or parsed with libcst
only when an import in an analysed file leads to it, at most once per
process, and every module consulted is remembered with its content hash:
a cached result that depended on it is stale once that hash changes.

The whole-project first pass is a byte search (`transforms.project_names`):
the functions any module jits with static arguments, so that a file that
only imports one still passes the pre-filter.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from jaxfix.transforms.core.lazy import lazy
from jaxfix.transforms.project.repository import ModuleRef
from jaxfix.transforms.project.static_names import ImportView, StaticNames, import_view

from .discovery import resolved
from .sourcefile import InputError, decode, read_bytes

if TYPE_CHECKING:
    from jaxfix.transforms.project.repo_index import Summary

# Loaded on first use (core/lazy.py): summaries read the vocabulary, which imports libcst, and a
# run whose files the pre-filter drops never asks for one.
repo_index = lazy("jaxfix.transforms.project.repo_index")


def module_refs(files: Iterable[Path]) -> list[ModuleRef]:
    """A ModuleRef for each of the project's .py files, named by the package layout."""
    out: list[ModuleRef] = []
    package_dirs: dict[Path, bool] = {}

    def is_package(folder: Path) -> bool:
        if folder not in package_dirs:
            package_dirs[folder] = (folder / "__init__.py").is_file()
        return package_dirs[folder]

    for path in files:
        if path.suffix != ".py":
            continue
        path = resolved(path)
        parts = [] if path.name == "__init__.py" else [path.stem]
        folder = path.parent
        while is_package(folder):
            parts.insert(0, folder.name)
            folder = folder.parent
        if parts:
            package = path.name == "__init__.py"
            out.append(ModuleRef(".".join(parts), str(path), package, str(folder), project_folder(path.parent)))
    return out


_ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


@functools.lru_cache(maxsize=4096)
def _marked_project(folder: Path) -> Path | None:
    if any((folder / marker).exists() for marker in _ROOT_MARKERS):
        return folder
    return None if folder.parent == folder else _marked_project(folder.parent)


def project_folder(folder: Path) -> str:
    """The project a folder's modules belong to: the nearest folder with a project
    marker at or above it ("" when there is none: one project of unmarked files)."""
    marked = _marked_project(folder)
    return str(marked) if marked is not None else ""


#: How many other modules' libcst analyses a process keeps at once.
_ANALYSES_KEPT = 8


class FileRepository:
    """`transforms.repository.Repository` over files on disk, read lazily."""

    def __init__(self, refs: list[ModuleRef]) -> None:
        self._refs = refs
        self._by_name: dict[str, list[ModuleRef]] = {}
        for ref in refs:
            self._by_name.setdefault(ref.name, []).append(ref)
        self._texts: dict[str, str | None] = {}
        self._summaries: dict[str, Summary] = {}
        self._analyses: dict[tuple[str, object], object | None] = {}
        self._hashes: dict[str, str] = {}  # path -> content hash, of every module read
        self._importers: dict[tuple[str, str, str], list[ModuleRef]] = {}
        self._disk_hashes: dict[str, str | None] = {}
        self._views: dict[str, ImportView | None] = {}
        self._by_word: dict[str, dict[str, list[int]]] = {}
        #: path -> content hash of every module read during the current task.
        self.consulted: dict[str, str] = {}

    def __getstate__(self) -> dict:
        return {"_refs": self._refs}  # caches are per process

    def __hash__(self) -> int:
        return id(self)

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["_refs"])  # type: ignore[misc]

    @property
    def modules(self) -> list[ModuleRef]:
        return self._refs

    def module(self, name: str, importer: ModuleRef | None = None) -> ModuleRef | None:
        project, root = (importer.project, importer.root) if importer is not None else (None, "")
        found = self._lookup(name, project, root)
        # Which module a name means (or that none does) is part of the result too.
        self.consulted[_SEP.join((LOOKUP, project or "", root, name))] = found.path if found is not None else ""
        return found

    def lookup_digest(self, key: str) -> str:
        """What `module` records for a lookup, for checking a cached result."""
        _, project, root, name = key.split(_SEP)
        found = self._lookup(name, project, root)
        return found.path if found is not None else ""

    def _lookup(self, name: str, project: str | None, root: str) -> ModuleRef | None:
        candidates = self._by_name.get(name, ())
        if project is not None:
            candidates = [ref for ref in candidates if ref.project == project]
        if len(candidates) == 1:
            return candidates[0]
        near = [ref for ref in candidates if ref.root == root]
        return near[0] if len(near) == 1 else None

    def text(self, ref: ModuleRef) -> str | None:
        text = self._read(ref)
        self._consult(ref)
        return text

    def _read(self, ref: ModuleRef) -> str | None:
        if ref.path not in self._texts:
            try:
                data = read_bytes(Path(ref.path))
                self._texts[ref.path] = decode(data).text
                self._hashes[ref.path] = content_hash(data)
            except InputError:
                self._texts[ref.path] = None
        return self._texts[ref.path]

    def summary(self, ref: ModuleRef) -> Summary:
        if ref.path not in self._summaries:
            self._summaries[ref.path] = repo_index.TextSummary(self.text(ref))
        self._consult(ref)
        return self._summaries[ref.path]

    def analysis(self, ref: ModuleRef, options):
        """The module parsed with libcst (once per process and options), for following values into it."""
        from jaxfix.transforms import SourceError, parse
        from jaxfix.transforms.semantics.analysis import Analysis
        from jaxfix.transforms.semantics.module import ModuleContext

        memo = self._analyses
        key = (ref.path, options)
        if key in memo:
            memo[key] = memo.pop(key)  # most recently used last
        else:
            text = self.text(ref)
            try:
                memo[key] = Analysis(ModuleContext(text, parse(text), options, None, self, ref)) if text is not None else None
            except SourceError:
                memo[key] = None
            while len(memo) > _ANALYSES_KEPT:
                del memo[next(iter(memo))]  # a libcst tree with its metadata is large: keep a few
        self._consult(ref)
        return memo[key]

    def modules_importing(self, name: str, definer: ModuleRef) -> list[ModuleRef]:
        """The modules of the definer's project that may use its `name` through an import
        (each read once per process; the byte test of `project_names.StaticNames`).

        The result depends on every module (one may start importing the name),
        so what the task consults is the list itself.
        """
        found = self._importing(name, definer.name, definer.project)
        self.consulted[_SEP.join((IMPORTERS, definer.project, definer.name, name))] = importers_digest(found)
        return found

    def importers_digest(self, key: str) -> str:
        """What `modules_importing` records, for checking a cached result."""
        _, project, module, name = key.split(_SEP)
        return importers_digest(self._importing(name, module, project))

    def _importing(self, name: str, module: str, project: str) -> list[ModuleRef]:
        key = (name, module, project)
        if key not in self._importers:
            test = StaticNames({name: frozenset(module.split("."))})
            index = self._mentioning(project)
            candidates = sorted({*index.get(name, ()), *index.get(_ANY_NAME, ())})
            self._importers[key] = [ref for ref in (self._refs[i] for i in candidates) if test.admitted_view(self.import_view(ref))]
        return self._importers[key]

    def _mentioning(self, project: str) -> dict[str, list[int]]:
        """Each word a module's import view holds -> the positions of those modules of the project:
        only they can admit a name of that word (a module with a star import may admit any name it
        mentions: it is listed under `_ANY_NAME`)."""
        if project not in self._by_word:
            index: dict[str, list[int]] = {}
            for position, ref in enumerate(self._refs):
                view = self.import_view(ref) if ref.project == project else None
                if view is None:
                    continue
                for word in (*(view.words | view.attributes), *((_ANY_NAME,) if view.starred else ())):
                    index.setdefault(word, []).append(position)
            self._by_word[project] = index
        return self._by_word[project]

    def import_view(self, ref: ModuleRef, data: bytes | None = None) -> ImportView | None:
        """What `StaticNames` reads of the module, read once per run: a warm run checks which
        modules may import each of hundreds of names, and keeping every module's text instead
        would hold the whole project. `data`: the module's bytes when the caller has read them
        (the engine's first pass asks the same of every file it checks)."""
        if ref.path not in self._views:
            if data is None:
                data = self._raw(ref)
            self._views[ref.path] = import_view(data) if data is not None else None
        return self._views[ref.path]

    def _raw(self, ref: ModuleRef) -> bytes | None:
        try:
            return read_bytes(Path(ref.path))
        except InputError:
            return None

    def disk_hash(self, path: str) -> str | None:
        """The content hash of a file as it is now (once per run), for checking cached results."""
        if path not in self._disk_hashes:
            try:
                self._disk_hashes[path] = content_hash(read_bytes(Path(path)))
            except InputError:
                self._disk_hashes[path] = None
        return self._disk_hashes[path]

    def _consult(self, ref: ModuleRef) -> None:
        """Remember that the current task's result depends on this module's content."""
        if ref.path in self._hashes:
            self.consulted[ref.path] = self._hashes[ref.path]

    def forget(self, path: str) -> None:
        """The file at `path` changed on disk (a long-lived process: the language server): read it
        again when asked. Other modules' analyses may have followed imports into it, and which
        modules import a name depends on every file, so those are dropped too."""
        for memo in (self._texts, self._summaries, self._hashes, self._disk_hashes, self._views):
            memo.pop(path, None)
        self._analyses.clear()
        self._importers.clear()
        self._by_word.clear()

    def take_consulted(self) -> dict[str, str]:
        consulted, self.consulted = self.consulted, {}
        return consulted


#: Consulted entries that are not paths: the list of modules that may import a
#: module's name, and the module a dotted name resolves to from a root.
IMPORTERS = "importers:"
#: `FileRepository._mentioning`'s key for the modules that may admit any name (a star import).
_ANY_NAME = "*"
LOOKUP = "module:"
_SEP = "\x00"


def importers_digest(refs: list[ModuleRef]) -> str:
    return hashlib.blake2b("\n".join(sorted(r.path for r in refs)).encode(), digest_size=16).hexdigest()


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def project_root(paths: Iterable[Path]) -> Path | None:
    """The folder of the project the paths belong to, when they all belong to the same one:
    the nearest folder above them with a pyproject.toml, setup.py, setup.cfg or .git, else
    the folder that holds their top-level package (``python -m pkg.main`` runs from there)."""
    roots: set[Path] = set()
    for path in paths:
        folder = resolved(path) if path.is_dir() else resolved(path).parent
        root = _marked_project(folder)
        if root is None:
            top = folder
            while (top / "__init__.py").is_file():
                top = top.parent
            if top == folder and not path.is_dir():
                return None  # a lone script: it is the program
            root = top
        roots.add(root)
    return roots.pop() if len(roots) == 1 else None

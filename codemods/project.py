"""The project around the files a run covers: module names, summaries, on demand.

Module names come from the folder layout (a folder with ``__init__.py`` is
a package), so ``pkg/model.py`` is ``pkg.model`` wherever the project lives.
A module is read, summarized (`transforms.repo_index`) or parsed with libcst
only when an import in an analysed file leads to it, at most once per
process, and every module consulted is remembered with its content hash:
a cached result that depended on it is stale once that hash changes.

The whole-project first pass is a byte search: the names of the functions
any module jits with static arguments, so that a file that only imports one
still passes the pre-filter.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from transforms import screen
from transforms.repo_index import EMPTY, ModuleSummary, summarize
from transforms.repository import ModuleRef

from .sourcefile import InputError, decode, read_bytes


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
        path = path.resolve()
        parts = [] if path.name == "__init__.py" else [path.stem]
        folder = path.parent
        while is_package(folder):
            parts.insert(0, folder.name)
            folder = folder.parent
        if parts:
            out.append(ModuleRef(".".join(parts), str(path), path.name == "__init__.py", str(folder)))
    return out


_DEF = re.compile(rb"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
_ASSIGNED = re.compile(rb"^[ \t]*(\w+)[ \t]*(?::[^=\n]*)?=[^=]", re.MULTILINE)


def static_jitted_names(data: bytes) -> set[str]:
    """Names a module may jit with static arguments, by a generous byte search.

    For each ``static_arg`` it takes the next ``def NAME`` (a decorator above
    a def) and the name assigned on the statement's line (``g = jax.jit(f,
    static_argnums=...)``); more names than exist only let more files through.
    """
    out: set[str] = set()
    for match in re.finditer(rb"static_arg", data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        assigned = _ASSIGNED.match(data, line_start)
        if assigned is not None:
            out.add(assigned.group(1).decode("ascii", "replace"))
        following = _DEF.search(data, match.start())
        if following is not None:
            out.add(following.group(1).decode("ascii", "replace"))
    return out


class FileRepository:
    """`transforms.repository.Repository` over files on disk, read lazily."""

    def __init__(self, refs: list[ModuleRef]) -> None:
        self._refs = refs
        self._by_name: dict[str, list[ModuleRef]] = {}
        for ref in refs:
            self._by_name.setdefault(ref.name, []).append(ref)
        self._texts: dict[str, str | None] = {}
        self._summaries: dict[str, ModuleSummary] = {}
        self._analyses: dict[tuple[str, object], object | None] = {}
        self._hashes: dict[str, str] = {}  # path -> content hash, of every module read
        self._mentions: dict[str, list[ModuleRef]] = {}
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
        root = importer.root if importer is not None else ""
        found = self._lookup(name, root)
        # Which module a name means (or that none does) is part of the result too.
        self.consulted[f"{LOOKUP}{root}:{name}"] = found.path if found is not None else ""
        return found

    def lookup_digest(self, key: str) -> str:
        """What `module` records for a lookup (`LOOKUP` + root:name), for checking a cached result."""
        root, _, name = key.removeprefix(LOOKUP).rpartition(":")
        found = self._lookup(name, root)
        return found.path if found is not None else ""

    def _lookup(self, name: str, root: str) -> ModuleRef | None:
        candidates = self._by_name.get(name, ())
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

    def summary(self, ref: ModuleRef) -> ModuleSummary:
        if ref.path not in self._summaries:
            text = self.text(ref)
            tree = screen.parse(text) if text is not None else None
            self._summaries[ref.path] = summarize(tree) if tree is not None else EMPTY
        self._consult(ref)
        return self._summaries[ref.path]

    def analysis(self, ref: ModuleRef, options):
        """The module parsed with libcst (once per process and options), for following values into it."""
        from transforms import SourceError, parse
        from transforms.analysis import Analysis
        from transforms.context import ModuleContext

        memo = self._analyses
        key = (ref.path, options)
        if key not in memo:
            text = self.text(ref)
            try:
                memo[key] = Analysis(ModuleContext(text, parse(text), options, None, self, ref)) if text is not None else None
            except SourceError:
                memo[key] = None
        self._consult(ref)
        return memo[key]

    def modules_mentioning(self, word: str) -> list[ModuleRef]:
        """Every module of the project whose text has the word (each read once per process).

        The result depends on every module (one may start mentioning the word),
        so what the task consults is the list itself: `MENTIONS` + word.
        """
        found = self._mentioning(word)
        self.consulted[MENTIONS + word] = mention_digest(found)
        return found

    def mention_digest(self, word: str) -> str:
        """What `modules_mentioning` records for the word, for checking a cached result."""
        return mention_digest(self._mentioning(word))

    def _mentioning(self, word: str) -> list[ModuleRef]:
        if word not in self._mentions:
            pattern = re.compile(rf"\b{re.escape(word)}\b")
            self._mentions[word] = [
                ref for ref in self._refs if (text := self._read(ref)) is not None and pattern.search(text)
            ]
        return self._mentions[word]

    def _consult(self, ref: ModuleRef) -> None:
        """Remember that the current task's result depends on this module's content."""
        if ref.path in self._hashes:
            self.consulted[ref.path] = self._hashes[ref.path]

    def take_consulted(self) -> dict[str, str]:
        consulted, self.consulted = self.consulted, {}
        return consulted


#: Consulted entries that are not paths: the list of modules mentioning a word,
#: and the module a dotted name resolves to from a root.
MENTIONS = "mentions:"
LOOKUP = "module:"


def mention_digest(refs: list[ModuleRef]) -> str:
    return hashlib.blake2b("\n".join(sorted(r.path for r in refs)).encode(), digest_size=16).hexdigest()


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


_ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


def project_root(paths: Iterable[Path]) -> Path | None:
    """The folder of the project the paths belong to, when they all belong to the same one:
    the nearest folder above them with a pyproject.toml, setup.py, setup.cfg or .git, else
    the folder that holds their top-level package (``python -m pkg.main`` runs from there)."""
    roots: set[Path] = set()
    for path in paths:
        folder = path.resolve() if path.is_dir() else path.resolve().parent
        root = next((f for f in (folder, *folder.parents) if any((f / m).exists() for m in _ROOT_MARKERS)), None)
        if root is None:
            top = folder
            while (top / "__init__.py").is_file():
                top = top.parent
            if top == folder and not path.is_dir():
                return None  # a lone script: it is the program
            root = top
        roots.add(root)
    return roots.pop() if len(roots) == 1 else None

"""Which files a run covers.

Explicit files are always taken. Folders are walked for ``*.py`` files,
skipping version-control, cache, build and virtual-env folders; inside a git
work tree, git itself decides what is ignored (``git ls-files --cached
--others --exclude-standard``), so .gitignore, .git/info/exclude and global
excludes are honoured exactly, and a submodule (any folder with its own
``.git``) by its own listing. Symbolic links are never followed out of the
folder being walked, and a link is never what gets rewritten: a link to a
file inside the tree stands for that file. A folder that cannot be listed is
reported, not skipped in silence.
"""

from __future__ import annotations

import errno
import functools
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from jaxfix.transforms.core.lazy import lazy

from .git import git_command

# Loaded on first use (core/lazy.py): only git needs it, and a run over files named on the command
# line outside a work tree never starts git.
subprocess = lazy("subprocess")

SUFFIXES = (".py", ".ipynb")
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        ".eggs",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        ".jaxfix_cache",
    }
)


def _is_venv(folder: Path) -> bool:
    try:
        return (folder / "pyvenv.cfg").is_file()
    except OSError:
        return False  # cannot look inside: the walk reports the folder when it cannot list it


def _git_files(root: Path) -> set[Path] | None:
    """Files git does not ignore under root, or None when root is not in a work tree."""
    try:
        out = subprocess.run(
            git_command("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."),
            cwd=root,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    # The folder resolved, the name as git lists it: a tracked link stands for itself, not
    # its target (the target must be listed on its own to be taken).
    base = _real(root)
    return {base / name for name in out.decode("utf-8", "surrogateescape").split("\0") if name}


#: Paths discovery could not look into, with why (a folder it cannot list): the engine
#: reports each as an error result of its own instead of leaving it out silently.
_PROBLEMS: dict[Path, str] = {}


def problem(path: Path) -> str | None:
    """Why discovery could not look into this path (None: nothing wrong)."""
    return _PROBLEMS.get(path)


#: Links discovery passed by, with why: not errors, but no file is left out unsaid.
_PASSED_BY: dict[Path, str] = {}


def passed_by() -> list[tuple[Path, str]]:
    """The symbolic links the last `discover` did not follow, with why."""
    return sorted(_PASSED_BY.items())


def _real(path: Path) -> Path:
    """``path.resolve()`` that survives a link loop (resolve raises RuntimeError on one)."""
    return Path(os.path.realpath(path))


def _loops(link: Path) -> bool:
    try:
        os.stat(link)
    except OSError as error:
        return error.errno == errno.ELOOP
    return False


def _has_git(folder: Path) -> bool:
    try:
        return os.path.lexists(folder / ".git")
    except OSError:
        return False


def _walk(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    """Source files under root, each as a path under root.

    A link to a file inside root stands for its target (named under root), so the
    target is read and written, never the link; a link out of root is passed by.
    A folder with its own ``.git`` (a submodule, a nested clone) is filtered by its
    own git listing. A folder that cannot be listed is recorded (`problem`).
    """
    real_root = _real(root)
    listings: dict[Path, set[Path] | None] = {}

    def listing(repo: Path) -> set[Path] | None:
        if repo not in listings:
            listings[repo] = _git_files(repo)
        return listings[repo]

    def unlistable(error: OSError) -> None:
        where = Path(error.filename) if error.filename else root
        _PROBLEMS[where] = f"cannot list this folder: {error.strerror or error}; its files were not checked"
        _found.append(where)

    _found: list[Path] = []
    repos: dict[Path, Path] = {}  # folder -> the folder whose git listing decides for it
    for folder, dirs, files in os.walk(root, onerror=unlistable):
        yield from _found
        _found.clear()
        here = Path(folder)
        repo = repos.pop(here, root)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIP_DIRS
            and not d.endswith(".egg-info")
            and not (here / d).is_symlink()
            and not _is_venv(here / d)
        )
        for d in dirs:
            repos[here / d] = here / d if _has_git(here / d) else repo
        tracked = listing(repo)
        for name in sorted(files):
            if not name.endswith(suffixes):
                continue
            path = here / name
            if path.is_symlink():
                if _loops(path):
                    yield path  # reading it says so: one error line, not a traceback
                    continue
                target = _real(path)
                if not target.is_relative_to(real_root):
                    _PASSED_BY[path] = "a symbolic link to a file outside the folder walked: not followed"
                    continue
                link, path = path, root / target.relative_to(real_root)
                if not path.exists():
                    _PASSED_BY[link] = "a dangling symbolic link: skipped"
                    continue
                if tracked is not None and resolved(path) not in tracked:
                    _PASSED_BY[link] = "a symbolic link to a file git ignores: not followed"
                    continue
            if tracked is not None and resolved(path) not in tracked:
                continue
            yield path
    yield from _found


@functools.lru_cache(maxsize=65536)
def _resolved_folder(folder: Path, cwd: str) -> Path:
    return _real(folder)  # `cwd` is only part of the key: a relative folder depends on it


def resolved(path: Path) -> Path:
    """``path.resolve()``, each folder resolved once per run: a file that is not a symbolic
    link resolves to its folder's resolution and its own name. (A resolve walks every
    component with lstat; three per file were a fifth of the main process's time.)"""
    if path.name in ("", ".", "..") or path.is_symlink():
        return _real(path)
    folder = path.parent
    return _resolved_folder(folder, "" if folder.is_absolute() else os.getcwd()) / path.name


def forget_resolved() -> None:
    """A new run: folders may have been moved or linked since the last one."""
    _resolved_folder.cache_clear()


def _explicit(path: Path) -> Path:
    """A file named on the command line; a link to a file inside the current folder stands
    for its target (the link itself is never rewritten), a link elsewhere stays a link
    (read when checked; never written)."""
    if not path.is_symlink():
        return path
    target = _real(path)
    here = _real(Path.cwd())
    if target.is_relative_to(here) and target.is_file():
        return target.relative_to(here) if not path.is_absolute() else target
    return path


def discover(paths: Iterable[Path], suffixes: tuple[str, ...] = SUFFIXES) -> list[Path]:
    """Files to process, each once, in a stable order; missing paths are kept so they get reported."""
    forget_resolved()
    _PROBLEMS.clear()
    _PASSED_BY.clear()
    seen: set[Path] = set()
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = list(_walk(path, suffixes))
        else:
            found = [_explicit(path)]
        for p in found:
            key = resolved(p)
            if key not in seen:
                seen.add(key)
                out.append(p)
    return out

"""Which files a run covers.

Explicit files are always taken. Folders are walked for ``*.py`` files,
skipping version-control, cache, build and virtual-env folders; inside a git
work tree, git itself decides what is ignored (``git ls-files --cached
--others --exclude-standard``), so .gitignore, .git/info/exclude and global
excludes are honoured exactly. Symbolic links are never followed out of the
folder being walked.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from jaxfix.transforms.core.lazy import lazy

from .vcs import git_command

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
    return (folder / "pyvenv.cfg").is_file()


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
    return {(root / name).resolve() for name in out.decode("utf-8", "surrogateescape").split("\0") if name}


def _walk(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    real_root = root.resolve()
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIP_DIRS
            and not d.endswith(".egg-info")
            and not (here / d).is_symlink()
            and not _is_venv(here / d)
        )
        for name in sorted(files):
            path = here / name
            if not name.endswith(suffixes):
                continue
            if path.is_symlink() and not path.resolve().is_relative_to(real_root):
                continue
            yield path


@functools.lru_cache(maxsize=65536)
def _resolved_folder(folder: Path, cwd: str) -> Path:
    return folder.resolve()  # `cwd` is only part of the key: a relative folder depends on it


def resolved(path: Path) -> Path:
    """``path.resolve()``, each folder resolved once per run: a file that is not a symbolic
    link resolves to its folder's resolution and its own name. (A resolve walks every
    component with lstat; three per file were a fifth of the main process's time.)"""
    if path.name in ("", ".", "..") or path.is_symlink():
        return path.resolve()
    folder = path.parent
    return _resolved_folder(folder, "" if folder.is_absolute() else os.getcwd()) / path.name


def forget_resolved() -> None:
    """A new run: folders may have been moved or linked since the last one."""
    _resolved_folder.cache_clear()


def discover(paths: Iterable[Path], suffixes: tuple[str, ...] = SUFFIXES) -> list[Path]:
    """Files to process, each once, in a stable order; missing paths are kept so they get reported."""
    forget_resolved()
    seen: set[Path] = set()
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            tracked = _git_files(path)
            found = [
                p
                for p in _walk(path, suffixes)
                if tracked is None or resolved(p) in tracked
            ]
        else:
            found = [path]
        for p in found:
            key = resolved(p)
            if key not in seen:
                seen.add(key)
                out.append(p)
    return out

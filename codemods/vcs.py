"""What version control says about the files a writing command would rewrite.

Every writing command (``migrate``, ``diff --interactive``) applies one rule,
cargo fix's: a file is rewritten only when git has a committed version of it
that its working copy equals, so every rewrite can be seen with ``git diff``
and undone with ``git checkout``. A file with uncommitted changes (modified,
staged, untracked, or ignored: the last two have no committed version at all)
needs ``--allow-dirty``; a file outside any git work tree needs
``--allow-no-vcs``. When git cannot answer (not installed, or it refuses the
repository, as for "dubious ownership"), the file is refused with git's
reason: a guard that cannot tell must not wave a file through.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jaxfix.transforms.core.lazy import lazy

from .discovery import resolved
from .git import git_command

# Loaded on first use (core/lazy.py): only git needs it, and a run over files named on the command
# line outside a work tree never starts git.
subprocess = lazy("subprocess")

#: Paths per ``git status`` call (an argument list stays far below any system limit).
_CHUNK = 400


@dataclass
class TreeState:
    """The files that may not be rewritten without a flag, each with the reason."""

    #: Uncommitted changes, or no committed version (untracked, ignored): --allow-dirty.
    dirty: dict[Path, str] = field(default_factory=dict)
    #: In no git work tree: --allow-no-vcs.
    no_vcs: list[Path] = field(default_factory=list)
    #: git could not tell: --allow-dirty (the user takes the risk knowingly).
    unknown: dict[Path, str] = field(default_factory=dict)


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(git_command(*args), cwd=cwd, capture_output=True, timeout=120)


def _first_line(data: bytes) -> str:
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[0] if lines else "no message"


def _marked_repository(folder: Path) -> Path | None:
    """The nearest folder at or above this one holding a ``.git`` (a work tree, a submodule)."""
    for candidate in (folder, *folder.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def _toplevel(folder: Path) -> tuple[Path | None, str | None]:
    """(work tree top, None), (None, None) outside git, or (None, why git cannot tell)."""
    marked = _marked_repository(folder)
    if marked is None and not os.environ.get("GIT_DIR"):
        return None, None
    try:
        answer = _git(["rev-parse", "--show-toplevel"], folder)
    except FileNotFoundError:
        return None, "git is not installed or not on PATH, and the folder is in a git work tree"
    except (OSError, subprocess.SubprocessError) as error:
        return None, f"git did not answer: {error}"
    if answer.returncode != 0:
        message = _first_line(answer.stderr)
        if "dubious ownership" in message:
            return None, f"git refuses the repository ({message.removeprefix('fatal: ')}; see `git config safe.directory`)"
        return None, f"git cannot read the repository: {message.removeprefix('fatal: ')}"
    top = answer.stdout.decode("utf-8", "surrogateescape").strip()
    return resolved(Path(top)) if top else None, None if top else "git gave no work tree"


def _reason(status: str) -> str | None:
    if status == "??":
        return "untracked: no committed version"
    if status == "!!":
        return "ignored by git: no committed version"
    if status[0] not in " ?!" and status[1] not in " ?!":
        return "staged and uncommitted changes"
    if status[0] not in " ?!":
        return "staged changes not committed"
    if status[1] not in " ?!":
        return "uncommitted changes"
    return None


def _status(top: Path, files: list[Path]) -> tuple[dict[Path, str], str | None]:
    """The files' reasons to be refused (clean files are absent), or why git could not say."""
    dirty: dict[Path, str] = {}
    for start in range(0, len(files), _CHUNK):
        chunk = files[start : start + _CHUNK]
        names = [os.path.relpath(f, top) for f in chunk]
        try:
            answer = _git(
                ["--literal-pathspecs", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=traditional",
                 "--", *names],
                top,
            )
        except (OSError, subprocess.SubprocessError) as error:
            return dirty, f"git status did not answer: {error}"
        if answer.returncode != 0:
            return dirty, f"git status failed: {_first_line(answer.stderr).removeprefix('fatal: ')}"
        wanted = set(chunk)
        entries = answer.stdout.decode("utf-8", "surrogateescape").split("\0")
        i = 0
        while i < len(entries):
            entry = entries[i]
            i += 1
            if len(entry) < 4:
                continue
            status, name = entry[:2], entry[3:]
            if status[0] in "RC":
                i += 1  # the next field is the rename's source
            reason = _reason(status)
            if reason is None:
                continue
            if name.endswith("/"):  # a whole folder (untracked or ignored): every file of ours in it
                folder = resolved(top / name.rstrip("/"))
                dirty.update((f, reason) for f in wanted if f.is_relative_to(folder))
                continue
            candidate = resolved(top / name)
            if candidate in wanted:
                dirty[candidate] = reason
    return dirty, None


def tree_state(paths: Iterable[Path]) -> TreeState:
    """What git says about each path (missing paths are left to the run to report)."""
    state = TreeState()
    by_folder: dict[Path, list[tuple[Path, Path]]] = {}
    for path in paths:
        if not os.path.lexists(path):
            continue
        real = resolved(path)
        by_folder.setdefault(real.parent, []).append((path, real))
    by_top: dict[Path, list[tuple[Path, Path]]] = {}
    tops: dict[Path, tuple[Path | None, str | None]] = {}
    for folder, members in by_folder.items():
        marked = _marked_repository(folder)
        key = marked if marked is not None else folder
        if key not in tops:
            tops[key] = _toplevel(folder)
        top, trouble = tops[key]
        if trouble is not None:
            state.unknown.update((shown, trouble) for shown, _ in members)
        elif top is None:
            state.no_vcs.extend(shown for shown, _ in members)
        else:
            by_top.setdefault(top, []).extend(members)
    for top, members in by_top.items():
        dirty, trouble = _status(top, [real for _, real in members])
        for shown, real in members:
            if trouble is not None:
                state.unknown[shown] = trouble
            elif real in dirty:
                state.dirty[shown] = dirty[real]
    return state


def dirty_files(paths: Iterable[Path]) -> set[Path]:
    """Files among paths git would not let a writing command rewrite without --allow-dirty
    (resolved paths): modified, staged, untracked or ignored, or in a repository git cannot read."""
    state = tree_state(paths)
    return {resolved(p) for p in (*state.dirty, *state.unknown)}

"""Which files have changes git has not committed (for ``migrate``'s safety check)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from jaxfix.transforms.core.lazy import lazy

# Loaded on first use (core/lazy.py): only git needs it, and a run over files named on the command
# line outside a work tree never starts git.
subprocess = lazy("subprocess")

#: What a checkout's own configuration could make git run or write, switched off for every git
#: command jaxfix runs: the repository being read may not be the user's own (a pull request, a
#: downloaded project), and its .git/config is as untrusted as its code.
#:   core.fsmonitor=false      a configured fsmonitor is a program git runs on status, diff, ls-files
#:   core.hooksPath=/dev/null  no hooks (post-index-change runs when status refreshes the index)
#:   --no-optional-locks       read-only: status and diff do not write the index back
#:   protocol.ext.allow=never  a lazy fetch (partial clone) never runs an ext:: transport command
#: safe.directory, core.quotePath and the rest of the user's own configuration are left as they are;
#: the diff's external drivers and textconv are refused by its own flags (review.changed_lines).
HARDENING = (
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "protocol.ext.allow=never",
)


def git_command(*args: str) -> list[str]:
    """The argv that runs ``git args...`` with the checkout's configuration unable to run anything."""
    return ["git", *HARDENING, *args]


def dirty_files(paths: Iterable[Path]) -> set[Path]:
    """Files among paths that are modified, staged, or untracked in their git work tree.

    Files outside any work tree (or where git is missing) are not dirty: there
    is nothing to compare with.
    """
    by_folder: dict[Path, list[Path]] = {}
    for path in paths:
        by_folder.setdefault(path.resolve().parent, []).append(path.resolve())
    dirty: set[Path] = set()
    for folder, files in by_folder.items():
        try:
            out = subprocess.run(
                git_command("status", "--porcelain", "-z", "--untracked-files=all", "--", *(f.name for f in files)),
                cwd=folder,
                capture_output=True,
                check=True,
                timeout=60,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        try:
            top = Path(
                subprocess.run(
                    git_command("rev-parse", "--show-toplevel"), cwd=folder, capture_output=True, check=True, text=True
                ).stdout.strip()
            ).resolve()
        except (OSError, subprocess.SubprocessError):
            continue
        entries = out.decode("utf-8", "surrogateescape").split("\0")
        wanted = set(files)
        i = 0
        while i < len(entries):
            entry = entries[i]
            i += 1
            if len(entry) < 4:
                continue
            status, name = entry[:2], entry[3:]
            if status[0] in "RC":
                i += 1  # the next field is the rename's source
            candidate = (top / name).resolve()
            if candidate in wanted:
                dirty.add(candidate)
    return dirty

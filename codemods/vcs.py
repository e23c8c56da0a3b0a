"""Which files have changes git has not committed (for ``migrate``'s safety check)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path


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
                ["git", "status", "--porcelain", "-z", "--untracked-files=all", "--", *(f.name for f in files)],
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
                    ["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, check=True, text=True
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

"""Unified diffs that ``git apply`` accepts (a/ and b/ prefixes, no-newline markers)."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

_NO_NEWLINE = "\\ No newline at end of file\n"


def display_path(path: Path) -> str:
    """The path relative to the working folder when it is under it, with / separators."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = str(path)
    if rel.startswith(".." + os.sep) or rel == "..":
        rel = str(path)
    return Path(rel).as_posix()


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) if text else []


def unified_diff(before: str, after: str, path: Path, context: int = 3) -> str:
    if before == after:
        return ""
    name = display_path(path)
    a, b = _lines(before), _lines(after)
    out: list[str] = []
    for line in difflib.unified_diff(a, b, f"a/{name}", f"b/{name}", n=context):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\r\n") + "\n")
            continue
        if line.endswith(("\n", "\r")):
            out.append(line)
        else:
            out.append(line + "\n" + _NO_NEWLINE)
    return "".join(out)

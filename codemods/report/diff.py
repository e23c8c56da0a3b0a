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


# -- the patch `jaxfix diff` prints: bytes git accepts -------------------------------------------

#: The C-style escapes git uses in quoted path names (quote.c); other odd bytes are octal.
_ESCAPES = {0x07: b"\\a", 0x08: b"\\b", 0x09: b"\\t", 0x0A: b"\\n", 0x0B: b"\\v", 0x0C: b"\\f", 0x0D: b"\\r",
            0x22: b'\\"', 0x5C: b"\\\\"}


def quote_path(name: str) -> bytes:
    """A path as git writes it in a patch header: as is, or in double quotes with C escapes
    when it holds a control character, a quote, a backslash or a non-ASCII byte."""
    raw = os.fsencode(name)
    if not any(b < 0x20 or b >= 0x7F or b in (0x22, 0x5C) for b in raw):
        return raw
    out = bytearray(b'"')
    for b in raw:
        if b in _ESCAPES:
            out += _ESCAPES[b]
        elif b < 0x20 or b >= 0x7F:
            out += b"\\%03o" % b
        else:
            out.append(b)
    out += b'"'
    return bytes(out)


def _byte_lines(data: bytes) -> list[bytes]:
    """Lines as git counts them: each ends at b"\\n" (a lone \\r, a form feed, U+2028 are content)."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    return out + [lines[-1]] if lines[-1] else out


def file_bytes(text: str, encoding: str) -> bytes:
    """The file's bytes for its text: its own encoding, its BOM included."""
    return text.encode(encoding)


def patch_base(paths: list[Path]) -> tuple[Path, str | None]:
    """The folder a patch's names are relative to, and a note when it is not the current one.

    Names with ``..`` are refused by ``git apply`` ("invalid path"), so a patch that
    reaches out of the current folder is written relative to the repository the
    current folder is in (or else the folders' common ancestor), and says where to apply it.
    """
    here = Path(os.path.abspath(os.getcwd()))
    absolute = [Path(os.path.abspath(p)) for p in paths]
    if all(p.is_relative_to(here) for p in absolute):
        return here, None
    from ..git import work_tree_top

    base = work_tree_top(here)
    if base is None or not all(p.is_relative_to(base) for p in absolute):
        base = Path(os.path.commonpath([str(p.parent) for p in absolute]))
    return base, f"the patch's paths are relative to {base}; apply it there: git -C {base} apply"


def patch(before: str, after: str, name: str, encoding: str, context: int = 3) -> bytes:
    """One file's part of a patch ``git apply`` accepts, in the file's own bytes.

    `name` is the path relative to the patch's base (posix). The hunks carry the
    file's bytes (a BOM on line 1, latin-1 context lines), and the names are
    quoted as git quotes them, so no file name or encoding breaks the patch.
    """
    if before == after:
        return b""
    a, b = _byte_lines(file_bytes(before, encoding)), _byte_lines(file_bytes(after, encoding))
    old, new = quote_path(f"a/{name}"), quote_path(f"b/{name}")
    out = [b"diff --git " + old + b" " + new + b"\n", b"--- " + old + b"\n", b"+++ " + new + b"\n"]
    hunks = difflib.diff_bytes(difflib.unified_diff, a, b, b"", b"", n=context)
    next(hunks), next(hunks)  # its own --- and +++ lines (a removed "-- x" line also starts with ---)
    for line in hunks:
        if line.endswith(b"\n"):
            out.append(line)
        else:
            out.append(line + b"\n" + _NO_NEWLINE.encode())
    return b"".join(out)

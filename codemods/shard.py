"""``--shard K/N``: one part of a run, for a CI matrix of N jobs over one repository.

The split is deterministic (the same files on every machine of the matrix give
every job the same part, whatever order they were named in) and balanced by
bytes, which is what analysis time follows: files are dealt biggest first,
each to the part with the fewest bytes so far (ties: the lower part, then
the path), so no part ends with many more bytes than another.

Only the files reported or fixed are split. The project a file belongs to is
still found from every file of the run, and imports still read the other
modules, so a file's findings do not depend on which part it lands in.
"""

from __future__ import annotations

import heapq
import os
import re
from pathlib import Path

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse(value: str) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4); K counts from 1, as CI matrices number their jobs."""
    match = _SHARD.match(value)
    if not match:
        raise ValueError(f"{value!r} is not K/N (e.g. 1/4)")
    part, parts = int(match.group(1)), int(match.group(2))
    if parts < 1 or not 1 <= part <= parts:
        raise ValueError(f"{value!r}: K must be between 1 and N")
    return part, parts


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _name(path: Path) -> str:
    """How a file is told apart from the others: its path relative to the current folder, / separated."""
    return Path(os.path.relpath(os.path.abspath(path))).as_posix()


def assign(files: list[Path], parts: int) -> dict[Path, int]:
    """Each file's part (1..parts)."""
    order = sorted(set(files), key=lambda p: (-_size(p), _name(p)))
    loads = [(0, part) for part in range(1, parts + 1)]
    heapq.heapify(loads)
    out: dict[Path, int] = {}
    for path in order:
        load, part = heapq.heappop(loads)
        out[path] = part
        heapq.heappush(loads, (load + _size(path), part))
    return out


def select(files: list[Path], part: int, parts: int) -> list[Path]:
    """The files of part `part` of `parts`, in the order given."""
    where = assign(files, parts)
    return [path for path in files if where[path] == part]

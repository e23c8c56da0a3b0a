"""The one dirty-tree rule of every writing command, and the record of what jaxfix wrote.

`refusal` says why a run must not write (nothing: it may). The rule is
cargo fix's (see `vcs`): dirty files need ``--allow-dirty``, files outside
git ``--allow-no-vcs``, files git cannot answer for ``--allow-dirty``.

A second ``migrate`` right after a first one finds the first one's rewrites
uncommitted, and refuses them like any other change: jaxfix cannot prove
that nobody edited them since. What it can say is which dirty files hold
exactly the bytes it wrote there last (`WriteRecord`, kept beside the
result cache), so the refusal names them as its own rewrites waiting to be
reviewed and committed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from .discovery import resolved
from .report.diff import display_path
from .vcs import tree_state

#: Files remembered at most (the oldest are forgotten first).
_KEPT = 20000


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class WriteRecord:
    """Which bytes jaxfix last wrote to which file (absolute resolved path -> digest, time)."""

    def __init__(self, folder: Path | None) -> None:
        self._path = folder / "written.json" if folder is not None else None

    def _load(self) -> dict[str, list]:
        if self._path is None:
            return {}
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)}

    def remember(self, written: Iterable[tuple[Path, bytes]]) -> None:
        if self._path is None:
            return
        entries = self._load()
        now = int(time.time())
        for path, data in written:
            key = str(resolved(path))
            entries.pop(key, None)
            entries[key] = [_digest(data), now]
        kept = dict(list(entries.items())[-_KEPT:])
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self._path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(kept, handle)
            os.replace(tmp, self._path)
        except OSError:
            pass  # only the refusal's wording depends on it

    def ours(self, paths: Iterable[Path]) -> set[Path]:
        """The paths whose bytes on disk are exactly what jaxfix last wrote to them."""
        entries = self._load()
        out = set()
        for path in paths:
            entry = entries.get(str(resolved(path)))
            if entry is None:
                continue
            try:
                if _digest(path.read_bytes()) == entry[0]:
                    out.add(path)
            except OSError:
                continue
        return out


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def refusal(
    files: Sequence[Path], *, allow_dirty: bool, allow_no_vcs: bool, record: WriteRecord | None = None
) -> list[str]:
    """What to print when the run must not write anything (empty: it may write)."""
    if allow_dirty and allow_no_vcs:
        return []
    state = tree_state(files)
    lines: list[str] = []
    if state.unknown and not allow_dirty:
        reasons = sorted(set(state.unknown.values()))
        lines.append(
            f"error: cannot tell whether {_plural(len(state.unknown), 'file has', 'files have')} uncommitted "
            f"changes: {'; '.join(reasons)}. Fix that, or pass --allow-dirty to rewrite anyway:"
        )
        lines.extend(f"  {display_path(p)}" for p in sorted(state.unknown))
    if state.dirty and not allow_dirty:
        ours = record.ours(state.dirty) if record is not None else set()
        lines.append(
            f"error: {_plural(len(state.dirty), 'file has', 'files have')} no committed version to go back to "
            "(commit or stash, or pass --allow-dirty):"
        )
        for path in sorted(state.dirty):
            why = state.dirty[path]
            if path in ours:
                why += "; it holds what jaxfix wrote there last: review and commit that rewrite first"
            lines.append(f"  {display_path(path)} ({why})")
        if not ours and any(not why.endswith("no committed version") for why in state.dirty.values()):
            lines.append("  (the rewrites of an earlier `jaxfix migrate` count as changes too until they are committed)")
    if state.no_vcs and not allow_no_vcs:
        lines.append(
            f"error: {_plural(len(state.no_vcs), 'file is', 'files are')} in no git work tree, so a rewrite could "
            "not be undone from version control; pass --allow-no-vcs to rewrite anyway:"
        )
        shown = sorted(state.no_vcs)
        lines.extend(f"  {display_path(p)}" for p in shown[:20])
        if len(shown) > 20:
            lines.append(f"  ... and {len(shown) - 20} more")
    return lines


def record_for(cache_dir: Path | None) -> WriteRecord:
    """The record beside the result cache (none with --no-cache: nothing is kept then)."""
    return WriteRecord(cache_dir)


def clear_to_write(files: Sequence[Path], *, allow_dirty: bool, allow_no_vcs: bool, record: WriteRecord) -> list[str]:
    """The refusal (non-empty: write nothing), else the notes on stale temporaries removed.

    Only a run that may write cleans up: the temporary files a killed writer left
    in the folders it is about to write in (`writer.remove_stale_temporaries`).
    """
    lines = refusal(files, allow_dirty=allow_dirty, allow_no_vcs=allow_no_vcs, record=record)
    if lines:
        return lines
    from .writer import remove_stale_temporaries

    removed = remove_stale_temporaries(sorted({resolved(p).parent for p in files if os.path.lexists(p)}))
    return [f"note: removed {display_path(p)}, a temporary file a killed jaxfix run left" for p in removed]

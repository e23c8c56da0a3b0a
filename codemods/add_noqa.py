"""``check --add-noqa``: a suppression comment on the line of every finding left, written in place.

The comments are `transforms.core.suppression.add_directives`'s; this module
writes them as every fix is written: atomically, in the file's own encoding,
only if the file still holds the text that was checked. Notebooks and stdin
are not marked (a notebook's lines are its cells' module, not the file's).
JAX001 findings are not marked either: silencing an unused suppression with
another one would only hide it; its fix removes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jaxfix.transforms.core.suppression import UNUSED_CODE, add_directives

from .engine import STDIN, RunResult
from .sourcefile import InputError
from .writer import write_atomic


@dataclass(frozen=True)
class Marked:
    path: Path
    count: int
    refused: tuple[int, ...] = ()
    error: str | None = None


def mark(run: RunResult) -> list[Marked]:
    out = []
    for result in run.files:
        wanted = [(f.line, f.code) for f in result.findings if f.code != UNUSED_CODE]
        if not wanted or result.error or result.cells or result.path == STDIN or result.path.suffix == ".ipynb":
            continue
        text, refused = add_directives(result.original, wanted)
        if text == result.original:
            continue
        count = len({(line, code) for line, code in wanted if line not in refused})
        try:
            write_atomic(result.path, text.encode(result.encoding), expected=result.original.encode(result.encoding))
        except InputError as error:
            out.append(Marked(result.path, 0, tuple(refused), str(error)))
            continue
        out.append(Marked(result.path, count, tuple(refused)))
    return out

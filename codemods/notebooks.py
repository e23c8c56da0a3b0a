"""Jupyter notebooks: code cells in as one module, fixed sources spliced back.

The code cells are joined into one Python module, in order (the way a
notebook runs top to bottom), each behind a marker line, so definitions in one
cell and calls in another are analysed together. IPython syntax stays as it
is: a ``%%`` cell magic or a cell the Python parser cannot read is kept out as
comments; a line magic or shell line (``%timeit``, ``!pip``) is turned into a
marked comment and turned back afterwards.

Writing back never re-serialises the notebook: only the JSON value of each
changed cell's ``"source"`` is replaced, in the layout that value had (a list
of lines with its indentation, or one string) and the notebook's escaping
(ASCII-only, ``\\u003c``-style HTML escapes), so every other byte stays.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, replace

from .sourcefile import InputError

CELL_MARKER = "# jaxfix-cell "
MAGIC_MARKER = "# jaxfix-magic: "


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based position among all cells, as a notebook shows them
    source: str
    span: tuple[int, int]  # the "source" value in the raw JSON text
    masked: bool  # kept out of the analysis


@dataclass(frozen=True)
class Notebook:
    raw: str
    cells: tuple[Cell, ...]

    def python(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        """The module text, and (first module line, cell number) for each code cell."""
        parts: list[str] = []
        starts: list[tuple[int, int]] = []
        line = 1
        for cell in self.cells:
            body = _masked(cell)
            if body and not body.endswith("\n"):
                body += "\n"
            parts.append(f"{CELL_MARKER}{cell.number}\n{body}")
            starts.append((line + 1, cell.number))
            line += 1 + body.count("\n")
        return "".join(parts), tuple(starts)

    def with_python(self, fixed: str) -> str:
        """The raw notebook with each changed cell's source replaced."""
        pieces = _split_cells(fixed)
        out = self.raw
        escapes = _escape_style(self.raw)
        for cell in sorted(self.cells, key=lambda c: c.span[0], reverse=True):
            if cell.masked:
                continue
            new = _unmasked(pieces.get(cell.number, ""), cell.source)
            if new == cell.source:
                continue
            start, end = cell.span
            out = out[:start] + _render_source(out[start:end], new, escapes) + out[end:]
        return out


def read(raw: str) -> Notebook:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InputError(f"broken notebook JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise InputError("not a notebook: no list of cells")
    spans = _source_spans(raw)
    cells: list[Cell] = []
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        if index not in spans:
            raise InputError(f"cell {index + 1} has no source to rewrite")
        cells.append(Cell(index + 1, text, spans[index], text.lstrip().startswith("%%")))
    return _settled(Notebook(raw, tuple(cells)))


def _settled(notebook: Notebook) -> Notebook:
    """Also keep out the cells the Python parser cannot read (each tried alone only if the
    notebook as a whole does not parse: one parse in the common case)."""
    if _parses(notebook.python()[0]):
        return notebook
    cells = tuple(
        replace(cell, masked=True) if not cell.masked and not _parses(_mask_lines(cell.source)) else cell
        for cell in notebook.cells
    )
    return Notebook(notebook.raw, cells)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


_MAGIC_LINE = re.compile(r"^\s*(?:[%!]|\w+\s*=\s*[%!])")


def _mask_lines(text: str) -> str:
    return "".join(
        MAGIC_MARKER + line if _MAGIC_LINE.match(line) else line for line in text.splitlines(keepends=True)
    )


def _masked(cell: Cell) -> str:
    if cell.masked:
        return "".join("# " + line for line in cell.source.splitlines(keepends=True))
    return _mask_lines(cell.source)


def _unmasked(text: str, original: str) -> str:
    lines = [line[len(MAGIC_MARKER) :] if line.startswith(MAGIC_MARKER) else line for line in text.splitlines(True)]
    out = "".join(lines)
    if not original.endswith("\n") and out.endswith("\n"):
        out = out[:-1]
    return out


def _split_cells(python: str) -> dict[int, str]:
    out: dict[int, list[str]] = {}
    current: int | None = None
    for line in python.splitlines(keepends=True):
        if line.startswith(CELL_MARKER) and line[len(CELL_MARKER) :].strip().isdigit():
            current = int(line[len(CELL_MARKER) :])
            out[current] = []
        elif current is not None:
            out[current].append(line)
    return {k: "".join(v) for k, v in out.items()}


# -- locating and writing JSON values without re-serialising ------------------------


def _source_spans(raw: str) -> dict[int, tuple[int, int]]:
    """For each cell index, the [start, end) of its "source" value in the raw text."""
    scanner = _Scanner(raw)
    return scanner.cell_sources()


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
#: A scan in C: JSON's indentation is most of a notebook's characters.
_WHITESPACE = re.compile(r"[ \t\r\n]*")
_DECODER = json.JSONDecoder()


class _Scanner:
    """Just enough of a JSON reader to find where values are (json.loads already validated)."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def ws(self) -> None:
        self.i = _WHITESPACE.match(self.s, self.i).end()  # type: ignore[union-attr]

    def string(self) -> str:
        match = _STRING.match(self.s, self.i)
        assert match is not None  # json.loads has already accepted the text
        self.i = match.end()
        text = match.group()
        return text[1:-1] if "\\" not in text else json.loads(text)

    def skip_value(self) -> None:
        self.ws()
        # json's own scanner (in C) finds where the value ends; json.loads already accepted it.
        self.i = _DECODER.raw_decode(self.s, self.i)[1]

    def members(self):
        """Iterate an object's keys, leaving the position at each value."""
        self.ws()
        self.i += 1  # '{'
        self.ws()
        if self.s[self.i] == "}":
            self.i += 1
            return
        while True:
            self.ws()
            key = self.string()
            self.ws()
            self.i += 1  # ':'
            self.ws()
            before = self.i
            yield key
            if self.i == before:
                self.skip_value()
            self.ws()
            if self.s[self.i] == ",":
                self.i += 1
                continue
            self.i += 1
            return

    def cell_sources(self) -> dict[int, tuple[int, int]]:
        out: dict[int, tuple[int, int]] = {}
        for key in self.members():
            if key != "cells":
                continue
            self.ws()
            self.i += 1  # '['
            index = 0
            self.ws()
            if self.s[self.i] == "]":
                self.i += 1
                continue
            while True:
                self.ws()
                for cell_key in self.members():
                    if cell_key == "source":
                        start = self.i
                        self.skip_value()
                        out[index] = (start, self.i)
                self.ws()
                index += 1
                if self.s[self.i] == ",":
                    self.i += 1
                    continue
                self.i += 1
                break
        return out


@dataclass(frozen=True)
class _Escapes:
    ascii_only: bool
    html: bool


def _escape_style(raw: str) -> _Escapes:
    return _Escapes(ascii_only=raw.isascii(), html="\\u003c" in raw or "\\u003e" in raw)


def _dump(text: str, escapes: _Escapes) -> str:
    out = json.dumps(text, ensure_ascii=escapes.ascii_only)
    if escapes.html:
        out = out.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return out


def _render_source(old: str, new: str, escapes: _Escapes) -> str:
    """The new source value, laid out as the old one was."""
    if old.startswith('"'):
        return _dump(new, escapes)
    lines = new.splitlines(keepends=True)
    match = re.match(r"\[(\s*)", old)
    lead = match.group(1) if match else ""
    tail = re.search(r"(\s*)\]\Z", old)
    closing = tail.group(1) if tail else ""
    if not lines:
        return "[]"
    if not lead:
        return "[" + ", ".join(_dump(line, escapes) for line in lines) + "]"
    return "[" + lead + ("," + lead).join(_dump(line, escapes) for line in lines) + closing + "]"

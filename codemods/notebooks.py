"""Jupyter notebooks: code cells in as one module, fixed sources spliced back.

The code cells are joined into one Python module, in order (the way a
notebook runs top to bottom), each behind a separator line, so definitions
in one cell and calls in another are analysed together. IPython syntax stays
as it is: a ``%%`` cell magic or a cell the Python parser cannot read is kept
out as comments; a line magic or shell line (``%matplotlib``, ``!pip``) is turned
into a comment and turned back afterwards. A timing magic around one
statement (``%time data = f(M=500)``, ``%timeit f(x)``) is analysed as that
statement, since it runs it, and gets its prefix back when written.

Which module line belongs to which cell, and which lines stand for magics,
is kept beside the text (`_Layout`), never read back out of it: the fixed
module is aligned line by line with the module that was analysed, and each
separator and magic line is found again by its position. A user's own
comment can look like a separator or a magic line; it stays the user's
line. (The separators carry a tag made from the notebook's own bytes that
the notebook does not contain, so the alignment cannot take a user's line
for one either.) A fix that would change a separator or a magic line is
refused: the notebook is not written.

Writing back never re-serialises the notebook: only the JSON value of each
changed cell's ``"source"`` is replaced, in the layout that value had (a list
of lines with its indentation, or one string) and the notebook's escaping
(ASCII-only, ``\\u003c``-style HTML escapes), so every other byte stays.
"""

from __future__ import annotations

import ast
import difflib
import functools
import hashlib
import json
import re
from dataclasses import dataclass, replace

from .sourcefile import InputError

#: Lines as Python's tokenizer ends them (str.splitlines also breaks at \f, \x1c, \u2028, ...).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _lines(text: str) -> list[str]:
    return _LINE.findall(text)


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based position among all cells, as a notebook shows them
    source: str
    span: tuple[int, int]  # the "source" value in the raw JSON text
    masked: bool  # kept out of the analysis


@dataclass(frozen=True)
class _Layout:
    """The module the cells make, and where each cell's lines are in it (0-based line indexes)."""

    text: str
    #: (first module line, 1-based, cell number) per code cell: how findings are placed.
    starts: tuple[tuple[int, int], ...]
    #: Index of each code cell's separator line, in the order of `Notebook.cells`.
    separators: tuple[int, ...]
    #: Index of each line that stands for a magic or shell line -> that line as the cell has it.
    magics: dict[int, str]
    #: Index of each ``%time STMT`` / ``%timeit STMT`` line, analysed as STMT -> the magic's prefix.
    timed: dict[int, str]


@dataclass(frozen=True)
class Notebook:
    raw: str
    cells: tuple[Cell, ...]

    @functools.cached_property
    def _tag(self) -> str:
        """A word the notebook does not contain, made from its bytes (the same every run)."""
        seed = self.raw.encode("utf-8", "surrogatepass")
        for attempt in range(1000):
            tag = hashlib.blake2b(seed + attempt.to_bytes(2, "big"), digest_size=6).hexdigest()
            if tag not in self.raw:
                return tag
        raise InputError("cannot lay out the notebook's cells")  # never seen: 1000 hashes all in the text

    @functools.cached_property
    def _layout(self) -> _Layout:
        parts: list[str] = []
        starts: list[tuple[int, int]] = []
        separators: list[int] = []
        magics: dict[int, str] = {}
        timed: dict[int, str] = {}
        line = 0
        for cell in self.cells:
            parts.append(f"# jaxfix cell {cell.number} ({self._tag})\n")
            separators.append(line)
            starts.append((line + 2, cell.number))
            line += 1
            for text in _lines(cell.source):
                statement = None if cell.masked else _timed_statement(text)
                if cell.masked:
                    shown = "# " + text
                elif statement is not None:
                    shown = statement
                    timed[line] = text[: len(text) - len(statement)]
                elif _MAGIC_LINE.match(text):
                    shown = f"# magic ({self._tag}): {text}"
                    magics[line] = text
                else:
                    shown = text
                if not shown.endswith(("\n", "\r")):
                    shown += "\n"
                parts.append(shown)
                line += 1
        return _Layout("".join(parts), tuple(starts), tuple(separators), magics, timed)

    def python(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        """The module text, and (first module line, cell number) for each code cell."""
        return self._layout.text, self._layout.starts

    def with_python(self, fixed: str) -> str:
        """The raw notebook with each changed cell's source replaced by its part of `fixed`."""
        layout = self._layout
        before, after = _lines(layout.text), _lines(fixed)
        moved = _aligned(before, after)
        out = self.raw
        escapes = _escape_style(self.raw)
        bounds = [*layout.separators, len(before)]
        new_cells: dict[int, str] = {}
        for position, cell in enumerate(self.cells):
            first, last = bounds[position], bounds[position + 1]
            start = moved.get(first)
            end = moved.get(last) if last < len(before) else len(after)
            if start is None or end is None:
                raise InputError(f"a fix would change the boundary of cell {cell.number}; notebook not written")
            if cell.masked:
                continue
            lines = after[start + 1 : end]
            for index in range(first + 1, last):
                if index in layout.magics:
                    where = moved.get(index)
                    if where is None:
                        raise InputError(f"a fix would change a magic line of cell {cell.number}; notebook not written")
                    restored = layout.magics[index]
                    if where + 1 < end and not restored.endswith(("\n", "\r")):
                        restored += "\n"  # a fix added lines after the cell's unterminated last line
                    lines[where - start - 1] = restored
            self._restore_timed(cell, first, last, start, end, moved, after, lines)
            new = "".join(lines)
            if not cell.source.endswith(("\n", "\r")) and new.endswith("\n"):
                new = new[:-1]
            if new != cell.source:
                new_cells[position] = new
        for position in sorted(new_cells, key=lambda p: self.cells[p].span[0], reverse=True):
            start, end = self.cells[position].span
            out = out[:start] + _render_source(out[start:end], new_cells[position], escapes) + out[end:]
        return out


    def _restore_timed(self, cell: Cell, first: int, last: int, start: int, end: int, moved, after, lines) -> None:
        """Put each ``%time`` prefix back on its statement: on the line it became when a fix left it
        alone, or on the one line that replaced it when a fix changed it (else the fix is refused)."""
        timed = self._layout.timed
        mine = [i for i in range(first + 1, last) if i in timed]
        if not mine:
            return
        kept = set(moved.values())
        replaced = [i for i in range(first + 1, last) if i not in moved]
        added = [j for j in range(start + 1, end) if j not in kept]
        for index in mine:
            where = moved.get(index)
            if where is None:
                if len(replaced) != len(added):
                    raise InputError(f"a fix would change a %time line of cell {cell.number}; notebook not written")
                where = added[replaced.index(index)]
                if after[where].count("\n") > 1 or not _timed_statement(timed[index] + after[where]):
                    raise InputError(f"a fix would change a %time line of cell {cell.number}; notebook not written")
            lines[where - start - 1] = timed[index] + lines[where - start - 1]


def _timed_statement(line: str) -> str | None:
    """``%time data = f(M=500)`` -> ``data = f(M=500)``: a timing magic around one Python statement,
    which runs as that statement does. Options (``%timeit -n 3 ...``) and anything that is not one
    whole statement are left to the magic masking."""
    match = _TIMED_LINE.match(line)
    if match is None:
        return None
    statement = line[match.end() :]
    try:
        tree = ast.parse(statement)
    except (SyntaxError, ValueError):
        return None
    return statement if len(tree.body) == 1 and statement.strip() else None


_TIMED_LINE = re.compile(r"%(?:time|timeit)[ \t]+(?=[^\s-])")


def _aligned(before: list[str], after: list[str]) -> dict[int, int]:
    """Each line of `before` that survives unchanged into `after`, with its new index."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    moved: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            moved[block.a + offset] = block.b + offset
    return moved


def read(raw: str) -> Notebook:
    if not raw.strip():
        raise InputError("an empty file, not a notebook")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InputError(f"broken notebook JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:
        raise InputError("notebook JSON nested too deeply to read") from None
    if isinstance(data, dict) and "worksheets" in data and "cells" not in data:
        raise InputError(
            "an nbformat 3 notebook (cells under worksheets): not read; convert it with "
            "`jupyter nbconvert --to notebook --inplace`"
        )
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise InputError("not a notebook: no list of cells")
    spans = _source_spans(raw)
    cells: list[Cell] = []
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            text = "".join(source)
        elif isinstance(source, str):
            text = source
        else:
            raise InputError(f"cell {index + 1}: its source is not text (a string or a list of strings)")
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
    """The cell as it would be analysed on its own (magic lines commented out)."""
    return "".join("# " + line if _MAGIC_LINE.match(line) else line for line in _lines(text))


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

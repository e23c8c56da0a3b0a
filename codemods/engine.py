"""Files in, results out: read, pre-filter, cache, analyse in parallel, write.

The parent process reads each file's bytes once, drops files no selected rule
can match (a byte search, no decoding, no parse), answers what it can from the
result cache, and hands the rest to a process pool. Workers decode, screen
with the standard library's ast, slice, parse with libcst and run the rules;
they never write. The parent writes fixed files, atomically, only when their
text changed, and only if the bytes on disk are still the ones it read.

Each file is handled on its own: one that cannot be read, decoded or parsed
gives an error result with one clear line, and every other file is still
processed.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path

from transforms import Finding, Options, SourceError, check, fix_source, selected_rules
from transforms.findings import finding_from_dict, finding_to_dict

from . import notebooks
from .cache import ResultCache
from .sourcefile import InputError, decode, read_bytes
from .writer import write_atomic

STDIN = Path("-")

#: How far a file got: "filtered" by the byte pre-filter, "screened" out by the
#: ast screen, "parsed" by libcst, "cached" answer reused, "error".
STAGES = ("filtered", "screened", "parsed", "cached", "error")


@dataclass(frozen=True)
class FileResult:
    path: Path
    original: str = ""
    fixed: str = ""
    #: check: every finding on the original text; fix: the findings left after fixing.
    findings: tuple[Finding, ...] = ()
    #: fix: the findings whose fixes were applied.
    applied: tuple[Finding, ...] = ()
    error: str | None = None
    stage: str = "parsed"
    written: bool = False
    encoding: str = "utf-8"
    #: Notebooks: (first line in the analysed module, cell number) per code cell,
    #: and that module's text (what findings' lines and edits refer to).
    cells: tuple[tuple[int, int], ...] = ()
    module: str | None = None

    @property
    def analysed_text(self) -> str:
        """The text the findings' positions and edits refer to."""
        return self.module if self.module is not None else self.original

    @property
    def changed(self) -> bool:
        return self.fixed != self.original and self.error is None

    @property
    def skipped(self) -> bool:
        return self.stage in ("filtered", "screened")

    def location(self, line: int) -> str:
        """``12``, or ``cell 3:4`` in a notebook."""
        if not self.cells:
            return str(line)
        first, number = max((c for c in self.cells if c[0] <= line), default=self.cells[0])
        return f"cell {number}:{line - first + 1}"


@dataclass
class RunResult:
    files: list[FileResult] = field(default_factory=list)
    cache_hits: int = 0

    @property
    def errors(self) -> list[FileResult]:
        return [f for f in self.files if f.error]

    @property
    def findings(self) -> list[tuple[FileResult, Finding]]:
        return [(f, x) for f in self.files for x in f.findings]

    @property
    def changed(self) -> list[FileResult]:
        return [f for f in self.files if f.changed]

    def count(self, stage: str) -> int:
        return sum(1 for f in self.files if f.stage == stage)

    def exit_code(self, *, pending_changes: bool) -> int:
        """2: unreadable input; 1: findings left (or, for dry runs, fixes to apply); 0: clean."""
        if self.errors:
            return 2
        if self.findings or (pending_changes and self.changed):
            return 1
        return 0


@dataclass(frozen=True)
class Task:
    """One file's work for a worker process: everything it needs, nothing it must open."""

    path: Path
    data: bytes
    options: Options
    fix: bool

    @property
    def kind(self) -> str:
        return "notebook" if self.path.suffix == ".ipynb" else "python"


def _may_match(data: bytes, options: Options) -> bool:
    return any(rule.may_match_bytes(data) for rule in selected_rules(options))


def analyse(task: Task) -> FileResult:
    """Decode, check or fix, and report: the part that runs in worker processes."""
    try:
        if task.kind == "notebook":
            return _analyse_notebook(task)
        source = decode(task.data)
    except InputError as error:
        return FileResult(task.path, error=str(error), stage="error")
    return _analyse_text(task, source.text, source.encoding)


def _analyse_text(task: Task, text: str, encoding: str, cells=()) -> FileResult:
    base = FileResult(task.path, text, text, encoding=encoding, cells=cells)
    try:
        if task.fix:
            result = fix_source(text, task.options)
            stage = "parsed" if result.parsed else "screened"
            return replace(base, fixed=result.text, findings=result.findings, applied=result.applied, stage=stage)
        checked = check(text, task.options)
        return replace(base, findings=tuple(checked.findings), stage="parsed" if checked.parsed else "screened")
    except SourceError as error:
        where = f"{_where(base, error.line)}:{error.column}: " if error.line else ""
        return replace(base, error=f"{where}{error}", stage="error")
    except RecursionError:
        return replace(base, error="too deeply nested to analyse", stage="error")


def _where(result: FileResult, line: int) -> str:
    return result.location(line)


def _analyse_notebook(task: Task) -> FileResult:
    try:
        raw = task.data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"notebook is not UTF-8: byte {task.data[error.start]:#04x} at offset {error.start}") from None
    notebook = notebooks.read(raw)
    python, cells = notebook.python()
    result = _analyse_text(task, python, "utf-8", cells)
    if result.error:
        return replace(result, original=raw, fixed=raw)
    fixed = notebook.with_python(result.fixed) if result.fixed != python else raw
    return replace(result, original=raw, fixed=fixed, module=python)


# -- the cache's view of a result ------------------------------------------------------


def _to_entry(result: FileResult) -> dict:
    return {
        "stage": result.stage,
        "error": result.error,
        "fixed": result.fixed if result.fixed != result.original else None,
        "findings": [finding_to_dict(f) for f in result.findings],
        "applied": [finding_to_dict(f) for f in result.applied],
        "encoding": result.encoding,
        "cells": [list(c) for c in result.cells],
        "module": result.module,
    }


def _from_entry(path: Path, original: str, entry: dict) -> FileResult:
    return FileResult(
        path,
        original,
        entry["fixed"] if entry["fixed"] is not None else original,
        tuple(finding_from_dict(f) for f in entry["findings"]),
        tuple(finding_from_dict(f) for f in entry["applied"]),
        entry["error"],
        "cached",
        encoding=entry["encoding"],
        cells=tuple(tuple(c) for c in entry["cells"]),  # type: ignore[misc]
        module=entry["module"],
    )


def _original_text(task: Task, encoding: str) -> str:
    if task.kind == "notebook":
        return task.data.decode("utf-8")
    return task.data.decode(encoding)


# -- running -----------------------------------------------------------------------------


def _pool(jobs: int) -> ProcessPoolExecutor:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method))


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def run(
    paths: Sequence[Path],
    options: Options,
    *,
    fix: bool,
    write: bool,
    jobs: int | None = None,
    cache: ResultCache | None = None,
    progress: Callable[[FileResult], None] | None = None,
    stdin: bytes | None = None,
) -> RunResult:
    """Process every path; write fixed files when `write`."""
    results: dict[int, FileResult] = {}
    raw: dict[int, bytes] = {}
    pending: list[tuple[int, Task, str | None]] = []

    def done(index: int, result: FileResult) -> None:
        results[index] = result
        if progress is not None:
            progress(result)

    for index, path in enumerate(paths):
        try:
            data = stdin if path == STDIN and stdin is not None else read_bytes(path)
        except InputError as error:
            done(index, FileResult(path, error=str(error), stage="error"))
            continue
        raw[index] = data
        if not _may_match(data, options):
            done(index, FileResult(path, stage="filtered"))
            continue
        task = Task(path, data, options, fix)
        key = cache.key(data, task.kind, fix) if cache is not None else None
        entry = cache.get(key) if key is not None else None
        if entry is not None:
            try:
                done(index, _from_entry(path, _original_text(task, entry["encoding"]), entry))
                continue
            except (KeyError, TypeError, ValueError, UnicodeDecodeError):
                pass  # a damaged entry: analyse again
        pending.append((index, task, key))

    jobs = max(1, jobs or default_jobs())
    if len(pending) > 1 and jobs > 1:
        # Biggest files first, so no worker is left with a long one at the end.
        pending.sort(key=lambda item: len(item[1].data), reverse=True)
        with _pool(min(jobs, len(pending))) as pool:
            futures = {pool.submit(analyse, task): (index, key) for index, task, key in pending}
            for future in as_completed(futures):
                index, key = futures[future]
                done(index, _finished(future.result(), cache, key))
    else:
        for index, task, key in pending:
            done(index, _finished(analyse(task), cache, key))

    out = RunResult(cache_hits=cache.hits if cache is not None else 0)
    for index in range(len(paths)):
        result = results[index]
        if write and result.changed and result.path != STDIN:
            result = _write(result, raw[index])
        out.files.append(result)
    return out


def _finished(result: FileResult, cache: ResultCache | None, key: str | None) -> FileResult:
    if cache is not None and key is not None:
        cache.put(key, _to_entry(result))
    return result


def _write(result: FileResult, data: bytes) -> FileResult:
    try:
        write_atomic(result.path, result.fixed.encode(result.encoding), expected=data)
    except InputError as error:
        return replace(result, fixed=result.original, applied=(), error=str(error), stage="error")
    return replace(result, written=True)


def iter_findings(results: Iterable[FileResult]) -> Iterable[tuple[FileResult, Finding]]:
    for result in results:
        for finding in result.findings:
            yield result, finding


def process_file(path: Path, options: Options, *, fix: bool, write: bool) -> FileResult:
    """One file, in this process, without a cache (tests and tools)."""
    return run([path], options, fix=fix, write=write, jobs=1).files[0]

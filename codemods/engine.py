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

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from jaxfix.transforms import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Options,
    SourceError,
    catalogue,
    check,
    fix_source,
    preload_analysis,
)
from jaxfix.transforms.core.findings import finding_from_dict, finding_to_dict
from jaxfix.transforms.core.gcpause import one_file_at_a_time
from jaxfix.transforms.core.lazy import lazy
from jaxfix.transforms.core.rule import Haystack
from jaxfix.transforms.core.textedit import apply_edits, select_compatible
from jaxfix.transforms.project import static_names as project_names
from jaxfix.transforms.project.repository import ModuleRef, Project
from jaxfix.transforms.project.static_names import StaticNames

from . import interrupts, notebooks
from .cache import ResultCache
from .config import DEFAULT_MAX_FILE_SIZE
from .discovery import forget_resolved, resolved
from .discovery import problem as discovery_problem
from .project import IMPORTERS, LOOKUP, FileRepository, content_hash, module_refs
from .sourcefile import InputError, decode, read_bytes
from .writer import write_atomic

if TYPE_CHECKING:
    from concurrent.futures.process import ProcessPoolExecutor

# Loaded on first use (core/lazy.py): a run with at most one file to analyse never starts a pool.
multiprocessing = lazy("multiprocessing")
futures = lazy("concurrent.futures")
process_pool = lazy("concurrent.futures.process")

STDIN = Path("-")

#: How far a file got: "filtered" by the byte pre-filter, "screened" out by the
#: ast screen, "parsed" by libcst, "cached" answer reused, "error".
STAGES = ("filtered", "screened", "parsed", "cached", "error", "too-large")


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
    #: Other files of the project the analysis read: path -> content hash.
    deps: tuple[tuple[str, str], ...] = ()
    #: fix: edits the applied fixes make in other files (Edit.file set).
    remote: tuple = ()
    #: Findings in code that expects their error (a test watching it fail): counted, not reported.
    expected: int = 0
    #: Why the file was passed by without being an error (too large): said on stderr as a note.
    notice: str | None = None

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

    @property
    def expected(self) -> int:
        """Findings set apart in code that expects their error, over every file."""
        return sum(f.expected for f in self.files)

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
    ref: ModuleRef | None = None
    #: The pre-filter found it may use a function another module jits with static
    #: arguments (None: not run; the analysis works it out from the text).
    imports_static_jitted: bool | None = None
    #: Its place in the run: how a worker says which task it started (see `_Dispatch`).
    number: int = -1
    #: A notebook whose code cells are larger than this is refused (0: no limit).
    max_size: int = 0

    @property
    def kind(self) -> str:
        return "notebook" if self.path.suffix == ".ipynb" else "python"


def _may_match(data: Haystack, options: Options, imports_static_jitted: bool) -> bool:
    # The rules' cards, not the rules: a file dropped here never imports libcst (catalogue.py).
    return catalogue.may_match(data, options, imports_static_jitted)


#: The project, in each worker process (set once per worker: `_worker_init`).
_PROJECT: tuple[FileRepository, dict[str, StaticNames]] | None = None
#: Where a worker says which task it starts (None in the parent process).
_STARTED = None


def _worker_init(
    repo: FileRepository | None, static_names: dict[str, StaticNames], started=None, parent: int | None = None
) -> None:
    global _PROJECT, _STARTED
    _PROJECT = (repo, static_names) if repo is not None else None
    _STARTED = started
    if parent is not None:
        # The parent answers Ctrl-C and SIGTERM, and ends its workers itself.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _die_with(parent)


def _die_with(parent: int) -> None:
    """End this worker when the process that started it is gone (SIGKILL, a crash): the
    kernel's parent-death signal where there is one (Linux), and a watchdog thread
    that looks at the parent pid every half second everywhere."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)  # the parent died before the signal was armed

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="jaxfix-parent-watchdog", daemon=True).start()


def _project(task: Task) -> Project | None:
    if _PROJECT is None:
        return None
    if task.ref is None:
        return None  # not a module of the project (a notebook): what its imports mean is not known
    repo, by_project = _PROJECT
    return Project(repo, task.ref, by_project.get(task.ref.project, StaticNames()), task.imports_static_jitted)


@one_file_at_a_time
def analyse(task: Task) -> FileResult:
    """Decode, check or fix, and report: the part that runs in worker processes."""
    if _STARTED is not None:
        _STARTED.put(task.number)  # before anything can crash: the parent learns who was running
    if _PROJECT is not None:
        _PROJECT[0].take_consulted()
    try:
        if task.kind == "notebook":
            result = _analyse_notebook(task)
        else:
            source = decode(task.data)
            result = _analyse_text(task, source.text, source.encoding)
    except InputError as error:
        return FileResult(task.path, error=str(error), stage="error")
    except RecursionError:
        return FileResult(task.path, error="too deeply nested to analyse", stage="error")
    except Exception as error:  # a bug of ours must cost this file, not the run
        return FileResult(task.path, error=f"internal error, please report it: {_describe(error)}", stage="error")
    if _PROJECT is not None:
        consulted = _PROJECT[0].take_consulted()
        consulted.pop(_key(task.path), None)
        result = replace(result, deps=tuple(sorted(consulted.items())))
    return result


def _describe(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:
        text = ""
    first = text.splitlines()[0][:200] if text.strip() else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _analyse_text(task: Task, text: str, encoding: str, cells=()) -> FileResult:
    base = FileResult(task.path, text, text, encoding=encoding, cells=cells)
    try:
        project = _project(task)
        if task.fix:
            result = fix_source(text, task.options, project=project)
            stage = "parsed" if result.parsed else "screened"
            return replace(
                base,
                fixed=result.text,
                findings=result.findings,
                applied=result.applied,
                stage=stage,
                remote=result.remote,
                expected=len(result.expected),
            )
        checked = check(text, task.options, project=project)
        stage = "parsed" if checked.parsed else "screened"
        return replace(base, findings=tuple(checked.findings), stage=stage, expected=len(checked.expected))
    except SourceError as error:
        where = f"{_where(base, error.line)}:{error.column}: " if error.line else ""
        return replace(base, error=f"{where}{error}", stage="error")
    except RecursionError:
        return replace(base, error="too deeply nested to analyse", stage="error")


def _where(result: FileResult, line: int) -> str:
    return result.location(line)


def _too_large(size: int, limit: int, what: str = "") -> str:
    return (
        f"{what}{size / 1e6:.1f} MB, above the {limit / 1e6:g} MB limit: not analysed "
        "(--max-file-size or max-file-size in [tool.jaxfix] raises it; 0: no limit)"
    )


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # reading it says what is wrong


def _analyse_notebook(task: Task) -> FileResult:
    try:
        raw = task.data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"notebook is not UTF-8: byte {task.data[error.start]:#04x} at offset {error.start}") from None
    notebook = notebooks.read(raw)
    python, cells = notebook.python()
    if task.max_size and len(python.encode("utf-8", "surrogatepass")) > task.max_size:
        raise InputError(_too_large(len(python.encode("utf-8", "surrogatepass")), task.max_size, "its code cells are "))
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
        "deps": [list(d) for d in result.deps],
        "remote": [[e.start, e.end, e.content, e.file] for e in result.remote],
        "expected": result.expected,
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
        deps=tuple(tuple(d) for d in entry["deps"]),  # type: ignore[misc]
        remote=tuple(Edit(*e) for e in entry["remote"]),
        expected=entry["expected"],
    )


def _pairs(value: object, *types: type) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, list) and len(item) == len(types) and all(isinstance(x, t) for x, t in zip(item, types))
        for item in value
    )


def _well_formed(entry: object) -> bool:
    """The shape `_to_entry` writes (any JSON can be in a cache file: a damaged or planted
    entry must be a miss, not a traceback in this run and every later one)."""
    if not isinstance(entry, dict) or set(entry) != _ENTRY_KEYS:
        return False
    optional_text = (str, type(None))
    return (
        isinstance(entry["stage"], str)
        and entry["stage"] in STAGES
        and isinstance(entry["error"], optional_text)
        and isinstance(entry["fixed"], optional_text)
        and isinstance(entry["module"], optional_text)
        and isinstance(entry["encoding"], str)
        and isinstance(entry["findings"], list)
        and all(isinstance(f, dict) for f in entry["findings"])
        and isinstance(entry["applied"], list)
        and all(isinstance(f, dict) for f in entry["applied"])
        and _pairs(entry["cells"], int, int)
        and _pairs(entry["deps"], str, str)
        and _pairs(entry["remote"], int, int, str, str)
        and isinstance(entry["expected"], int)
    )


_ENTRY_KEYS = frozenset(
    {"stage", "error", "fixed", "findings", "applied", "encoding", "cells", "module", "deps", "remote", "expected"}
)


def _fresh(entry: dict, repo: FileRepository | None) -> bool:
    """Every other file the cached result read still has the content it had then
    (every dotted name still means the same module, the same modules may import each name)."""
    for path, digest in entry.get("deps", ()):
        if path.startswith(IMPORTERS):
            if repo is None or repo.importers_digest(path) != digest:
                return False
            continue
        if path.startswith(LOOKUP):
            if repo is None or repo.lookup_digest(path) != digest:
                return False
            continue
        if repo is None or repo.disk_hash(path) != digest:
            return False
    return True


def _original_text(task: Task, encoding: str) -> str:
    if task.kind == "notebook":
        return task.data.decode("utf-8")
    return task.data.decode(encoding)


# -- running -----------------------------------------------------------------------------


class _Dispatch:
    """Tasks to the worker pool as soon as the parent has filtered them, so the workers
    start while it is still filtering; the pool starts with the second task (a run
    with one file to analyse, or `jobs` 1, stays in this process).

    A worker that dies (libcst overflowing its stack is a SIGSEGV) breaks the whole
    pool, and every unfinished task with it. Each worker says which task it starts,
    so the tasks that were running then are known: each is run again alone in a
    process of its own (the one that dies again is reported as crashed), and the
    others go to a fresh pool. One file's crash costs that file only.
    """

    def __init__(self, jobs: int, repo: FileRepository | None, static_names: dict[str, StaticNames]) -> None:
        self._jobs, self._repo, self._static_names = jobs, repo, static_names
        self._pool: ProcessPoolExecutor | None = None
        self._started_queue = None
        self._started: set[int] = set()
        self._futures: dict = {}
        self._held: list[tuple[Task, object]] = []
        #: Tasks not yet given to a pool because it broke while they were being sent.
        self._waiting: list[tuple[Task, object]] = []
        #: Recoveries in a row that found no task running (see `_recover`).
        self._fruitless = 0
        #: Told each file as its analysis starts (as far as the parent learns it: a progress display).
        self.on_start: Callable[[Path], None] | None = None
        self._paths: dict[int, Path] = {}

    def __enter__(self) -> _Dispatch:
        return self

    def __exit__(self, *exc_info: object) -> None:
        # Every task done: the pool is joined, so no thread of it is left for the interpreter's exit
        # (CPython 3.11's exit hook can race a pool left running: "Bad file descriptor").
        self._stop(wait=exc_info[0] is None and not self._futures)

    def submit(self, task: Task, tag: object) -> None:
        self._paths[task.number] = task.path
        if self._jobs == 1 or (self._pool is None and not self._held):
            self._held.append((task, tag))
            return
        if self._pool is None and not self._waiting:
            self._start_pool()
            held, self._held = self._held, []
            for held_task, held_tag in held:
                self._send(held_task, held_tag)
        self._send(task, tag)
        self._note_started()
        interrupts.raise_if_interrupted()  # a signal while the pool forked its workers may have been swallowed

    def _send(self, task: Task, tag: object) -> None:
        if self._pool is not None and not self._waiting:
            try:
                self._futures[self._pool.submit(analyse, task)] = (task, tag)
                return
            except process_pool.BrokenProcessPool:
                pass  # a worker died already: `results` recovers
        self._waiting.append((task, tag))

    def _start_pool(self) -> None:
        context = _context()
        self._started_queue = context.SimpleQueue()
        self._pool = process_pool.ProcessPoolExecutor(
            max_workers=self._jobs,
            mp_context=context,
            initializer=_worker_init,
            initargs=(self._repo, self._static_names, self._started_queue, os.getpid()),
        )

    def _note_started(self) -> None:
        queue = self._started_queue
        while queue is not None and not queue.empty():
            number = queue.get()
            self._started.add(number)
            if self.on_start is not None and number in self._paths:
                self.on_start(self._paths[number])

    def results(self) -> Iterable[tuple[Task, object, FileResult]]:
        """(task, its tag, its result) for every task, as each finishes."""
        for task, tag in self._held:
            if self.on_start is not None:
                self.on_start(task.path)
            yield task, tag, analyse(task)
        pending = self._futures
        while pending or self._waiting:
            broken = bool(self._waiting)
            for future in futures.as_completed(list(pending)):
                task, tag = pending[future]
                try:
                    result = future.result()
                except process_pool.BrokenProcessPool:
                    broken = True
                    break
                except Exception as error:  # the result could not travel back, say
                    result = FileResult(task.path, error=f"internal error, please report it: {_describe(error)}",
                                        stage="error")
                del pending[future]
                self._note_started()
                interrupts.raise_if_interrupted()
                yield task, tag, result
            if not broken and not self._waiting:
                break
            yield from self._recover(pending)

    def _recover(self, pending: dict) -> Iterable[tuple[Task, object, FileResult]]:
        """After the pool broke: what finished is kept, who was running runs alone, the rest anew."""
        for future in list(pending):
            if future.done() and not future.cancelled() and future.exception() is None:
                task, tag = pending.pop(future)
                yield task, tag, future.result()
        self._note_started()
        self._stop()
        left = [*pending.values(), *self._waiting]
        pending.clear()
        self._waiting = []
        suspects = [(task, tag) for task, tag in left if task.number in self._started]
        self._fruitless = 0 if suspects else self._fruitless + 1
        if self._fruitless >= 3:  # pools keep breaking with no task running: no pool, one process a file
            suspects = left
        for task, tag in suspects:
            yield task, tag, self._alone(task)
        alone = {task.number for task, _ in suspects}
        rest = [(task, tag) for task, tag in left if task.number not in alone]
        self._started = set()
        if rest:
            self._start_pool()
            for task, tag in rest:
                self._send(task, tag)

    def _alone(self, task: Task) -> FileResult:
        """The task in a process of its own: its result, or an error when that process dies too."""
        context = _context()
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(
            target=_analyse_alone, args=(task, sender, self._repo, self._static_names, os.getpid()), daemon=True
        )
        process.start()
        sender.close()
        try:
            result = receiver.recv()
        except (EOFError, OSError):
            result = None
        finally:
            receiver.close()
            process.join()
        if isinstance(result, FileResult):
            return result
        code = process.exitcode
        how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 and -code in _SIGNALS else f"exit code {code}"
        return FileResult(
            task.path,
            error=f"analysis crashed: the process analysing it died ({how}); the file was left as it is",
            stage="error",
        )

    def _stop(self, wait: bool = False) -> None:
        """Shut the pool down; workers still running (an interrupt, a broken pool) are ended now.
        `wait`: every task is done, so the pool is joined as it winds down."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if wait:
            pool.shutdown(wait=True)
            return
        processes = list(getattr(pool, "_processes", {}).values())  # CPython's ProcessPoolExecutor
        manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)
        # The pool's manager thread closes its wake-up pipe as it notices the workers gone; CPython
        # 3.11's exit hook writes to that pipe unlocked, so an exit during the close printed a
        # traceback ("Bad file descriptor") after the interrupt message. Waiting for the thread here
        # leaves the exit hook nothing to wake.
        if manager is not None:
            manager.join(timeout=5)


_SIGNALS = {s.value for s in signal.Signals}


def _analyse_alone(task: Task, sender, repo, static_names, parent: int) -> None:
    _worker_init(repo, static_names, None, parent)
    sender.send(analyse(task))
    sender.close()


def _context():
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"
    if method == "fork":
        preload_analysis()  # imported once here, inherited by every worker (else each imports it)
    return multiprocessing.get_context(method)


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
    project_files: Sequence[Path] | None = None,
    max_file_size: int | None = None,
    options_for: Callable[[Path], Options] | None = None,
    started: Callable[[Path], None] | None = None,
) -> RunResult:
    """Process every path; write fixed files when `write`.

    `project_files` are the files imports may lead to (default: `paths`); a fix
    that must change one of them too changes it in the same run. A Python file
    larger than `max_file_size` bytes (default: the configuration's default; 0:
    no limit) is refused before it is read, a notebook when its code cells are.
    `options_for(path)`: a file's own options where they differ (per-file-ignores);
    `started(path)`: called as a file's analysis starts, as far as this process learns it.
    """
    limit = DEFAULT_MAX_FILE_SIZE if max_file_size is None else max_file_size
    forget_resolved()
    results: dict[int, FileResult] = {}

    def done(index: int, result: FileResult) -> None:
        results[index] = result
        if progress is not None:
            progress(result)

    project = [p for p in (project_files if project_files is not None else paths) if p != STDIN]
    refs = module_refs(project)
    repo = FileRepository(refs) if refs else None
    by_path = {ref.path: ref for ref in refs}  # resolved paths
    datas: dict[int, bytes] = {}
    for index, path in enumerate(paths):
        trouble = discovery_problem(path)
        if trouble is not None:
            done(index, FileResult(path, error=trouble, stage="error"))
            continue
        size = len(stdin) if path == STDIN and stdin is not None else _size(path)
        if limit and size > limit and path.suffix != ".ipynb":
            # Generated or data modules: not an error in the input, so the run's exit code stays its own.
            done(index, FileResult(path, stage="too-large", notice=_too_large(size, limit)))
            continue
        try:
            datas[index] = stdin if path == STDIN and stdin is not None else read_bytes(path)
        except InputError as error:
            done(index, FileResult(path, error=str(error), stage="error"))
    keys = {index: _key(paths[index]) for index in datas}
    originals = {keys[i]: d for i, d in datas.items() if paths[i] != STDIN}  # what each file was, by resolved path
    static_names = _static_names(refs, originals) if repo else {}
    _worker_init(repo, static_names)

    jobs = max(1, min(jobs or default_jobs(), len(datas)))  # never more workers than files
    with _Dispatch(jobs, repo, static_names) as dispatch:
        dispatch.on_start = started
        # Biggest files first, so no worker is left with a long one at the end.
        for index in sorted(datas, key=lambda i: len(datas[i]), reverse=True):
            data = datas[index]
            path = paths[index]
            file_options = options_for(path) if options_for is not None else options
            ref = by_path.get(keys[index])
            # Only a module of the project imports through it (see `_project`).
            names = static_names.get(ref.project, StaticNames()) if ref is not None else StaticNames()
            haystack = Haystack(data)
            if cache is None and names and _may_match(haystack, file_options, False):
                # Let through without the first pass's test, which only the cache key needs
                # here: the worker runs it (in parallel) when a rule asks.
                admitted, imports_static_jitted = (), None
            else:
                # The view the project's importer queries read too: each file's imports are read once.
                admitted = (
                    names.admitted_view(repo.import_view(ref, data)) if names and ref is not None and repo is not None else names.admitted(data)
                )
                imports_static_jitted = bool(admitted)
                if not _may_match(haystack, file_options, imports_static_jitted):
                    done(index, FileResult(path, stage="filtered"))
                    continue
            task = Task(path, data, file_options, fix, ref, imports_static_jitted, index, limit)
            # What the pre-filter read of the project, and the file's own module name
            # (it decides what relative imports mean); what the analysis read is in its deps.
            salt = names.digest(admitted) + (f"|{ref.name}@{ref.root}@{ref.project}" if ref is not None else "")
            if file_options is not options:  # the cache's key holds the group's options; this file's differ
                salt += "|ignore:" + ",".join(sorted(file_options.ignore))
            key = cache.key(data, task.kind, fix, salt) if cache is not None else None
            entry = cache.get(key) if key is not None else None
            if entry is not None and not _well_formed(entry):
                cache.discard(key)  # valid JSON of the wrong shape: recomputed, and replaced below
                entry = None
            if entry is not None and _fresh(entry, repo):
                try:
                    done(index, _from_entry(path, _original_text(task, entry["encoding"]), entry))
                    continue
                except (KeyError, TypeError, ValueError, AttributeError, UnicodeDecodeError, LookupError):
                    cache.discard(key)  # a damaged entry: analyse again
            dispatch.submit(task, (index, key))
        for task, (index, key), result in dispatch.results():
            done(index, _finished(result, cache, key))

    files = [results[index] for index in range(len(paths))]
    if fix:
        files = _apply_remote(files, originals, options_for or (lambda path: options), by_path)
    out = RunResult(cache_hits=cache.hits if cache is not None else 0)
    for result in files:
        if write and result.changed and result.path != STDIN:
            data = originals.get(_key(result.path))
            result = _write(result, data if data is not None else read_bytes(result.path))
        out.files.append(result)
    return out


def _key(path: Path) -> str:
    """How files are matched across the run: their resolved path."""
    return str(resolved(path)) if path != STDIN else "-"


def _static_names(refs: Sequence[ModuleRef], known: dict[str, bytes]) -> dict[str, StaticNames]:
    """The first pass, project by project: the functions its modules jit with static arguments."""
    by_project: dict[str, list[ModuleRef]] = {}
    for ref in refs:
        by_project.setdefault(ref.project, []).append(ref)

    def modules(project: list[ModuleRef]):
        for ref in project:
            try:
                yield ref.name, known.get(ref.path) or read_bytes(Path(ref.path))
            except InputError:
                continue

    return {name: project_names.search(modules(project)) for name, project in by_project.items()}


def _apply_remote(
    files: list[FileResult], originals: dict[str, bytes], options_for: Callable[[Path], Options], by_path: dict
) -> list[FileResult]:
    """Apply the edits fixes make in other files, then fix those files again on their new text.

    Each target starts again from its text on disk (its own fixes are found
    again on the edited text), so every edit lands on the text it was
    computed against; a target that changed on disk since it was read is an error.
    """
    wanted: dict[str, list[Edit]] = {}
    read_as: dict[str, str] = {}
    for result in files:
        for edit in result.remote:
            wanted.setdefault(edit.file, []).append(replace(edit, file=""))
        read_as.update(dict(result.deps))
    if not wanted:
        return files
    by_file = {_key(r.path): i for i, r in enumerate(files)}
    out = list(files)
    for path, edits in wanted.items():
        try:
            data = originals.get(path) or read_bytes(Path(path))
        except InputError as error:
            out.append(FileResult(Path(path), error=str(error), stage="error"))
            continue
        if path in read_as and content_hash(data) != read_as[path]:
            out.append(FileResult(Path(path), error="changed on disk while jaxfix ran; not fixed", stage="error"))
            continue
        source = decode(data)
        fixes = select_compatible([Fix(Applicability.SAFE, (e,)) for e in sorted(set(edits))])
        edited = apply_edits(source.text, [f.edits[0] for f in fixes])
        shown = files[by_file[path]].path if path in by_file else Path(path)
        task = Task(shown, edited.encode(source.encoding), options_for(shown), True, by_path.get(path))
        again = analyse(task)
        result = replace(again, original=source.text, stage="parsed")
        if path in by_file:
            out[by_file[path]] = result  # its own fixes were found again on the edited text
        else:
            out.append(replace(result, path=Path(os.path.relpath(path)) if not os.path.isabs(str(shown)) else shown))
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


# -- a project kept warm between calls (the language server, codemods/server/) ----------------


def project_static_names(refs: Sequence[ModuleRef]) -> dict[str, StaticNames]:
    """The first pass (`_static_names`) over every module of `refs`, read from disk."""
    return _static_names(refs, {})


def analyse_in_project(task: Task, repo: FileRepository | None, static_names: dict[str, StaticNames]) -> FileResult:
    """`analyse`, in this process, against a project its caller keeps between calls (what
    `_worker_init` gives a pool worker once): its summaries and analyses of other modules stay warm."""
    _worker_init(repo, static_names)
    return analyse(task)

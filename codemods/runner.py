"""What every command does before it reports: find the files, run the engine, show progress."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jaxfix.transforms import Options
from jaxfix.transforms.core.lazy import lazy

from . import engine
from .cache import ResultCache
from .discovery import discover, resolved
from .project import project_root
from .report.diff import display_path

if TYPE_CHECKING:
    from .console import Console

# Loaded on first use (core/lazy.py): only a run over several files on a terminal shows a bar.
rich_progress = lazy("rich.progress")


@dataclass(frozen=True)
class RunSettings:
    jobs: int | None = None
    no_cache: bool = False
    cache_dir: Path | None = None
    #: Each file on its own: imports of the project's other modules lead nowhere.
    single_file: bool = False

    def cache(self, options: Options) -> ResultCache | None:
        if self.no_cache:
            return None
        return ResultCache(self.cache_dir or default_cache_dir(), options)


def default_cache_dir() -> Path:
    """$JAXFIX_CACHE_DIR, else the user's cache folder ($XDG_CACHE_HOME/jaxfix or ~/.cache/jaxfix).

    Not a folder in the project: entries are keyed by content, so projects can
    share them, nothing new appears in anyone's checkout, and a checkout (a
    pull request's, say) cannot plant answers for the tool to trust.
    """
    if os.environ.get("JAXFIX_CACHE_DIR"):
        return Path(os.environ["JAXFIX_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jaxfix"


def project_files_of(files: list[Path]) -> list[Path]:
    """The files imports may lead to: the whole project the files belong to, else the files."""
    real = [f for f in files if f != engine.STDIN]
    root = project_root(real) if real else None
    if root is None:
        return real
    found = discover([root])
    known = {resolved(f) for f in found}
    return found + [f for f in real if resolved(f) not in known]


def run_files(
    files: list[Path],
    options: Options,
    settings: RunSettings,
    err: Console,
    *,
    fix: bool,
    write: bool,
    stdin: bytes | None = None,
    max_file_size: int | None = None,
    options_for: Callable[[Path], Options] | None = None,
    universe: list[Path] | None = None,
    show_progress: bool = True,
) -> engine.RunResult:
    """Run the engine; on a terminal, with a progress display on stderr (see `_Display`).

    `universe`: every file of the run when `files` is one shard of it; the
    project (what imports may lead to) is found from it, so a file's findings
    do not depend on the shard it lands in.
    """
    cache = settings.cache(options)
    try:
        return _run_files(
            files, options, settings, err, cache, fix=fix, write=write, stdin=stdin, max_file_size=max_file_size,
            options_for=options_for, universe=universe, show_progress=show_progress,
        )
    finally:
        if cache is not None and cache.unusable:
            err.print(f"warning: results are not cached: cannot write in {cache.unusable}", markup=False)


def _run_files(files, options, settings, err, cache, *, fix, write, stdin, max_file_size, options_for, universe,
               show_progress) -> engine.RunResult:
    kwargs = dict(
        fix=fix,
        write=write,
        max_file_size=max_file_size,
        jobs=settings.jobs,
        cache=cache,
        stdin=stdin,
        project_files=[] if settings.single_file else project_files_of(universe if universe is not None else files),
        options_for=options_for,
    )
    if not show_progress or not err.is_terminal or len(files) < 2:
        return engine.run(files, options, **kwargs)  # type: ignore[arg-type]
    display = _Display(files, "fixing" if fix else "checking", err)
    with display.progress:
        return engine.run(files, options, progress=display.finished, started=display.started, **kwargs)  # type: ignore[arg-type]


def _size(path: Path) -> int:
    try:
        return max(1, os.stat(path).st_size)
    except OSError:
        return 1


class _Display:
    """Files done, elapsed time, the time left, findings so far, and the file being analysed.

    Progress is counted in bytes, not files: the engine starts the biggest files
    first, so a count of files would promise the end long before it comes.
    """

    def __init__(self, files: list[Path], what: str, console: Console) -> None:
        self.sizes = {path: _size(path) for path in files if path != engine.STDIN}
        self.count = len(files)
        self.done = 0
        self.found = 0
        self.running: dict[Path, None] = {}
        # The bar redraws around what the console prints: it needs rich's own console (console.py).
        # (console.py's Console, or a rich Console as a test hands over).
        self.progress = rich_progress.Progress(*progress_columns(), console=getattr(console, "rich", console), transient=True)
        self.task = self.progress.add_task(what, total=sum(self.sizes.values()) or 1, **self._fields())

    def _fields(self) -> dict[str, str]:
        current = next(reversed(self.running), None)
        return {
            "files": f"{self.done}/{self.count} files",
            "found": f"{self.found} finding{'s' if self.found != 1 else ''}",
            "current": shortened(display_path(current)) if current is not None else "",
        }

    def started(self, path: Path) -> None:
        self.running[path] = None
        self.progress.update(self.task, **self._fields())

    def finished(self, result: engine.FileResult) -> None:
        key = result.path
        self.running.pop(key, None)
        self.done += 1
        self.found += len(result.findings) + len(result.applied)
        self.progress.update(self.task, advance=self.sizes.get(key, 0), **self._fields())


def progress_columns() -> tuple:
    return (
        rich_progress.TextColumn("{task.description}"),
        rich_progress.BarColumn(bar_width=24),
        rich_progress.TextColumn("{task.fields[files]}"),
        rich_progress.TimeElapsedColumn(),
        rich_progress.TextColumn("ETA"),
        rich_progress.TimeRemainingColumn(),
        rich_progress.TextColumn("{task.fields[found]}"),
        rich_progress.TextColumn("{task.fields[current]}"),
    )


def shortened(name: str, width: int = 48) -> str:
    """A path cut from the left to `width` characters: its end says which file it is."""
    return name if len(name) <= width else "…" + name[-(width - 1) :]

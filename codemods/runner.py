"""What every command does before it reports: find the files, run the engine, show progress."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from transforms import Options

from . import engine
from .cache import ResultCache
from .discovery import discover


@dataclass(frozen=True)
class RunSettings:
    jobs: int | None = None
    no_cache: bool = False
    cache_dir: Path | None = None

    def cache(self, options: Options) -> ResultCache | None:
        if self.no_cache:
            return None
        folder = self.cache_dir or Path(os.environ.get("JAXFIX_CACHE_DIR") or ".jaxfix_cache")
        return ResultCache(folder, options)


def files_of(paths: list[Path]) -> list[Path]:
    """The files a run covers; `-` alone means stdin."""
    if paths == [engine.STDIN]:
        return paths
    if engine.STDIN in paths:
        raise ValueError("`-` (stdin) cannot be mixed with other paths")
    return discover(paths)


def run_with_progress(
    paths: list[Path], options: Options, settings: RunSettings, err: Console, *, fix: bool, write: bool
) -> engine.RunResult:
    """Run the engine; on a terminal, with a progress bar (files done, findings so far) on stderr."""
    files = files_of(paths)
    stdin = sys.stdin.buffer.read() if files == [engine.STDIN] else None
    kwargs = dict(fix=fix, write=write, jobs=settings.jobs, cache=settings.cache(options), stdin=stdin)
    if not err.is_terminal or len(files) < 2:
        return engine.run(files, options, **kwargs)  # type: ignore[arg-type]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[found]}"))
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("fixing" if fix else "checking", total=len(files), found="")
        found = 0

        def advance(result: engine.FileResult) -> None:
            nonlocal found
            found += len(result.findings) + len(result.applied)
            bar.update(task, advance=1, found=f"{found} findings")

        return engine.run(files, options, progress=advance, **kwargs)  # type: ignore[arg-type]

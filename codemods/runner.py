"""What every command does before it reports: find the files, run the engine, show progress."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jaxfix.transforms import Options
from jaxfix.transforms.core.lazy import lazy

from . import engine
from .cache import ResultCache
from .discovery import discover, resolved
from .project import project_root

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
) -> engine.RunResult:
    """Run the engine; on a terminal, with a progress bar (files done, findings so far) on stderr."""
    cache = settings.cache(options)
    try:
        return _run_files(
            files, options, settings, err, cache, fix=fix, write=write, stdin=stdin, max_file_size=max_file_size
        )
    finally:
        if cache is not None and cache.unusable:
            err.print(f"warning: results are not cached: cannot write in {cache.unusable}", markup=False)


def _run_files(files, options, settings, err, cache, *, fix, write, stdin, max_file_size) -> engine.RunResult:
    kwargs = dict(
        fix=fix,
        write=write,
        max_file_size=max_file_size,
        jobs=settings.jobs,
        cache=cache,
        stdin=stdin,
        project_files=[] if settings.single_file else project_files_of(files),
    )
    if not err.is_terminal or len(files) < 2:
        return engine.run(files, options, **kwargs)  # type: ignore[arg-type]
    columns = (
        rich_progress.TextColumn("{task.description}"),
        rich_progress.BarColumn(),
        rich_progress.MofNCompleteColumn(),
        rich_progress.TextColumn("{task.fields[found]}"),
    )
    # The bar redraws around what the console prints: it needs rich's own console (console.py).
    with rich_progress.Progress(*columns, console=err.rich, transient=True) as bar:
        task = bar.add_task("fixing" if fix else "checking", total=len(files), found="")
        found = 0

        def advance(result: engine.FileResult) -> None:
            nonlocal found
            found += len(result.findings) + len(result.applied)
            bar.update(task, advance=1, found=f"{found} findings")

        return engine.run(files, options, progress=advance, **kwargs)  # type: ignore[arg-type]

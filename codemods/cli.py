"""The ``jaxfix`` command: check, diff, migrate, rules, explain.

Output is rich on a terminal and plain when piped (a piped ``jaxfix diff`` is
a patch ``git apply`` accepts). Exit codes: 0 nothing left to fix, 1 findings
left (for ``diff``: also fixes not yet applied), 2 usage error, bad
configuration, or unreadable input.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.syntax import Syntax
from rich.table import Table

from transforms import RULES, Options

from . import engine
from .report import json as json_report
from .report import text as text_report
from .report.diff import display_path, unified_diff
from .runner import RunSettings, files_of, run_with_progress
from .vcs import dirty_files

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Find JAX static-argument pitfalls and rewrite them into code that runs.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"


Paths = Annotated[
    list[Path], typer.Argument(help="Files or folders to process; `-` reads one file from stdin.", show_default=False)
]
Select = Annotated[Optional[list[str]], typer.Option("--select", help="Only these rule codes (prefixes allowed).")]
Ignore = Annotated[Optional[list[str]], typer.Option("--ignore", help="Skip these rule codes (prefixes allowed).")]
Unsafe = Annotated[bool, typer.Option("--unsafe-fixes", help="Also apply fixes marked unsafe.")]
Jobs = Annotated[Optional[int], typer.Option("--jobs", "-j", help="Worker processes (default: all cores).", min=1)]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the result cache.")]
CacheDir = Annotated[
    Optional[Path],
    typer.Option("--cache-dir", help="Where results are cached (default: $JAXFIX_CACHE_DIR, else ./.jaxfix_cache)."),
]


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _options(select: list[str] | None, ignore: list[str] | None, unsafe: bool) -> Options:
    def codes(values: list[str] | None) -> frozenset[str]:
        return frozenset(c.strip().upper() for v in values or [] for c in v.split(",") if c.strip())

    chosen = codes(select) if select else None
    unknown = [c for c in (chosen or set()) | codes(ignore) if not any(r.startswith(c) for r in RULES)]
    if unknown:
        raise typer.BadParameter(f"no rule matches {', '.join(sorted(unknown))}", param_hint="--select/--ignore")
    return Options(select=chosen, ignore=codes(ignore), unsafe_fixes=unsafe)


def _run(paths: list[Path], options: Options, settings: RunSettings, *, fix: bool, write: bool) -> engine.RunResult:
    try:
        return run_with_progress(paths, options, settings, _console(stderr=True), fix=fix, write=write)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="PATHS") from None


def _print_findings(run: engine.RunResult, console: Console) -> None:
    for result, finding in run.findings:
        for line in text_report.finding_lines(result, finding):
            console.print(line, markup=False)


def _print_errors(run: engine.RunResult) -> None:
    err = _console(stderr=True)
    for result in run.errors:
        err.print(text_report.error_line(result), markup=False)


@app.command()
def check(
    paths: Paths,
    output_format: Annotated[OutputFormat, typer.Option("--output-format", help="How to print findings.")] = OutputFormat.text,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
) -> None:
    """Report findings; change nothing."""
    options = _options(select, ignore, unsafe_fixes)
    run = _run(paths, options, RunSettings(jobs, no_cache, cache_dir), fix=False, write=False)
    if output_format is OutputFormat.json:
        sys.stdout.write(json_report.render(run))
    else:
        out = _console()
        _print_findings(run, out)
        out.print(text_report.summary(run, applied=False), markup=False)
    _print_errors(run)
    _print_tables(run, _console(stderr=True), only_on_terminal=True)
    raise typer.Exit(run.exit_code(pending_changes=False))


@app.command()
def diff(
    paths: Paths,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
) -> None:
    """Show the fixes as a unified diff (a dry run: nothing is written)."""
    options = _options(select, ignore, unsafe_fixes)
    run = _run(paths, options, RunSettings(jobs, no_cache, cache_dir), fix=True, write=False)
    patch = "".join(unified_diff(r.original, r.fixed, r.path) for r in run.changed)
    if sys.stdout.isatty() and patch:
        _console().print(Syntax(patch, "diff", theme="ansi_dark", background_color="default"))
    else:
        sys.stdout.write(patch)
    err = _console(stderr=True)
    _print_findings(run, err)
    _print_errors(run)
    err.print(_diff_summary(run), markup=False)
    raise typer.Exit(run.exit_code(pending_changes=True))


def _diff_summary(run: engine.RunResult) -> str:
    fixes = sum(len(r.applied) for r in run.changed)
    left = len(run.findings)
    return (
        f"Would fix {fixes} finding{'s' if fixes != 1 else ''} in {len(run.changed)} "
        f"file{'s' if len(run.changed) != 1 else ''}; {left} left for a person."
    )


@app.command()
def migrate(
    paths: Paths,
    allow_dirty: Annotated[bool, typer.Option("--allow-dirty", help="Also rewrite files with uncommitted changes.")] = False,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
) -> None:
    """Apply the fixes in place (`-`: read stdin, write the fixed text to stdout)."""
    options = _options(select, ignore, unsafe_fixes)
    settings = RunSettings(jobs, no_cache, cache_dir)
    if paths == [engine.STDIN]:
        run = _run(paths, options, settings, fix=True, write=False)
        (result,) = run.files
        sys.stdout.write(result.fixed if result.error is None else result.original)
        _print_findings(run, _console(stderr=True))
        _print_errors(run)
        raise typer.Exit(run.exit_code(pending_changes=False))
    if not allow_dirty:
        dirty = dirty_files(p for p in files_of(paths) if p.exists())
        if dirty:
            err = _console(stderr=True)
            err.print(
                f"error: {len(dirty)} file{'s have' if len(dirty) != 1 else ' has'} uncommitted changes; "
                "commit or stash them, or pass --allow-dirty:",
                markup=False,
            )
            for path in sorted(dirty):
                err.print(f"  {display_path(path)}", markup=False)
            raise typer.Exit(2)
    run = _run(paths, options, settings, fix=True, write=True)
    out = _console()
    _print_findings(run, out)
    _print_errors(run)
    _print_tables(run, out, only_on_terminal=False)
    out.print(text_report.summary(run, applied=True), markup=False)
    raise typer.Exit(run.exit_code(pending_changes=False))


def _print_tables(run: engine.RunResult, console: Console, *, only_on_terminal: bool) -> None:
    """Files by how far they got, then fixes and findings by rule."""
    if only_on_terminal and not console.is_terminal:
        return
    table = Table(show_header=True, header_style="bold")
    for heading in ("files", "skipped by pre-filter", "parsed", "from cache", "changed", "errors"):
        table.add_column(heading, justify="right")
    table.add_row(
        str(len(run.files)),
        str(run.count("filtered") + run.count("screened")),
        str(run.count("parsed")),
        str(run.count("cached")),
        str(len(run.changed)),
        str(len(run.errors)),
    )
    console.print(table)
    fixed = text_report.counts_by_rule(f for r in run.files for f in r.applied)
    left = text_report.counts_by_rule(f for _, f in run.findings)
    if fixed or left:
        by_rule = Table(show_header=True, header_style="bold")
        for heading in ("rule", "fixed", "left for a person"):
            by_rule.add_column(heading)
        for code in sorted(set(fixed) | set(left)):
            by_rule.add_row(code, str(fixed.get(code, 0)), str(left.get(code, 0)))
        console.print(by_rule)


@app.command()
def rules() -> None:
    """List the rules."""
    table = Table(show_header=True, header_style="bold")
    table.add_column("code")
    table.add_column("name")
    table.add_column("fix")
    table.add_column("summary")
    for code, rule in RULES.items():
        table.add_row(code, rule.name, rule.fix_class.value, rule.summary)
    _console().print(table)


@app.command()
def explain(code: Annotated[str, typer.Argument(help="A rule code, e.g. JAX101.")]) -> None:
    """Show a rule's documentation."""
    rule = RULES.get(code.upper())
    if rule is None:
        _console(stderr=True).print(f"error: no rule {code!r}; see `jaxfix rules`", markup=False)
        raise typer.Exit(2)
    out = _console()
    out.print(f"{rule.code} {rule.name} ({rule.fix_class.value} fix)", markup=False)
    out.print(rule.summary, markup=False)
    out.print("", markup=False)
    out.print(rule.documentation(), markup=False)


def main() -> None:
    app()

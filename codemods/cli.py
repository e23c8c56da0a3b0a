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
from .discovery import discover
from .report import json as json_report
from .report import text as text_report
from .report.diff import display_path, unified_diff
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


Paths = Annotated[list[Path], typer.Argument(help="Files or folders to process.", show_default=False)]
Select = Annotated[Optional[list[str]], typer.Option("--select", help="Only these rule codes (prefixes allowed).")]
Ignore = Annotated[Optional[list[str]], typer.Option("--ignore", help="Skip these rule codes (prefixes allowed).")]
Unsafe = Annotated[bool, typer.Option("--unsafe-fixes", help="Also apply fixes marked unsafe.")]


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


def _files(paths: list[Path]) -> list[Path]:
    return discover(paths)


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
) -> None:
    """Report findings; change nothing."""
    options = _options(select, ignore, unsafe_fixes)
    run = engine.run(_files(paths), options, fix=False, write=False)
    if output_format is OutputFormat.json:
        sys.stdout.write(json_report.render(run))
    else:
        out = _console()
        for result, finding in run.findings:
            for line in text_report.finding_lines(result, finding):
                out.print(line, markup=False)
        out.print(text_report.summary(run, applied=False), markup=False)
    _print_errors(run)
    raise typer.Exit(run.exit_code(pending_changes=False))


@app.command()
def diff(
    paths: Paths,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
) -> None:
    """Show the fixes as a unified diff (a dry run: nothing is written)."""
    options = _options(select, ignore, unsafe_fixes)
    run = engine.run(_files(paths), options, fix=True, write=False)
    patch = "".join(unified_diff(r.original, r.fixed, r.path) for r in run.changed)
    if sys.stdout.isatty() and patch:
        _console().print(Syntax(patch, "diff", theme="ansi_dark", background_color="default"))
    else:
        sys.stdout.write(patch)
    err = _console(stderr=True)
    for result, finding in run.findings:
        for line in text_report.finding_lines(result, finding):
            err.print(line, markup=False)
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
) -> None:
    """Apply the fixes in place."""
    options = _options(select, ignore, unsafe_fixes)
    files = _files(paths)
    if not allow_dirty:
        dirty = dirty_files(p for p in files if p.exists())
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
    run = engine.run(files, options, fix=True, write=True)
    out = _console()
    for result, finding in run.findings:
        for line in text_report.finding_lines(result, finding):
            out.print(line, markup=False)
    _print_errors(run)
    out.print(_summary_table(run))
    out.print(text_report.summary(run, applied=True), markup=False)
    raise typer.Exit(run.exit_code(pending_changes=False))


def _summary_table(run: engine.RunResult) -> Table:
    table = Table(title=None, show_header=True, header_style="bold")
    table.add_column("files")
    table.add_column("skipped by pre-filter", justify="right")
    table.add_column("changed", justify="right")
    table.add_column("fixes applied", justify="right")
    table.add_column("findings left", justify="right")
    table.add_column("errors", justify="right")
    table.add_row(
        str(len(run.files)),
        str(sum(1 for r in run.files if r.skipped)),
        str(len(run.changed)),
        str(sum(len(r.applied) for r in run.files)),
        str(len(run.findings)),
        str(len(run.errors)),
    )
    return table


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

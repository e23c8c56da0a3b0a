"""The ``jaxfix`` command: check, diff, migrate, review, rules, explain.

Stdout holds data (a report, a patch ``git apply`` accepts, the review, fixed
text); tables and progress go to stderr, and only on a terminal. Exit codes:
0 nothing left to fix, 1 findings left (for ``diff``: also fixes not yet
applied), 2 usage error, bad configuration, unreadable input, or a crash.
"""

from __future__ import annotations

import contextlib
import enum
import os
import signal
import sys
import traceback as traceback_module
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer

from jaxfix import transforms
from jaxfix.transforms.catalogue import BY_CODE as RULE_CARDS
from jaxfix.transforms.core.lazy import lazy

from . import config, engine, golden_examples, write_guard
from .console import Console
from .discovery import discover, passed_by
from .report import diff as diff_report
from .report import text as text_report
from .report.diff import display_path, patch_base
from .runner import RunSettings, default_cache_dir, run_files
from .version import version

# Loaded on first use (core/lazy.py; rich's console: console.py): each command needs its own reporter
# only, and `jaxfix check` of a file the pre-filter drops needs none of rich's tables and highlighting,
# the rules (libcst), the other formats or the review bot (benchmarks/latency.py measures the difference).
rich_syntax = lazy("rich.syntax")
rich_table = lazy("rich.table")
doc_text = lazy("jaxfix.codemods.doc_text")
interactive = lazy("jaxfix.codemods.interactive")
triage_report = lazy("jaxfix.codemods.triage_report")
github_report = lazy("jaxfix.codemods.report.github")
json_report = lazy("jaxfix.codemods.report.json")
rdjson_report = lazy("jaxfix.codemods.report.rdjson")
review_report = lazy("jaxfix.codemods.report.review")
sarif_report = lazy("jaxfix.codemods.report.sarif")
review_collect = lazy("jaxfix.codemods.review.collect")
review_post = lazy("jaxfix.codemods.review.post")
changed_lines = lazy("jaxfix.codemods.review.changed_lines")
github_api = lazy("jaxfix.codemods.review.github_api")
server_protocol = lazy("jaxfix.codemods.server.protocol")

app = typer.Typer(
    no_args_is_help=True,
    help="Find JAX static-argument pitfalls and rewrite them into code that runs.",
    context_settings={"help_option_names": ["-h", "--help"]},
    # Click's own help layout: it wraps to the terminal and never cuts an option's name (typer's rich
    # panels cut `--no-unsafe-fixes` at 80 columns and print a `<bool>` metavar on every flag).
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"jaxfix {version()}\n")
        raise typer.Exit(0)


@app.callback()
def _main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print jaxfix's version and exit."),
    ] = False,
) -> None:
    """Find JAX static-argument pitfalls and rewrite them into code that runs."""


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"
    rdjson = "rdjson"


class ReviewFormat(str, enum.Enum):
    review = "review"
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"
    rdjson = "rdjson"


Paths = Annotated[
    list[Path],
    typer.Argument(
        metavar="PATH", help="Files or folders to process; `-` reads one file from stdin.", show_default=False
    ),
]
Jobs = Annotated[
    Optional[int], typer.Option("--jobs", "-j", metavar="N", help="Worker processes (default: all cores).", min=1)
]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the result cache.")]
CacheDir = Annotated[
    Optional[Path],
    typer.Option(
        "--cache-dir",
        metavar="DIR",
        help="Where results are cached (default: $JAXFIX_CACHE_DIR, else ~/.cache/jaxfix).",
    ),
]
SingleFile = Annotated[
    bool,
    typer.Option(
        "--single-file",
        help="Analyse each file on its own, without following imports into the project's other modules.",
    ),
]
Select = Annotated[
    Optional[list[str]], typer.Option("--select", metavar="CODE", help="Only these rule codes (prefixes allowed).")
]
Ignore = Annotated[
    Optional[list[str]], typer.Option("--ignore", metavar="CODE", help="Skip these rule codes (prefixes allowed).")
]
Unsafe = Annotated[
    Optional[bool],
    typer.Option("--unsafe-fixes/--no-unsafe-fixes", help="Also apply fixes marked unsafe.", show_default=False),
]
Exclude = Annotated[
    Optional[list[str]],
    typer.Option(
        "--exclude",
        metavar="PATTERN",
        help="Leave out files matching these glob patterns (relative to the current folder).",
    ),
]
FrozenMapping = Annotated[
    Optional[str],
    typer.Option(
        "--frozen-mapping", metavar="NAME", help=f"Frozen mapping for JAX201: {', '.join(config.FROZEN_MAPPINGS)}."
    ),
]
TargetVersion = Annotated[
    Optional[str],
    typer.Option("--target-version", metavar="VERSION", help="Oldest Python to support: py311, 3.12, ..."),
]
ExpectedErrors = Annotated[
    bool,
    typer.Option(
        "--show-expected-errors",
        help="Also report findings in code that expects their error (pytest.raises, assertRaises); "
        "by default they are counted, not reported.",
    ),
]
MaxFileSize = Annotated[
    Optional[str],
    typer.Option(
        "--max-file-size", metavar="SIZE", help="Refuse files larger than this (default 1MB; 0: no limit).", show_default=False
    ),
]


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr)


def _flags(
    select: list[str] | None,
    ignore: list[str] | None,
    unsafe: bool | None,
    exclude: list[str] | None = None,
    frozen_mapping: str | None = None,
    target_version: str | None = None,
    expected_errors: bool = False,
    max_file_size: str | None = None,
) -> config.Settings:
    """The settings given on the command line (None where a flag was not given)."""

    def codes(values: list[str] | None, flag: str) -> frozenset[str] | None:
        if not values:
            return None
        parsed, unknown = config.parse_codes(values)
        if unknown:
            raise typer.BadParameter(f"no rule matches {', '.join(unknown)}", param_hint="--select/--ignore")
        if not parsed and flag == "--select":
            raise typer.BadParameter("selects no rule; leave it out to select every rule", param_hint=flag)
        return parsed

    if frozen_mapping is not None and frozen_mapping not in config.FROZEN_MAPPINGS:
        raise typer.BadParameter(f"must be one of {', '.join(config.FROZEN_MAPPINGS)}", param_hint="--frozen-mapping")
    target = None
    if target_version is not None:
        try:
            target = config.parse_target_version(target_version)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--target-version") from None
    size = None
    if max_file_size is not None:
        try:
            size = config.parse_size(max_file_size)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--max-file-size") from None
    return config.Settings(
        select=codes(select, "--select"),
        ignore=codes(ignore, "--ignore"),
        max_file_size=size,
        exclude=tuple(exclude) if exclude else None,
        unsafe_fixes=unsafe,
        frozen_mapping=frozen_mapping,
        target_version=target,
        expected_errors=expected_errors or None,
    )


def _plan(paths: list[Path], flags: config.Settings) -> list[tuple[config.Resolved, list[Path]]]:
    """The paths grouped by the [tool.jaxfix] that governs them; a bad configuration exits 2.

    `-` (stdin) alone takes the configuration of the current folder.
    """
    if engine.STDIN in paths and paths != [engine.STDIN]:
        raise typer.BadParameter("`-` (stdin) cannot be mixed with other paths", param_hint="PATHS")
    try:
        if paths == [engine.STDIN]:
            ((settings, _),) = config.plan([Path.cwd()], flags)
            return [(settings, paths)]
        return config.plan(paths, flags)
    except config.ConfigError as error:
        _console(stderr=True).print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None


def _targets(plan: list[tuple[config.Resolved, list[Path]]]) -> list[tuple[config.Resolved, list[Path]]]:
    """Each group's files: discovered under its paths, less what its configuration excludes."""
    if len(plan) == 1 and plan[0][1] == [engine.STDIN]:
        return plan
    groups = [(settings, [p for p in discover(paths) if not settings.excludes(p)]) for settings, paths in plan]
    err = _console(stderr=True)
    for link, why in passed_by():
        err.print(f"note: {display_path(link)}: {why}", markup=False)
    return groups


def _run_groups(
    plan: list[tuple[config.Resolved, list[Path]]],
    *,
    fix: bool,
    write: bool,
    discovered: bool = False,
    run: RunSettings = RunSettings(no_cache=True),
    stdin: bytes | None = None,
) -> list[tuple[engine.RunResult, config.Resolved]]:
    targets = plan if discovered else _targets(plan)
    if stdin is None and [files for _, files in targets] == [[engine.STDIN]]:
        stdin = sys.stdin.buffer.read()
    err = _console(stderr=True)
    try:
        return [
            (run_files(files, settings.options, run, err, fix=fix, write=write, stdin=stdin,
                       max_file_size=settings.max_file_size), settings)
            for settings, files in targets
        ]
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (`main`): every file is whole, old or new
        err.print(f"\ninterrupted: {'each file holds its old text or its whole fix' if write else 'nothing written'}",
                  markup=False)
        raise typer.Exit(128 + _INTERRUPTED_BY) from None


def _merged(groups: list[tuple[engine.RunResult, config.Resolved]]) -> engine.RunResult:
    merged = engine.RunResult()
    for run, _ in groups:
        merged.files.extend(run.files)
    return merged


def _run(
    plan: list[tuple[config.Resolved, list[Path]]],
    *,
    fix: bool,
    write: bool,
    discovered: bool = False,
    run: RunSettings = RunSettings(no_cache=True),
    stdin: bytes | None = None,
) -> engine.RunResult:
    return _merged(_run_groups(plan, fix=fix, write=write, discovered=discovered, run=run, stdin=stdin))


def _print_errors(run: engine.RunResult) -> None:
    err = _console(stderr=True)
    for result in run.errors:
        err.print(text_report.error_line(result), markup=False)
    for result in run.files:
        if result.notice:
            err.print(f"{display_path(result.path)}: note: {result.notice}", markup=False)


def _print_findings(run: engine.RunResult, console: Console) -> None:
    for result, finding in run.findings:
        for line in text_report.finding_lines(result, finding):
            console.print(line, markup=False)


@app.command()
def check(
    paths: Paths,
    output_format: Annotated[OutputFormat, typer.Option("--output-format", help="How to print findings.")] = OutputFormat.text,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    max_file_size: MaxFileSize = None,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
    single_file: SingleFile = False,
) -> None:
    """Report findings; change nothing."""
    plan = _plan(paths, _flags(select, ignore, unsafe_fixes, exclude, frozen_mapping, target_version, expected_errors, max_file_size))
    groups = _run_groups(plan, fix=False, write=False, run=RunSettings(jobs, no_cache, cache_dir, single_file))
    run = _merged(groups)
    unsafe_paths = {r.path for group, settings in groups if settings.options.unsafe_fixes for r in group.files}
    _report(run, output_format, unsafe_fixes=unsafe_paths.__contains__)
    _print_errors(run)
    _print_tables(run, _console(stderr=True), fixed_column=False)
    raise typer.Exit(run.exit_code(pending_changes=False))


def _report(
    run: engine.RunResult, output_format: OutputFormat | ReviewFormat, *, unsafe_fixes: Callable[[Path], bool]
) -> None:
    """Findings on stdout in the chosen format (text: with a summary line).

    ``unsafe_fixes(path)``: whether that file's own settings allow unsafe fixes
    (paths under different [tool.jaxfix] tables may differ).
    """
    if output_format.value == "json":
        sys.stdout.write(json_report.render(run))
    elif output_format.value == "sarif":
        sys.stdout.write(sarif_report.render(run))
    elif output_format.value == "github":
        sys.stdout.write(github_report.render(run))
    elif output_format.value == "rdjson":
        sys.stdout.write(rdjson_report.render(run, unsafe_fixes=unsafe_fixes))
    else:
        out = _console()
        _print_findings(run, out)
        out.print(text_report.summary(run, applied=False), markup=False)


@app.command(short_help="Show the fixes as a patch; -i picks them.")
def diff(
    paths: Paths,
    interactive_mode: Annotated[
        bool, typer.Option("--interactive", "-i", help="Ask about each fix (y/n/a/q) and write the accepted ones.")
    ] = False,
    allow_dirty: AllowDirty = False,
    allow_no_vcs: AllowNoVcs = False,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    max_file_size: MaxFileSize = None,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
    single_file: SingleFile = False,
) -> None:
    """Show the fixes as a unified diff (a dry run: nothing is written, unless --interactive)."""
    plan = _plan(paths, _flags(select, ignore, unsafe_fixes, exclude, frozen_mapping, target_version, expected_errors, max_file_size))
    settings = RunSettings(jobs, no_cache, cache_dir, single_file)
    if interactive_mode:
        _diff_interactive(plan, settings, allow_dirty, allow_no_vcs)
    run = _run(plan, fix=True, write=False, run=settings)
    err = _console(stderr=True)
    base, where = patch_base([r.path for r in run.changed]) if run.changed else (Path.cwd(), None)
    patch = b"".join(
        diff_report.patch(r.original, r.fixed, Path(os.path.relpath(os.path.abspath(r.path), base)).as_posix(), r.encoding)
        for r in run.changed
    )
    if sys.stdout.isatty() and patch:
        _console().print(rich_syntax.Syntax(patch.decode("utf-8", "replace"), "diff", theme="ansi_dark", background_color="default"))
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(patch)  # the files' own bytes: a latin-1 or BOM file's patch applies
        sys.stdout.flush()
    if where:
        err.print(f"note: {where}", markup=False)
    _print_findings(run, err)
    _print_errors(run)
    err.print(_diff_summary(run), markup=False)
    raise typer.Exit(run.exit_code(pending_changes=True))


def _diff_interactive(
    plan: list[tuple[config.Resolved, list[Path]]], settings: RunSettings, allow_dirty: bool, allow_no_vcs: bool
) -> None:
    """The interactive review of each fix; always exits. It writes, so migrate's dirty-tree rule applies."""
    err = _console(stderr=True)
    if not sys.stdin.isatty():
        err.print("error: --interactive needs a terminal to ask on; use `jaxfix diff` for a patch", markup=False)
        raise typer.Exit(2)
    plan = _targets(plan)
    record = _clear_to_write([p for _, files in plan for p in files], allow_dirty, allow_no_vcs, settings)
    groups = _run_groups(plan, fix=False, write=False, discovered=True, run=settings)
    run = _merged(groups)
    candidates = interactive.offers([(r, s.options) for r, s in groups])
    out = _console()
    try:
        choices = interactive.choose(candidates, interactive.ask_on_terminal(out))
    except KeyboardInterrupt:
        err.print("\ninterrupted: nothing written", markup=False)
        raise typer.Exit(130) from None
    written = {w.path: w for w in interactive.write_accepted(choices.accepted)}
    record.remember((w.path, w.data) for w in written.values() if not w.error and w.data is not None)
    left = sum(written[r.path].findings_left if r.path in written else len(r.findings) for r in run.files)
    for result in run.files:
        if result.path.suffix != ".py" and any(f.fix for f in result.findings):
            err.print(f"{display_path(result.path)}: not offered: only .py files are fixed interactively", markup=False)
    for w in written.values():
        if w.error:
            err.print(f"{display_path(w.path)}: error: {w.error}", markup=False)
    _print_errors(run)
    applied = sum(w.fixes for w in written.values() if not w.error)
    files = sum(1 for w in written.values() if not w.error)
    summary = f"Applied {applied} fix{'es' if applied != 1 else ''} in {files} file{'s' if files != 1 else ''}"
    summary += f"; {left} finding{'s' if left != 1 else ''} left."
    if choices.overlapping:
        many = choices.overlapping != 1
        summary += (
            f" {choices.overlapping} fix{'es' if many else ''} overlapped an accepted one: "
            f"run again to review {'them' if many else 'it'}."
        )
    out.print(summary, markup=False)
    if run.errors or any(w.error for w in written.values()):
        raise typer.Exit(2)
    raise typer.Exit(1 if left else 0)


def _diff_summary(run: engine.RunResult) -> str:
    fixes = sum(len(r.applied) for r in run.files)
    left = len(run.findings)
    return (
        f"Would fix {fixes} finding{'s' if fixes != 1 else ''} in {len(run.changed)} "
        f"file{'s' if len(run.changed) != 1 else ''}; {left} left for a person."
    )


AllowDirty = Annotated[
    bool, typer.Option("--allow-dirty", help="Also rewrite files git has no committed version of, or cannot tell about.")
]
AllowNoVcs = Annotated[bool, typer.Option("--allow-no-vcs", help="Also rewrite files outside any git work tree.")]


def _clear_to_write(files: list[Path], allow_dirty: bool, allow_no_vcs: bool, settings: RunSettings):
    """The dirty-tree rule every writing command applies (`write_guard`); exits 2 when refused."""
    record = write_guard.record_for(None if settings.no_cache else settings.cache_dir or default_cache_dir())
    lines = write_guard.clear_to_write(files, allow_dirty=allow_dirty, allow_no_vcs=allow_no_vcs, record=record)
    err = _console(stderr=True)
    for line in lines:
        err.print(line, markup=False)
    if any(line.startswith("error:") for line in lines):
        raise typer.Exit(2)
    return record


@app.command(short_help="Apply the fixes in place.")
def migrate(
    paths: Paths,
    allow_dirty: AllowDirty = False,
    allow_no_vcs: AllowNoVcs = False,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    max_file_size: MaxFileSize = None,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
    single_file: SingleFile = False,
) -> None:
    """Apply the fixes in place (`-`: read stdin, write the fixed text to stdout)."""
    plan = _plan(paths, _flags(select, ignore, unsafe_fixes, exclude, frozen_mapping, target_version, expected_errors, max_file_size))
    settings = RunSettings(jobs, no_cache, cache_dir, single_file)
    if paths == [engine.STDIN]:
        data = sys.stdin.buffer.read()
        run = _run(plan, fix=True, write=False, run=settings, stdin=data)
        (result,) = run.files
        # The whole input, in its own bytes: fixed, or exactly as it came (skipped, undecodable).
        sys.stdout.buffer.write(result.fixed.encode(result.encoding) if result.changed else data)
        sys.stdout.flush()
        _print_findings(run, _console(stderr=True))
        _print_errors(run)
        raise typer.Exit(run.exit_code(pending_changes=False))
    targets = _targets(plan)
    record = _clear_to_write([p for _, files in targets for p in files], allow_dirty, allow_no_vcs, settings)
    run = _run(targets, fix=True, write=True, discovered=True, run=settings)
    record.remember((r.path, r.fixed.encode(r.encoding)) for r in run.files if r.written)
    out = _console()
    _print_findings(run, out)
    _print_errors(run)
    _print_tables(run, _console(stderr=True), fixed_column=True)
    out.print(text_report.summary(run, applied=True), markup=False)
    raise typer.Exit(run.exit_code(pending_changes=False))


def _print_tables(run: engine.RunResult, console: Console, *, fixed_column: bool) -> None:
    """Files by how far they got, then fixes and findings by rule: for people, so only on a terminal.

    Given the stderr console: stdout holds data (a report, a diff, fixed
    text), and tables piped into pre-commit's output or a CI log are noise.
    """
    if not console.is_terminal:
        return
    table = rich_table.Table(show_header=True, header_style="bold")
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
        by_rule = rich_table.Table(show_header=True, header_style="bold")
        headings = ("rule", "fixed", "left for a person") if fixed_column else ("rule", "findings")
        for heading in headings:
            by_rule.add_column(heading)
        for code in sorted(set(fixed) | set(left)):
            counts = (fixed.get(code, 0), left.get(code, 0)) if fixed_column else (left.get(code, 0),)
            by_rule.add_row(code, *map(str, counts))
        console.print(by_rule)


@app.command(short_help="Review the lines a branch changed.")
def review(
    paths: Annotated[
        Optional[list[Path]],
        typer.Argument(
            metavar="PATH", help="Files or folders to review (default: the current folder).", show_default=False
        ),
    ] = None,
    base: Annotated[
        str,
        typer.Option(
            "--base", metavar="REF", help="The branch or commit the pull request merges into.", show_default=False
        ),
    ] = ...,  # type: ignore[assignment]
    post: Annotated[
        bool,
        typer.Option("--post", help="Post the review to the pull request (where, and with what token: see above)."),
    ] = False,
    repo: Annotated[
        Optional[str],
        typer.Option(
            "--repo", metavar="OWNER/NAME", help="With --post: the repository (instead of GITHUB_REPOSITORY)."
        ),
    ] = None,
    pr: Annotated[
        Optional[int],
        typer.Option(
            "--pr", metavar="N", min=1, help="With --post: the pull request's number (instead of GITHUB_EVENT_PATH)."
        ),
    ] = None,
    output_format: Annotated[
        ReviewFormat, typer.Option("--output-format", help="What to print: the review payload, or findings as for check.")
    ] = ReviewFormat.review,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
) -> None:
    """Review the lines a branch changed since --base, as pull-request suggestions.

    \b
    --post reads:
      GITHUB_TOKEN       a token that may write pull-request reviews
      GITHUB_API_URL     the REST API (https://api.github.com, or your GitHub
                         Enterprise's); the only host the token is sent to
      GITHUB_REPOSITORY  owner/name; --repo replaces it
      GITHUB_EVENT_PATH  the pull_request event: the number and head commit;
                         --pr replaces it (the event is then not read)
    GitHub Actions sets all four; other CI systems give --repo and --pr.

    When GitHub answers 403 or 404 (a pull request from a fork gets a
    read-only token), the findings become workflow annotations instead and
    the exit code is the one without --post.
    """
    err = _console(stderr=True)
    pull = None
    if (repo is not None or pr is not None) and not post:
        raise typer.BadParameter("--repo and --pr say where --post posts; give --post too", param_hint="--repo/--pr")
    if not base.strip():
        err.print(
            "error: --base is empty: give the commit or branch the pull request merges into "
            "(the action's `base` input is empty on events other than pull_request)",
            markup=False,
        )
        raise typer.Exit(2)
    if post:
        try:
            pull = review_post.from_environment(os.environ, repository=repo, number=pr)
        except review_post.PostError as error:
            err.print(f"error: {error}", markup=False)
            raise typer.Exit(2) from None
    plan = _plan(paths or [Path(".")], _flags(select, ignore, unsafe_fixes, exclude, frozen_mapping, target_version, expected_errors))
    try:
        result = review_collect.collect(plan, base, Path.cwd())
    except changed_lines.GitError as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    for path in result.refused:
        err.print(f"{path}: not reviewed: a symbolic link or outside the checkout", markup=False)
    if output_format is ReviewFormat.review:
        sys.stdout.write(review_report.render(result.comments, result.head))
    else:
        _report(result.run, output_format, unsafe_fixes=result.unsafe_paths.__contains__)
    _print_errors(result.run)
    if pull is not None:
        _post_review(pull, result, annotated=output_format is ReviewFormat.github)
    raise typer.Exit(result.run.exit_code(pending_changes=False))


#: Statuses that mean this token may not post here (a fork's read-only token): annotate instead.
NO_REVIEW_PERMISSION = frozenset({403, 404})


def _post_review(pull: review_post.PullRequest, result: review_collect.ReviewResult, *, annotated: bool) -> None:
    """Post the review; on 403/404, print the findings as workflow annotations instead (unless already printed)."""
    err = _console(stderr=True)
    if pull.head_sha and pull.head_sha != result.head:
        err.print(
            f"error: HEAD is {result.head[:12]} but the pull request's head is {pull.head_sha[:12]}; comments would "
            "land on the wrong lines. Check out the pull request's head (actions/checkout with "
            "`ref: ${{ github.event.pull_request.head.sha }}` and `fetch-depth: 0`).",
            markup=False,
        )
        raise typer.Exit(2)
    try:
        client = github_api.GitHubClient(pull.api_url, pull.token)
        outcome = review_post.publish(client, pull, result.comments, result.head)
    except github_api.GitHubError as error:
        if error.status not in NO_REVIEW_PERMISSION:
            err.print(f"error: {error}", markup=False)
            raise typer.Exit(2) from None
        if not annotated:
            sys.stdout.write(github_report.render(result.run))
        count = len(result.comments)
        err.print(
            f"warning: cannot post a review (GitHub answered {error.status}: a pull request from a fork gets a "
            f"read-only token); {count} finding{'s are' if count != 1 else ' is'} reported as workflow "
            "annotations instead",
            markup=False,
        )
        return
    if not result.comments:
        err.print("No findings on changed lines; nothing posted.", markup=False)
    elif outcome.posted:
        extra = f" ({outcome.already} already posted)" if outcome.already else ""
        where = f": {outcome.url}" if outcome.url else ""
        err.print(f"Posted a review with {outcome.posted} comment{'s' if outcome.posted != 1 else ''}{extra}{where}", markup=False)
    else:
        err.print(f"All {outcome.already} findings were already posted; no new review.", markup=False)


@app.command()
def rules() -> None:
    """List the rules: code, name, fix class, summary."""
    with _reader_may_stop_early():
        _print_rules()


@contextlib.contextmanager
def _reader_may_stop_early() -> Iterator[None]:
    """A listing piped into `head` or `true` is done when its reader stops: no error, exit 0.

    (Click's own handler exits 1 on a broken pipe.) stdout is pointed at
    /dev/null so that the interpreter's last flush does not fail again.
    """
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _print_rules() -> None:
    out = _console()
    if not out.is_terminal:  # one tab-separated line a rule, for scripts
        sys.stdout.writelines(f"{code}\t{r.name}\t{r.fix_label()}\t{r.summary}\n" for code, r in RULE_CARDS.items())
        return
    # Codes and names are what people copy into --select and `explain`: never wrapped or cut; the summary
    # wraps (folding a long identifier rather than ending it in "…").
    table = rich_table.Table(show_header=True, header_style="bold")
    table.add_column("code", no_wrap=True, min_width=max(map(len, RULE_CARDS)))
    table.add_column("name", no_wrap=True, min_width=max(len(r.name) for r in RULE_CARDS.values()))
    table.add_column("fix", no_wrap=True)
    table.add_column("summary", overflow="fold")
    for code, rule in RULE_CARDS.items():
        table.add_row(code, rule.name, rule.fix_label(), rule.summary)
    out.print(table)


@app.command(short_help="Document a rule, or triage a traceback.")
def explain(
    code: Annotated[
        Optional[str], typer.Argument(metavar="CODE", help="A rule code, e.g. JAX101.", show_default=False)
    ] = None,
    traceback: Annotated[
        Optional[str],
        typer.Option(
            "--traceback",
            metavar="FILE",
            help="A file holding a pasted JAX error and its traceback (`-`: stdin): say which pitfall it is and "
            "show the finding and fix at your line.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Show a rule's documentation and a verified before/after pair from golden/; or triage a pasted traceback."""
    if traceback is not None:
        _explain_traceback(traceback)
        return
    if code is None:
        _console(stderr=True).print("error: give a rule code, or --traceback FILE", markup=False)
        raise typer.Exit(2)
    rule = transforms.RULES.get(code.upper())
    if rule is None:
        _console(stderr=True).print(f"error: no rule {code!r}; see `jaxfix rules`", markup=False)
        raise typer.Exit(2)
    out = _console()
    label = "report only, no" if rule.report_only else rule.fix_class.value
    out.print(f"{rule.code} {rule.name} ({label} fix)", markup=False)
    out.print(rule.summary, markup=False)
    out.print("", markup=False)
    out.print(doc_text.render(rule.documentation(), styled=out.is_terminal))
    example = golden_examples.example(rule.code)
    if example is None:
        return
    out.print("", markup=False)
    out.print(f"Example (golden/{example['case']}, run by the test suite with real JAX):", markup=False)
    out.print(example["description"], markup=False)
    for label in ("before", "after"):
        if not example[label]:
            continue
        out.print("", markup=False)
        out.print(f"{label.capitalize()}:", markup=False)
        if out.is_terminal:
            out.print(rich_syntax.Syntax(example[label], "python", theme="ansi_dark", background_color="default", line_numbers=True))
        else:
            out.print(example[label].rstrip("\n"), markup=False, highlight=False)
    if not example["after"]:
        out.print("", markup=False)
        out.print("Reported (no rewrite):", markup=False)
        for finding in transforms.check_source(example["before"]):
            if finding.code == rule.code:
                out.print(f"line {finding.line}: {finding.message}", markup=False, highlight=False)
                for note in finding.notes:
                    out.print(f"    note: {note}", markup=False, highlight=False)


def _explain_traceback(source: str) -> None:
    """Read the pasted error (a file, or stdin for `-`), print the triage, exit 0 / 1 / 2."""
    try:
        if source == "-":
            text, base = sys.stdin.read(), None
        else:
            path = Path(source)
            text, base = path.read_text(encoding="utf-8", errors="replace"), path.absolute().parent
    except OSError as error:
        _console(stderr=True).print(f"error: cannot read {source}: {error.strerror or error}", markup=False)
        raise typer.Exit(2) from None
    lines, code = triage_report.explain_traceback(text, base)
    out = _console()
    for line in lines:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


#: The signal that stopped the run (SIGTERM is made to behave as Ctrl-C does).
_INTERRUPTED_BY = signal.SIGINT


def _terminated(signum: int, frame) -> None:
    global _INTERRUPTED_BY
    _INTERRUPTED_BY = signal.Signals(signum)
    raise KeyboardInterrupt


@app.command(short_help="Run the language server (LSP over stdio).")
def server() -> None:
    """Run jaxfix as a language server on stdin and stdout, for editors: diagnostics as you type,
    each fix and "suppress on this line" as code actions, and source.fixAll.jaxfix (see the README).
    Needs the server extra: pip install 'jaxfix[server]'."""
    try:
        serve = server_protocol.serve
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
            raise
        _console(stderr=True).print(
            f"error: jaxfix server needs {error.name}: pip install 'jaxfix[server]'", markup=False
        )
        raise typer.Exit(2) from None
    serve()


def main() -> None:
    """Run the command; a crash exits 2, never 1.

    Exit 1 means "findings", which CI may be told to accept (the action's
    `fail-on-findings: false`): a traceback must not read as findings.
    """
    try:
        # One program name however it is started (`jaxfix`, `python -m jaxfix`): usage lines and the
        # shell-completion variable (_JAXFIX_COMPLETE) both come from it.
        signal.signal(signal.SIGTERM, _terminated)
        app(prog_name="jaxfix")
    except Exception:  # noqa: BLE001  # SystemExit and KeyboardInterrupt pass through
        traceback_module.print_exc()
        sys.stderr.write("jaxfix: internal error (the traceback above); please report it\n")
        sys.exit(2)

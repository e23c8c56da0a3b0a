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
import shlex
import signal
import sys
import time
import traceback as traceback_module
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Optional

import typer

from jaxfix import transforms
from jaxfix.transforms.catalogue import BY_CODE as RULE_CARDS
from jaxfix.transforms.core.lazy import lazy

from . import config, engine, golden_examples, interrupts, write_guard
from .console import Console
from .discovery import discover, passed_by
from .git import work_tree_top
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
add_noqa = lazy("jaxfix.codemods.add_noqa")
config_schema = lazy("jaxfix.codemods.config_schema")
settings_view = lazy("jaxfix.codemods.settings_view")
shard = lazy("jaxfix.codemods.shard")
fixes_report = lazy("jaxfix.codemods.report.fixes")
gitlab_report = lazy("jaxfix.codemods.report.gitlab")
grouped_report = lazy("jaxfix.codemods.report.grouped")
json_lines_report = lazy("jaxfix.codemods.report.json_lines")
junit_report = lazy("jaxfix.codemods.report.junit")
migration_report = lazy("jaxfix.codemods.report.migration")
pylint_report = lazy("jaxfix.codemods.report.pylint")
statistics_report = lazy("jaxfix.codemods.report.statistics")

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
    json_lines = "json-lines"
    sarif = "sarif"
    github = "github"
    rdjson = "rdjson"
    junit = "junit"
    gitlab = "gitlab"
    grouped = "grouped"
    pylint = "pylint"


class ReviewFormat(str, enum.Enum):
    review = "review"
    text = "text"
    json = "json"
    json_lines = "json-lines"
    sarif = "sarif"
    github = "github"
    rdjson = "rdjson"
    junit = "junit"
    gitlab = "gitlab"
    grouped = "grouped"
    pylint = "pylint"


def _env(key: str) -> str | None:
    """The environment variable of a [tool.jaxfix] key (config.MODEL names them)."""
    return config.BY_NAME[key].env


Paths = Annotated[
    list[Path],
    typer.Argument(
        metavar="PATH", help="Files or folders to process; `-` reads one file from stdin.", show_default=False
    ),
]
Jobs = Annotated[
    Optional[int], typer.Option("--jobs", "-j", metavar="N", help="Worker processes (default: all cores).", min=1)
]
NoCache = Annotated[
    bool, typer.Option("--no-cache", envvar="JAXFIX_NO_CACHE", help="Neither read nor write the result cache.")
]
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
    Optional[list[str]],
    typer.Option("--select", metavar="CODE", envvar=_env("select"), help="Only these rule codes (prefixes allowed)."),
]
ExtendSelect = Annotated[
    Optional[list[str]],
    typer.Option(
        "--extend-select", metavar="CODE", envvar=_env("extend-select"), help="Codes added to those selected."
    ),
]
Ignore = Annotated[
    Optional[list[str]],
    typer.Option("--ignore", metavar="CODE", envvar=_env("ignore"), help="Skip these rule codes (prefixes allowed)."),
]
PerFileIgnores = Annotated[
    Optional[list[str]],
    typer.Option(
        "--per-file-ignores",
        metavar="GLOB:CODES",
        envvar=_env("per-file-ignores"),
        help="Skip these codes in files the glob matches (relative to the current folder; `!` negates), "
        "e.g. 'tests/*:JAX101,JAX102'; replaces the per-file-ignores key.",
    ),
]
Unsafe = Annotated[
    Optional[bool],
    typer.Option(
        "--unsafe-fixes/--no-unsafe-fixes",
        envvar=_env("unsafe-fixes"),
        help="Also apply fixes marked unsafe.",
        show_default=False,
    ),
]
Exclude = Annotated[
    Optional[list[str]],
    typer.Option(
        "--exclude",
        metavar="PATTERN",
        envvar=_env("exclude"),
        help="Leave out files matching these glob patterns (relative to the current folder).",
    ),
]
FrozenMapping = Annotated[
    Optional[str],
    typer.Option(
        "--frozen-mapping",
        metavar="NAME",
        envvar=_env("frozen-mapping"),
        help=f"Frozen mapping for JAX201: {', '.join(config.FROZEN_MAPPINGS)}.",
    ),
]
TargetVersion = Annotated[
    Optional[str],
    typer.Option(
        "--target-version",
        metavar="VERSION",
        envvar=_env("target-version"),
        help="Oldest Python to support: py311, 3.12, ...",
    ),
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
        "--max-file-size",
        metavar="SIZE",
        envvar=_env("max-file-size"),
        help="Refuse files larger than this (default 1MB; 0: no limit).",
        show_default=False,
    ),
]
ConfigOption = Annotated[
    Optional[list[str]],
    typer.Option(
        "--config",
        metavar="FILE|KEY=VALUE",
        help="A configuration file for every path (a pyproject.toml's [tool.jaxfix], or a TOML file of its keys), "
        "or a TOML `KEY = VALUE` override, e.g. --config \"select = ['JAX1']\".",
    ),
]
Isolated = Annotated[bool, typer.Option("--isolated", help="Read no configuration file.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print findings (or the patch), nothing else.")]
Silent = Annotated[
    bool, typer.Option("--silent", "-s", help="Print nothing but errors; the exit code still says what was found.")
]
Verbose = Annotated[
    bool, typer.Option("--verbose", "-v", help="Also say which settings govern which paths, what each file went through, and how long it took.")
]
OutputFile = Annotated[
    Optional[Path],
    typer.Option(
        "--output-file", "-o", metavar="FILE", envvar="JAXFIX_OUTPUT_FILE", help="Write the report to FILE, not stdout."
    ),
]
ExitZero = Annotated[
    bool, typer.Option("--exit-zero", "-e", help="Exit 0 even when findings are left (2 still means errors).")
]
Statistics = Annotated[
    bool, typer.Option("--statistics", help="Print a count per rule code (fixable or not) instead of each finding.")
]
ShowFixes = Annotated[bool, typer.Option("--show-fixes", help="Show each fix (check: its diff; migrate: what was fixed, per file).")]
ShowSettings = Annotated[bool, typer.Option("--show-settings", help="Print the settings each path gets, and where each comes from; then exit.")]
ShowFiles = Annotated[bool, typer.Option("--show-files", help="Print the files that would be processed; then exit.")]
StdinFilename = Annotated[
    Optional[str],
    typer.Option(
        "--stdin-filename",
        metavar="PATH",
        help="With `-`: the file's name, for messages, configuration and per-file-ignores.",
    ),
]
Shard = Annotated[
    Optional[str],
    typer.Option(
        "--shard",
        metavar="K/N",
        envvar="JAXFIX_SHARD",
        help="Process part K of N (a CI matrix): files split by bytes, the same way on every machine; "
        "imports still read the whole project.",
    ),
]
Report = Annotated[
    Optional[Path],
    typer.Option("--report", metavar="FILE.md", help="Write a Markdown migration report (for the pull request) to FILE."),
]

#: The settings flags (also their parameter names), as config.Settings calls them.
SETTING_FLAGS = (
    "select", "extend_select", "ignore", "per_file_ignores", "exclude", "unsafe_fixes", "frozen_mapping",
    "target_version", "max_file_size", "expected_errors",
)


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr)


@dataclass(frozen=True)
class Voice:
    """How much a command says: --quiet (findings only), --silent (errors only), --verbose."""

    quiet: bool = False
    silent: bool = False
    verbose: bool = False

    @property
    def chatty(self) -> bool:
        """Summaries, notes, tables and the progress display."""
        return not (self.quiet or self.silent)


def _voice(ctx: typer.Context) -> Voice:
    quiet, silent, verbose = (bool(ctx.params.get(name)) for name in ("quiet", "silent", "verbose"))
    if verbose and (quiet or silent):
        raise typer.BadParameter("--verbose says more, --quiet and --silent less: give one", param_hint="--verbose")
    return Voice(quiet or silent, silent, verbose)


def _flag_value(name: str, value, hint: str):
    """One settings flag's value, checked and converted (None: not given)."""
    if value is None or (isinstance(value, (list, tuple)) and not value) or (name == "expected_errors" and not value):
        return None
    if name in ("select", "extend_select", "ignore"):
        parsed, unknown = config.parse_codes(value)
        if unknown:
            raise typer.BadParameter(f"no rule matches {', '.join(unknown)}", param_hint=hint)
        if not parsed and name == "select":
            raise typer.BadParameter("selects no rule; leave it out to select every rule", param_hint=hint)
        return parsed
    if name == "per_file_ignores":
        pairs = []
        for item in value:
            pattern, colon, codes = item.rpartition(":")
            parsed, unknown = config.parse_codes([codes])
            if not colon or not pattern or not parsed:
                raise typer.BadParameter(f"{item!r} is not GLOB:CODES (e.g. 'tests/*:JAX101')", param_hint=hint)
            if unknown:
                raise typer.BadParameter(f"{item!r}: no rule matches {', '.join(unknown)}", param_hint=hint)
            pairs.append((pattern, parsed))
        return tuple(pairs)
    if name == "exclude":
        return tuple(value)
    if name == "frozen_mapping" and value not in config.FROZEN_MAPPINGS:
        raise typer.BadParameter(f"must be one of {', '.join(config.FROZEN_MAPPINGS)}", param_hint=hint)
    try:
        if name == "target_version":
            return config.parse_target_version(value)
        if name == "max_file_size":
            return config.parse_size(value)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=hint) from None
    return value


@dataclass(frozen=True)
class Given:
    """What the command line and the environment say, before any file is read."""

    #: Every layer over the files, merged: flags, then --config KEY=VALUE, then the environment.
    flags: config.Settings
    #: Settings field -> where its value came from (config.FLAG, ENVIRONMENT or INLINE).
    sources: dict[str, str]
    config_file: Path | None = None
    isolated: bool = False


def _given(ctx: typer.Context) -> Given:
    """The settings flags with their environment variables, and --config, layered (flags beat env beat files)."""
    typed: dict = {}
    from_env: dict = {}
    for name in SETTING_FLAGS:
        if name not in ctx.params:
            continue
        source = getattr(ctx.get_parameter_source(name), "name", "")  # click's ParameterSource (typer vendors click)
        if source not in ("COMMANDLINE", "ENVIRONMENT"):
            continue
        param = next(p for p in ctx.command.params if p.name == name)
        in_env = source == "ENVIRONMENT"
        hint = f"${param.envvar}" if in_env else "/".join(param.opts)
        value = _flag_value(name, ctx.params[name], hint)
        if value is not None:
            (from_env if in_env else typed)[name] = value
    config_file, inline = None, config.Settings()
    overrides = []
    for value in ctx.params.get("config_option") or ():
        if Path(value).is_file():
            if config_file is not None:
                raise typer.BadParameter("give one configuration file", param_hint="--config")
            config_file = Path(value)
        elif "=" in value:
            overrides.append(value)
        else:
            raise typer.BadParameter(f"{value!r}: no such file, and not a `KEY = VALUE` override", param_hint="--config")
    try:
        inline = config.inline(overrides) if overrides else inline
    except config.ConfigError as error:
        raise typer.BadParameter(str(error), param_hint="--config") from None
    isolated = bool(ctx.params.get("isolated"))
    if isolated and config_file is not None:
        raise typer.BadParameter("--isolated reads no file; leave out --config FILE", param_hint="--isolated")
    layers = ((config.Settings(**typed), config.FLAG), (inline, config.INLINE), (config.Settings(**from_env), config.ENVIRONMENT))
    sources = {}
    for layer, label in layers:
        for name in SETTING_FLAGS:
            if name not in sources and getattr(layer, name) is not None:
                sources[name] = label
    return Given(config.layered(*(layer for layer, _ in layers)), sources, config_file, isolated)


@dataclass
class Group:
    """Files that share one configuration: the ones to process, and every one of the run's (for --shard)."""

    settings: config.Resolved
    files: list[Path]
    universe: list[Path] | None = None


def _plan(paths: list[Path], given: Given, stdin_filename: str | None = None) -> list[tuple[config.Resolved, list[Path]]]:
    """The paths grouped by the [tool.jaxfix] that governs them; a bad configuration exits 2.

    `-` (stdin) alone takes the configuration of `--stdin-filename`'s folder, else of the current folder.
    """
    if engine.STDIN in paths and paths != [engine.STDIN]:
        raise typer.BadParameter("`-` (stdin) cannot be mixed with other paths", param_hint="PATHS")
    if stdin_filename is not None and paths != [engine.STDIN]:
        raise typer.BadParameter("names the file read from stdin: give `-` as the path", param_hint="--stdin-filename")
    try:
        if paths == [engine.STDIN]:
            where = Path(stdin_filename) if stdin_filename else Path.cwd()
            ((settings, _),) = config.plan([where], given.flags, given.config_file, given.isolated)
            return [(settings, paths)]
        return config.plan(paths, given.flags, given.config_file, given.isolated)
    except config.ConfigError as error:
        _console(stderr=True).print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None


def _targets(
    plan: list[tuple[config.Resolved, list[Path]]], voice: Voice = Voice(), shard_spec: str | None = None
) -> list[Group]:
    """Each group's files: discovered under its paths, less what its configuration excludes; one shard of them."""
    if len(plan) == 1 and plan[0][1] == [engine.STDIN]:
        if shard_spec is not None:
            raise typer.BadParameter("stdin is one file: nothing to split", param_hint="--shard")
        return [Group(plan[0][0], plan[0][1])]
    groups = [Group(settings, [p for p in discover(paths) if not settings.excludes(p)]) for settings, paths in plan]
    err = _console(stderr=True)
    for link, why in passed_by():
        if voice.chatty:
            err.print(f"note: {display_path(link)}: {why}", markup=False)
    if shard_spec is not None:
        try:
            part, parts = shard.parse(shard_spec)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--shard") from None
        mine = set(shard.select([p for g in groups for p in g.files], part, parts))
        groups = [Group(g.settings, [p for p in g.files if p in mine], g.files) for g in groups]
    return groups


def _run_groups(
    groups: list[Group],
    *,
    fix: bool,
    write: bool,
    run: RunSettings = RunSettings(no_cache=True),
    stdin: bytes | None = None,
    stdin_filename: str | None = None,
    voice: Voice = Voice(),
) -> list[tuple[engine.RunResult, config.Resolved]]:
    if stdin is None and [g.files for g in groups] == [[engine.STDIN]]:
        stdin = sys.stdin.buffer.read()
    err = _console(stderr=True)
    started = time.monotonic()
    out = []
    try:
        for group in groups:
            if not group.files and group.universe is not None:
                out.append((engine.RunResult(), group.settings))  # none of this shard's files are here
                continue
            settings = group.settings
            options, options_for = settings.options, settings.options_for if settings.per_file_ignores else None
            if stdin_filename is not None:  # the file on stdin is its name as far as settings go
                options, options_for = settings.options_for(Path(stdin_filename)), None
            result = run_files(
                group.files, options, run, err, fix=fix, write=write, stdin=stdin,
                max_file_size=settings.max_file_size, options_for=options_for, universe=group.universe,
                show_progress=voice.chatty,
            )
            if stdin_filename is not None:
                result.files = [replace(r, path=Path(stdin_filename)) if r.path == engine.STDIN else r for r in result.files]
            out.append((result, settings))
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (`main`): every file is whole, old or new
        err.print(f"\ninterrupted: {'each file holds its old text or its whole fix' if write else 'nothing written'}",
                  markup=False)
        raise typer.Exit(128 + (interrupts.received() or signal.SIGINT)) from None
    if voice.verbose:
        settings_view.print_verbose(err, out, time.monotonic() - started)
    return out


def _merged(groups: list[tuple[engine.RunResult, config.Resolved]]) -> engine.RunResult:
    merged = engine.RunResult()
    for run, _ in groups:
        merged.files.extend(run.files)
    return merged


def _print_errors(run: engine.RunResult) -> None:
    err = _console(stderr=True)
    for result in run.errors:
        err.print(text_report.error_line(result), markup=False)
    for result in run.files:
        if result.notice:
            err.print(f"{display_path(result.path)}: note: {result.notice}", markup=False)


def _finding_text(run: engine.RunResult, *, show_fixes: bool = False) -> str:
    lines = []
    for result, finding in run.findings:
        lines += text_report.finding_lines(result, finding)
        if show_fixes:
            lines += fixes_report.fix_diff(result, finding)
    return "".join(line + "\n" for line in lines)


class _Output:
    """Where a command's report goes: stdout, or --output-file (written whole at the end)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.parts: list[bytes] = []

    def write(self, text: str | bytes) -> None:
        data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
        if self.path is None:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            self.parts.append(data)

    def close(self) -> None:
        if self.path is None:
            return
        try:
            self.path.write_bytes(b"".join(self.parts))
        except OSError as error:
            _console(stderr=True).print(f"error: cannot write {self.path}: {error.strerror or error}", markup=False)
            raise typer.Exit(2) from None


def _exit(code: int, *, exit_zero: bool = False) -> None:
    """Exit with `code`; --exit-zero turns findings (1) into 0, never errors (2)."""
    raise typer.Exit(0 if exit_zero and code == 1 else code)


def _show_and_exit(ctx: typer.Context, plan, groups: list[Group] | None, given: Given) -> None:
    """--show-settings and --show-files: print, then exit 0."""
    if ctx.params.get("show_settings"):
        sys.stdout.write(settings_view.render(plan, given.sources))
    if ctx.params.get("show_files"):
        files = sorted({display_path(p) for g in groups or () for p in g.files})
        sys.stdout.write("".join(f"{name}\n" for name in files))
    raise typer.Exit(0)


def _run_settings(ctx: typer.Context) -> RunSettings:
    params = ctx.params
    cache_dir = params.get("cache_dir")  # click's value: a str under typer below 0.29, a Path from 0.29
    return RunSettings(
        params.get("jobs"), bool(params.get("no_cache")), Path(cache_dir) if cache_dir else None, bool(params.get("single_file"))
    )


@app.command()
def check(
    ctx: typer.Context,
    paths: Paths,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--output-format",
            metavar="FORMAT",
            envvar="JAXFIX_OUTPUT_FORMAT",
            help=f"How to print findings: {', '.join(f.value for f in OutputFormat)}.",
        ),
    ] = OutputFormat.text,
    output_file: OutputFile = None,
    statistics: Statistics = False,
    show_fixes: ShowFixes = False,
    exit_zero: ExitZero = False,
    add_noqa: Annotated[
        bool,
        typer.Option(
            "--add-noqa",
            help="Write a `# jaxfix: ignore[CODE]` on each finding's line (the dirty-tree rule applies).",
        ),
    ] = False,
    allow_dirty: Annotated[bool, typer.Option("--allow-dirty", help="With --add-noqa: as for migrate.")] = False,
    allow_no_vcs: Annotated[bool, typer.Option("--allow-no-vcs", help="With --add-noqa: as for migrate.")] = False,
    quiet: Quiet = False,
    silent: Silent = False,
    verbose: Verbose = False,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    per_file_ignores: PerFileIgnores = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    max_file_size: MaxFileSize = None,
    config_option: ConfigOption = None,
    isolated: Isolated = False,
    show_settings: ShowSettings = False,
    show_files: ShowFiles = False,
    stdin_filename: StdinFilename = None,
    shard_spec: Shard = None,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
    single_file: SingleFile = False,
) -> None:
    """Report findings; change nothing."""
    voice, given = _voice(ctx), _given(ctx)
    plan = _plan(paths, given, stdin_filename)
    groups = _targets(plan, voice, shard_spec) if not show_settings or show_files else None
    if show_settings or show_files:
        _show_and_exit(ctx, plan, groups, given)
    assert groups is not None
    if add_noqa:
        _clear_to_write([p for g in groups for p in g.files if p != engine.STDIN], allow_dirty, allow_no_vcs,
                        _run_settings(ctx))
    results = _run_groups(groups, fix=False, write=False, run=_run_settings(ctx), stdin_filename=stdin_filename,
                          voice=voice)
    run = _merged(results)
    if add_noqa:
        _add_noqa(run, voice)
    out = _Output(output_file)
    if not voice.silent:
        if statistics:
            out.write(statistics_report.render_json(run, applied=False) if output_format is OutputFormat.json
                      else statistics_report.render_text(run, applied=False))
        else:
            unsafe_paths = {r.path for group, settings in results if settings.options.unsafe_fixes for r in group.files}
            out.write(_render(run, output_format, unsafe_fixes=unsafe_paths.__contains__, show_fixes=show_fixes))
            if output_format is OutputFormat.text and voice.chatty:
                out.write(text_report.summary(run, applied=False) + "\n")
    out.close()
    _print_errors(run)
    if voice.chatty:
        _print_tables(run, _console(stderr=True), fixed_column=False)
    _exit(run.exit_code(pending_changes=False), exit_zero=exit_zero)


def _render(
    run: engine.RunResult,
    output_format: OutputFormat | ReviewFormat,
    *,
    unsafe_fixes: Callable[[Path], bool],
    show_fixes: bool = False,
) -> str:
    """Findings in the chosen format (text: each finding and its notes; the summary is the caller's).

    ``unsafe_fixes(path)``: whether that file's own settings allow unsafe fixes
    (paths under different [tool.jaxfix] tables may differ).
    """
    kind = output_format.value
    if kind == "json":
        return json_report.render(run)
    if kind == "json-lines":
        return json_lines_report.render(run)
    if kind == "sarif":
        return sarif_report.render(run)
    if kind == "github":
        return github_report.render(run)
    if kind == "rdjson":
        return rdjson_report.render(run, unsafe_fixes=unsafe_fixes)
    if kind == "junit":
        return junit_report.render(run)
    if kind == "gitlab":
        return gitlab_report.render(run, _repository_root())
    if kind == "grouped":
        return grouped_report.render(run)
    if kind == "pylint":
        return pylint_report.render(run)
    return _finding_text(run, show_fixes=show_fixes)


def _repository_root() -> Path:
    """The work tree's top folder (GitLab and the migration report give paths relative to it), else the current folder."""
    here = Path(os.path.abspath(os.getcwd()))
    return work_tree_top(here) or here


def _add_noqa(run: engine.RunResult, voice: Voice) -> None:
    """--add-noqa: mark every finding left with a directive; a file that cannot be written is its error."""
    err = _console(stderr=True)
    added = add_noqa.mark(run)
    for marked in added:
        if marked.error:
            err.print(f"{display_path(marked.path)}: error: {marked.error}", markup=False)
        for line in marked.refused:
            err.print(f"{display_path(marked.path)}:{line}: note: no place for a comment here (a string, a "
                      "backslash); not marked", markup=False)
    count = sum(m.count for m in added if not m.error)
    if voice.chatty or voice.verbose:
        err.print(f"Added {count} suppression comment{'s' if count != 1 else ''}.", markup=False)
    raise typer.Exit(2 if run.errors or any(m.error for m in added) else 0)


@app.command(short_help="Show the fixes as a patch; -i picks them.")
def diff(
    ctx: typer.Context,
    paths: Paths,
    interactive_mode: Annotated[
        bool, typer.Option("--interactive", "-i", help="Ask about each fix (y/n/a/q) and write the accepted ones.")
    ] = False,
    allow_dirty: AllowDirty = False,
    allow_no_vcs: AllowNoVcs = False,
    output_file: OutputFile = None,
    report: Report = None,
    exit_zero: ExitZero = False,
    quiet: Quiet = False,
    verbose: Verbose = False,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    per_file_ignores: PerFileIgnores = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    max_file_size: MaxFileSize = None,
    config_option: ConfigOption = None,
    isolated: Isolated = False,
    show_settings: ShowSettings = False,
    show_files: ShowFiles = False,
    stdin_filename: StdinFilename = None,
    shard_spec: Shard = None,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
    single_file: SingleFile = False,
) -> None:
    """Show the fixes as a unified diff (a dry run: nothing is written, unless --interactive)."""
    voice, given = _voice(ctx), _given(ctx)
    plan = _plan(paths, given, stdin_filename)
    if show_settings or show_files:
        _show_and_exit(ctx, plan, _targets(plan, voice, shard_spec) if show_files else None, given)
    settings = _run_settings(ctx)
    if interactive_mode:
        _diff_interactive(plan, settings, allow_dirty, allow_no_vcs)
    groups = _targets(plan, voice, shard_spec)
    run = _merged(_run_groups(groups, fix=True, write=False, run=settings, stdin_filename=stdin_filename, voice=voice))
    err = _console(stderr=True)
    base, where = patch_base([r.path for r in run.changed]) if run.changed else (Path.cwd(), None)
    patch = b"".join(
        diff_report.patch(r.original, r.fixed, Path(os.path.relpath(os.path.abspath(r.path), base)).as_posix(), r.encoding)
        for r in run.changed
    )
    if output_file is None and sys.stdout.isatty() and patch:
        _console().print(rich_syntax.Syntax(patch.decode("utf-8", "replace"), "diff", theme="ansi_dark", background_color="default"))
    else:
        out = _Output(output_file)
        out.write(patch)  # the files' own bytes: a latin-1 or BOM file's patch applies
        out.close()
    if where and voice.chatty:
        err.print(f"note: {where}", markup=False)
    for result, finding in run.findings:
        for line in text_report.finding_lines(result, finding):
            err.print(line, markup=False)
    _print_errors(run)
    if report is not None:
        _write_report(report, run, applied=False)
    if voice.chatty:
        err.print(_diff_summary(run), markup=False)
    _exit(run.exit_code(pending_changes=True), exit_zero=exit_zero)


def _reproducing_command() -> str:
    """The command line of this run, less --report (the command that reproduces the migration)."""
    args = sys.argv[1:]
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "--report":
            skip = True
            continue
        if arg.startswith("--report="):
            continue
        kept.append(arg)
    return shlex.join(["jaxfix", *kept])


def _write_report(path: Path, run: engine.RunResult, *, applied: bool) -> None:
    text = migration_report.render(
        run, root=_repository_root(), command=_reproducing_command(), version=version(), applied=applied
    )
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        _console(stderr=True).print(f"error: cannot write {path}: {error.strerror or error}", markup=False)
        raise typer.Exit(2) from None


def _diff_interactive(
    plan: list[tuple[config.Resolved, list[Path]]], settings: RunSettings, allow_dirty: bool, allow_no_vcs: bool
) -> None:
    """The interactive review of each fix; always exits. It writes, so migrate's dirty-tree rule applies."""
    err = _console(stderr=True)
    if not sys.stdin.isatty():
        err.print("error: --interactive needs a terminal to ask on; use `jaxfix diff` for a patch", markup=False)
        raise typer.Exit(2)
    targets = _targets(plan)
    record = _clear_to_write([p for g in targets for p in g.files], allow_dirty, allow_no_vcs, settings)
    groups = _run_groups(targets, fix=False, write=False, run=settings)
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
    ctx: typer.Context,
    paths: Paths,
    allow_dirty: AllowDirty = False,
    allow_no_vcs: AllowNoVcs = False,
    output_file: OutputFile = None,
    report: Report = None,
    statistics: Statistics = False,
    show_fixes: ShowFixes = False,
    exit_zero: ExitZero = False,
    exit_non_zero_on_fix: Annotated[
        bool, typer.Option("--exit-non-zero-on-fix", help="Exit 1 when anything was fixed, even with nothing left.")
    ] = False,
    quiet: Quiet = False,
    silent: Silent = False,
    verbose: Verbose = False,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    per_file_ignores: PerFileIgnores = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    max_file_size: MaxFileSize = None,
    config_option: ConfigOption = None,
    isolated: Isolated = False,
    show_settings: ShowSettings = False,
    show_files: ShowFiles = False,
    stdin_filename: StdinFilename = None,
    shard_spec: Shard = None,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    cache_dir: CacheDir = None,
    single_file: SingleFile = False,
) -> None:
    """Apply the fixes in place (`-`: read stdin, write the fixed text to stdout)."""
    voice, given = _voice(ctx), _given(ctx)
    plan = _plan(paths, given, stdin_filename)
    if show_settings or show_files:
        _show_and_exit(ctx, plan, _targets(plan, voice, shard_spec) if show_files else None, given)
    settings = _run_settings(ctx)
    if paths == [engine.STDIN]:
        data = sys.stdin.buffer.read()
        run = _merged(_run_groups(_targets(plan), fix=True, write=False, run=settings, stdin=data,
                                  stdin_filename=stdin_filename, voice=voice))
        (result,) = run.files
        # The whole input, in its own bytes: fixed, or exactly as it came (skipped, undecodable).
        out = _Output(output_file)
        out.write(result.fixed.encode(result.encoding) if result.changed else data)
        out.close()
        if not voice.silent:
            for line in _finding_text(run).splitlines():
                _console(stderr=True).print(line, markup=False)
        _print_errors(run)
        _exit(_migrate_exit(run, exit_non_zero_on_fix), exit_zero=exit_zero)
    targets = _targets(plan, voice, shard_spec)
    record = _clear_to_write([p for g in targets for p in g.files], allow_dirty, allow_no_vcs, settings)
    run = _merged(_run_groups(targets, fix=True, write=True, run=settings, voice=voice))
    record.remember((r.path, r.fixed.encode(r.encoding)) for r in run.files if r.written)
    out = _Output(output_file)
    if not voice.silent:
        if statistics:
            out.write(statistics_report.render_text(run, applied=True))
        else:
            out.write(_finding_text(run))
        if show_fixes:
            out.write(fixes_report.fixed_summary(run))
        if voice.chatty:
            out.write(text_report.summary(run, applied=True) + "\n")
    out.close()
    _print_errors(run)
    if voice.chatty:
        _print_tables(run, _console(stderr=True), fixed_column=True)
    if report is not None:
        _write_report(report, run, applied=True)
    _exit(_migrate_exit(run, exit_non_zero_on_fix), exit_zero=exit_zero)


def _migrate_exit(run: engine.RunResult, exit_non_zero_on_fix: bool) -> int:
    """2 errors, 1 findings left (or, with --exit-non-zero-on-fix, anything fixed), else 0."""
    code = run.exit_code(pending_changes=False)
    if code == 0 and exit_non_zero_on_fix and any(r.applied for r in run.files):
        return 1
    return code


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
    ctx: typer.Context,
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
        ReviewFormat,
        typer.Option(
            "--output-format",
            metavar="FORMAT",
            help="What to print: the review payload (review), or findings as for check: "
            f"{', '.join(f.value for f in ReviewFormat if f is not ReviewFormat.review)}.",
        ),
    ] = ReviewFormat.review,
    output_file: OutputFile = None,
    exit_zero: ExitZero = False,
    quiet: Quiet = False,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    per_file_ignores: PerFileIgnores = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    frozen_mapping: FrozenMapping = None,
    target_version: TargetVersion = None,
    expected_errors: ExpectedErrors = False,
    config_option: ConfigOption = None,
    isolated: Isolated = False,
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
    plan = _plan(paths or [Path(".")], _given(ctx))
    try:
        result = review_collect.collect(plan, base, Path.cwd())
    except changed_lines.GitError as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    for path in result.refused:
        err.print(f"{path}: not reviewed: a symbolic link or outside the checkout", markup=False)
    out = _Output(output_file)
    if output_format is ReviewFormat.review:
        out.write(review_report.render(result.comments, result.head))
    else:
        out.write(_render(result.run, output_format, unsafe_fixes=result.unsafe_paths.__contains__))
        if output_format is ReviewFormat.text and not quiet:
            out.write(text_report.summary(result.run, applied=False) + "\n")
    out.close()
    _print_errors(result.run)
    if pull is not None:
        _post_review(pull, result, annotated=output_format is ReviewFormat.github and output_file is None)
    _exit(result.run.exit_code(pending_changes=False), exit_zero=exit_zero)


#: Statuses that mean this token may not post here (a fork's read-only token): annotate instead.
NO_REVIEW_PERMISSION = frozenset({403, 404})


#: Seconds before the first retry of a failed GitHub request (doubling after each); a CI system
#: that retries jobs itself, or a test against a local server, may set 0.
BACKOFF_VARIABLE = "JAXFIX_GITHUB_BACKOFF"


def _retry_backoff() -> float:
    text = os.environ.get(BACKOFF_VARIABLE, "").strip()
    if not text:
        return 1.0
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 60:
        _console(stderr=True).print(f"error: {BACKOFF_VARIABLE} must be seconds from 0 to 60, not {text!r}", markup=False)
        raise typer.Exit(2)
    return seconds


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
    backoff = _retry_backoff()
    try:
        client = github_api.GitHubClient(pull.api_url, pull.token, backoff=backoff)
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


@app.command("config", short_help="List the [tool.jaxfix] keys, or print their JSON schema.")
def config_keys(
    schema: Annotated[
        bool, typer.Option("--schema", help="Print the JSON schema of [tool.jaxfix] (the file the package ships).")
    ] = False,
) -> None:
    """List the [tool.jaxfix] keys: name, environment variable, meaning; or print the table's JSON schema."""
    with _reader_may_stop_early():
        if schema:
            sys.stdout.write(config_schema.SHIPPED.read_text(encoding="utf-8"))
            return
        for key in config.MODEL:
            sys.stdout.write(f"{key.name}\t{key.env or ''}\t{key.description}\n")


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
        interrupts.install()
        app(prog_name="jaxfix")
    except Exception:  # noqa: BLE001  # SystemExit and KeyboardInterrupt pass through
        traceback_module.print_exc()
        sys.stderr.write("jaxfix: internal error (the traceback above); please report it\n")
        sys.exit(2)

"""What --show-settings prints (each group's settings, and where each came from) and what --verbose adds.

The settings are printed as the [tool.jaxfix] table that would give them, each
key with a comment naming its source: `flag`, `environment` (the variable),
`--config` (a KEY=VALUE override), `file` or `default`. That is the
precedence, shown: flags beat the environment, which beats the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from jaxfix.transforms import Options

from . import config
from .engine import RunResult
from .report.diff import display_path

_STAGES = {"filtered": "skipped by the pre-filter", "screened": "skipped by the screen", "parsed": "analysed",
           "cached": "from the cache", "error": "error"}


def _toml(value: object) -> str:
    if isinstance(value, (set, frozenset)):
        value = sorted(value)
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return json.dumps(f"py{value[0]}{value[1]}")
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # per-file-ignores pairs
        return "{" + ", ".join(f"{json.dumps(p)} = {_toml(c)}" for p, c in value) + "}"
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value)


def _effective(resolved: config.Resolved) -> dict[str, object]:
    options: Options = resolved.options
    return {
        "select": sorted(options.select) if options.select is not None else "every rule",
        "ignore": options.ignore,
        "per-file-ignores": resolved.per_file_ignores,
        "exclude": resolved.exclude,
        "unsafe-fixes": options.unsafe_fixes,
        "frozen-mapping": options.frozen_mapping,
        "target-version": options.target_version,
        "max-file-size": resolved.max_file_size,
    }


def render(plan: list[tuple[config.Resolved, list[Path]]], sources: dict[str, str]) -> str:
    out: list[str] = []
    for resolved, paths in plan:
        names = ", ".join(display_path(p) for p in paths[:5]) + (f", … ({len(paths)} paths)" if len(paths) > 5 else "")
        out.append(f"# settings for: {names}")
        out.append(f"# configuration file: {display_path(resolved.source) if resolved.source else 'none'}")
        for key, value in _effective(resolved).items():
            field = config.BY_NAME[key].field
            origin = sources.get(field)
            if origin == config.ENVIRONMENT:
                origin = f"environment ${config.BY_NAME[key].env}"
            elif origin is None:
                origin = config.FILE if getattr(resolved.file_settings, field) is not None else config.DEFAULT
            if key == "select" and sources.get("extend_select"):
                origin += ", extend-select from " + sources["extend_select"]
            if key == "per-file-ignores" and not value:
                shown = "{}"
            elif isinstance(value, str) and value == "every rule":
                shown = json.dumps(value)
            else:
                shown = _toml(value)
            out.append(f"{key} = {shown}  # {origin}")
        out.append("")
    return "\n".join(out)


def print_verbose(err: Console, results: list[tuple[RunResult, config.Resolved]], seconds: float) -> None:
    """--verbose: each group's configuration, each file's stage, the time taken (on stderr)."""
    files = 0
    for run, resolved in results:
        source = display_path(resolved.source) if resolved.source else "no configuration file"
        err.print(f"verbose: {len(run.files)} file{'s' if len(run.files) != 1 else ''} with {source}", markup=False)
        for result in run.files:
            err.print(f"verbose: {display_path(result.path)}: {_STAGES.get(result.stage, result.stage)}", markup=False)
        files += len(run.files)
    err.print(f"verbose: {files} file{'s' if files != 1 else ''} in {seconds:.2f} s", markup=False)

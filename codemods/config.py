"""``[tool.jaxfix]`` in pyproject.toml, merged with the command line's flags.

The table is found by walking up from each path given on the command line to
the first pyproject.toml that has one (a pyproject.toml without it is passed
by, as ruff does); paths that lead to different tables are run with their own
settings. A flag given on the command line replaces the key it names. Keys
are checked strictly: an unknown key, a value of the wrong type, or a rule
code that matches no rule is an error that names the key and the file, since
a typo silently ignored would change what a whole repository gets.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from jaxfix.transforms import Options
from jaxfix.transforms.catalogue import BY_CODE as RULE_CARDS

from .report.diff import display_path

#: Files larger than this are refused unless asked (``max-file-size``). Measured: a dense 1 MB
#: module (a fix in every function) takes 33 s and 1.2 GB to fix, and time and memory grow with
#: size (the issue's 5.8 MB generated module: 48-98 s, 1.7-2.3 GB); every hand-written module
#: among the 17,600 of this machine's site-packages and standard library is under 760 KB, and
#: the larger ones are generated (916 KB of MLIR bindings, a 4 MB table of AWS policies).
DEFAULT_MAX_FILE_SIZE = 1_000_000
_SIZE = re.compile(r"^\s*(\d+)\s*(|b|k|kb|kib|m|mb|mib)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1_000_000, "mb": 1_000_000, "mib": 1 << 20}

#: What ``frozen-mapping`` may name (DESIGN.md 1): ``auto`` lets the module's own imports decide.
FROZEN_MAPPINGS = ("auto", "frozendict", "immutabledict", "flax", "ml_collections", "builtin")

_VERSION = re.compile(r"^(?:py)?(3)\.?(\d{1,2})$")
_REQUIRES_PYTHON_FLOOR = re.compile(r">=\s*3\.(\d{1,2})")


class ConfigError(Exception):
    """A setting jaxfix cannot use; the message names the file and the key."""


def parse_codes(values: Iterable[str]) -> tuple[frozenset[str], list[str]]:
    """Rule codes or prefixes (comma-separated allowed), and those that match no rule."""
    codes = frozenset(c.strip().upper() for v in values for c in v.split(",") if c.strip())
    unknown = sorted(c for c in codes if not any(r.startswith(c) for r in RULE_CARDS))
    return codes, unknown


def parse_size(value: str | int) -> int:
    """``2MB``, ``500KB``, ``1MiB`` or a number of bytes; 0 means no limit."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    match = _SIZE.match(value) if isinstance(value, str) else None
    if not match:
        raise ValueError(f"{value!r} is not a size (write it as 2MB, 500KB or a number of bytes; 0: no limit)")
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def parse_target_version(value: str) -> tuple[int, int]:
    """``py311`` (ruff's spelling) or ``3.11`` -> (3, 11)."""
    match = _VERSION.match(value.strip())
    if not match:
        raise ValueError(f"{value!r} is not a Python version (write it as py311 or 3.11)")
    return int(match.group(1)), int(match.group(2))


@dataclass(frozen=True)
class Settings:
    """Everything a run needs that can come from a file or a flag; None: not said here."""

    select: frozenset[str] | None = None
    ignore: frozenset[str] | None = None
    exclude: tuple[str, ...] | None = None
    unsafe_fixes: bool | None = None
    frozen_mapping: str | None = None
    target_version: tuple[int, int] | None = None
    #: Report findings in code that expects their error (a flag only: no key in the file).
    expected_errors: bool | None = None
    max_file_size: int | None = None
    #: Codes added to `select` (whichever of flag, environment or file gave it).
    extend_select: frozenset[str] | None = None
    #: (glob, codes) pairs: codes ignored in the files the glob matches (ruff's per-file-ignores).
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] | None = None


@dataclass(frozen=True)
class FileConfig:
    """What one pyproject.toml says (path None: no file, every default)."""

    path: Path | None
    settings: Settings = field(default_factory=Settings)

    @property
    def root(self) -> Path:
        """The folder exclude patterns are relative to."""
        return self.path.parent if self.path else Path.cwd()


@dataclass(frozen=True)
class Resolved:
    """Settings for one group of paths: the rules' options, and what to leave out."""

    options: Options
    exclude: tuple[str, ...] = ()
    exclude_root: Path = field(default_factory=Path.cwd)
    source: Path | None = None
    #: Bytes above which a file is refused (0: no limit).
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    per_file_root: Path = field(default_factory=Path.cwd)
    #: What the configuration file itself said (--show-settings tells the file's values from defaults).
    file_settings: Settings = field(default_factory=lambda: Settings())

    def excludes(self, path: Path) -> bool:
        return is_excluded(path, self.exclude, self.exclude_root)

    def ignored_in(self, path: Path) -> frozenset[str]:
        """The codes `per-file-ignores` ignores in this file (a `!pattern` applies to files it does not match)."""
        codes: frozenset[str] = frozenset()
        for pattern, ignored in self.per_file_ignores:
            negated = pattern.startswith("!")
            if is_excluded(path, [pattern.removeprefix("!")], self.per_file_root) != negated:
                codes |= ignored
        return codes

    def options_for(self, path: Path) -> Options:
        """The rules' options for one file: the group's, less what per-file-ignores ignores there."""
        extra = self.ignored_in(path) if self.per_file_ignores else frozenset()
        return replace(self.options, ignore=self.options.ignore | extra) if extra - self.options.ignore else self.options


def is_excluded(path: Path, patterns: Sequence[str], root: Path) -> bool:
    """Glob patterns as in .gitignore, roughly: with a ``/`` a pattern is anchored at root
    and matches the path or a folder above it; without one it matches any single
    component (``build``, ``*_pb2.py``)."""
    if not patterns:
        return False
    try:
        parts = path.absolute().relative_to(root.absolute()).parts
    except ValueError:
        parts = None
    for pattern in patterns:
        pattern = pattern.strip().removeprefix("./").rstrip("/")
        if not pattern:
            continue
        if "/" in pattern:
            if parts is not None and any(
                fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1)
            ):
                return True
        elif any(fnmatch.fnmatchcase(part, pattern) for part in (parts if parts is not None else (path.name,))):
            return True
    return False


def find_pyproject(start: Path, memo: dict[Path, Path | None] | None = None) -> Path | None:
    """The nearest pyproject.toml with a [tool.jaxfix] table, at start or above it.

    ``memo`` (folder -> answer) spares re-reading the same files when many
    paths share folders, as with the file lists pre-commit passes.
    """
    memo = {} if memo is None else memo
    folder = start.absolute()
    if not folder.is_dir():
        folder = folder.parent
    visited: list[Path] = []
    found: Path | None = None
    for candidate in (folder, *folder.parents):
        if candidate in memo:
            found = memo[candidate]
            break
        visited.append(candidate)
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and "jaxfix" in _table(_read_toml(pyproject), "tool", pyproject):
            found = pyproject
            break
    for candidate in visited:
        memo[candidate] = found
    return found


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{display_path(path)}: not valid TOML: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{display_path(path)}: cannot read: {error}") from None
    except RecursionError:
        raise ConfigError(f"{display_path(path)}: nested too deeply to read") from None


def _table(document: dict, key: str, path: Path) -> dict:
    """A top-level table of the document ({} when absent); any other value is an error:
    `tool = 5` or `project = "x"` break the pyproject.toml format, and guessing around
    them could run with settings nobody wrote."""
    value = document.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{display_path(path)}: `{key}` must be a table, not {type(value).__name__} {value!r}")
    return value


def load(pyproject: Path) -> FileConfig:
    """Read and check [tool.jaxfix] of one pyproject.toml (a file of another name: its top level, as ruff.toml)."""
    document = _read_toml(pyproject)
    if pyproject.name == "pyproject.toml":
        table = _table(document, "tool", pyproject).get("jaxfix", {})
        project = _table(document, "project", pyproject)
    else:
        table, project = document, {}
    if not isinstance(table, dict):
        raise ConfigError(f"{display_path(pyproject)}: [tool.jaxfix] must be a table")
    settings = settings_from_table(table, display_path(pyproject))
    if settings.target_version is None:
        settings = replace(settings, target_version=_requires_python_floor(project))
    return FileConfig(pyproject, settings)


def settings_from_table(table: dict, where: str, heading: str = "[tool.jaxfix]") -> Settings:
    """Check every key of a [tool.jaxfix] table (or of `--config KEY=VALUE`) against the model."""
    for key in table:
        if key not in KEYS:
            close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else f"; known keys: {', '.join(KEYS)}"
            raise ConfigError(f"{where}: unknown key `{key}` in {heading}{hint}")
    values = {}
    for key in MODEL:
        if key.name in table:
            try:
                values[key.field] = key.parse(table[key.name])
            except ValueError as error:
                raise ConfigError(f"{where}: {heading} {key.name}: {error}") from None
    return Settings(**values)


def _requires_python_floor(project: dict) -> tuple[int, int] | None:
    """The project's minimum Python (``requires-python = ">=3.12"``) when no target-version is set."""
    requires = project.get("requires-python")
    match = _REQUIRES_PYTHON_FLOOR.search(requires) if isinstance(requires, str) else None
    return (3, int(match.group(1))) if match else None


#: Where each setting came from, as --show-settings says it.
FLAG, ENVIRONMENT, INLINE, FILE, DEFAULT = "flag", "environment", "--config", "file", "default"


def layered(*layers: Settings) -> Settings:
    """The first layer that says a setting wins (flags, then environment, then --config KEY=VALUE)."""
    values = {}
    for item in fields(Settings):
        for layer in layers:
            value = getattr(layer, item.name)
            if value is not None:
                values[item.name] = value
                break
    return Settings(**values)


def resolve(config: FileConfig, flags: Settings) -> Resolved:
    """The file's settings with every flag that was given put over them."""
    file = config.settings

    def pick(name: str):
        given = getattr(flags, name)
        return given if given is not None else getattr(file, name)

    defaults = Options()
    select = pick("select")
    extend = (flags.extend_select or frozenset()) | (file.extend_select or frozenset())
    if select is not None and extend:
        select = select | extend
    options = Options(
        select=select,
        ignore=pick("ignore") or frozenset(),
        unsafe_fixes=bool(pick("unsafe_fixes")),
        frozen_mapping=pick("frozen_mapping") or defaults.frozen_mapping,
        target_version=pick("target_version") or defaults.target_version,
        expected_errors=bool(flags.expected_errors),
    )
    size = pick("max_file_size")
    size = DEFAULT_MAX_FILE_SIZE if size is None else size
    # Patterns from a flag are relative to the current folder, from the file to its folder (as exclude's).
    per_file_root = Path.cwd() if flags.per_file_ignores is not None else config.root
    per_file = pick("per_file_ignores") or ()
    if flags.exclude is not None:
        return Resolved(options, flags.exclude, Path.cwd(), config.path, size, per_file, per_file_root, file)
    return Resolved(options, file.exclude or (), config.root, config.path, size, per_file, per_file_root, file)


def plan(paths: Sequence[Path], flags: Settings, config_file: Path | None = None,
         isolated: bool = False) -> list[tuple[Resolved, list[Path]]]:
    """The paths grouped by the configuration that governs them, in the order given.

    `config_file` (``--config FILE``) governs every path; `isolated` reads no file at all.
    """
    if config_file is not None or isolated:
        loaded = load(config_file) if config_file is not None else FileConfig(None)
        return [(resolve(loaded, flags), list(paths))]
    loaded: dict[Path | None, FileConfig] = {}
    groups: dict[Path | None, list[Path]] = {}
    memo: dict[Path, Path | None] = {}
    for path in paths:
        pyproject = find_pyproject(path, memo)
        if pyproject not in loaded:
            loaded[pyproject] = load(pyproject) if pyproject else FileConfig(None)
        groups.setdefault(pyproject, []).append(path)
    return [(resolve(loaded[key], flags), members) for key, members in groups.items()]


def inline(values: Sequence[str]) -> Settings:
    """``--config "select = ['JAX1']"``: TOML `KEY = VALUE` pairs, checked as the table's keys are."""
    table: dict = {}
    for value in values:
        try:
            parsed = tomllib.loads(value)
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"--config {value!r}: neither a file nor a TOML `KEY = VALUE` pair: {error}") from None
        table.update(parsed)
    return settings_from_table(table, "--config", heading="the overrides")


# -- the model: every key, its type, its documentation, its variable ---------------------------------


def _codes(key: str) -> Callable[[object], frozenset[str]]:
    def parse(value: object) -> frozenset[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError('must be a list of rule codes, e.g. ["JAX101"]')
        parsed, unknown = parse_codes(value)
        if unknown:
            raise ValueError(f"no rule matches {', '.join(unknown)}")
        if key == "select" and not parsed:
            raise ValueError("an empty list selects no rule; leave the key out to select every rule")
        return parsed

    return parse


def _globs(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("must be a list of glob patterns")
    return tuple(value)


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _frozen(value: object) -> str:
    if value not in FROZEN_MAPPINGS:
        raise ValueError(f"must be one of {', '.join(FROZEN_MAPPINGS)}, not {value!r}")
    return value  # type: ignore[return-value]


def _version(value: object) -> tuple[int, int]:
    if not isinstance(value, str):
        raise ValueError('must be a string such as "py311"')
    return parse_target_version(value)


def _size(value: object) -> int:
    return parse_size(value)  # type: ignore[arg-type]


def _per_file(value: object) -> tuple[tuple[str, frozenset[str]], ...]:
    if not isinstance(value, dict):
        raise ValueError('must be a table of glob = [codes], e.g. {"tests/*" = ["JAX101"]}')
    out = []
    for pattern, codes in value.items():
        try:
            out.append((pattern, _codes("per-file-ignores")(codes)))
        except ValueError as error:
            raise ValueError(f"{pattern!r}: {error}") from None
    return tuple(out)


@dataclass(frozen=True)
class Key:
    """One key of [tool.jaxfix]: how it is checked, documented, and set from the environment."""

    name: str
    field: str
    parse: Callable[[object], object]
    description: str
    #: JSON schema of its value (`config_schema` adds the description and the rule codes).
    schema: dict
    #: A value the README and the schema test use.
    example: object
    env: str | None = None


_CODES_SCHEMA = {"type": "array", "items": {"$ref": "#/definitions/code"}}

MODEL: tuple[Key, ...] = (
    Key("select", "select", _codes("select"), "Only these rule codes or prefixes (default: every rule).",
        {**_CODES_SCHEMA, "minItems": 1}, ["JAX1"], "JAXFIX_SELECT"),
    Key("extend-select", "extend_select", _codes("extend-select"), "Codes or prefixes added to `select`.",
        _CODES_SCHEMA, ["JAX001"], "JAXFIX_EXTEND_SELECT"),
    Key("ignore", "ignore", _codes("ignore"), "Never these rule codes or prefixes.",
        _CODES_SCHEMA, ["JAX102"], "JAXFIX_IGNORE"),
    Key("per-file-ignores", "per_file_ignores", _per_file,
        "Codes ignored in the files a glob matches (relative to this file's folder; `!` negates): "
        "{\"tests/*\" = [\"JAX101\"]}.",
        {"type": "object", "additionalProperties": _CODES_SCHEMA}, {"tests/*": ["JAX101"]},
        "JAXFIX_PER_FILE_IGNORES"),
    Key("exclude", "exclude", _globs, "Leave out files matching these globs (relative to this file's folder).",
        {"type": "array", "items": {"type": "string"}}, ["generated", "legacy/*.py"], "JAXFIX_EXCLUDE"),
    Key("unsafe-fixes", "unsafe_fixes", _bool, "Also apply fixes marked unsafe.",
        {"type": "boolean"}, False, "JAXFIX_UNSAFE_FIXES"),
    Key("frozen-mapping", "frozen_mapping", _frozen, "The frozen mapping JAX201 writes.",
        {"type": "string", "enum": list(FROZEN_MAPPINGS)}, "auto", "JAXFIX_FROZEN_MAPPING"),
    Key("target-version", "target_version", _version,
        "Oldest Python to support (default: the floor of [project] requires-python, else py311).",
        {"type": "string", "pattern": r"^\s*(py)?3\.?[0-9]{1,2}\s*$", "examples": ["py311", "py312", "3.13"]},
        "py311", "JAXFIX_TARGET_VERSION"),
    Key("max-file-size", "max_file_size", _size, "Larger files are refused (0: no limit): bytes, or 2MB, 500KB, 1MiB.",
        {"anyOf": [{"type": "integer", "minimum": 0},
                   {"type": "string", "pattern": r"^\s*[0-9]+\s*([bB]|[kK]|[kK][bB]|[kK][iI][bB]|[mM]|[mM][bB]|[mM][iI][bB])?\s*$"}]},
        "1MB", "JAXFIX_MAX_FILE_SIZE"),
)

#: Every key [tool.jaxfix] may hold.
KEYS = tuple(key.name for key in MODEL)
BY_NAME = {key.name: key for key in MODEL}

"""Files in, results out: read, pre-filter, run the rules, and (for migrate) write.

Each file is handled on its own: a file that cannot be read, decoded or
parsed gives an error result with one clear line, and every other file is
still processed. Only files whose text a fix changed are ever written, and
they are written atomically, in the encoding they were read in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from transforms import Finding, Options, SourceError, check_source, fix_source, selected_rules

from .sourcefile import InputError, read
from .writer import write_atomic


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
    skipped: bool = False  # the pre-filter ruled every rule out
    written: bool = False
    encoding: str = "utf-8"

    @property
    def changed(self) -> bool:
        return self.fixed != self.original and self.error is None


@dataclass
class RunResult:
    files: list[FileResult] = field(default_factory=list)

    @property
    def errors(self) -> list[FileResult]:
        return [f for f in self.files if f.error]

    @property
    def findings(self) -> list[tuple[FileResult, Finding]]:
        return [(f, x) for f in self.files for x in f.findings]

    @property
    def changed(self) -> list[FileResult]:
        return [f for f in self.files if f.changed]

    def exit_code(self, *, pending_changes: bool) -> int:
        """2: unreadable input; 1: findings left (or, for dry runs, fixes to apply); 0: clean."""
        if self.errors:
            return 2
        if self.findings or (pending_changes and self.changed):
            return 1
        return 0


def _may_match(text: str, options: Options) -> bool:
    return any(rule.may_match(text) for rule in selected_rules(options))


def process_text(path: Path, text: str, options: Options, *, fix: bool, encoding: str = "utf-8") -> FileResult:
    if not _may_match(text, options):
        return FileResult(path, text, text, skipped=True, encoding=encoding)
    try:
        if fix:
            result = fix_source(text, options)
            return FileResult(path, text, result.text, result.findings, result.applied, encoding=encoding)
        return FileResult(path, text, text, tuple(check_source(text, options)), encoding=encoding)
    except SourceError as error:
        where = f"{error.line}:{error.column}: " if error.line else ""
        return FileResult(path, text, text, error=f"{where}{error}", encoding=encoding)
    except RecursionError:
        return FileResult(path, text, text, error="too deeply nested to analyse", encoding=encoding)


def process_file(path: Path, options: Options, *, fix: bool, write: bool) -> FileResult:
    try:
        data, source = read(path)
    except InputError as error:
        return FileResult(path, error=str(error))
    result = process_text(path, source.text, options, fix=fix, encoding=source.encoding)
    if write and result.changed:
        try:
            write_atomic(path, source.encode(result.fixed), expected=data)
        except InputError as error:
            return FileResult(path, result.original, result.original, result.findings, (), error=str(error))
        return FileResult(
            path, result.original, result.fixed, result.findings, result.applied, written=True, encoding=source.encoding
        )
    return result


def run(
    paths: Sequence[Path],
    options: Options,
    *,
    fix: bool,
    write: bool,
    progress: Callable[[FileResult], None] | None = None,
) -> RunResult:
    out = RunResult()
    for path in paths:
        result = process_file(path, options, fix=fix, write=write)
        out.files.append(result)
        if progress is not None:
            progress(result)
    return out


def iter_findings(results: Iterable[FileResult]) -> Iterable[tuple[FileResult, Finding]]:
    for result in results:
        for finding in result.findings:
            yield result, finding

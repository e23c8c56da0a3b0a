"""What a caller asks of the rules, and the one error a module's text can raise."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    """What the caller asks of the rules (the [tool.jaxfix] settings that reach them)."""

    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    unsafe_fixes: bool = False
    frozen_mapping: str = "auto"
    target_version: tuple[int, int] = (3, 11)
    #: Report findings in code that expects their error (``pytest.raises``, ``assertRaises``, a
    #: ``try`` catching it); by default they are only counted (`CheckResult.expected`).
    expected_errors: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)


class SourceError(Exception):
    """The text is not a Python module libcst can parse (or give back exactly)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column

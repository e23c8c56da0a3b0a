"""Where the CLI prints: rich's Console, made only when something needs rich.

Most runs print only plain lines (a finding, a summary, an error) into a pipe
(pre-commit's output, a CI log), and importing rich's console is a fifth of
such a run (benchmarks/latency.py). A line rich would print unchanged (no
tab, no control character rich strips) is written to the stream here; anything else (a table, highlighted code,
``is_terminal``, the progress bar) goes to a rich Console with the same
settings, made on first use. tests/test_console.py holds the two outputs equal.
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import rich.console

#: What makes rich change a plain line: a tab (expanded), and the control characters it strips
#: (rich.control.STRIP_CONTROL_CODES). Its emoji codes are off: see `Console.rich`.
_RICH_WOULD_CHANGE = re.compile(r"[\t\x07\x08\x0b\x0c\r]")


class Console:
    """``rich.console.Console(stderr=..., highlight=False, soft_wrap=True, emoji=False)``, imported on first need."""

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._rich: rich.console.Console | None = None

    @property
    def rich(self) -> rich.console.Console:
        if self._rich is None:
            from rich.console import Console as RichConsole  # the one place rich's console is imported

            # emoji=False: what jaxfix prints is data, and rich's ":100:" is an emoji (a finding on
            # line 100 printed as "file.py💯5:").
            self._rich = RichConsole(stderr=self._stderr, highlight=False, soft_wrap=True, emoji=False)
        return self._rich

    @property
    def is_terminal(self) -> bool:
        """rich's answer; without rich when it is certainly no (no tty, and neither TTY_COMPATIBLE=1 nor
        FORCE_COLOR, rich's only two ways to call something else a terminal)."""
        if self._rich is None and os.environ.get("TTY_COMPATIBLE", "") != "1" and os.environ.get("FORCE_COLOR") is None:
            try:
                if not (sys.stderr if self._stderr else sys.stdout).isatty():
                    return False
            except (ValueError, AttributeError):  # closed, or not a file: rich says no too
                return False
        return self.rich.is_terminal

    def print(self, *objects: Any, markup: bool | None = None, highlight: bool | None = None, **options: Any) -> None:
        plain = (
            self._rich is None
            and len(objects) == 1
            and type(objects[0]) is str
            and markup is False
            and not highlight
            and options in ({}, {"soft_wrap": True})  # soft_wrap: already this console's setting
            and not _RICH_WOULD_CHANGE.search(objects[0])
        )
        if not plain:
            self.rich.print(*objects, markup=markup, highlight=highlight, **options)
            return
        stream = sys.stderr if self._stderr else sys.stdout
        stream.write(objects[0] + "\n")
        stream.flush()

    def __getattr__(self, name: str) -> Any:
        """Everything else rich's Console has (``width``, ``file``, ...) is rich's."""
        return getattr(self.rich, name)

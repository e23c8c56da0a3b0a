"""``jaxfix diff --interactive``: each fix shown as its own hunk, applied only when accepted.

Fixes are offered one by one, in file and line order, from the findings of a
check run (their edits are on the text as it is on disk). Answers: y (apply
this fix), n (skip it), a (apply this one and every remaining one), q (stop;
what was accepted so far is still written). A fix that overlaps one already
accepted in the same file is not offered: it is found again on the next run,
where it can be judged on the text it will really change. Files are written
only at the end, atomically and in their own encoding; Ctrl-C writes nothing.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.syntax import Syntax

from jaxfix.transforms import RULES, Applicability, Edit, Finding, Options, check_source
from jaxfix.transforms.core.textedit import apply_edits

from . import engine
from .report.diff import display_path, unified_diff
from .sourcefile import InputError
from .writer import write_atomic


class Answer(enum.Enum):
    YES = "y"
    NO = "n"
    ALL = "a"
    QUIT = "q"


ANSWERS = {
    "y": Answer.YES,
    "yes": Answer.YES,
    "n": Answer.NO,
    "no": Answer.NO,
    "a": Answer.ALL,
    "all": Answer.ALL,
    "q": Answer.QUIT,
    "quit": Answer.QUIT,
}
PROMPT = "Apply this fix? [y]es, [n]o, [a]ll the rest, [q]uit: "


@dataclass(frozen=True)
class Offer:
    result: engine.FileResult
    finding: Finding
    options: Options

    @property
    def edits(self) -> tuple[Edit, ...]:
        assert self.finding.fix is not None
        return self.finding.fix.edits

    def hunk(self) -> str:
        """The unified diff of this one fix on its file."""
        return unified_diff(self.result.original, apply_edits(self.result.original, self.edits), self.result.path)


def offers(groups: Sequence[tuple[engine.RunResult, Options]]) -> list[Offer]:
    """Fixes jaxfix would apply itself (safe, or unsafe with --unsafe-fixes), in order."""
    out = []
    for run, options in groups:
        for result, finding in run.findings:
            fix = finding.fix
            if result.path.suffix != ".py" or fix is None:
                continue
            if fix.applicability is Applicability.SAFE or options.unsafe_fixes:
                out.append(Offer(result, finding, options))
    return out


def _overlaps(edits: tuple[Edit, ...], taken: set[Edit]) -> bool:
    fresh = [e for e in edits if e not in taken]
    return any(e.overlaps(t) for e in fresh for t in taken)


@dataclass
class Choices:
    accepted: list[Offer] = field(default_factory=list)
    declined: int = 0
    overlapping: int = 0
    unanswered: int = 0


def choose(candidates: Sequence[Offer], ask: Callable[[Offer, int, int], Answer]) -> Choices:
    """Ask about each fix (ask(offer, number, total)) and keep the accepted ones."""
    choices = Choices()
    taken: dict[Path, set[Edit]] = {}
    accept_rest = False
    for number, offer in enumerate(candidates, 1):
        file_edits = taken.setdefault(offer.result.path, set())
        if _overlaps(offer.edits, file_edits):
            choices.overlapping += 1
            continue
        answer = Answer.YES if accept_rest else ask(offer, number, len(candidates))
        if answer is Answer.QUIT:
            choices.unanswered = len(candidates) - number + 1
            break
        if answer is Answer.ALL:
            accept_rest = True
        if answer is Answer.NO:
            choices.declined += 1
            continue
        choices.accepted.append(offer)
        file_edits.update(offer.edits)
    return choices


@dataclass
class Written:
    path: Path
    fixes: int
    findings_left: int
    error: str | None = None
    #: The bytes written (None: nothing was).
    data: bytes | None = None


def write_accepted(accepted: Sequence[Offer]) -> list[Written]:
    """Apply each file's accepted fixes to its original text and replace the file atomically."""
    by_file: dict[Path, list[Offer]] = {}
    for offer in accepted:
        by_file.setdefault(offer.result.path, []).append(offer)
    out = []
    for path, chosen in by_file.items():
        result = chosen[0].result
        text = apply_edits(result.original, [e for offer in chosen for e in offer.edits])
        data = text.encode(result.encoding)
        try:
            write_atomic(path, data, expected=result.original.encode(result.encoding))
        except InputError as error:
            out.append(Written(path, 0, len(result.findings), str(error)))
            continue
        left = check_source(text, chosen[0].options)
        out.append(Written(path, len(chosen), len(left), data=data))
    return out


def ask_on_terminal(console: Console) -> Callable[[Offer, int, int], Answer]:
    """Show the fix as a highlighted hunk with its rule and message, then read an answer."""

    def ask(offer: Offer, number: int, total: int) -> Answer:
        finding = offer.finding
        rule = RULES.get(finding.code)
        fix = finding.fix
        assert fix is not None
        where = f"{display_path(offer.result.path)}:{finding.span.start.line}:{finding.span.start.column + 1}"
        console.print()
        console.print(
            f"[bold]({number}/{total}) {where}[/bold] [cyan]{finding.code}[/cyan] "
            f"{rule.name if rule else ''} ({fix.applicability.value} fix)",
            highlight=False,
        )
        console.print(finding.message, markup=False, highlight=False)
        for note in finding.notes:
            console.print(f"  note: {note}", markup=False, highlight=False)
        console.print(Syntax(offer.hunk(), "diff", theme="ansi_dark", background_color="default"))
        while True:
            try:
                reply = read_reply(console)
            except EOFError:
                console.print()
                return Answer.QUIT
            if reply in ANSWERS:
                return ANSWERS[reply]
            console.print("y: apply this fix; n: skip it; a: apply it and all the rest; q: stop here", markup=False)

    return ask


#: Keys that answer nothing and ask nothing: a habitual Enter after the letter, a stray space.
_IGNORED_KEYS = frozenset("\r\n \t")
_END_OF_INPUT = "\x04"  # Ctrl-D: with line editing off, the terminal no longer turns it into end of input


def read_reply(console: Console) -> str:
    """The answer to the prompt: one key on a terminal (no Enter needed), else a line.

    The key is read with the terminal's line editing and echo off and its
    signals on, so Ctrl-C still interrupts; the terminal's settings are
    restored before anything else happens, whatever the key. The terminal
    leaves line editing before the prompt is shown, not after: a key typed
    the moment the prompt appears (Ctrl-D above all, which line editing
    would have taken as the end of an empty line) reaches the read as typed.
    """
    try:
        import termios
    except ImportError:  # no POSIX terminal (Windows): a line, as input() reads it
        _prompt(console)
        return input().strip().lower()
    fd = sys.stdin.fileno()
    if not os.isatty(fd):
        _prompt(console)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.strip().lower()
    saved = termios.tcgetattr(fd)
    one_key = termios.tcgetattr(fd)
    one_key[3] &= ~(termios.ICANON | termios.ECHO)
    one_key[6][termios.VMIN] = 1
    one_key[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, one_key)
    try:
        _prompt(console)
        while True:
            key = _read_key(fd)
            if key == _END_OF_INPUT or key == "":
                raise EOFError
            if key not in _IGNORED_KEYS:
                console.print(key if key.isprintable() else "", markup=False, highlight=False)
                return key.lower()
    finally:
        # TCSANOW, not TCSAFLUSH: a key typed ahead for the next question is kept for it.
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def _prompt(console: Console) -> None:
    console.print(PROMPT, end="", markup=False, highlight=False)
    console.file.flush()


def _read_key(fd: int) -> str:
    """One key, as the one or more UTF-8 bytes of one character."""
    data = os.read(fd, 1)
    # The rest of one character typed as several UTF-8 bytes; anything after it is the next key's.
    following = 3 if data >= b"\xf0" else 2 if data >= b"\xe0" else 1 if data >= b"\xc0" else 0
    if following:
        data += os.read(fd, following)
    return data.decode("utf-8", "replace")

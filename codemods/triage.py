"""Which static-argument pitfall a pasted JAX error is, and where in the user's code it happened.

The messages are those jax 0.10.2 prints (../shared/jax-behaviour.md §4,
docs/jax4xx-behaviour.md): the non-hashable static argument error (new and
old wording; the message can span many lines, with a traceback inside it for
frozen containers, so the *last* ``TypeError:`` line after the prefix is the
one read), the ConcretizationTypeError family, and the neighbouring shape and
slice errors. The user's frames are the ``File "…", line N, in f`` lines (and
IPython's ``File path:N, in f`` and ``Cell In[3], line 5``) of the traceback
that ends in the message, leaving out the Python library, site-packages and
JAX itself. A paste quoted with ``> `` or indented is read as printed (`unquoted`).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

_HASH = re.compile(
    r"Non-hashable static arguments are not supported\. An error occurred while trying to hash an object of "
    r"type <class '(?P<type>[^']+)'>, (?P<repr>.*)"
)
_HASH_OLD = re.compile(
    r"Non-hashable static arguments are not supported, as this can lead to unexpected cache-misses\.\s*"
    r"Static argument \(index (?P<index>\d+)\) of type <class '(?P<type>[^']+)'> for function (?P<function>\S+) "
    r"is non-hashable\."
)
_ERROR_WAS = re.compile(r"The error was:")
_LAST_TYPEERROR = re.compile(r"^\s*TypeError: (.*)$", re.MULTILINE)
_CONCRETE = re.compile(r"Abstract tracer value encountered where concrete value is expected[^\n]*")
_INDEX = re.compile(r"The __index__\(\) method was called on traced array[^\n]*")
_BOOL = re.compile(r"Attempted boolean conversion of traced array[^\n]*")
_SHAPES = re.compile(r"Shapes must be 1D sequences of concrete values of integer type[^\n]*")
_SLICE = re.compile(r"Slice entries must be static integers[^\n]*")

_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<function>\S+)', re.MULTILINE)
#: IPython 8 and Jupyter: ``File /path/prog.py:20, in f(x)``, or ``File ~/prog.py:20`` at module level.
_IPYTHON_FRAME = re.compile(
    r"^\s*File (?P<path>[^\s:]+\.pyw?):(?P<line>\d+)(?:, in (?P<function>[\w<>.]+))?", re.MULTILINE
)
#: A notebook cell's frame: ``Cell In[3], line 5, in f()``, or ``Cell In[3], line 5``.
_CELL_FRAME = re.compile(
    r"^\s*(?:File )?(?P<path>Cell In\s?\[\d*\]|Input In \[\d*\]), line (?P<line>\d+)(?:, in (?P<function>[\w<>.]+))?",
    re.MULTILINE,
)
_TRACEBACK = re.compile(r"^\s*Traceback \(most recent call last\):", re.MULTILINE)
#: E-mail and Markdown quoting: ``> `` (repeated for nested quotes) before each line.
_QUOTED = re.compile(r"^[ \t]*(?:>[ \t]?)+")
#: A ConcretizationTypeError names the lines whose operations made the value a tracer.
_ORIGIN = re.compile(r"^\s*from line (?P<path>.+?):(?P<line>\d+)(?::\d+)? \((?P<function>[^)]*)\)\s*$", re.MULTILINE)
_LIBRARY = re.compile(r"(^<)|([\\/](site|dist)-packages[\\/])|([\\/]lib[\\/]python\d[\d.]*[\\/])|([\\/]jax[\\/]_src[\\/])")

TRACED = ("JAX101", "JAX102", "JAX301", "JAX401", "JAX402", "JAX404")
ARRAY = ("JAX403", "JAX201", "JAX301", "JAX401")
CONTAINER = ("JAX201",)
CONCRETE = ("JAX402", "JAX301", "JAX404", "JAX403")


@dataclass(frozen=True)
class Pitfall:
    #: A short name: "a tracer reached a static argument".
    title: str
    #: The message line(s) it was recognised from, as printed.
    evidence: str
    #: What happened and why, in plain words.
    explanation: str
    #: The rules that find this pitfall, most specific first.
    codes: tuple[str, ...]
    #: Where the message starts in the text (frames after it belong to another traceback).
    position: int
    #: What to try when no rule finds a rewrite.
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Frame:
    path: str
    line: int
    function: str

    @property
    def in_notebook_cell(self) -> bool:
        """A Jupyter cell (``Cell In[3]``): no file on disk holds it."""
        return self.path.startswith(("Cell In", "Input In"))


def unquoted(text: str) -> str:
    """The traceback as Python printed it, from a paste: quoting (``> ``) and a common indent removed.

    Issues and chats quote tracebacks, or indent them as code blocks; the
    quoting is removed when most lines carry it (a lone ``>`` in a message stays).
    """
    lines = text.splitlines()
    written = [line for line in lines if line.strip()]
    if written and sum(1 for line in written if _QUOTED.match(line)) * 5 >= len(written) * 3:
        lines = [_QUOTED.sub("", line, count=1) for line in lines]
    return textwrap.dedent("\n".join(lines))


def recognise(text: str) -> Pitfall | None:
    """The pitfall the (last) JAX error in the text is, or None when it is not one jaxfix knows."""
    found = [p for p in (_hash_error(text), _concrete_error(text)) if p is not None]
    return max(found, key=lambda p: p.position) if found else None


def _hash_error(text: str) -> Pitfall | None:
    matches = list(_HASH.finditer(text))
    old = list(_HASH_OLD.finditer(text))
    if not matches and not old:
        return None
    if matches and (not old or matches[-1].start() > old[-1].start()):
        match = matches[-1]
        tail = text[match.end() :]
        if not _ERROR_WAS.search(match.group(0) + tail):
            return None
        errors = _LAST_TYPEERROR.findall(tail)
        error = errors[-1].strip() if errors else ""
        kind, shown = match.group("type"), match.group("repr").strip()
        if shown.endswith("The error was:"):
            shown = shown[: -len("The error was:")].rstrip(" .")
        evidence = f"{match.group(0).split(' The error was:')[0].rstrip('.')}\nTypeError: {error}"
    else:
        match = old[-1]
        kind, shown, error = match.group("type"), "", ""
        evidence = match.group(0)
    return _classify_hash(kind, shown, error, evidence, match.start())


def _classify_hash(kind: str, shown: str, error: str, evidence: str, position: int) -> Pitfall:
    short = kind.rsplit(".", 1)[-1]
    if short.endswith("Tracer"):
        if short == "BatchTracer":
            how = "vmap maps the value, so it differs per element and cannot be static"
        elif short in ("LinearizeTracer", "JVPTracer"):
            how = "grad (or jvp) differentiates the value"
        elif re.search(r"\[\d", shown):
            how = (
                f"a whole array ({shown}) landed in a static slot: typically `partial(f, N=N)` binding a parameter "
                "that the primitive's positional operands fill first"
            )
        else:
            how = (
                "a value that is static in your code reached the static parameter through something that traces it: "
                "an operand of lax.cond/switch/scan/fori_loop/while_loop, a non-static parameter of an enclosing jit, "
                "an outer make_jaxpr/pmap/checkpoint/jit, a jax.tree_util.Partial's bound argument, or jnp arithmetic "
                "under jit"
            )
        return Pitfall(
            "a tracer reached a static argument",
            evidence,
            f"jit hashes every static argument, and a tracer ({short}{', ' + shown if shown else ''}) cannot be "
            f"hashed: {how}.",
            TRACED,
            position,
            (
                "keep the value out of the traced path: bind it into the callable (`partial(f, N)`), or make it static "
                "where it comes from (the enclosing jit's static_argnums)",
                "or make the parameter a traced argument, if nothing needs it concrete",
            ),
        )
    if "ArrayImpl" in kind or "ndarray" in kind or "PRNGKeyArray" in kind or "DeviceArray" in kind:
        return Pitfall(
            "an array passed as a static argument",
            evidence,
            f"jit hashes every static argument, and an array ({short}{', ' + shown if shown else ''}) is never "
            "hashable.",
            ARRAY,
            position,
            (
                "make the parameter a traced argument (drop it from static_argnums/static_argnames) if nothing needs "
                "it concrete",
                "or pass a hashable copy (`tuple(a.tolist())`), compiled once per value",
            ),
        )
    inner = f" (inside it: {error})" if error and short not in error else ""
    return Pitfall(
        "an unhashable value passed as a static argument",
        evidence,
        f"jit hashes every static argument, and a {short}{inner} is not hashable.",
        CONTAINER,
        position,
        (
            "freeze it where it is built: dict -> frozendict, list -> tuple, set -> frozenset, recursively",
            "or close over it: `jax.jit(partial(f, config=config))`, created once and reused",
        ),
    )


def _concrete_error(text: str) -> Pitfall | None:
    candidates = [
        (_CONCRETE, "a concrete value needed, a tracer given"),
        (_INDEX, "a tracer used as a Python int"),
        (_BOOL, "a tracer used as a Python bool"),
        (_SHAPES, "a tracer used as a shape"),
        (_SLICE, "a tracer used as a slice bound"),
    ]
    best: tuple[int, re.Match, str] | None = None
    for pattern, title in candidates:
        for match in pattern.finditer(text):
            if best is None or match.start() > best[0]:
                best = (match.start(), match, title)
    if best is None:
        return None
    position, match, title = best
    return Pitfall(
        title,
        match.group(0).strip(),
        "under jit (and the other staging transforms) the value is a tracer, but this place needs a concrete Python "
        "value: a shape or size, a loop count, a slice bound, int(), a Python if. Either it is computed from traced "
        "inputs (it must then stay traced: another formulation is needed), or it is computed from static values with "
        "jnp, which stages it out (Python's arithmetic keeps it static).",
        CONCRETE,
        position,
        (
            "if every input of the value is static, compute it with Python (`min`, `max`, `//`, `int`) instead of jnp",
            "if it depends on a traced input, make that input static (static_argnums) when callers pass Python "
            "values, or use a form that takes a traced value (lax.fori_loop for a count, a mask with a static bound "
            "for a size)",
        ),
    )


def frames(text: str, before: int | None = None) -> list[Frame]:
    """The frames of the traceback that leads to position `before`, outermost first."""
    end = len(text) if before is None else before
    head = text[:end]
    starts = [m.start() for m in _TRACEBACK.finditer(head)]
    block = head[starts[-1] :] if starts else head
    found: list[tuple[int, Frame]] = []
    for pattern in (_FRAME, _IPYTHON_FRAME, _CELL_FRAME):
        for m in pattern.finditer(block):
            found.append((m.start(), Frame(m.group("path"), int(m.group("line")), m.group("function") or "<module>")))
    return [f for _, f in sorted(found, key=lambda item: item[0])]


def user_frames(all_frames: list[Frame]) -> list[Frame]:
    """The frames in the user's code, innermost first (the library, site-packages and JAX left out)."""
    return [f for f in reversed(all_frames) if not _LIBRARY.search(f.path)]


def origins(text: str, after: int = 0) -> list[Frame]:
    """The lines a ConcretizationTypeError says made the value a tracer ("from line PATH:LINE:COL (fn)").

    They are where a JAX402 finding is (the jnp call), while the traceback's
    innermost frame is where the value was used (the shape, the range).
    """
    return [
        Frame(m.group("path"), int(m.group("line")), m.group("function"))
        for m in _ORIGIN.finditer(text, after)
        if not _LIBRARY.search(m.group("path"))
    ]

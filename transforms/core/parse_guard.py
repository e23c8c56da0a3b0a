"""Refusing, before libcst sees it, a text nested deeper than libcst survives.

libcst's native parser recurses once per level of the tree it builds; deep
enough, it overflows its stack and the process dies with SIGSEGV (measured
with libcst 1.9: from about 1,400 nested brackets, 6,000 chained ``.a``,
10,000 ``elif``), and before that its parse takes seconds (1,000 nested
calls: 8 s; 6,000 ``+`` terms: 9 s; growing faster than the depth). The
analysis recurses over the tree too, and stops with a RecursionError from
about 350 to 500 levels (an ``elif`` chain of 500 made it run for minutes).

So each text is measured on its tokens (``tokenize``: strings and comments do
not count) before it is parsed, and refused when

- brackets nest deeper than ``MAX_BRACKETS`` (200: CPython's own limit, so
  such a file cannot even run), or
- its tree would be deeper than ``MAX_DEPTH`` (400). The depth is worked
  out as a parser would build it, with Python's operator precedence: a chain
  ``1 + 1 + …`` of n terms, n unary ``-``, n ``not``, n trailers (``.a``,
  ``(…)``, ``[…]``) are n deep, while a sum of products (generated
  polynomials) is only as deep as its longest chain of ``+``; a bracketed
  value adds its content's depth; a statement adds the blocks around it and
  its place in an ``elif`` chain. Comparisons (flat in libcst) and
  implicitly concatenated strings (libcst's parser takes them in a loop) do
  not add up.

400 is above what the analysis completes, so nothing that works is refused;
the deepest module among the 17,600 of this machine's site-packages and
standard library measures 230 (sympy's ``polyquinticconst.py``, analysed fine).
The measure costs about a fifth of libcst's parse of the same text (0.19 s
against 0.83 s for ``jax/_src/lax/lax.py``, 389 KB), and only the text that
reaches libcst is measured.
"""

from __future__ import annotations

import io
import tokenize

from jaxfix.transforms.core.options import SourceError

#: CPython's parser refuses deeper bracket nesting itself (Parser/tokenizer.c MAXLEVEL).
MAX_BRACKETS = 200
#: The deepest tree handed to libcst.
MAX_DEPTH = 400

#: Binary operators by precedence (higher binds tighter); ** groups to the right.
_BINARY = {
    "if": 2, "else": 2.5, "or": 3, "and": 4,
    "<": 6, ">": 6, "==": 6, ">=": 6, "<=": 6, "!=": 6, "in": 6, "is": 6, "not": 6,
    "|": 7, "^": 8, "&": 9, "<<": 10, ">>": 10, "+": 11, "-": 11,
    "*": 12, "@": 12, "/": 12, "//": 12, "%": 12, "**": 14,
}
_RIGHT = frozenset({2, 2.5, 14})
_ELSE = 2.5  # binds like `if`; reduced first, into the `if` node
#: Prefix operators by precedence.
_PREFIX = {"lambda": 1, "not": 5, "-": 13, "+": 13, "~": 13, "*": 13, "**": 13, "await": 15}
_COMPARISON = 6  # libcst keeps a chain of comparisons in one node
#: Words and marks after which a new expression starts.
_RESET_WORDS = frozenset(
    {"for", "return", "yield", "del", "assert", "raise", "from", "import", "as", "with", "while", "elif", "except",
     "global", "nonlocal", "class", "def", "pass", "break", "continue", "async", "try", "finally", "case", "match",
     "type"}
)
_RESET_MARKS = frozenset(
    {",", ":", ";", "=", "->", ":=", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=",
     "**=", "!"}
)
_OPEN = {"(": ")", "[": "]", "{": "}"}
_STRINGS = frozenset({tokenize.STRING, getattr(tokenize, "FSTRING_START", -1)})


class _Expression:
    """Operator precedence over one bracket's tokens, keeping only depths: each operand is
    the depth of its subtree, each reduction makes a node one deeper than its deepest child."""

    __slots__ = ("operands", "operators", "expect_operand", "deepest", "closer", "kind", "commas", "skip_to_colon")

    def __init__(self, closer: str = "", kind: str = "") -> None:
        self.operands: list[int] = []
        self.operators: list[tuple[int, bool]] = []  # (precedence, is prefix)
        self.expect_operand = True
        self.deepest = 0
        self.closer, self.kind = closer, kind
        self.commas = False
        self.skip_to_colon = False  # a lambda's parameters

    def _reduce(self) -> None:
        precedence, prefix = self.operators.pop()
        operands = self.operands
        if prefix:
            operands.append((operands.pop() if operands else 0) + 1)
            return
        right = operands.pop() if operands else 0
        left = operands.pop() if operands else 0
        if precedence == _ELSE:
            operands.append(max(left, right))  # `a if b else c` is one node: `if` counted it
        elif precedence == _COMPARISON:
            operands.append(max(left, right + 1))  # one flat node for the whole chain
        else:
            operands.append(max(left, right) + 1)

    def operand(self, depth: int) -> None:
        if not self.expect_operand:
            self.finish()  # two operands in a row: a new expression (a soft keyword, a string run)
        self.operands.append(depth)
        self.expect_operand = False

    def prefix(self, precedence: int) -> None:
        self.operators.append((precedence, True))

    def binary(self, precedence: int) -> None:
        while self.operators:
            top, _ = self.operators[-1]
            if top > precedence or (top == precedence and precedence not in _RIGHT):
                self._reduce()
            else:
                break
        self.operators.append((precedence, False))
        self.expect_operand = True

    def trailer(self, depth: int = 0) -> None:
        """``.name`` (depth 0) or a call/subscript whose arguments are `depth` deep."""
        if self.operands:
            self.operands[-1] = max(self.operands[-1], depth) + 1

    def finish(self) -> int:
        """The depth of the expression read so far; the next token starts another."""
        while self.operators:
            self._reduce()
        if self.operands:
            self.deepest = max(self.deepest, max(self.operands))
        self.operands.clear()
        self.expect_operand = True
        return self.deepest


def tree_depth(text: str) -> tuple[int, int, int]:
    """(deepest nesting, its line, its column) as `refuse_deep` measures it; raises SourceError
    at once for brackets deeper than MAX_BRACKETS. A text the tokenizer cannot read is
    measured up to where it stops (libcst reports the error itself)."""
    frames = [_Expression()]
    blocks = [0]  # the elif chain at each indentation level
    statement = 0
    deepest, where = 0, (1, 0)
    start = (1, 0)
    prev_kind, prev = tokenize.NEWLINE, ""
    after_dot = False

    def logical_line_done() -> None:
        nonlocal deepest, where
        depth = statement + frames[0].finish()
        frames[0].deepest = 0
        if depth > deepest:
            deepest, where = depth, start

    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, word = token.type, token.string
            if kind in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING):
                continue
            frame = frames[-1]
            at_start = prev_kind in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) and len(frames) == 1
            if at_start:
                start = token.start
            if kind == tokenize.NEWLINE or kind == tokenize.ENDMARKER:
                logical_line_done()
            elif kind == tokenize.INDENT:
                blocks.append(0)
            elif kind == tokenize.DEDENT:
                if len(blocks) > 1:
                    blocks.pop()
            elif after_dot and kind == tokenize.NAME:
                frame.trailer()
            elif frame.skip_to_colon:
                if word == ":":
                    frame.skip_to_colon = False
            elif kind == tokenize.OP and word in _OPEN:
                if not frame.expect_operand and word != "{":
                    frames.append(_Expression(_OPEN[word], "trailer"))
                else:
                    frames.append(_Expression(_OPEN[word], "paren" if word == "(" else "display"))
                if len(frames) - 1 > MAX_BRACKETS:
                    raise SourceError(
                        f"brackets nested more than {MAX_BRACKETS} deep (Python's own limit): not analysed",
                        token.start[0],
                        token.start[1] + 1,
                    )
            elif kind == tokenize.OP and len(frames) > 1 and word == frame.closer:
                inner = frame.finish()
                frames.pop()
                parent = frames[-1]
                if frame.kind == "trailer":
                    parent.trailer(inner)
                else:
                    grouped = frame.kind == "display" or frame.commas
                    parent.operand(inner + 1 if grouped else max(inner, 1))
            elif kind == tokenize.OP and word == ".":
                after_dot = True
                prev_kind, prev = kind, word
                continue
            elif kind == tokenize.OP and word in _RESET_MARKS:
                frame.finish()
                frame.commas = frame.commas or word == ","
            elif kind == tokenize.NAME and at_start and word not in _PREFIX:
                if word == "elif":
                    blocks[-1] += 1
                elif word != "else":
                    blocks[-1] = 0
                statement = 2 * (len(blocks) - 1) + sum(blocks)
                if word not in ("if", "elif", "while", "else") and word not in _RESET_WORDS:
                    frame.operand(1)  # the statement's first name: an expression starts with it
            elif kind == tokenize.NAME and word in _RESET_WORDS:
                frame.finish()
            elif frame.expect_operand and word in ("in", "is") and prev in ("not", "is"):
                pass  # the second word of `not in` / `is not`
            elif frame.expect_operand and word in _PREFIX and kind in (tokenize.OP, tokenize.NAME):
                frame.prefix(_PREFIX[word])
                frame.skip_to_colon = word == "lambda"
            elif not frame.expect_operand and word in _BINARY and kind in (tokenize.OP, tokenize.NAME):
                frame.binary(_BINARY[word])
            elif kind in (tokenize.NAME, tokenize.NUMBER) or word == "...":
                frame.operand(1)
            elif kind in _STRINGS:
                if frame.expect_operand:
                    frame.operand(1)  # an implicitly concatenated run stays one operand
                if kind != tokenize.STRING:
                    frames.append(_Expression("", "fstring"))  # 3.12: the replacement fields' tokens
            elif kind == getattr(tokenize, "FSTRING_END", -1):
                while len(frames) > 1 and frames[-1].kind != "fstring":
                    frames.pop()
                if len(frames) > 1:
                    frames.pop()
            after_dot = False
            prev_kind, prev = kind, word
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    for frame in reversed(frames[1:]):  # an unclosed bracket: what it held so far
        deepest = max(deepest, statement + frame.finish())
    logical_line_done()
    return deepest, where[0], where[1]


def refuse_deep(text: str) -> None:
    """Raise SourceError when the text is nested too deeply for libcst (see the module doc)."""
    if len(text) <= MAX_DEPTH:
        return  # every level of nesting takes a character at least
    depth, line, column = tree_depth(text)
    if depth > MAX_DEPTH:
        raise SourceError(
            f"nested about {depth} levels deep (an operator or attribute chain, brackets, or an elif chain); "
            f"libcst cannot parse more than {MAX_DEPTH} safely: not analysed",
            line,
            column + 1,
        )

"""Reading a block's statements as an edit sees them: where its code starts after a docstring,
whether re-indenting it would change a string, the edit removing a line that holds one thing, and
the comments a statement an edit replaces holds (kept above what replaces it)."""

from __future__ import annotations

import io
import tokenize
from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.core.findings import Edit

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.module import ModuleContext


def is_docstring(statement: cst.CSTNode) -> bool:
    """A statement that is a string literal alone (a module's, class's or function's docstring when
    it comes first): code inserted at the top of the block goes after it."""
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def string_across_lines(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """Does a string literal in `node` hold a line break of the source (a triple-quoted string),
    whose text moving the code to another indentation would change?"""
    return any("\n" in ctx.code(s) for s in ctx.descendants(node, (cst.SimpleString, cst.FormattedString)))


def line_removed(ctx: ModuleContext, node: cst.CSTNode, shown: str) -> Edit | None:
    """The edit removing the line `node` is written on, newline included, when that line holds
    `shown` and nothing else (``@jax.jit``, ``f = jax.jit(f)``); None when it holds more."""
    start = ctx.text.rfind("\n", 0, ctx.start(node)) + 1
    end = ctx.text.find("\n", ctx.end(node))
    if end < 0 or ctx.text[start:end].strip() != shown:
        return None
    return Edit(start, end + 1, "")


def comments_kept(ctx: ModuleContext, statement: cst.CSTNode, end: int | None = None) -> str | None:
    """The comments written in the text an edit replaces, from `statement`'s start to `end` (its
    own end by default), each on a line of its own at the statement's indentation, to go in front
    of what replaces it: ``if level > cap:  # clamp`` becomes ``# clamp`` above the new line, so a
    rewrite loses no comment. "" without comments; None when the text does not read as Python
    tokens (a comment is then not told from a ``#`` in a string)."""
    start = ctx.start(statement)
    stop = ctx.end(statement) if end is None else end
    if "#" not in ctx.text[start:stop]:
        return ""
    indent = ctx.indent_of(statement)
    comments: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(indent + ctx.text[start:stop]).readline):
            if token.type == tokenize.COMMENT:
                comments.append(token.string)
    except tokenize.TokenError:
        pass  # the text ends inside brackets: every token in it was read
    except (IndentationError, SyntaxError):
        return None
    return "".join(f"{comment}{ctx.newline}{indent}" for comment in comments)

"""Reading a block's statements as an edit sees them: where its code starts after a docstring, and
whether re-indenting it would change a string."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

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

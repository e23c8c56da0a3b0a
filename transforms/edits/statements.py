"""Reading a block's statements as an edit sees them: where its code starts after a docstring."""

from __future__ import annotations

import libcst as cst


def is_docstring(statement: cst.CSTNode) -> bool:
    """A statement that is a string literal alone (a module's, class's or function's docstring when
    it comes first): code inserted at the top of the block goes after it."""
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )

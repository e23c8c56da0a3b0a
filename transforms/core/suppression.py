"""Inline suppression: ``# jaxfix: ignore[JAX201]`` or bare ``# jaxfix: ignore``.

The comment silences findings that start on its own line, or on the next line
when the comment stands alone on its line. Comments are found with the
tokenizer, so ``#`` inside strings never counts.
"""

from __future__ import annotations

import io
import re
import tokenize

_DIRECTIVE = re.compile(r"#\s*jaxfix:\s*ignore(?:\[(?P<codes>[A-Z0-9_,\s]*)\])?", re.IGNORECASE)

#: line -> codes silenced there (None: every code)
Suppressions = dict[int, frozenset[str] | None]


def suppressions(text: str) -> Suppressions:
    if "jaxfix" not in text:
        return {}
    out: Suppressions = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return {}
    code_lines = {t.start[0] for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)}
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = _DIRECTIVE.search(token.string)
        if not match:
            continue
        codes = match.group("codes")
        silenced = None if codes is None else frozenset(c.strip().upper() for c in codes.split(",") if c.strip())
        line = token.start[0]
        targets = [line] if line in code_lines else [line, line + 1]
        for target in targets:
            _merge(out, target, silenced)
    return out


def _merge(out: Suppressions, line: int, codes: frozenset[str] | None) -> None:
    if line in out and (out[line] is None or codes is None):
        out[line] = None
    else:
        out[line] = (out.get(line) or frozenset()) | (codes or frozenset()) if codes is not None else None


def is_suppressed(table: Suppressions, line: int, code: str) -> bool:
    if line not in table:
        return False
    codes = table[line]
    return codes is None or code in codes

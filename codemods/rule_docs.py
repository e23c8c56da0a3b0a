"""The rules' documentation as one Markdown page (docs/rules.md), and each rule's link into it.

The page is made from the rules' own docstrings (`markdown`), and a test holds
the committed file to it, so SARIF's ``helpUri`` and the migration report
link to text that cannot drift from `jaxfix explain`. Where the page lives is
the ``Rules`` URL of the package's own metadata (``[project.urls]``): one
place to change when the repository moves.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import metadata

from jaxfix.transforms import RULES

from . import doc_text

PAGE = "docs/rules.md"


def anchor(code: str) -> str:
    """The heading's anchor as GitHub and most Markdown renderers make it."""
    rule = RULES[code]
    return re.sub(r"[^a-z0-9 -]", "", f"{code} {rule.name}".lower()).replace(" ", "-")


def markdown() -> str:
    parts = [
        "# jaxfix rules",
        "",
        "Made from each rule's documentation by `codemods/rule_docs.py` (the tests keep this file equal to it);",
        "`jaxfix explain CODE` shows the same text with a before/after pair run by the test suite.",
        "",
        "| code | name | fix | summary |",
        "|---|---|---|---|",
        *(f"| [{code}](#{anchor(code)}) | {r.name} | {r.fix_label()} | {r.summary} |" for code, r in RULES.items()),
    ]
    for code, rule in RULES.items():
        body = doc_text.render(rule.documentation(), styled=False).plain
        parts += ["", f"## {code} {rule.name}", "", f"Fix: {rule.fix_label()}. {rule.summary[0].upper()}{rule.summary[1:]}.", ""]
        parts += [_markdown_lines(body)]
    return "\n".join(parts).rstrip("\n") + "\n"


def _markdown_lines(body: str) -> str:
    """Literal blocks (indented) become fenced code; prose stays as it is."""
    out: list[str] = []
    block: list[str] = []
    for line in body.splitlines():
        if line.startswith("    ") or (block and not line.strip()):
            block.append(line)
            continue
        if block:
            out += _fenced(block)
            block = []
        out.append(line)
    if block:
        out += _fenced(block)
    return "\n".join(out)


def _fenced(block: list[str]) -> list[str]:
    while block and not block[-1].strip():
        block.pop()
    width = min(len(line) - len(line.lstrip()) for line in block if line.strip())
    return ["```python", *(line[width:] for line in block), "```", ""]


@lru_cache(maxsize=1)
def _page_url() -> str | None:
    try:
        urls = metadata.metadata("jaxfix").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "rules" and url.strip():
            return url.strip()
    return None


def help_uri(code: str) -> str | None:
    """The rule's section of the rules page, or None when the package does not say where the page is."""
    page = _page_url()
    return f"{page}#{anchor(code)}" if page and code in RULES else None


if __name__ == "__main__":  # python -m jaxfix.codemods.rule_docs > docs/rules.md
    import sys

    sys.stdout.write(markdown())

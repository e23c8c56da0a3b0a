"""A pull-request review from comments, and what earlier reviews already said.

Each review jaxfix posts lists the fingerprints of its findings in a hidden
marker in its body. Before posting, the reviews already on the pull request
are read, and findings whose fingerprint is there are left out, so a re-run
on a new push (or a re-run of the same job) never posts the same findings
twice. Only markers in reviews by a bot or by someone with write access count:
a contributor cannot silence the bot by pasting a marker into a review.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from .suggestions import DIFF, NOTE, SUGGESTION, ReviewComment

MARKER = "<!-- jaxfix-review fingerprints:"
_MARKER = re.compile(r"<!-- jaxfix-review fingerprints:([0-9a-f,\s]*)-->")
TRUSTED_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})


def review_body(comments: Sequence[ReviewComment]) -> str:
    if not comments:
        return "jaxfix found no JAX static-argument pitfalls on lines this pull request changes."
    kinds = Counter(c.kind for c in comments)
    count = len(comments)
    parts = []
    if kinds[SUGGESTION]:
        parts.append(f"{kinds[SUGGESTION]} with a suggested change")
    if kinds[DIFF]:
        parts.append(f"{kinds[DIFF]} with a fix shown as a diff")
    if kinds[NOTE]:
        parts.append(f"{kinds[NOTE]} for a person to decide")
    codes = ", ".join(f"`{code}`" for code in sorted({c.code for c in comments}))
    return (
        f"jaxfix found {count} JAX static-argument pitfall{'s' if count != 1 else ''} on lines this pull "
        f"request changes ({'; '.join(parts)}). `jaxfix explain CODE` documents each rule ({codes}).\n\n"
        f"{MARKER}{','.join(c.fingerprint for c in comments)} -->"
    )


def build_review(comments: Sequence[ReviewComment], commit_id: str) -> dict:
    """The body of ``POST /repos/{owner}/{repo}/pulls/{number}/reviews``."""
    return {
        "commit_id": commit_id,
        "event": "COMMENT",
        "body": review_body(comments),
        "comments": [c.api() for c in comments],
    }


def _trusted(review: dict) -> bool:
    user = review.get("user") or {}
    return user.get("type") == "Bot" or review.get("author_association") in TRUSTED_ASSOCIATIONS


def posted_fingerprints(reviews: Iterable[dict]) -> set[str]:
    """Fingerprints named by jaxfix's markers in trusted reviews."""
    found: set[str] = set()
    for review in reviews:
        if not _trusted(review):
            continue
        for match in _MARKER.finditer(review.get("body") or ""):
            found.update(f.strip() for f in match.group(1).split(",") if f.strip())
    return found


def not_yet_posted(comments: Sequence[ReviewComment], reviews: Iterable[dict]) -> list[ReviewComment]:
    known = posted_fingerprints(reviews)
    return [c for c in comments if c.fingerprint not in known]

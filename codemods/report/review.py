"""The pull-request review jaxfix would post, as the JSON GitHub's API takes.

``jaxfix review`` prints it so that a person (or another bot) sees exactly
what ``--post`` sends: the review body and one comment per finding.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..review.pull_review import build_review
from ..review.suggestions import ReviewComment


def render(comments: Sequence[ReviewComment], commit_id: str) -> str:
    return json.dumps(build_review(comments, commit_id), indent=2, ensure_ascii=False) + "\n"

"""Posting a review from a GitHub Actions run: the environment, then the API calls.

Everything comes from the variables the Actions runner sets: GITHUB_API_URL
(the only host the token is sent to), GITHUB_TOKEN, GITHUB_REPOSITORY, and
GITHUB_EVENT_PATH (the pull_request event, for its number and head commit).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .github_api import GitHubClient, GitHubError
from .pull_review import build_review, not_yet_posted
from .suggestions import ReviewComment

_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
MAX_PAGES = 50


class PostError(Exception):
    """The run is not one a review can be posted from; the message says what is missing."""


@dataclass(frozen=True)
class PullRequest:
    api_url: str
    token: str = field(repr=False)
    repository: str
    number: int
    head_sha: str | None

    @property
    def path(self) -> str:
        owner, name = self.repository.split("/")
        return f"/repos/{urllib.parse.quote(owner)}/{urllib.parse.quote(name)}/pulls/{self.number}"


def from_environment(env: Mapping[str, str]) -> PullRequest:
    missing = [name for name in ("GITHUB_API_URL", "GITHUB_TOKEN", "GITHUB_REPOSITORY", "GITHUB_EVENT_PATH") if not env.get(name)]
    if missing:
        raise PostError(f"--post needs {', '.join(missing)} (set by GitHub Actions on pull_request events)")
    repository = env["GITHUB_REPOSITORY"]
    if not _REPOSITORY.match(repository):
        raise PostError(f"GITHUB_REPOSITORY must be owner/name, not {repository!r}")
    try:
        event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PostError(f"cannot read the event file GITHUB_EVENT_PATH: {error}") from None
    pull = event.get("pull_request") if isinstance(event, dict) else None
    number = (pull or {}).get("number", event.get("number") if isinstance(event, dict) else None)
    if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
        raise PostError("the event in GITHUB_EVENT_PATH is not a pull request (run on pull_request events)")
    head = ((pull or {}).get("head") or {}).get("sha")
    return PullRequest(env["GITHUB_API_URL"], env["GITHUB_TOKEN"], repository, number, head if isinstance(head, str) else None)


def existing_reviews(client: GitHubClient, pull: PullRequest) -> list[dict]:
    reviews: list[dict] = []
    for page in range(1, MAX_PAGES + 1):
        batch = client.request("GET", f"{pull.path}/reviews", query={"per_page": 100, "page": page})
        if not isinstance(batch, list):
            raise GitHubError(f"GET {pull.path}/reviews: expected a list")
        reviews.extend(r for r in batch if isinstance(r, dict))
        if len(batch) < 100:
            break
    return reviews


@dataclass(frozen=True)
class Outcome:
    posted: int  # comments posted (0: nothing new)
    already: int  # comments left out because an earlier review has them
    url: str | None = None


def publish(client: GitHubClient, pull: PullRequest, comments: Sequence[ReviewComment], commit_id: str) -> Outcome:
    """Post the comments no earlier review has, as one review; post nothing when there are none."""
    if not comments:
        return Outcome(0, 0)
    fresh = not_yet_posted(comments, existing_reviews(client, pull))
    if not fresh:
        return Outcome(0, len(comments))
    answer = client.request("POST", f"{pull.path}/reviews", build_review(fresh, commit_id))
    url = answer.get("html_url") if isinstance(answer, dict) else None
    return Outcome(len(fresh), len(comments) - len(fresh), url)

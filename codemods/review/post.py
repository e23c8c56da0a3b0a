"""Posting a review: where to (the environment, or --repo and --pr), then the API calls.

``review --post`` reads these variables (GitHub Actions sets all of them):

- ``GITHUB_TOKEN``: a token that may write pull-request reviews;
- ``GITHUB_API_URL``: the API, and the only host the token is ever sent to;
- ``GITHUB_REPOSITORY``: ``owner/name`` (``--repo`` replaces it);
- ``GITHUB_EVENT_PATH``: the pull_request event, for the pull request's number
  and head commit (``--pr`` replaces it, and then the event is not read).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .github_api import GitHubClient, GitHubError, api_url_problem, token_problem
from .pull_review import build_review, not_yet_posted
from .suggestions import ReviewComment

_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
MAX_PAGES = 50
MAX_EVENT_BYTES = 64 * 1024 * 1024


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


def from_environment(
    env: Mapping[str, str], *, repository: str | None = None, number: int | None = None
) -> PullRequest:
    """The pull request to post to: --repo and --pr where given, else GITHUB_REPOSITORY and the event."""
    needed = ["GITHUB_API_URL", "GITHUB_TOKEN"]
    if repository is None:
        needed.append("GITHUB_REPOSITORY")
    if number is None:
        needed.append("GITHUB_EVENT_PATH")
    missing = [name for name in needed if not env.get(name)]
    if missing:
        raise PostError(
            f"--post needs {', '.join(missing)} (set by GitHub Actions on pull_request events; "
            "elsewhere give --repo OWNER/NAME and --pr N, and set GITHUB_TOKEN and GITHUB_API_URL)"
        )
    problem = api_url_problem(env["GITHUB_API_URL"])
    if problem:
        raise PostError(f"GITHUB_API_URL is not usable: {problem}")
    problem = token_problem(env["GITHUB_TOKEN"])
    if problem:
        raise PostError(f"GITHUB_TOKEN is not usable: {problem}")
    repository = env["GITHUB_REPOSITORY"] if repository is None else repository
    if not _REPOSITORY.match(repository) or ".." in repository.split("/"):
        raise PostError(f"the repository must be owner/name, not {repository!r} (GITHUB_REPOSITORY or --repo)")
    head = None
    if number is None:
        number, head = _from_event(env["GITHUB_EVENT_PATH"])
    return PullRequest(env["GITHUB_API_URL"], env["GITHUB_TOKEN"], repository, number, head)


def _from_event(event_path: str) -> tuple[int, str | None]:
    """The pull request's number and head commit from the event file Actions writes."""
    try:
        with open(event_path, "rb") as handle:
            raw = handle.read(MAX_EVENT_BYTES + 1)
    except OSError as error:
        raise PostError(f"cannot read the event file GITHUB_EVENT_PATH: {error.strerror or 'unreadable'}") from None
    if len(raw) > MAX_EVENT_BYTES:
        raise PostError("the event file GITHUB_EVENT_PATH is too large to be an event")
    try:
        event = json.loads(raw)
    except (ValueError, RecursionError):
        raise PostError("the event file GITHUB_EVENT_PATH is not JSON") from None
    event = event if isinstance(event, dict) else {}
    pull = event.get("pull_request")
    pull = pull if isinstance(pull, dict) else {}
    number = pull.get("number", event.get("number"))
    if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
        raise PostError(
            "the event in GITHUB_EVENT_PATH is not a pull request (run on pull_request events, or give --pr N)"
        )
    head = pull.get("head")
    sha = head.get("sha") if isinstance(head, dict) else None
    return number, sha if isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha) else None


def existing_reviews(client: GitHubClient, pull: PullRequest) -> list[dict]:
    reviews: list[dict] = []
    for page in range(1, MAX_PAGES + 1):
        batch = client.request("GET", f"{pull.path}/reviews", query={"per_page": 100, "page": page})
        if not isinstance(batch, list):
            raise GitHubError(f"GET {pull.path}/reviews: the answer is not a list of reviews")
        for review in batch:
            problem = _review_shape_problem(review)
            if problem:
                raise GitHubError(f"GET {pull.path}/reviews: the answer is not a list of reviews ({problem})")
        reviews.extend(batch)
        if len(batch) < 100:
            break
    return reviews


def _review_shape_problem(review: object) -> str | None:
    """What is wrong with one review of a listing, as far as duplicate detection reads it."""
    if not isinstance(review, dict):
        return "an entry is not an object"
    if not isinstance(review.get("body"), (str, type(None))):
        return "a review's body is not text"
    if not isinstance(review.get("user"), (dict, type(None))):
        return "a review's user is not an object"
    if not isinstance((review.get("user") or {}).get("type"), (str, type(None))):
        return "a review's user type is not text"
    if not isinstance(review.get("author_association"), (str, type(None))):
        return "a review's author_association is not text"
    return None


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
    url = url if isinstance(url, str) and re.fullmatch(r"https?://[!-~]{1,2000}", url) else None
    return Outcome(len(fresh), len(comments) - len(fresh), url)

"""A small GitHub REST client: retries with backoff, clear errors, the token kept safe.

The token is sent only to GITHUB_API_URL: redirects are never followed (urllib
would carry the Authorization header to wherever they point), and for a
plain-http API URL no proxy is used. It is never printed, logged or put in
an error message; every message this module makes has it redacted anyway.
5xx answers, 429 and network failures are retried with exponential backoff
(honouring Retry-After); 401, 403, 404 and 422 fail at once with the status
named and what it usually means.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..version import version

HINTS = {
    401: "the token was rejected; check GITHUB_TOKEN",
    403: "the token may not write pull-request reviews (the workflow needs `permissions: pull-requests: write`; "
    "pull requests from forks get a read-only token) or a rate limit was hit",
    404: "no such repository or pull request, or the token cannot see it; check GITHUB_REPOSITORY and the event",
    422: "GitHub refused the request as invalid (a comment outside the pull request's diff, or a stale commit)",
}
MAX_RETRY_AFTER = 60.0


class GitHubError(Exception):
    """A request failed; the message names the method, the path and the status."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001
        return None  # urllib then raises HTTPError with the 3xx status


@dataclass
class GitHubClient:
    api_url: str
    token: str = field(repr=False)
    attempts: int = 4
    backoff: float = 1.0
    timeout: float = 30.0
    sleep: Callable[[float], None] = time.sleep

    def __post_init__(self) -> None:
        parsed = urllib.parse.urlsplit(self.api_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise GitHubError(f"GITHUB_API_URL must be an http(s) URL, not {self.api_url!r}")
        if parsed.username or parsed.password:
            raise GitHubError("GITHUB_API_URL must not carry credentials")
        self.api_url = self.api_url.rstrip("/")
        handlers: list[urllib.request.BaseHandler] = [_RefuseRedirects()]
        if parsed.scheme == "http":
            handlers.append(urllib.request.ProxyHandler({}))
        self._opener = urllib.request.build_opener(*handlers)

    def redact(self, text: str) -> str:
        return text.replace(self.token, "***") if self.token else text

    def request(self, method: str, path: str, payload: Any = None, query: dict[str, Any] | None = None) -> Any:
        url = self.api_url + path + (f"?{urllib.parse.urlencode(query)}" if query else "")
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {self.token}",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": f"jaxfix/{version()}",
        }
        if data is not None:
            headers["Content-Type"] = "application/json"
        where = f"{method} {path}"
        for attempt in range(1, self.attempts + 1):
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with self._opener.open(request, timeout=self.timeout) as response:
                    body = response.read()
                return json.loads(body) if body.strip() else None
            except urllib.error.HTTPError as error:
                detail = _error_detail(error)
                retryable = error.code >= 500 or error.code == 429
                if not retryable or attempt == self.attempts:
                    raise self._failure(where, error.code, error.reason, detail, attempt) from None
                self.sleep(self._delay(attempt, error.headers.get("Retry-After")))
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as error:
                reason = getattr(error, "reason", None) or error
                if attempt == self.attempts:
                    raise GitHubError(
                        self.redact(f"{where}: cannot reach {self.api_url} after {attempt} attempts: {reason}")
                    ) from None
                self.sleep(self._delay(attempt, None))
            except json.JSONDecodeError:
                raise GitHubError(f"{where}: the answer is not JSON") from None
        raise AssertionError("unreachable")

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(max(float(retry_after), 0.0), MAX_RETRY_AFTER)
            except ValueError:
                pass
        return self.backoff * 2 ** (attempt - 1)

    def _failure(self, where: str, status: int, reason: str, detail: str, attempt: int) -> GitHubError:
        parts = [f"GitHub API {where} answered {status} {reason}".rstrip()]
        if 300 <= status < 400:
            parts.append("a redirect, not followed: the token goes only to GITHUB_API_URL")
        if status in HINTS:
            parts.append(HINTS[status])
        if detail:
            parts.append(f"GitHub says: {detail}")
        if attempt > 1:
            parts.append(f"after {attempt} attempts")
        return GitHubError(self.redact("; ".join(parts)), status)


def _error_detail(error: urllib.error.HTTPError) -> str:
    """GitHub's own message for a failed request, kept short and on one line."""
    try:
        payload = json.loads(error.read() or b"{}")
    except (ValueError, OSError):
        return ""
    if not isinstance(payload, dict):
        return ""
    message = str(payload.get("message") or "")
    errors = payload.get("errors")
    if isinstance(errors, list) and errors:
        message += " (" + "; ".join(str(e.get("message", e) if isinstance(e, dict) else e) for e in errors[:3]) + ")"
    return " ".join(message.split())[:300]

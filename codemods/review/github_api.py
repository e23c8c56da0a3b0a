"""A small GitHub REST client: retries with backoff, clear errors, the token kept safe.

The token is sent only to GITHUB_API_URL: redirects are never followed (urllib
would carry the Authorization header to wherever they point), and for a
plain-http API URL no proxy is used. It is checked before any use (printable
ASCII, no whitespace, a token's length), so no header or library error can
hold it, and no message here is built from anything that could; every
message is redacted all the same.

Every way a request can fail is a GitHubError with one line for people:
a status (5xx and 429 retried with exponential backoff, honouring a sane
Retry-After; 401, 403, 404 and 422 at once, with what they usually mean), a
connection that fails or answers something that is not HTTP (bad status
line, truncated body, oversized headers), an answer that is not JSON, and a
request that takes too long as a whole: each attempt has a deadline, and so
has the request with its retries, so a server dripping its answer a byte at
a time cannot hold the job.
"""

from __future__ import annotations

import http.client
import json
import math
import socket
import threading
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
#: GitHub's tokens are 40 characters (ghp_, ghs_, classic hex) to 93 (github_pat_); anything far outside is not one.
MIN_TOKEN_LENGTH = 16
MAX_TOKEN_LENGTH = 1024
#: The largest answer read: review listings are pages of 100, far below this.
MAX_BODY = 16 * 1024 * 1024


class GitHubError(Exception):
    """A request failed; the message names the method, the path and the status."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be a GitHub token, or None. The answer never quotes the token."""
    if not token:
        return "it is empty"
    if any(char.isspace() for char in token):
        return "it holds whitespace or a line break (pasted with the token?)"
    if not all("!" <= char <= "~" for char in token):
        return "it holds characters other than printable ASCII"
    if not MIN_TOKEN_LENGTH <= len(token) <= MAX_TOKEN_LENGTH:
        count = len(token)
        plural = "s" if count != 1 else ""
        return f"it has {count} character{plural}, and a GitHub token has {MIN_TOKEN_LENGTH} to {MAX_TOKEN_LENGTH}"
    return None


def api_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be GITHUB_API_URL, or None. The answer never quotes the URL's credentials."""
    if not url or not all("!" <= char <= "~" for char in url):
        return "it must be an http(s) URL of printable ASCII without spaces"
    try:
        parsed = urllib.parse.urlsplit(url)
        parsed.port  # noqa: B018  # raises ValueError for a port that is not a number in range
    except ValueError:
        return "it is not a well-formed URL"
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return "it must be an http(s) URL with a host"
    if parsed.username is not None or parsed.password is not None:
        return "it must not carry credentials"
    if parsed.query or parsed.fragment:
        return "it must not have a query or a fragment"
    return None


class _Deadline:
    """Shuts an exchange's sockets down when its time is up.

    A socket timeout bounds each read, not the exchange: a server that sends
    one byte every few seconds never trips it. Shutting the socket down from a
    timer ends whatever read is waiting, and the request fails as a timeout.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            expired = self.expired
        if expired:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class _Request(urllib.request.Request):
    deadline: _Deadline | None = None


def _watched(connection_class: type, deadline: _Deadline | None) -> type:
    """The connection class, registering its socket with the request's deadline once connected."""
    if deadline is None:
        return connection_class

    class Watched(connection_class):  # type: ignore[misc, valid-type]
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    return Watched


class _HTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):  # noqa: ANN001
        return self.do_open(_watched(http.client.HTTPConnection, getattr(req, "deadline", None)), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req):  # noqa: ANN001
        connection = _watched(http.client.HTTPSConnection, getattr(req, "deadline", None))
        return self.do_open(connection, req, context=self._context)


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001
        return None  # urllib then raises HTTPError with the 3xx status


class _Retry(Exception):
    """An attempt failed in a way another attempt may not: the message says how."""


@dataclass
class GitHubClient:
    api_url: str
    token: str = field(repr=False)
    attempts: int = 4
    backoff: float = 1.0
    #: Seconds one attempt may take, from connecting to the last byte (also each socket operation's timeout).
    timeout: float = 30.0
    #: Seconds one request may take, its retries and the waits between them included.
    deadline: float = 150.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        problem = api_url_problem(self.api_url)
        if problem:
            raise GitHubError(f"GITHUB_API_URL is not usable: {problem}")
        problem = token_problem(self.token)
        if problem:
            raise GitHubError(f"the token is not usable: {problem}")
        parsed = urllib.parse.urlsplit(self.api_url)
        self.api_url = self.api_url.rstrip("/")
        handlers: list[urllib.request.BaseHandler] = [_RefuseRedirects(), _HTTPHandler(), _HTTPSHandler()]
        if parsed.scheme == "http":
            handlers.append(urllib.request.ProxyHandler({}))
        self._opener = urllib.request.build_opener(*handlers)

    def redact(self, text: str) -> str:
        return text.replace(self.token, "***") if len(self.token) >= MIN_TOKEN_LENGTH else text

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
        give_up_at = self.clock() + self.deadline
        for attempt in range(1, self.attempts + 1):
            request = _Request(url, data=data, method=method, headers=headers)
            try:
                body = self._exchange(request, where, attempt, min(self.timeout, max(give_up_at - self.clock(), 0.001)))
            except _Retry as failure:
                retry_after = failure.args[1] if len(failure.args) > 1 else None
                delay = self._delay(attempt, retry_after)
                if attempt == self.attempts or self.clock() + delay >= give_up_at:
                    raise failure.args[0] from None
                self.sleep(delay)
                continue
            try:
                return json.loads(body) if body.strip() else None
            except ValueError:  # JSONDecodeError, and UnicodeDecodeError for bytes that are not UTF-8
                raise GitHubError(f"{where}: the answer is not JSON") from None
        raise AssertionError("unreachable")

    def _exchange(self, request: _Request, where: str, attempt: int, seconds: float) -> bytes:
        """One attempt: the answer's body, or a GitHubError (final) or _Retry (wrapping the error)."""
        with _Deadline(seconds) as deadline:
            request.deadline = deadline
            try:
                with self._opener.open(request, timeout=min(self.timeout, seconds)) as response:
                    body = response.read(MAX_BODY + 1)
                    missing = getattr(response, "length", None)  # what Content-Length promised and never came
                    if missing and len(body) <= MAX_BODY:
                        raise http.client.IncompleteRead(body, missing)
                if len(body) > MAX_BODY:
                    raise GitHubError(f"{where}: the answer is larger than {MAX_BODY // (1024 * 1024)} MB")
                return body
            except urllib.error.HTTPError as error:
                detail = _error_detail(error)
                failure = self._failure(where, error.code, error.reason, detail, attempt)
                if error.code >= 500 or error.code == 429:
                    raise _Retry(failure, error.headers.get("Retry-After") if error.headers else None) from None
                raise failure from None
            except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
                if deadline.expired:
                    reason = f"no complete answer within {seconds:g}s"
                else:
                    reason = _one_line(getattr(error, "reason", None) or error)
                raise _Retry(
                    GitHubError(self.redact(f"{where}: cannot reach {self.api_url} after {attempt} attempts: {reason}"))
                ) from None
            except ValueError:
                # urllib and http.client refuse some requests with ValueError, whose text may quote a
                # header: it is not repeated.
                raise GitHubError(f"{where}: the request could not be sent to {self.api_url}") from None

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                seconds = float(retry_after)
            except ValueError:
                seconds = math.nan  # an HTTP date, or nonsense: back off as usual
            if math.isfinite(seconds) and seconds >= 0:
                return min(seconds, MAX_RETRY_AFTER)
        return self.backoff * 2 ** (attempt - 1)

    def _failure(self, where: str, status: int, reason: str, detail: str, attempt: int) -> GitHubError:
        parts = [f"GitHub API {where} answered {status} {_one_line(reason or '')}".rstrip()]
        if 300 <= status < 400:
            parts.append("a redirect, not followed: the token goes only to GITHUB_API_URL")
        if status in HINTS:
            parts.append(HINTS[status])
        if detail:
            parts.append(f"GitHub says: {detail}")
        if attempt > 1:
            parts.append(f"after {attempt} attempts")
        return GitHubError(self.redact("; ".join(parts)), status)


def _one_line(value: object, limit: int = 200) -> str:
    """Text from a server or a library, safe for one line of a message: printable, short."""
    text = " ".join(str(value).split())
    text = "".join(char if char.isprintable() else "?" for char in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _error_detail(error: urllib.error.HTTPError) -> str:
    """GitHub's own message for a failed request, kept short and on one line."""
    try:
        payload = json.loads(error.read(64 * 1024) or b"{}")
    except (ValueError, OSError, http.client.HTTPException):
        return ""
    if not isinstance(payload, dict):
        return ""
    message = str(payload.get("message") or "")
    errors = payload.get("errors")
    if isinstance(errors, list) and errors:
        message += " (" + "; ".join(str(e.get("message", e) if isinstance(e, dict) else e) for e in errors[:3]) + ")"
    return _one_line(message, 300)

"""The REST client on its own: backoff timing, which statuses retry, where the token may go, and every
way a server can misbehave (against local servers on 127.0.0.1 only)."""

from __future__ import annotations

import time

import pytest

from jaxfix.codemods.review.github_api import GitHubClient, GitHubError

from .fake_github import FakeGitHub
from .misbehaving_server import MisbehavingServer, answer, sends, trickles

TOKEN = "ghp_unit-test-token-abcdef"


@pytest.fixture
def server():
    fake = FakeGitHub()
    yield fake
    fake.close()


def client_for(server: FakeGitHub, slept: list[float], **kwargs) -> GitHubClient:
    return GitHubClient(server.url, TOKEN, sleep=slept.append, timeout=10, **kwargs)


def test_5xx_and_429_retry_with_exponential_backoff_and_retry_after(server: FakeGitHub) -> None:
    server.failures = [("GET", 500, {}), ("GET", 502, {}), ("GET", 429, {"Retry-After": "7"})]
    slept: list[float] = []
    assert client_for(server, slept).request("GET", "/repos/o/r/pulls/1/reviews") == []
    assert slept == [1.0, 2.0, 7.0]
    assert len(server.requests) == 4


def test_gives_up_after_the_last_attempt_naming_the_status(server: FakeGitHub) -> None:
    server.failures = [("POST", 503, {})] * 3
    slept: list[float] = []
    with pytest.raises(GitHubError) as raised:
        client_for(server, slept, attempts=3).request("POST", "/repos/o/r/pulls/1/reviews", {"body": "x"})
    assert raised.value.status == 503
    assert "answered 503" in str(raised.value) and "after 3 attempts" in str(raised.value)
    assert slept == [1.0, 2.0]


@pytest.mark.parametrize("status", [401, 403, 404, 422])
def test_client_errors_fail_at_once(server: FakeGitHub, status: int) -> None:
    server.failures = [("POST", status, {})]
    server.failure_body = {"message": "Validation Failed", "errors": [{"message": "line must be part of the diff"}]}
    slept: list[float] = []
    with pytest.raises(GitHubError) as raised:
        client_for(server, slept).request("POST", "/x", {})
    assert raised.value.status == status and slept == []
    assert f"POST /x answered {status}" in str(raised.value)
    assert "GitHub says: Validation Failed (line must be part of the diff)" in str(raised.value)


def test_the_token_goes_only_to_the_api_url(server: FakeGitHub) -> None:
    elsewhere = FakeGitHub()
    try:
        server.redirect_to = elsewhere.url
        with pytest.raises(GitHubError) as raised:
            client_for(server, []).request("GET", "/repos/o/r")
        assert raised.value.status == 307 and elsewhere.requests == []
        assert server.requests[0].headers["authorization"] == f"Bearer {TOKEN}"
    finally:
        elsewhere.close()


def test_an_unreachable_api_is_retried_then_named(server: FakeGitHub) -> None:
    url = server.url
    server.close()  # nothing listens there any more
    slept: list[float] = []
    client = GitHubClient(url, TOKEN, sleep=slept.append, timeout=5)
    with pytest.raises(GitHubError) as raised:
        client.request("GET", "/repos/o/r")
    assert f"GET /repos/o/r: cannot reach {url} after 4 attempts" in str(raised.value)
    assert slept == [1.0, 2.0, 4.0] and TOKEN not in str(raised.value)


def test_bad_api_urls_are_refused() -> None:
    for url in ("ftp://example.com", "not a url", "https://user:pw@example.com"):
        with pytest.raises(GitHubError):
            GitHubClient(url, TOKEN)
    assert TOKEN not in repr(GitHubClient("https://api.github.com", TOKEN))


# -- the token: checked before it is used, and no message can hold it (issues 18.6, 21.7) ----------


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("secret-token-0123456789\n", "whitespace or a line break"),
        ("secret token 0123456789", "whitespace or a line break"),
        ("sécret-token-0123456789", "other than printable ASCII"),
        ("secret-token-€-0123456789", "other than printable ASCII"),
        ("e", "it has 1 character, and a GitHub token has 16 to"),
        ("", "it is empty"),
    ],
)
def test_a_token_that_cannot_be_one_is_refused_before_use(server: FakeGitHub, token: str, why: str) -> None:
    with pytest.raises(GitHubError) as raised:
        GitHubClient(server.url, token)
    assert why in str(raised.value)
    assert server.requests == []
    assert "secret" not in str(raised.value)  # no part of the token is quoted


def test_redaction_replaces_the_token_and_nothing_else() -> None:
    client = GitHubClient("https://api.github.com", TOKEN)
    assert client.redact(f"echoed {TOKEN} here; the rest is kept") == "echoed *** here; the rest is kept"


# -- every failure is a GitHubError with one line, never a traceback (issue 21.8) -----------------


@pytest.fixture
def misbehaving():
    servers: list[MisbehavingServer] = []

    def start(*scripts) -> MisbehavingServer:
        servers.append(MisbehavingServer(*scripts))
        return servers[-1]

    yield start
    for started in servers:
        started.close()


@pytest.mark.parametrize(
    ("script", "says"),
    [
        (sends(answer("200 OK", b'[{"body": "\xff not utf-8 \x80"}]')), "the answer is not JSON"),
        (sends(answer("200 OK", b"<html>rate limited</html>")), "the answer is not JSON"),
        (sends(b"HTTP/1.1 two-hundred OK\r\n\r\n"), "cannot reach"),
        (sends(b"SSH-2.0-OpenSSH_9.6\r\n"), "cannot reach"),
        (sends(answer("200 OK", b'[{"id": 1}]', length=500)), "IncompleteRead"),
        (sends(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n[]"), "cannot reach"),
        (sends(answer("200 OK", b"[]", {f"X-{i}": "v" for i in range(150)})), "cannot reach"),
        (sends(b""), "cannot reach"),
    ],
    ids=["not-utf8", "not-json", "bad-status-line", "not-http", "truncated", "long-header", "many-headers", "hang-up"],
)
def test_misbehaving_servers_give_one_clear_error(misbehaving, script, says: str) -> None:
    server = misbehaving(script)
    slept: list[float] = []
    with pytest.raises(GitHubError) as raised:
        GitHubClient(server.url, TOKEN, attempts=2, sleep=slept.append, timeout=5).request("GET", "/repos/o/r/pulls/1/reviews")
    message = str(raised.value)
    assert says in message and "\n" not in message and TOKEN not in message
    assert message.startswith("GET /repos/o/r/pulls/1/reviews: ")


@pytest.mark.parametrize("retry_after", ["nan", "inf", "-5", "1e999", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"])
def test_a_retry_after_that_is_no_number_of_seconds_falls_back_to_backoff(misbehaving, retry_after: str) -> None:
    server = misbehaving(
        sends(answer("503 Service Unavailable", b"{}", {"Retry-After": retry_after})), sends(answer("200 OK", b"[]"))
    )
    slept: list[float] = []
    assert GitHubClient(server.url, TOKEN, sleep=slept.append, timeout=5).request("GET", "/x") == []
    assert slept == [1.0]


def test_a_server_that_drips_its_answer_is_cut_off_by_the_deadline(misbehaving) -> None:
    """Each byte arrives well within the socket timeout; the request as a whole may not take longer."""
    server = misbehaving(trickles(answer("200 OK", b"[]" * 100), every=0.3))
    slept: list[float] = []
    client = GitHubClient(server.url, TOKEN, sleep=slept.append, timeout=1.5, deadline=4.0)
    started = time.monotonic()
    with pytest.raises(GitHubError) as raised:
        client.request("GET", "/x")
    assert time.monotonic() - started < 8
    assert "no complete answer within 1.5s" in str(raised.value)
    assert 2 <= server.connections <= 3  # retried within the request's own deadline, then given up


@pytest.mark.parametrize(
    "url",
    ["http://[::1", "http://example.com:99999", "http://example.com:port", "http://exa mple.com", "http://h/api?x=1",
     "http://h/api#top", "https://api.github.com\n", "https://αpi.github.com", ""],
)
def test_malformed_api_urls_are_refused_with_a_clear_error(url: str) -> None:
    with pytest.raises(GitHubError) as raised:
        GitHubClient(url, TOKEN)
    assert str(raised.value).startswith("GITHUB_API_URL is not usable: ")

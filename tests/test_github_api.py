"""The REST client on its own: backoff timing, which statuses retry, and where the token may go."""

from __future__ import annotations

import pytest

from jaxfix.codemods.review.github_api import GitHubClient, GitHubError

from .fake_github import FakeGitHub

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

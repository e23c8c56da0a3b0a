"""`jaxfix review --base REF [--post]` end to end: real git repositories, a local fake GitHub."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jaxfix.codemods.review.changed_lines import changed_lines, merge_base

from .fake_github import FakeGitHub
from .helpers import BRANCHES, GOLDEN, call, commit_all, git, init_repo, jaxfix
from .misbehaving_server import MisbehavingServer, answer, sends
from .test_review_comments import apply_suggestion

TOKEN = "ghs_S3CRET-token-for-tests-0123456789"
FACTORY = (GOLDEN / "JAX101" / "import_added_jit_factory" / "before.py").read_text()


@pytest.fixture
def fake_github():
    server = FakeGitHub()
    yield server
    server.close()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: model.py with one finding (line 14), other.py with one (line 18).
    feature: a new finding on model.py line 15, other.py's call changed, and new.py added."""
    root = init_repo(tmp_path / "repo")
    (root / "model.py").write_text(BRANCHES + call(3))
    (root / "other.py").write_text(FACTORY)
    commit_all(root, "base")
    git("checkout", "-q", "-b", "feature", cwd=root)
    with open(root / "model.py", "a") as handle:
        handle.write(call(5))
    (root / "other.py").write_text(FACTORY.replace("fill, blank, 3, 7.0", "fill, blank, 4, 7.0"))
    (root / "new.py").write_text(BRANCHES + "\n" + call(7))
    commit_all(root, "feature")
    return root


def event_file(folder: Path, head: str, number: int = 7) -> Path:
    path = folder / "event.json"
    path.write_text(json.dumps({"action": "synchronize", "number": number, "pull_request": {"number": number, "head": {"sha": head}}}))
    return path


def post_env(server: FakeGitHub | MisbehavingServer, repo: Path, **extra: str) -> dict[str, str]:
    head = git("rev-parse", "HEAD", cwd=repo).strip()
    return {
        "GITHUB_API_URL": server.url,
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_REPOSITORY": "octo/jaxrepo",
        "GITHUB_EVENT_PATH": str(event_file(repo.parent, head)),
        "JAXFIX_GITHUB_BACKOFF": "0",  # a local server: retry at once (the waits are test_github_api's)
        **extra,
    }


def test_changed_lines_follow_the_merge_base_and_the_working_tree(repo: Path) -> None:
    git("checkout", "-q", "main", cwd=repo)
    (repo / "later.py").write_text("x = 1\n")
    commit_all(repo, "main moves on")  # not part of the branch
    git("checkout", "-q", "feature", cwd=repo)
    (repo / "model.py").write_text((repo / "model.py").read_text() + "z = 2\n")  # uncommitted: what jaxfix reads
    base = merge_base(repo, "main")
    assert changed_lines(repo, base) == {
        "model.py": frozenset({15, 16}),
        "other.py": frozenset({18}),
        "new.py": frozenset(range(1, 16)),
    }


def test_review_reports_only_changed_lines_as_suggestions_and_diffs(repo: Path) -> None:
    result = jaxfix("review", "--base", "main", cwd=repo)
    assert result.returncode == 1, result.stderr
    review = json.loads(result.stdout)
    assert review["commit_id"] == git("rev-parse", "HEAD", cwd=repo).strip()
    placed = [(c["path"], c["line"]) for c in review["comments"]]
    assert placed == [("model.py", 15), ("new.py", 15), ("other.py", 18)]  # model.py:14 predates the branch
    model = next(c for c in review["comments"] if c["path"] == "model.py")
    text = (repo / "model.py").read_text()
    assert apply_suggestion(text, model) == text.replace(
        "run_true, run_false, 5, 1.0", "partial(run_true, 5), partial(run_false, 5), 1.0"
    )
    other = next(c for c in review["comments"] if c["path"] == "other.py")
    assert "```suggestion" not in other["body"] and "+from functools import partial" in other["body"]


def test_review_output_formats_cover_the_same_findings(repo: Path) -> None:
    sarif = json.loads(jaxfix("review", "--base", "main", "--output-format", "sarif", cwd=repo).stdout)
    lines = sorted(
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in sarif["runs"][0]["results"]
    )
    assert lines == [("model.py", 15), ("new.py", 15), ("other.py", 18)]
    rdjson = json.loads(jaxfix("review", "--base", "main", "--output-format", "rdjson", cwd=repo).stdout)
    assert len(rdjson["diagnostics"]) == 3
    text = jaxfix("review", "--base", "main", "--output-format", "text", cwd=repo).stdout
    assert "model.py:15:" in text and "model.py:14:" not in text


def test_review_without_findings_on_changed_lines_exits_0(repo: Path) -> None:
    git("checkout", "-q", "-b", "quiet", "main", cwd=repo)
    (repo / "docs.py").write_text("x = 1\n")
    commit_all(repo, "unrelated")
    result = jaxfix("review", "--base", "main", cwd=repo)
    assert result.returncode == 0 and json.loads(result.stdout)["comments"] == []


def test_unknown_base_is_an_error(repo: Path) -> None:
    result = jaxfix("review", "--base", "no-such-branch", cwd=repo)
    assert result.returncode == 2 and "unknown revision 'no-such-branch'" in result.stderr


def test_post_sends_one_review_and_never_the_same_findings_twice(repo: Path, fake_github: FakeGitHub) -> None:
    env = post_env(fake_github, repo)
    first = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert first.returncode == 1, first.stderr
    assert "Posted a review with 3 comments: https://github.example/pull/7#review-1" in first.stderr
    (posted,) = fake_github.posts()
    assert posted.path == "/repos/octo/jaxrepo/pulls/7/reviews"
    assert posted.headers["authorization"] == f"Bearer {TOKEN}"
    assert posted.headers["accept"] == "application/vnd.github+json"
    assert posted.body == json.loads(first.stdout)  # exactly what review prints
    assert posted.body["commit_id"] == git("rev-parse", "HEAD", cwd=repo).strip()
    assert all(r.path.startswith("/repos/octo/jaxrepo/pulls/7/") for r in fake_github.requests)

    again = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert again.returncode == 1
    assert "All 3 findings were already posted; no new review." in again.stderr
    assert len(fake_github.posts()) == 1

    # A new push that moves the old findings and adds one: only the new one is posted.
    text = (repo / "model.py").read_text()
    (repo / "model.py").write_text(text.replace("y5 =", "\n\ny5 =") + call(6))
    commit_all(repo, "more")
    env = post_env(fake_github, repo)
    third = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert "Posted a review with 1 comment (3 already posted)" in third.stderr, third.stderr
    latest = fake_github.posts()[-1].body
    assert [(c["path"], c["line"]) for c in latest["comments"]] == [("model.py", 18)]
    for output in (first, again, third):
        assert TOKEN not in output.stdout + output.stderr


def test_post_retries_server_errors_with_backoff(repo: Path, fake_github: FakeGitHub) -> None:
    fake_github.failures = [("POST", 502, {}), ("POST", 503, {"Retry-After": "0"})]
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **post_env(fake_github, repo))
    assert result.returncode == 1, result.stderr
    assert len(fake_github.posts()) == 3 and "Posted a review with 3 comments" in result.stderr


@pytest.mark.parametrize(
    ("status", "hint"),
    [
        (401, "the token was rejected"),
        (422, "GitHub refused the request as invalid"),
    ],
)
def test_post_errors_name_the_status_and_never_the_token(
    repo: Path, fake_github: FakeGitHub, status: int, hint: str
) -> None:
    fake_github.failures = [("POST", status, {})]
    fake_github.failure_body = {"message": f"nope, not with {TOKEN}"}  # even an echoed token is redacted
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **post_env(fake_github, repo))
    assert result.returncode == 2
    assert f"error: GitHub API POST /repos/octo/jaxrepo/pulls/7/reviews answered {status}" in result.stderr
    assert hint in result.stderr
    assert len(fake_github.posts()) == 1  # 4xx is not retried
    assert TOKEN not in result.stdout + result.stderr


def test_post_never_follows_a_redirect_with_the_token(repo: Path, fake_github: FakeGitHub) -> None:
    elsewhere = FakeGitHub()
    try:
        fake_github.redirect_to = elsewhere.url
        result = jaxfix("review", "--base", "main", "--post", cwd=repo, **post_env(fake_github, repo))
    finally:
        elsewhere.close()
    assert result.returncode == 2 and "answered 307" in result.stderr and "not followed" in result.stderr
    assert elsewhere.requests == []
    assert TOKEN not in result.stdout + result.stderr


def test_post_needs_the_actions_environment(repo: Path) -> None:
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, GITHUB_TOKEN=TOKEN)
    assert result.returncode == 2
    assert "--post needs GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH" in result.stderr
    (repo.parent / "push.json").write_text(json.dumps({"ref": "refs/heads/main"}))
    env = {"GITHUB_API_URL": "http://127.0.0.1:9", "GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": "o/r", "GITHUB_EVENT_PATH": str(repo.parent / "push.json")}
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert result.returncode == 2 and "is not a pull request" in result.stderr
    env["GITHUB_REPOSITORY"] = "o/r/../../evil"
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert result.returncode == 2 and "must be owner/name, not 'o/r/../../evil' (GITHUB_REPOSITORY" in result.stderr
    for event in ({"pull_request": 5}, {"pull_request": {"number": 3, "head": []}, "number": "x"}, [1, 2]):
        (repo.parent / "odd.json").write_text(json.dumps(event))
        env = {**env, "GITHUB_REPOSITORY": "o/r", "GITHUB_EVENT_PATH": str(repo.parent / "odd.json")}
        result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    (repo.parent / "odd.json").write_bytes(b"\xff\xfe{not json")
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert result.returncode == 2 and "GITHUB_EVENT_PATH is not JSON" in result.stderr


def test_post_refuses_when_head_is_not_the_pull_requests_head(repo: Path, fake_github: FakeGitHub) -> None:
    env = post_env(fake_github, repo)
    env["GITHUB_EVENT_PATH"] = str(event_file(repo.parent, "0" * 40))
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert result.returncode == 2 and "Check out the pull request's head" in result.stderr
    assert fake_github.posts() == []


def test_pull_request_code_cannot_reach_outside_the_checkout(repo: Path, fake_github: FakeGitHub) -> None:
    """A symlink to a file elsewhere on the runner is not read, quoted, or written."""
    outside = repo.parent / "outside"
    outside.mkdir()
    secret = outside / "secret.py"
    secret.write_text(BRANCHES + "SECRET_VALUE = 1\n" + call(9))
    os.symlink(secret, repo / "link.py")
    (repo / "pyproject.toml").write_text('[tool.jaxfix]\nexclude = ["new.py"]\n')
    commit_all(repo, "pr tries its luck")
    env = post_env(fake_github, repo)
    before = {p: p.stat().st_mtime_ns for p in repo.parent.rglob("*") if ".git" not in p.parts}
    # Named explicitly too: discovery already passes by links out of a folder it walks.
    result = jaxfix("review", "--base", "main", "--post", ".", "link.py", cwd=repo, **env)
    assert "link.py: not reviewed: a symbolic link or outside the checkout" in result.stderr
    posted = json.dumps([r.body for r in fake_github.requests])
    assert "SECRET_VALUE" not in posted and "SECRET_VALUE" not in result.stdout
    # the pull request's own [tool.jaxfix] is honoured: new.py is excluded
    assert [c["path"] for c in fake_github.posts()[0].body["comments"]] == ["model.py", "other.py"]
    after = {p: p.stat().st_mtime_ns for p in repo.parent.rglob("*") if ".git" not in p.parts}
    assert after == before  # review wrote nothing, anywhere


def test_suppressed_findings_on_changed_lines_are_not_reviewed(repo: Path) -> None:
    with open(repo / "model.py", "a") as handle:
        handle.write(call(8).rstrip("\n") + "  # jaxfix: ignore[JAX101]\n")
        handle.write("# jaxfix: ignore\n" + call(9))
        # another rule: still reported, and the comment that silences nothing too (JAX001)
        handle.write(call(10).rstrip("\n") + "  # jaxfix: ignore[JAX201]\n")
    commit_all(repo, "suppressions")
    review = json.loads(jaxfix("review", "--base", "main", "model.py", cwd=repo).stdout)
    assert [c["line"] for c in review["comments"]] == [15, 19, 19]
    sarif = json.loads(jaxfix("review", "--base", "main", "--output-format", "sarif", "model.py", cwd=repo).stdout)
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        ("JAX101", 15), ("JAX101", 19), ("JAX001", 19)
    ]


def test_pull_request_that_changes_only_the_caller_gets_its_suggestion(tmp_path: Path) -> None:
    """The branches are jitted in pkg/branches.py, untouched by the pull request; the
    new cond in pkg/main.py is found through the import and suggested there."""
    multi = GOLDEN / "multi" / "imported_branches"
    root = init_repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "pkg").mkdir()
    for name in ("__init__.py", "branches.py"):
        (root / "pkg" / name).write_text((multi / "before" / "pkg" / name).read_text())
    (root / "pkg" / "main.py").write_text("import jax\n")
    commit_all(root, "base")
    git("checkout", "-q", "-b", "feature", cwd=root)
    (root / "pkg" / "main.py").write_text((multi / "before" / "pkg" / "main.py").read_text())
    commit_all(root, "use the branches")

    result = jaxfix("review", "--base", "main", cwd=root)
    assert result.returncode == 1, result.stderr
    comments = json.loads(result.stdout)["comments"]
    assert [(c["path"], c["line"]) for c in comments] == [("pkg/main.py", 11), ("pkg/main.py", 12)]
    # Each fix also adds `from functools import partial`, so it is shown as a diff.
    assert all("+    print(jax.lax.cond(" in c["body"] and "partial(run_true, N), partial(run_false, N)" in c["body"] for c in comments)


def test_fix_that_edits_another_file_is_shown_with_both_diffs(tmp_path: Path) -> None:
    multi = GOLDEN / "multi" / "config_in_other_module"
    root = init_repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "pkg").mkdir()
    for path in (multi / "before" / "pkg").glob("*.py"):
        (root / "pkg" / path.name).write_text("import jax\n" if path.name == "main.py" else path.read_text())
    commit_all(root, "base")
    git("checkout", "-q", "-b", "feature", cwd=root)
    (root / "pkg" / "main.py").write_text((multi / "before" / "pkg" / "main.py").read_text())
    commit_all(root, "pass the config")

    result = jaxfix("review", "--base", "main", cwd=root)
    assert result.returncode == 1, result.stderr
    (comment,) = json.loads(result.stdout)["comments"]
    assert comment["path"] == "pkg/main.py" and "```suggestion" not in comment["body"]
    assert "This fix changes other files of the project" in comment["body"]
    assert "+++ b/pkg/configs.py" in comment["body"]


def test_review_rdjson_takes_each_files_unsafe_fixes_from_its_own_project(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    unsafe = (GOLDEN / "JAX101" / "report_unsafe_by_default" / "before.py").read_text()
    for name, allowed in (("bold", "true"), ("careful", "false")):
        (root / name).mkdir()
        (root / name / "pyproject.toml").write_text(f"[tool.jaxfix]\nunsafe-fixes = {allowed}\n")
        (root / name / "unsafe.py").write_text("import jax\n")
    commit_all(root, "base")
    git("checkout", "-q", "-b", "feature", cwd=root)
    for name in ("bold", "careful"):
        (root / name / "unsafe.py").write_text(unsafe)
    commit_all(root, "feature")
    result = jaxfix("review", "--base", "main", "--output-format", "rdjson", "bold", "careful", cwd=root)
    by_path = {d["location"]["path"]: d for d in json.loads(result.stdout)["diagnostics"]}
    assert sorted(by_path) == ["bold/unsafe.py", "careful/unsafe.py"]
    assert "suggestions" in by_path["bold/unsafe.py"] and "suggestions" not in by_path["careful/unsafe.py"]


# -- pull requests from forks, other CI systems, and what can go wrong on the way (issues 18.2, 21.7-8) --


@pytest.mark.parametrize(("method", "status"), [("GET", 403), ("POST", 403), ("POST", 404)])
def test_a_token_that_may_not_review_falls_back_to_annotations(
    repo: Path, fake_github: FakeGitHub, method: str, status: int
) -> None:
    """A fork's pull request gets a read-only token: the same findings as workflow annotations, exit as without --post."""
    fake_github.failures = [(method, status, {})]
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **post_env(fake_github, repo))
    assert result.returncode == 1, result.stderr  # findings: the action's fail-on-findings decides
    review, _, annotations = result.stdout.partition("}\n::")
    assert json.loads(review + "}")["comments"]
    lines = ("::" + annotations).splitlines()
    assert [line.split(",")[0] for line in lines] == ["::warning file=model.py", "::warning file=new.py", "::warning file=other.py"]
    (warning,) = [line for line in result.stderr.splitlines() if "annotations" in line]
    assert f"cannot post a review (GitHub answered {status}" in warning and "3 findings are reported" in warning
    assert fake_github.posts() == ([] if method == "GET" else fake_github.posts()[:1])


def test_the_fallback_annotations_are_not_printed_twice(repo: Path, fake_github: FakeGitHub) -> None:
    fake_github.failures = [("POST", 403, {})]
    result = jaxfix("review", "--base", "main", "--post", "--output-format", "github", cwd=repo, **post_env(fake_github, repo))
    assert result.returncode == 1
    assert len(result.stdout.splitlines()) == 3 and "workflow annotations instead" in result.stderr


def test_repo_and_pr_need_no_event_file(repo: Path, fake_github: FakeGitHub) -> None:
    env = {"GITHUB_API_URL": fake_github.url, "GITHUB_TOKEN": TOKEN}
    result = jaxfix("review", "--base", "main", "--post", "--repo", "octo/other", "--pr", "9", cwd=repo, **env)
    assert result.returncode == 1, result.stderr
    (posted,) = fake_github.posts()
    assert posted.path == "/repos/octo/other/pulls/9/reviews"
    # --repo and --pr replace the variables they name.
    env = post_env(fake_github, repo)
    jaxfix("review", "--base", "main", "--post", "--repo", "octo/third", cwd=repo, **env)
    assert fake_github.requests[-1].path == "/repos/octo/third/pulls/7/reviews"
    assert jaxfix("review", "--base", "main", "--pr", "9", cwd=repo).returncode == 2  # only with --post


def test_review_help_names_the_variables_post_reads(repo: Path) -> None:
    shown = jaxfix("review", "--help", cwd=repo).stdout
    for name in ("GITHUB_TOKEN", "GITHUB_API_URL", "GITHUB_REPOSITORY", "GITHUB_EVENT_PATH", "--repo", "--pr"):
        assert name in shown


def test_an_empty_base_says_what_is_missing(repo: Path) -> None:
    result = jaxfix("review", "--base", "", cwd=repo)
    assert result.returncode == 2 and "--base is empty" in result.stderr and "unknown revision" not in result.stderr


@pytest.mark.parametrize(
    "token",
    ["secret-token-0123456789\n", "secret-token-\u20ac-0123456789", "sécret-token-0123456789", "e"],
    ids=["newline", "non-latin-1", "latin-1", "one-character"],
)
def test_a_token_that_cannot_be_one_is_refused_and_never_printed(repo: Path, fake_github: FakeGitHub, token: str) -> None:
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **post_env(fake_github, repo, GITHUB_TOKEN=token))
    assert result.returncode == 2
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert line.startswith("error: GITHUB_TOKEN is not usable: it ")
    assert "secret" not in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert "***" not in result.stderr  # a one-character token does not garble every message
    assert fake_github.requests == []


@pytest.mark.parametrize(
    "script",
    [
        sends(answer("200 OK", b'[{"body": "\xff\xfe"}]')),
        sends(b"HTTP/1.1 abc\r\n\r\n"),
        sends(answer("200 OK", b"[]", length=100)),
        sends(b"HTTP/1.1 200 OK\r\nX: " + b"y" * 70000 + b"\r\n\r\n[]"),
        sends(answer("200 OK", json.dumps([{"user": "someone", "body": 5}]).encode())),
        sends(answer("200 OK", json.dumps({"message": "not a list"}).encode())),
    ],
    ids=["undecodable", "bad-status-line", "truncated", "oversized-header", "review-of-odd-shape", "not-a-list"],
)
def test_every_http_failure_is_an_error_exit_2(repo: Path, script) -> None:
    server = MisbehavingServer(script)
    try:
        env = post_env(server, repo)
        result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    finally:
        server.close()
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert "/repos/octo/jaxrepo/pulls/7/reviews" in line


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999", "https://api.github.com/?x=1", "ftp://h"])
def test_a_malformed_api_url_is_an_error_exit_2(repo: Path, fake_github: FakeGitHub, url: str) -> None:
    env = {**post_env(fake_github, repo), "GITHUB_API_URL": url}
    result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    assert result.returncode == 2 and "error: GITHUB_API_URL is not usable" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_retry_backoff_is_read_from_the_environment(repo: Path) -> None:
    server = MisbehavingServer(sends(b"HTTP/1.1 abc\r\n\r\n"))
    try:
        env = post_env(server, repo, JAXFIX_GITHUB_BACKOFF="soon")
        result = jaxfix("review", "--base", "main", "--post", cwd=repo, **env)
    finally:
        server.close()
    assert result.returncode == 2 and "JAXFIX_GITHUB_BACKOFF must be seconds from 0 to 60, not 'soon'" in result.stderr

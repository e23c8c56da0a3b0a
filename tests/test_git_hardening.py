"""A checkout's own git configuration cannot make jaxfix run a program (issue 21.9).

jaxfix runs git in the repository it reads (discovery, migrate's dirty check,
review's diff); that repository may be a pull request's or a downloaded one,
with a .git/config and .git/hooks planted to run code.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from .helpers import BRANCHES, call, commit_all, git, init_repo, jaxfix


def plant(repo: Path, marker: Path) -> None:
    """An fsmonitor program and a post-index-change hook, each of which would leave a marker file."""
    script = repo.parent / "planted.sh"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{marker}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    git("config", "core.fsmonitor", str(script), cwd=repo)
    hook = repo / ".git" / "hooks" / "post-index-change"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f'#!/bin/sh\necho hook >> "{marker}"\n')
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    repo = init_repo(tmp_path / "repo")
    (repo / "model.py").write_text(BRANCHES)
    commit_all(repo, "base")
    git("checkout", "-q", "-b", "feature", cwd=repo)
    (repo / "model.py").write_text(BRANCHES + call(3))
    commit_all(repo, "feature")
    marker = tmp_path / "it-ran"
    plant(repo, marker)
    # The plant works: plain git runs it.
    git("status", "--porcelain", cwd=repo)
    assert marker.exists()
    marker.unlink()
    return repo, marker


def test_check_migrate_and_review_never_run_the_checkouts_programs(planted: tuple[Path, Path]) -> None:
    repo, marker = planted
    checked = jaxfix("check", ".", cwd=repo)
    assert checked.returncode == 1 and "model.py:14:" in checked.stdout
    review = jaxfix("review", "--base", "main", cwd=repo)
    assert review.returncode == 1 and [c["line"] for c in json.loads(review.stdout)["comments"]] == [14]
    (repo / "model.py").write_text(BRANCHES + call(4))  # uncommitted: migrate must still see it
    refused = jaxfix("migrate", "model.py", cwd=repo)
    assert refused.returncode == 2 and "uncommitted changes" in refused.stderr
    assert not marker.exists(), marker.read_text()

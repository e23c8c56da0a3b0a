"""The dirty-tree rule of every writing command, against real git repositories (issue 21 item 4).

A file is rewritten only when git holds a committed version equal to it;
otherwise --allow-dirty (changes, no committed version, git cannot tell) or
--allow-no-vcs (no git at all) is needed, as with cargo fix.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from .helpers import GOLDEN, commit_all, env, git, init_repo, jaxfix

SEED = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()
FIXED = (GOLDEN / "JAX101" / "seed000_eager" / "after.py").read_text()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = init_repo(tmp_path / "repo")
    (folder / "model.py").write_text(SEED)
    (folder / ".gitignore").write_text("gen/\n")
    commit_all(folder, "seed")
    return folder


def test_a_clean_committed_file_is_rewritten(repo: Path) -> None:
    result = jaxfix("migrate", "--no-cache", ".", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert (repo / "model.py").read_text() == FIXED


def test_outside_git_migrate_refuses_without_allow_no_vcs(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SEED)
    refused = jaxfix("migrate", "--no-cache", "--allow-dirty", "a.py", cwd=tmp_path)
    assert refused.returncode == 2
    assert "in no git work tree" in refused.stderr and "--allow-no-vcs" in refused.stderr
    assert (tmp_path / "a.py").read_text() == SEED
    allowed = jaxfix("migrate", "--no-cache", "--allow-no-vcs", "a.py", cwd=tmp_path)
    assert allowed.returncode == 0 and (tmp_path / "a.py").read_text() == FIXED


def test_git_missing_from_path_refuses_and_says_why(repo: Path) -> None:
    (repo / "model.py").write_text(SEED + "# local edit\n")
    (repo / "gen").mkdir()
    (repo / "gen" / "ignored.py").write_text(SEED)
    result = jaxfix("migrate", "--no-cache", ".", cwd=repo, PATH=str(repo / "no-such-bin"))
    assert result.returncode == 2
    assert "git is not installed or not on PATH" in result.stderr and "--allow-dirty" in result.stderr
    assert (repo / "model.py").read_text() == SEED + "# local edit\n"
    assert (repo / "gen" / "ignored.py").read_text() == SEED


@pytest.mark.skipif(os.geteuid() != 0, reason="making a repository someone else owns needs root")
def test_a_repository_git_refuses_is_refused_with_gits_reason(repo: Path) -> None:
    (repo / "model.py").write_text(SEED + "# local edit\n")
    subprocess.run(["chown", "-R", "65534:65534", str(repo)], check=True)
    try:
        result = jaxfix("migrate", "--no-cache", "model.py", cwd=repo, HOME=str(repo.parent))
    finally:
        subprocess.run(["chown", "-R", "0:0", str(repo)], check=True)
    assert result.returncode == 2
    assert "dubious ownership" in result.stderr and "--allow-dirty" in result.stderr
    assert (repo / "model.py").read_text() == SEED + "# local edit\n"


def test_an_ignored_file_has_no_committed_version(repo: Path) -> None:
    (repo / "gen").mkdir()
    (repo / "gen" / "ignored.py").write_text(SEED)
    result = jaxfix("migrate", "--no-cache", "gen/ignored.py", cwd=repo)
    assert result.returncode == 2
    assert "gen/ignored.py (ignored by git: no committed version)" in result.stderr
    assert (repo / "gen" / "ignored.py").read_text() == SEED


def test_staged_untracked_and_modified_are_each_named(repo: Path) -> None:
    (repo / "new.py").write_text(SEED)
    (repo / "staged.py").write_text(SEED)
    git("add", "staged.py", cwd=repo)
    (repo / "model.py").write_text(SEED + "# edit\n")
    result = jaxfix("migrate", "--no-cache", ".", cwd=repo)
    assert result.returncode == 2
    assert "model.py (uncommitted changes)" in result.stderr
    assert "new.py (untracked: no committed version)" in result.stderr
    assert "staged.py (staged changes not committed)" in result.stderr


def test_a_second_migrate_names_the_first_ones_rewrites(repo: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    assert jaxfix("migrate", "--cache-dir", cache, ".", cwd=repo).returncode == 0
    again = jaxfix("migrate", "--cache-dir", cache, ".", cwd=repo)
    assert again.returncode == 2
    assert "model.py (uncommitted changes; it holds what jaxfix wrote there last" in again.stderr
    (repo / "model.py").write_text((repo / "model.py").read_text() + "# mine\n")
    edited = jaxfix("migrate", "--cache-dir", cache, ".", cwd=repo)
    assert edited.returncode == 2 and "what jaxfix wrote there last" not in edited.stderr


def test_the_pre_commit_fixing_hook_rewrites_staged_files(repo: Path) -> None:
    (repo / "hooked.py").write_text(SEED)
    git("add", "hooked.py", cwd=repo)
    result = jaxfix("migrate", "--allow-dirty", "--no-cache", "hooked.py", cwd=repo)  # the hook's entry
    assert result.returncode == 0, result.stderr
    assert (repo / "hooked.py").read_text() == FIXED


def test_diff_interactive_refuses_what_migrate_refuses_before_asking(repo: Path) -> None:
    (repo / "model.py").write_text(SEED + "# local edit\n")
    environment = env(TERM="dumb")
    child = pexpect.spawn(
        sys.executable, ["-m", "jaxfix", "diff", "--interactive", "--no-cache", "model.py"],
        cwd=str(repo), env=environment, encoding="utf-8", timeout=60, dimensions=(50, 200),
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "model.py (uncommitted changes)" in child.before and "Apply this fix?" not in child.before
    assert (repo / "model.py").read_text() == SEED + "# local edit\n"


def test_files_of_a_submodule_are_checked_from_the_superproject(tmp_path: Path) -> None:
    library = init_repo(tmp_path / "library")
    (library / "lib.py").write_text(SEED)
    (library / ".gitignore").write_text("skip.py\n")
    commit_all(library, "library")
    top = init_repo(tmp_path / "top")
    (top / "main.py").write_text("x = 1\n")
    commit_all(top, "top")
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(library), "vendor/library", cwd=top)
    commit_all(top, "submodule")
    (top / "vendor" / "library" / "skip.py").write_text(SEED)
    result = jaxfix("check", "--no-cache", ".", cwd=top)
    assert result.returncode == 1, result.stderr
    assert "vendor/library/lib.py:11:30: JAX101" in result.stdout
    assert "skip.py" not in result.stdout  # the submodule's own .gitignore decides for it

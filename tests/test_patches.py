"""`jaxfix diff` prints a patch a real `git apply` accepts, whatever the names and encodings (issue 21 item 5).

Each patch is checked with ``git apply --check`` and then applied, and what
it makes must be exactly what ``migrate`` writes.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .helpers import GOLDEN, commit_all, env, init_repo
from .programs import run_cli_bytes

INLINE = GOLDEN / "JAX101" / "inline_jit_branch"  # its fix adds an import at line 4: a hunk from line 1
SEED = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()


def diff(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return run_cli_bytes(["diff", "--no-cache", *args], cwd, env(), None, timeout=300)


def git_apply(patch: bytes, cwd: Path, *flags: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "apply", *flags, "-"], input=patch, cwd=cwd, capture_output=True, timeout=60)


def applies_like_migrate(repo: Path, *paths: str, apply_in: Path | None = None) -> bytes:
    """The patch `diff` prints passes `git apply --check`, and applying it gives what migrate writes."""
    result = diff(repo, *paths)
    assert result.returncode == 1, result.stderr.decode()
    where = apply_in or repo
    check = git_apply(result.stdout, where, "--check")
    assert check.returncode == 0, check.stderr.decode() + "\n" + result.stdout.decode("utf-8", "replace")
    migrated = repo.parent / "migrated"
    shutil.copytree(repo, migrated)
    done = run_cli_bytes(["migrate", "--no-cache", *paths], migrated, env(), None, timeout=300)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert git_apply(result.stdout, where).returncode == 0
    for path in migrated.rglob("*.py"):
        assert (repo / path.relative_to(migrated)).read_bytes() == path.read_bytes(), path
    return result.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo")


@pytest.mark.parametrize("name", ["new\nline.py", "tab\there.py", "carriage\rreturn.py", 'quote"d.py', "back\\slash.py",
                                  "sp ace é ü.py", "-dash.py"])
def test_file_names_git_would_quote(repo: Path, name: str) -> None:
    (repo / name).write_text(SEED)
    (repo / "plain.py").write_text(SEED)
    commit_all(repo, "names")
    patch = applies_like_migrate(repo, ".")
    assert patch.count(b"diff --git ") == 2


def test_a_hunk_at_line_1_of_a_bom_file(repo: Path) -> None:
    (repo / "bom.py").write_bytes(b"\xef\xbb\xbf" + (INLINE / "before.py").read_bytes())
    commit_all(repo, "bom")
    patch = applies_like_migrate(repo, "bom.py")
    assert b"@@ -1," in patch and b"\n \xef\xbb\xbf# Branches" in patch


def test_a_latin1_file_with_a_non_ascii_context_line(repo: Path) -> None:
    first, rest = (INLINE / "before.py").read_text().split("\n", 1)
    text = f"# -*- coding: latin-1 -*-\n{first}\n# caf\u00e9 cr\u00e8me\n{rest}"  # line 3: in the hunk's context
    (repo / "latin.py").write_bytes(text.encode("latin-1"))
    commit_all(repo, "latin")
    patch = applies_like_migrate(repo, "latin.py")
    assert b"\n # caf\xe9 cr\xe8me\n" in patch


def test_crlf_and_form_feed_lines(repo: Path) -> None:
    text = SEED.replace("def main():", "\x0c\ndef main():  # \x0c page\r").replace("\n", "\r\n")
    (repo / "crlf.py").write_bytes(text.encode())
    commit_all(repo, "crlf")
    applies_like_migrate(repo, "crlf.py")


def test_a_removed_line_that_starts_with_dashes_stays_in_the_patch(repo: Path) -> None:
    source = SEED.replace("    answer = jax.lax.cond(a, run_true, run_false, N, x)\n",
                          "    answer = jax.lax.cond(a, run_true, run_false,\n-- N, x)\n")
    (repo / "dashes.py").write_text(source)
    commit_all(repo, "dashes")
    applies_like_migrate(repo, "dashes.py")


def test_paths_out_of_the_current_folder(repo: Path) -> None:
    (repo / "top.py").write_text(SEED)
    (repo / "sub").mkdir()
    (repo / "sub" / "inner.py").write_text(SEED)
    commit_all(repo, "layout")
    result = diff(repo / "sub", "../top.py", "inner.py", "./../sub/../top.py")
    assert result.returncode == 1
    assert b"a/top.py" in result.stdout and b"a/sub/inner.py" in result.stdout and b".." not in result.stdout
    assert f"git -C {repo} apply" in result.stderr.decode()
    check = subprocess.run(["git", "-C", str(repo), "apply", "--check", "-"], input=result.stdout, capture_output=True)
    assert check.returncode == 0, check.stderr.decode()
    # within the current folder the names stay relative to it, as before
    inside = diff(repo / "sub", "inner.py")
    assert inside.stdout.startswith(b"diff --git a/inner.py b/inner.py\n--- a/inner.py\n+++ b/inner.py\n")
    assert git_apply(inside.stdout, repo / "sub", "--check").returncode == 0

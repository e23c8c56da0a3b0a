"""Which lines a branch changed: ``git diff`` from the merge base to the working tree.

A pull-request review may only comment on lines of the pull request's diff,
and a bot that comments on code the author did not touch is noise, so review
keeps findings on these lines only. Lines are those of the files as they are
on disk (what jaxfix reads), numbered from 1. git is run with every option
that user configuration could change spelled out (prefixes, renames,
external diff drivers, colour, path quoting), so the output parsed here is
the same on every machine.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from ..git import git_command

_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_TIMEOUT = 120


class GitError(Exception):
    """git failed or is missing; the message is one line for people."""


def git(*args: str, cwd: Path) -> str:
    try:
        done = subprocess.run(
            git_command("-c", "core.quotePath=false", *args),
            cwd=cwd,
            capture_output=True,
            timeout=_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took longer than {_TIMEOUT}s") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {args[0]} failed: {message[-1] if message else done.returncode}")
    return done.stdout.decode("utf-8", "surrogateescape")


def repository_root(cwd: Path) -> Path:
    return Path(git("rev-parse", "--show-toplevel", cwd=cwd).strip()).resolve()


def head_commit(root: Path) -> str:
    return git("rev-parse", "--verify", "HEAD^{commit}", cwd=root).strip()


def merge_base(root: Path, base: str) -> str:
    """The commit the branch forked from ``base`` at (base itself when HEAD contains it)."""
    if base.startswith("-"):
        raise GitError(f"{base!r} is not a revision")
    try:
        git("rev-parse", "--verify", "--quiet", f"{base}^{{commit}}", cwd=root)
    except GitError:
        raise GitError(f"unknown revision {base!r} (is it fetched? a shallow clone may lack it)") from None
    try:
        return git("merge-base", base, "HEAD", cwd=root).strip()
    except GitError:
        raise GitError(f"HEAD and {base!r} have no common ancestor (fetch the full history)") from None


def unquote_path(raw: str) -> str:
    """A path as git prints it in a diff header: plain, or C-quoted when it has odd characters."""
    if not (raw.startswith('"') and raw.endswith('"')):
        return raw
    body = raw[1:-1]
    out = bytearray()
    simple = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
    i = 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            out += char.encode("utf-8", "surrogateescape")
            i += 1
            continue
        following = body[i + 1 : i + 2]
        if following in simple:
            out.append(simple[following])
            i += 2
        elif re.fullmatch(r"[0-7]{3}", body[i + 1 : i + 4]):
            out.append(int(body[i + 1 : i + 4], 8))
            i += 4
        else:
            out += b"\\"
            i += 1
    return out.decode("utf-8", "surrogateescape")


def parse_diff(diff: str) -> dict[str, frozenset[int]]:
    """{path in the new tree: added or modified line numbers} from ``git diff --unified=0``.

    Hunk bodies are consumed by their line counts, so an added line that
    happens to start with "++ " is never taken for a file header.
    """
    changed: dict[str, set[int]] = {}
    current: set[int] | None = None
    old_left = new_left = 0
    for line in diff.split("\n"):
        if old_left > 0 or new_left > 0:
            if line.startswith("-"):
                old_left -= 1
                continue
            if line.startswith("+"):
                new_left -= 1
                continue
            if line.startswith("\\"):  # "\ No newline at end of file"
                continue
            old_left = new_left = 0  # malformed: fall through to header parsing
        if line.startswith("diff "):
            current = None
        elif line.startswith("+++ "):
            target = line[4:].rstrip("\t")
            if target == "/dev/null":
                current = None
            else:
                path = unquote_path(target)
                path = path[2:] if path.startswith("b/") else path
                current = changed.setdefault(path, set())
        else:
            match = _HUNK.match(line)
            if match:
                old_left = 1 if match.group(1) is None else int(match.group(1))
                start = int(match.group(2))
                new_left = 1 if match.group(3) is None else int(match.group(3))
                if current is not None:
                    current.update(range(start, start + new_left))
    return {path: frozenset(lines) for path, lines in changed.items()}


def changed_lines(root: Path, base_commit: str) -> dict[str, frozenset[int]]:
    """Added or modified lines per file (repository-relative posix paths), deleted files left out."""
    diff = git(
        "diff",
        "--unified=0",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--find-renames",
        "--diff-filter=d",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "--no-relative",
        base_commit,
        "--",
        cwd=root,
    )
    return parse_diff(diff)

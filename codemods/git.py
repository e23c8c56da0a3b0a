"""The one way jaxfix runs git: with the checkout's own configuration unable to run anything.

Discovery, the dirty-tree guard, the review bot and the patch header all run git in
a repository that may not be the user's own; each builds its command here.
"""

from __future__ import annotations

from pathlib import Path

from jaxfix.transforms.core.lazy import lazy

# Loaded on first use (core/lazy.py): discovery imports this module on every run, and most runs
# over files named on the command line never start git.
subprocess = lazy("subprocess")

#: What a checkout's own configuration could make git run or write, switched off for every git
#: command jaxfix runs: the repository being read may not be the user's own (a pull request, a
#: downloaded project), and its .git/config is as untrusted as its code.
#:   core.fsmonitor=false      a configured fsmonitor is a program git runs on status, diff, ls-files
#:   core.hooksPath=/dev/null  no hooks (post-index-change runs when status refreshes the index)
#:   --no-optional-locks       read-only: status and diff do not write the index back
#:   protocol.ext.allow=never  a lazy fetch (partial clone) never runs an ext:: transport command
#: safe.directory, core.quotePath and the rest of the user's own configuration are left as they are;
#: the diff's external drivers and textconv are refused by its own flags (review.changed_lines).
HARDENING = (
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "protocol.ext.allow=never",
)


def git_command(*args: str) -> list[str]:
    """The argv that runs ``git args...`` with the checkout's configuration unable to run anything."""
    return ["git", *HARDENING, *args]


def work_tree_top(folder: Path) -> Path | None:
    """The top folder of the git work tree holding `folder`; None outside one (or when git is
    missing or does not answer)."""
    try:
        top = subprocess.run(
            git_command("rev-parse", "--show-toplevel"), cwd=folder, capture_output=True, text=True, timeout=60
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(top) if top else None

"""Running jaxfix as a user does (a real process), git repositories, and sample sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"

#: Two jitted branches with a static N; `functools.partial` is already imported.
BRANCHES = """\
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return jnp.ones((N,)) * x


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N,)) * x
"""


def call(n: int, flag: str = "True") -> str:
    """A line with one JAX101 finding whose fix stays on that line."""
    return f"y{n} = jax.lax.cond({flag}, run_true, run_false, {n}, 1.0)\n"


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    return {**base, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu", "COLUMNS": "200", "NO_COLOR": "1", **extra}


def jaxfix(*args: str, cwd: Path, stdin: str | None = None, **extra_env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxfix", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env(**extra_env),
        input=stdin,
        timeout=300,
    )


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


def init_repo(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    git("init", "-q", "-b", "main", cwd=folder)
    return folder


def commit_all(folder: Path, message: str) -> str:
    git("add", "-A", cwd=folder)
    git("commit", "-qm", message, cwd=folder)
    return git("rev-parse", "HEAD", cwd=folder).strip()


def findings_both_ways(src: str, code: str) -> list:
    """`code`'s findings on `src`, after checking that the fast path and the whole analysis agree."""
    from jaxfix.transforms import Options, check

    fast = [f for f in check(src, Options()).findings if f.code == code]
    whole = [f for f in check(src, Options(), narrow=False).findings if f.code == code]
    assert [(f.span, f.message) for f in fast] == [(f.span, f.message) for f in whole], "fast path and analysis disagree"
    return fast


def run_in_process(src: str) -> dict:
    """Run a program in a fresh namespace, as ``python program.py`` would; its globals after."""
    namespace: dict = {"__name__": "__main__"}
    exec(compile(src, "program", "exec"), namespace)
    return namespace

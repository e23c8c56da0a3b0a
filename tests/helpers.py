"""Running jaxfix as a user does (a real process), git repositories, and sample sources."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .programs import run_cli

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
    """``python -m jaxfix ARGS`` run from `cwd`, as `subprocess.run(capture_output=True, text=True)`
    gives it: forked from a process that imported the command line once (`programs.run_cli`)."""
    return run_cli(list(args), cwd, env(**extra_env), stdin, timeout=300)


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


class ProgramFailed(Exception):
    """A program `run_in_process` ran ended with an error; the message is the error's."""


class _Listed:
    """A value a program left in an upper-case global, as ``.tolist()`` gave it there."""

    def __init__(self, value: object) -> None:
        self.value = value

    def tolist(self) -> object:
        return self.value


def _failure(kinds: list[str], message: str) -> ProgramFailed:
    """The program's error, raised here as an exception of its nearest builtin kind too (JAX's
    errors derive from TypeError or ValueError), so ``pytest.raises(TypeError, match=...)`` reads as
    it did when programs ran in the test's own process."""
    import builtins

    kind = next((k for name in kinds if isinstance(k := getattr(builtins, name, None), type) and issubclass(k, Exception)), None)
    if kind is None or kind is Exception:
        return ProgramFailed(message)
    return type(f"ProgramFailed{kind.__name__}", (ProgramFailed, kind), {})(message)


#: Runs the program as ``__main__`` and writes what it left (or the error it raised) as JSON.
_RUNNER = """\
import json, runpy, sys
try:
    names = runpy.run_path(sys.argv[1], run_name="__main__")
except Exception as error:
    json.dump({"error": [c.__name__ for c in type(error).__mro__], "message": str(error)}, open(sys.argv[2], "w"))
    raise
json.dump({"globals": {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in names.items()
                       if k.isupper() and not k.startswith("_")}}, open(sys.argv[2], "w"), default=repr)
"""


def run_in_process(src: str) -> dict:
    """Run a program as ``python program.py`` would, in a process of its own (through the fork
    server: JAX imported in a pytest worker would make its later forks unsafe); its upper-case
    globals after, each with ``.tolist()``. Its error is raised here (see `_failure`)."""
    import json
    import tempfile

    from .programs import run_script

    with tempfile.TemporaryDirectory() as folder:
        script, runner, out = Path(folder) / "program.py", Path(folder) / "runner.py", Path(folder) / "result.json"
        script.write_text(src)
        runner.write_text(_RUNNER)
        result = run_script(runner, str(script), str(out))
        data = json.loads(out.read_text()) if out.exists() else {"error": [], "message": result.stderr}
        if "error" in data:
            raise _failure(data["error"], data["message"])
        return {name: _Listed(value) for name, value in data["globals"].items()}

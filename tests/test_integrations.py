"""action.yml and .pre-commit-hooks.yaml: they parse, name real flags, and their commands really run."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import typer.main
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from jaxfix.codemods.cli import app

from . import wheelhouse
from .fake_github import FakeGitHub
from .helpers import (
    BRANCHES,
    GOLDEN,
    ROOT,
    call,
    commit_all,
    env,
    git,
    init_repo,
    jaxfix,
)

ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")
TABLE = re.compile(r"[┏┃━│┡╇]")


def command_options(name: str) -> set[str]:
    command = typer.main.get_command(app).commands[name]
    return {opt for param in command.params for opt in (*param.opts, *getattr(param, "secondary_opts", []))}


def step(name: str) -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("name") == name)


# -- the GitHub Action ---------------------------------------------------------------------


def test_action_is_a_composite_with_documented_inputs() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) == {"base", "paths", "github-token", "fail-on-findings", "python-version"}
    assert ACTION["inputs"]["base"]["default"] == "${{ github.event.pull_request.base.sha }}"
    assert ACTION["inputs"]["github-token"]["default"] == "${{ github.token }}"
    for s in ACTION["runs"]["steps"]:
        assert "uses" in s or s["shell"] == "bash"
        # Inputs reach scripts through env only: an expression inside `run` is a script injection.
        assert "${{" not in s.get("run", "")


def test_action_installs_its_own_copy_not_the_pull_requests() -> None:
    install = step("Install jaxfix")
    assert install["env"]["JAXFIX_SOURCE"] == "${{ github.action_path }}"
    assert '--constraint "$JAXFIX_SOURCE/action-constraints.txt" "$JAXFIX_SOURCE"' in install["run"]
    assert "GITHUB_WORKSPACE" not in install["run"] and " . " not in install["run"]


def test_action_leaves_the_jobs_python_alone() -> None:
    """setup-python must not put its Python first on PATH for the user's later steps."""
    setup = step("Set up Python for jaxfix")
    assert setup["uses"].startswith("actions/setup-python@")
    assert str(setup["with"]["update-environment"]).lower() == "false"
    install = step("Install jaxfix")
    assert install["env"]["JAXFIX_PYTHON"] == f"${{{{ steps.{setup['id']}.outputs.python-path }}}}"
    assert install["run"].lstrip().startswith('"$JAXFIX_PYTHON" -m venv "$RUNNER_TEMP/jaxfix-venv"')
    for s in ACTION["runs"]["steps"]:
        script = s.get("run", "")
        assert "GITHUB_PATH" not in script and "GITHUB_ENV" not in script  # nothing exported to later steps


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "action-constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


#: Where the action runs: every Python it accepts, on Linux and macOS runners.
TARGETS = [
    {"python_version": v, "python_full_version": f"{v}.0", "sys_platform": platform, "platform_system": system, "extra": ""}
    for v in ("3.11", "3.12", "3.13", "3.14")
    for platform, system in (("linux", "Linux"), ("darwin", "Darwin"))
]


def _requirements(name: str) -> list[Requirement] | None:
    """A distribution's requirements as installed here, or None when it is not installed."""
    try:
        return [Requirement(raw) for raw in metadata.distribution(name).requires or []]
    except metadata.PackageNotFoundError:
        return None


def test_action_pins_exactly_what_jaxfix_installs_and_within_pyprojects_ranges() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    direct = [Requirement(r) for r in pyproject["project"]["dependencies"] + pyproject["build-system"]["requires"]]
    pins = _pins()
    for requirement in direct:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned in action-constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} is outside {requirement}"
    # Everything those need, on every target, is pinned, and nothing else is.
    needed = {canonicalize_name(r.name) for r in direct}
    queue = list(needed)
    while queue:
        for requirement in _requirements(queue.pop()) or []:
            name = canonicalize_name(requirement.name)
            if name in needed or (requirement.marker and not any(requirement.marker.evaluate(t) for t in TARGETS)):
                continue
            needed.add(name)
            queue.append(name)
            if _requirements(name) is not None:  # installed here: its pinned version must satisfy this range
                assert requirement.specifier.contains(pins.get(name, "0"), prereleases=True), f"{name}: {requirement}"
    assert set(pins) == needed


def test_action_without_a_base_says_so_before_running_jaxfix(pull_request: Path, tmp_path: Path) -> None:
    """On a push or a schedule the default base (the pull request's) is empty."""
    server = FakeGitHub()
    try:
        result = run_review_step(pull_request, tmp_path / "runner", server, base="", **{"github-token": "tok-1234567890abcdef"})
    finally:
        server.close()
    assert result.returncode == 2
    assert result.stdout.startswith("::error title=jaxfix::no base commit to review against")
    assert "unknown revision" not in result.stdout + result.stderr and server.requests == []


def test_action_review_step_uses_real_flags() -> None:
    script = step("Review the pull request")["run"]
    (line,) = [l for l in script.splitlines() if "/bin/jaxfix\" review " in l]
    words = shlex.split(line.split("||")[0])
    assert words[0].endswith("/bin/jaxfix") and words[1] == "review"
    used = {w.split("=")[0] for w in words if w.startswith("--") and w != "--"}
    assert used == {"--base", "--post", "--output-format"}
    assert used <= command_options("review")
    assert words[words.index("--output-format") + 1] in {"review", "text", "json", "sarif", "github", "rdjson"}


def render(value: str, inputs: dict[str, str]) -> str:
    def lookup(match: re.Match) -> str:
        expression = match.group(1)
        if expression.startswith("inputs."):
            return inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(ROOT)
        raise AssertionError(f"the test does not know {expression}")

    return _EXPRESSION.sub(lookup, value)


def run_review_step(repo: Path, runner_temp: Path, server: FakeGitHub, **inputs: str) -> subprocess.CompletedProcess[str]:
    """Run the action's review step as the runner would: bash -eo pipefail, env from the step."""
    defaults = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values = {name: value for name, value in defaults.items() if "${{" not in value}  # the rest: given by the test
    values.update(inputs)
    shim = runner_temp / "jaxfix-venv" / "bin" / "jaxfix"
    shim.parent.mkdir(parents=True, exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m codemods "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    review = step("Review the pull request")
    head = git("rev-parse", "HEAD", cwd=repo).strip()
    event = runner_temp / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3, "head": {"sha": head}}}))
    environment = env(
        RUNNER_TEMP=str(runner_temp),
        GITHUB_API_URL=server.url,
        GITHUB_REPOSITORY="octo/jaxrepo",
        GITHUB_EVENT_PATH=str(event),
        **{key: render(str(value), values) for key, value in review["env"].items()},
    )
    script = runner_temp / "step.sh"
    script.write_text(review["run"])
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    (repo / "m.py").write_text(BRANCHES)
    base = commit_all(repo, "base")
    git("checkout", "-q", "-b", "pr", cwd=repo)
    (repo / "m.py").write_text(BRANCHES + call(3))
    commit_all(repo, "pr")
    (tmp_path / "base.txt").write_text(base)
    return repo


def test_action_review_step_posts_and_fails_on_findings(pull_request: Path, tmp_path: Path) -> None:
    server = FakeGitHub()
    try:
        base = (tmp_path / "base.txt").read_text()
        result = run_review_step(pull_request, tmp_path / "runner", server, base=base, **{"github-token": "tok-1234567890abcdef"})
        assert result.returncode == 1, result.stderr
        assert result.stdout.startswith("::warning file=m.py,line=14,")
        (posted,) = server.posts()
        assert posted.path == "/repos/octo/jaxrepo/pulls/3/reviews"
        assert posted.headers["authorization"] == "Bearer tok-1234567890abcdef"
        assert "```suggestion" in posted.body["comments"][0]["body"]
        quiet = run_review_step(
            pull_request, tmp_path / "runner", server, base=base, **{"github-token": "tok-1234567890abcdef", "fail-on-findings": "false"}
        )
        assert quiet.returncode == 0, quiet.stderr
        assert len(server.posts()) == 1  # already posted: no duplicate
    finally:
        server.close()


# -- pre-commit --------------------------------------------------------------------------------


def test_hooks_parse_with_the_right_ids_and_types() -> None:
    assert [h["id"] for h in HOOKS] == ["jaxfix", "jaxfix-fix"]
    for hook in HOOKS:
        assert hook["language"] == "python" and hook["types_or"] == ["python", "pyi", "jupyter"]
        assert "types" not in hook  # `types` would be and-ed with types_or
        assert hook["name"] and hook["description"]
        program, command, *_ = shlex.split(hook["entry"])
        assert program in SCRIPTS  # the console script the package installs
    assert shlex.split(HOOKS[0]["entry"])[1] == "check"
    assert shlex.split(HOOKS[1]["entry"])[1:] == ["migrate", "--allow-dirty"]
    for hook in HOOKS:
        _, command, *flags = shlex.split(hook["entry"])
        assert set(flags) <= command_options(command)


def run_hook(hook_id: str, files: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a hook's entry as pre-commit does: the entry, then the staged file names."""
    hook = next(h for h in HOOKS if h["id"] == hook_id)
    _, *arguments = shlex.split(hook["entry"])
    return jaxfix(*arguments, *files, cwd=cwd)


@pytest.fixture
def staged(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "hooks")
    (repo / "clean.py").write_text("import jax\nprint(jax.numpy.ones(3))\n")
    (repo / "fixable.py").write_text(BRANCHES + call(3))
    (repo / "report_only.py").write_text((GOLDEN / "JAX101" / "refuse_star_operands" / "before.py").read_text())
    commit_all(repo, "start")
    for name in ("fixable.py", "report_only.py"):
        (repo / name).write_text((repo / name).read_text() + "\n")
    git("add", "-A", cwd=repo)  # staged, as pre-commit sees them
    return repo


def test_checking_hook_exit_codes(staged: Path) -> None:
    assert run_hook("jaxfix", ["clean.py"], staged).returncode == 0
    result = run_hook("jaxfix", ["clean.py", "fixable.py"], staged)
    assert result.returncode == 1 and "fixable.py:14:" in result.stdout
    assert (staged / "fixable.py").read_text() == BRANCHES + call(3) + "\n"  # never writes


def test_fixing_hook_rewrites_staged_files(staged: Path) -> None:
    result = run_hook("jaxfix-fix", ["clean.py", "fixable.py"], staged)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "partial(run_true, 3)" in (staged / "fixable.py").read_text()
    before = (staged / "report_only.py").read_text()
    left = run_hook("jaxfix-fix", ["report_only.py"], staged)
    assert left.returncode == 1 and (staged / "report_only.py").read_text() == before


#: What pip needs to install the hook repository: its dependencies and its build backend.
_PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
HOOK_REPO_NEEDS = [Requirement(r).name for r in _PYPROJECT["project"]["dependencies"] + _PYPROJECT["build-system"]["requires"]]
#: The files a pip install of jaxfix reads (setup.py builds explain's pairs from golden/).
HOOK_REPO_FILES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", ".pre-commit-hooks.yaml"]
HOOK_REPO_FOLDERS = ["jaxfix", "transforms", "codemods", "golden"]


@pytest.fixture(scope="module")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """This checkout's files as they are now (uncommitted edits too), committed in a repository of their own,
    and a folder of wheels for everything pip needs to install it: (repository, its commit, wheels)."""
    base = tmp_path_factory.mktemp("hook-repo")
    repo = init_repo(base / "jaxfix")
    for name in HOOK_REPO_FILES:
        shutil.copy2(ROOT / name, repo / name)
    for name in HOOK_REPO_FOLDERS:
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    rev = commit_all(repo, "the hooks as this checkout has them")
    return repo, rev, wheelhouse.build(HOOK_REPO_NEEDS, base / "wheels")


def test_pre_commit_runs_both_hooks_on_notebooks_and_stubs_offline(hook_repository, tmp_path: Path) -> None:
    """A real `pre-commit run --all-files`, with this checkout as the hook repository and no index."""
    hooks, rev, wheels = hook_repository
    project = init_repo(tmp_path / "project")
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# a notebook\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": BRANCHES + call(3)},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (project / "analysis.ipynb").write_text(json.dumps(notebook, indent=1) + "\n")
    (project / "typed.pyi").write_text(BRANCHES + call(4))
    (project / "clean.py").write_text("x = 1\n")
    config = {"repos": [{"repo": str(hooks), "rev": rev, "hooks": [{"id": "jaxfix"}, {"id": "jaxfix-fix"}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    git("add", "-A", cwd=project)
    environment = env(
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheels),
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        VIRTUALENV_NO_PERIODIC_UPDATE="1",
        VIRTUALENV_OVERRIDE_APP_DATA=str(tmp_path / "virtualenv-data"),
    )
    environment.pop("PYTHONPATH")  # the hooks must run the jaxfix pre-commit installed, not this checkout
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    checking, _, fixing = output.partition("jaxfix (fix)")
    assert "jaxfix (check)" in checking and "Failed" in checking
    assert "analysis.ipynb:cell 2:14:" in checking and "typed.pyi:14:" in checking and "clean.py" not in checking
    assert "files were modified by this hook" in fixing
    fixed_cell = "".join(json.loads((project / "analysis.ipynb").read_text())["cells"][1]["source"])
    assert "jax.lax.cond(True, partial(run_true, 3), partial(run_false, 3), 1.0)" in fixed_cell
    assert "partial(run_true, 4)" in (project / "typed.pyi").read_text()
    assert not TABLE.search(output)  # no summary tables in pre-commit's output

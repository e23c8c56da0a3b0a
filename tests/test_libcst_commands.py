"""Each rule as a LibCST codemod command rewrites exactly as ``jaxfix migrate`` does.

Runs ``python -m libcst.tool codemod`` for real, in a subprocess from the
repository root (where ``.libcst.codemod.yaml`` lists ``codemods``), on a copy
of every golden case's before.py, and compares with ``jaxfix migrate
--select CODE`` on another copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from jaxfix.codemods import commands
from jaxfix.transforms import RULES

from .helpers import jaxfix

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAXFIX_")}
    return {**env, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}


def _cases(folder: Path, code: str) -> None:
    """Every golden before.py of the rule, as one flat folder of scripts."""
    folder.mkdir()
    for before in sorted((GOLDEN / code).glob("*/before.py")):
        shutil.copy(before, folder / f"{before.parent.name}.py")


def _texts(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.glob("*.py"))}


def test_every_rule_has_a_command():
    assert set(commands.COMMANDS) == set(RULES)
    for code, command in commands.COMMANDS.items():
        assert command.CODES == (code,)
        assert command.__name__ == RULES[code].__name__
        assert getattr(commands, code) is command


def test_the_shipped_yaml_lists_codemods():
    config = yaml.safe_load((ROOT / ".libcst.codemod.yaml").read_text())
    assert "jaxfix.codemods" in config["modules"]
    assert config["repo_root"] == "."


@pytest.mark.parametrize("code", sorted(RULES))
def test_libcst_tool_rewrites_as_migrate(tmp_path, code):
    """With --unsafe-fixes, so every fix the cases hold is applied (the safe ones: the next test)."""
    flags = ["--unsafe-fixes"]
    by_libcst, by_jaxfix = tmp_path / "libcst", tmp_path / "jaxfix"
    _cases(by_libcst, code)
    shutil.copytree(by_libcst, by_jaxfix)
    original = _texts(by_libcst)

    name = RULES[code].__name__
    tool = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "--no-format", "--hide-progress", f"commands.{name}", str(by_libcst), *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert tool.returncode == 0, tool.stderr
    migrate = jaxfix("migrate", "--no-cache", "--allow-no-vcs", "--select", code, *flags, str(by_jaxfix), cwd=ROOT)
    assert migrate.returncode in (0, 1), migrate.stderr

    rewritten = _texts(by_libcst)
    assert rewritten == _texts(by_jaxfix)
    if any((GOLDEN / code).glob("*/after.py")):
        assert rewritten != original  # the cases hold fixes: the comparison is not vacuous
    else:
        assert rewritten == original  # a rule that only reports


def test_external_spelling_and_every_rule_at_once(tmp_path):
    """``-x codemods.commands.JAX301`` needs no yaml; ``AllRules`` is plain ``jaxfix migrate`` (safe fixes only)."""
    one, every, migrated = tmp_path / "one", tmp_path / "every", tmp_path / "migrated"
    _cases(one, "JAX301")
    original = _texts(one)
    shutil.copytree(one, every)
    shutil.copytree(one, migrated)
    for command, folder in (("jaxfix.codemods.commands.JAX301", one), ("jaxfix.codemods.commands.AllRules", every)):
        done = subprocess.run(
            [sys.executable, "-m", "libcst.tool", "codemod", "--no-format", "--hide-progress", "-x", command, str(folder)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=_env(),
        )
        assert done.returncode == 0, done.stderr
    jaxfix("migrate", "--no-cache", "--allow-no-vcs", str(migrated), cwd=ROOT)
    assert _texts(every) == _texts(migrated)
    assert _texts(one) != original


def test_without_a_file_the_command_fixes_the_module_alone():
    """libcst's stdin mode (no filename): the module's own text through `fix_source`."""
    import libcst as cst
    from libcst.codemod import CodemodContext

    from jaxfix.transforms import Options, fix_source

    before = (GOLDEN / "JAX101" / "method_self" / "before.py").read_text()
    command = commands.StaticOperandToBranch(CodemodContext(), unsafe_fixes=True)
    after = command.transform_module(cst.parse_module(before)).code
    assert after == fix_source(before, Options(select=frozenset({"JAX101"}), unsafe_fixes=True)).text != before


def test_a_users_own_transforms_and_codemods_modules_do_not_clash(tmp_path):
    """Many ML repositories have a transforms.py: jaxfix's packages are jaxfix.transforms and
    jaxfix.codemods, so both the user's modules and the LibCST route keep working beside them."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "transforms.py").write_text("RULES = 'the user\\'s own'\n")
    (project / "codemods.py").write_text("NAME = 'the user\\'s codemods'\n")
    (project / ".libcst.codemod.yaml").write_text(
        "generated_code_marker: '@generated'\nformatter: ['black', '-']\nblacklist_patterns: []\n"
        "modules:\n- 'jaxfix.codemods'\nrepo_root: '.'\n"
    )
    before = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()
    (project / "model.py").write_text(before)
    done = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "--no-format", "--hide-progress", "commands.StaticOperandToBranch", "model.py"],
        cwd=project,
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr
    assert (project / "model.py").read_text() == (GOLDEN / "JAX101" / "seed000_eager" / "after.py").read_text()
    mine = subprocess.run(
        [sys.executable, "-c", "import transforms, codemods, jaxfix.transforms; print(transforms.RULES, codemods.NAME)"],
        cwd=project,
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert mine.stdout == "the user's own the user's codemods\n", mine.stderr

"""[tool.jaxfix] in pyproject.toml: found by walking up, checked strictly, overridden by flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxfix.codemods import config
from jaxfix.transforms import Options

from .helpers import BRANCHES, call, jaxfix

UNSAFE_CALL = "def depth():\n    return 3\n\n\nz = jax.lax.cond(True, run_true, run_false, depth(), 1.0)\n"


def write_project(folder: Path, table: str, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "demo"\n{extra}\n[tool.jaxfix]\n{table}\n')
    return folder / "pyproject.toml"


def test_found_by_walking_up_past_a_pyproject_without_the_table(tmp_path: Path) -> None:
    write_project(tmp_path, 'select = ["JAX102"]')
    inner = tmp_path / "pkg" / "sub"
    inner.mkdir(parents=True)
    (tmp_path / "pkg" / "pyproject.toml").write_text('[project]\nname = "inner"\n')
    (inner / "m.py").write_text("x = 1\n")
    assert config.find_pyproject(inner / "m.py") == tmp_path / "pyproject.toml"
    assert config.find_pyproject(inner) == tmp_path / "pyproject.toml"
    ((settings, paths),) = config.plan([inner / "m.py"], config.Settings())
    assert settings.options.select == frozenset({"JAX102"}) and paths == [inner / "m.py"]


def test_every_key_reaches_the_options(tmp_path: Path) -> None:
    pyproject = write_project(
        tmp_path,
        'select = ["JAX1"]\nignore = ["JAX102"]\nexclude = ["gen/"]\nunsafe-fixes = true\n'
        'frozen-mapping = "immutabledict"\ntarget-version = "py315"',
    )
    resolved = config.resolve(config.load(pyproject), config.Settings())
    assert resolved.options == Options(
        select=frozenset({"JAX1"}),
        ignore=frozenset({"JAX102"}),
        unsafe_fixes=True,
        frozen_mapping="immutabledict",
        target_version=(3, 15),
    )
    assert resolved.exclude == ("gen/",) and resolved.exclude_root == tmp_path


def test_target_version_defaults_to_the_projects_minimum_python(tmp_path: Path) -> None:
    pyproject = write_project(tmp_path, "", extra='requires-python = ">=3.12"')
    assert config.resolve(config.load(pyproject), config.Settings()).options.target_version == (3, 12)
    assert config.parse_target_version("3.15") == (3, 15) == config.parse_target_version("py315")


def test_flags_replace_the_files_values(tmp_path: Path) -> None:
    pyproject = write_project(tmp_path, 'select = ["JAX102"]\nunsafe-fixes = true\nexclude = ["a.py"]\nfrozen-mapping = "flax"')
    flags = config.Settings(select=frozenset({"JAX101"}), unsafe_fixes=False, exclude=("b.py",), frozen_mapping="builtin")
    resolved = config.resolve(config.load(pyproject), flags)
    assert resolved.options.select == frozenset({"JAX101"})
    assert resolved.options.unsafe_fixes is False
    assert resolved.options.frozen_mapping == "builtin"
    assert resolved.exclude == ("b.py",) and resolved.exclude_root == Path.cwd()


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("unsafe_fixes = true", "unknown key `unsafe_fixes` in [tool.jaxfix] (did you mean `unsafe-fixes`?)"),
        ("colour = 1", "unknown key `colour` in [tool.jaxfix]; known keys: select"),
        ('select = "JAX101"', "[tool.jaxfix] select: must be a list of rule codes"),
        ('ignore = ["JAX9"]', "[tool.jaxfix] ignore: no rule matches JAX9"),
        ('unsafe-fixes = "yes"', "[tool.jaxfix] unsafe-fixes: must be true or false"),
        ('frozen-mapping = "dict"', "[tool.jaxfix] frozen-mapping: must be one of auto, frozendict"),
        ('target-version = "py2"', "[tool.jaxfix] target-version: 'py2' is not a Python version"),
        ("exclude = [1]", "[tool.jaxfix] exclude: must be a list of glob patterns"),
    ],
)
def test_bad_settings_name_the_key_and_the_file(tmp_path: Path, table: str, expected: str) -> None:
    pyproject = write_project(tmp_path, table)
    with pytest.raises(config.ConfigError) as raised:
        config.load(pyproject)
    message = str(raised.value)
    assert message.startswith(f"{pyproject}: ")
    assert expected in message


def test_unknown_key_exits_2_naming_key_and_file_through_the_cli(tmp_path: Path) -> None:
    write_project(tmp_path / "proj", "unsafe_fixes = true")
    (tmp_path / "proj" / "m.py").write_text(BRANCHES + call(3))
    result = jaxfix("check", "proj", cwd=tmp_path)
    assert result.returncode == 2
    assert "proj/pyproject.toml: unknown key `unsafe_fixes` in [tool.jaxfix]" in result.stderr
    assert result.stdout == ""


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jaxfix\nselect = [")
    (tmp_path / "m.py").write_text("x = 1\n")
    result = jaxfix("check", "m.py", cwd=tmp_path)
    assert result.returncode == 2 and "pyproject.toml: not valid TOML" in result.stderr


def test_config_select_and_flag_override_through_the_cli(tmp_path: Path) -> None:
    write_project(tmp_path, 'select = ["JAX102"]')
    (tmp_path / "m.py").write_text(BRANCHES + call(3))
    assert jaxfix("check", "m.py", cwd=tmp_path).returncode == 0  # JAX101 not selected by the file
    overridden = jaxfix("check", "--select", "JAX101", "m.py", cwd=tmp_path)
    assert overridden.returncode == 1 and "JAX101" in overridden.stdout


def test_unsafe_fixes_from_config_and_no_unsafe_fixes_flag(tmp_path: Path) -> None:
    write_project(tmp_path, "unsafe-fixes = true")
    source = BRANCHES + UNSAFE_CALL
    (tmp_path / "m.py").write_text(source)
    refused = jaxfix("migrate", "--allow-no-vcs", "--no-unsafe-fixes", "m.py", cwd=tmp_path)
    assert refused.returncode == 1 and (tmp_path / "m.py").read_text() == source
    applied = jaxfix("migrate", "--allow-no-vcs", "m.py", cwd=tmp_path)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert "partial(run_true, depth())" in (tmp_path / "m.py").read_text()


def test_exclude_patterns_from_config(tmp_path: Path) -> None:
    write_project(tmp_path, 'exclude = ["generated", "legacy/*.py", "*_old.py"]')
    for name in ("generated/a.py", "legacy/b.py", "pkg/c_old.py", "pkg/keep.py", "legacy/deeper/d.py"):
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(BRANCHES + call(3))
    result = jaxfix("check", ".", cwd=tmp_path)
    reported = sorted({line.split(":")[0] for line in result.stdout.splitlines() if "JAX101" in line})
    # "legacy/*.py" matches legacy/deeper/d.py too: * crosses folders, as in fnmatch.
    assert reported == ["pkg/keep.py"]


def test_paths_under_different_tables_get_their_own_settings(tmp_path: Path) -> None:
    write_project(tmp_path / "a", 'ignore = ["JAX101"]')
    write_project(tmp_path / "b", "")
    (tmp_path / "a" / "m.py").write_text(BRANCHES + call(3))
    (tmp_path / "b" / "m.py").write_text(BRANCHES + call(3))
    result = jaxfix("check", "a", "b", cwd=tmp_path)
    assert result.returncode == 1
    assert "b/m.py:14" in result.stdout and "a/m.py" not in result.stdout


def test_excluded_files_match_relative_to_the_table(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    assert config.is_excluded(root / "gen" / "x.py", ["gen"], root)
    assert config.is_excluded(root / "a" / "gen" / "x.py", ["gen"], root)
    assert config.is_excluded(root / "a" / "x.py", ["a/"], root)
    assert not config.is_excluded(root / "b" / "a" / "x.py", ["a/x.py"], root)
    # a folder above the table's root never counts
    assert not config.is_excluded(root / "x.py", ["proj"], root)

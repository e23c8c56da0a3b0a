"""The JSON schema of [tool.jaxfix]: made from the config model, shipped, and agreeing with the loader
on the README's examples, on every key, and on values the loader refuses (issue 20.7)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

from jaxfix.codemods import config, config_schema

from .helpers import ROOT, jaxfix


def validator() -> jsonschema.Draft7Validator:
    schema = json.loads(config_schema.SHIPPED.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def loads(table: dict, tmp_path: Path) -> config.FileConfig:
    """The loader's verdict on a table (written as a real pyproject.toml)."""
    lines = ["[tool.jaxfix]"]
    for key, value in table.items():
        lines.append(f"{json.dumps(key)} = {_toml(value)}")
    path = tmp_path / "pyproject.toml"
    path.write_text("\n".join(lines) + "\n")
    return config.load(path)


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def test_the_shipped_file_is_the_generated_schema() -> None:
    """Regenerate with `python -m jaxfix.codemods.config_schema > codemods/tool-jaxfix.schema.json`."""
    assert config_schema.SHIPPED.read_text(encoding="utf-8") == config_schema.text()
    assert set(config_schema.schema()["properties"]) == set(config.KEYS)


def test_the_package_data_ships_it() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config_schema.SHIPPED.name in pyproject["tool"]["setuptools"]["package-data"]["jaxfix.codemods"]


def readme_tables() -> list[dict]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", readme, re.DOTALL)
    tables = [tomllib.loads(b)["tool"]["jaxfix"] for b in blocks if "[tool.jaxfix]" in b]
    assert tables, "the README shows no [tool.jaxfix] example"
    return tables


@pytest.mark.parametrize("index", range(len(readme_tables())))
def test_the_readme_examples_are_valid_for_both(index: int, tmp_path: Path) -> None:
    table = readme_tables()[index]
    validator().validate(table)
    loads(table, tmp_path)


def test_every_key_with_its_example_is_valid_for_both(tmp_path: Path) -> None:
    table = {key.name: key.example for key in config.MODEL}
    validator().validate(table)
    settings = loads(table, tmp_path).settings
    assert all(getattr(settings, key.field) is not None for key in config.MODEL)


ACCEPTED = [
    {"select": ["jax1, JAX2"]},  # any case, comma-separated in one string
    {"select": ["JAX"]},
    {"ignore": []},
    {"max-file-size": 0},
    {"max-file-size": "2 MiB"},
    {"target-version": "3.13"},
    {"per-file-ignores": {"!tests/*": ["JAX001"]}},
]
REFUSED = [
    {"select": []},
    {"select": ["JAX9"]},
    {"select": ["JAX1x"]},
    {"select": "JAX1"},
    {"ignore": [1]},
    {"unsafe-fixes": "yes"},
    {"frozen-mapping": "dict"},
    {"target-version": "py2"},
    {"target-version": 311},
    {"max-file-size": "big"},
    {"max-file-size": -1},
    {"exclude": "build"},
    {"per-file-ignores": {"tests/*": ["JAX999"]}},
    {"per-file-ignores": ["tests/*"]},
    {"unsafe_fixes": True},
]


@pytest.mark.parametrize("table", ACCEPTED, ids=[json.dumps(t) for t in ACCEPTED])
def test_what_the_loader_accepts_the_schema_accepts(table: dict, tmp_path: Path) -> None:
    loads(table, tmp_path)
    validator().validate(table)


@pytest.mark.parametrize("table", REFUSED, ids=[json.dumps(t) for t in REFUSED])
def test_what_the_loader_refuses_the_schema_refuses(table: dict, tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError):
        loads(table, tmp_path)
    assert not validator().is_valid(table)


def test_jaxfix_config_prints_the_schema_and_the_keys(tmp_path: Path) -> None:
    printed = jaxfix("config", "--schema", cwd=tmp_path)
    assert printed.returncode == 0 and json.loads(printed.stdout) == config_schema.schema()
    keys = jaxfix("config", cwd=tmp_path).stdout.splitlines()
    assert [line.split("\t")[0] for line in keys] == list(config.KEYS)
    assert "select\tJAXFIX_SELECT\t" in keys[0] + "\t"

"""A JSON schema for ``[tool.jaxfix]``, made from the configuration's model (`config.MODEL`).

Shipped in the package as ``tool-jaxfix.schema.json`` (a test holds the file
to this function), so editors that read JSON schemas for TOML (Even Better
TOML / taplo, PyCharm, SchemaStore's pyproject schema) complete and check the
table. It accepts exactly what jaxfix accepts: rule codes and prefixes that
match a rule (any case, comma-separated in one string too), sizes, versions.
"""

from __future__ import annotations

import json
from pathlib import Path

from jaxfix.transforms import RULES

from . import config

SHIPPED = Path(__file__).resolve().parent / "tool-jaxfix.schema.json"


def _prefixes() -> list[str]:
    """Every code and prefix that matches at least one rule: JAX, JAX1, JAX10, JAX101, ..."""
    return sorted({code[:length] for code in RULES for length in range(3, len(code) + 1)})


def _any_case(text: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in text)


def _code_schema() -> dict:
    one = "(?:" + "|".join(_any_case(p) for p in sorted(_prefixes(), key=len, reverse=True)) + ")"
    return {
        "description": "A rule code or prefix (JAX101, JAX1), or several separated by commas.",
        "anyOf": [
            {"enum": _prefixes()},
            {"type": "string", "pattern": rf"^\s*{one}(\s*,\s*{one})*\s*,?\s*$"},
        ],
    }


def schema() -> dict:
    properties = {}
    for key in config.MODEL:
        entry = {**key.schema, "description": key.description + (f" Environment: {key.env}." if key.env else "")}
        entry["examples"] = entry.get("examples", [key.example])
        properties[key.name] = entry
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "[tool.jaxfix]",
        "description": "jaxfix's settings in pyproject.toml (`jaxfix config` lists them).",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "definitions": {"code": _code_schema()},
    }


def text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m jaxfix.codemods.config_schema > codemods/tool-jaxfix.schema.json
    import sys

    sys.stdout.write(text())

"""`jaxfix check --output-format json|sarif|github|rdjson`: valid, and their fixes really are the fixes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from jaxfix.codemods.report.github import escape_data, escape_property
from jaxfix.transforms import Options, fix_source

from .helpers import BRANCHES, GOLDEN, call, jaxfix

SCHEMA_ENV = "JAXFIX_SARIF_SCHEMA_DIR"
SCHEMA_NAME = "sarif-schema-2.1.0.json"


def sarif_schema() -> dict:
    """The official OASIS schema from ../shared/schemas (else $JAXFIX_SARIF_SCHEMA_DIR); missing is a failure."""
    candidates = [Path(__file__).resolve().parents[1].parent / "shared" / "schemas" / SCHEMA_NAME]
    if os.environ.get(SCHEMA_ENV):
        candidates.append(Path(os.environ[SCHEMA_ENV]) / SCHEMA_NAME)
    for candidate in candidates:
        if candidate.is_file():
            return json.loads(candidate.read_text(encoding="utf-8"))
    pytest.fail(
        f"the SARIF 2.1.0 schema is missing: looked for {' and '.join(map(str, candidates))}. "
        f"Check out ../shared beside the repository, or point {SCHEMA_ENV} at the folder holding {SCHEMA_NAME}."
    )


def offset(text: str, line: int, column: int, *, utf8: bool = False) -> int:
    """1-based line and column (code points, or UTF-8 bytes) -> a character offset."""
    lines = text.splitlines(keepends=True)
    start = sum(len(x) for x in lines[: line - 1])
    if not utf8:
        return start + column - 1
    current = lines[line - 1] if line - 1 < len(lines) else ""
    return start + len(current.encode("utf-8")[: column - 1].decode("utf-8"))


def apply(text: str, replacements: list[tuple[int, int, str]]) -> str:
    for start, end, content in sorted(replacements, reverse=True):
        text = text[:start] + content + text[end:]
    return text


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A safe fix, a fix that adds an import, an unsafe fix, non-ASCII text, and a broken file."""
    (tmp_path / "calls.py").write_text(BRANCHES + 'label = "ünïcode"; ' + call(3) + call(4), encoding="utf-8")
    (tmp_path / "factory.py").write_text((GOLDEN / "JAX101" / "import_added_jit_factory" / "before.py").read_text())
    (tmp_path / "unsafe.py").write_text((GOLDEN / "JAX101" / "report_unsafe_by_default" / "before.py").read_text())
    (tmp_path / "broken.py").write_text("import jax\ndef f(:\n    static_argnums = jax.lax.cond\n")
    return tmp_path


def test_sarif_validates_against_the_official_schema_and_its_fixes_apply(project: Path) -> None:
    result = jaxfix("check", "--output-format", "sarif", ".", cwd=project)
    assert result.returncode == 2  # broken.py
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    (run,) = log["runs"]
    assert log["version"] == "2.1.0" and run["tool"]["driver"]["name"] == "jaxfix"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]][:2] == ["JAX101", "JAX102"]
    results = run["results"]
    by_file: dict[str, list[dict]] = {}
    for record in results:
        uri = record["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        by_file.setdefault(uri, []).append(record)
    assert sorted(by_file) == ["calls.py", "factory.py", "unsafe.py"]
    assert run["invocations"][0]["executionSuccessful"] is False
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("broken.py")
    for uri, records in by_file.items():
        text = (project / uri).read_text(encoding="utf-8")
        for record in records:
            (fix,) = record["fixes"]
            (change,) = fix["artifactChanges"]
            edits = []
            for replacement in change["replacements"]:
                region = replacement["deletedRegion"]
                edits.append(
                    (
                        offset(text, region["startLine"], region["startColumn"]),
                        offset(text, region["endLine"], region["endColumn"]),
                        replacement["insertedContent"]["text"],
                    )
                )
            fixed = apply(text, edits)
            if uri != "calls.py":  # one finding per file: its fix is the whole fix
                unsafe = fix["properties"]["applicability"] == "unsafe"
                assert fixed == fix_source(text, Options(unsafe_fixes=unsafe)).text
            else:
                assert "partial(run_true, 3)" in fixed or "partial(run_true, 4)" in fixed
    unsafe_record = by_file["unsafe.py"][0]
    assert unsafe_record["fixes"][0]["properties"]["applicability"] == "unsafe"
    region = by_file["calls.py"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (14, 44)  # code points: ü and ï count one each


def test_rdjson_suggestions_use_utf8_byte_columns_and_apply(project: Path) -> None:
    result = jaxfix("check", "--output-format", "rdjson", "calls.py", "unsafe.py", cwd=project)
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert payload["source"]["name"] == "jaxfix"
    diagnostics = payload["diagnostics"]
    assert [d["location"]["path"] for d in diagnostics] == ["calls.py", "calls.py", "unsafe.py"]
    first = diagnostics[0]
    assert first["code"]["value"] == "JAX101" and first["severity"] == "WARNING"
    assert first["location"]["range"]["start"] == {"line": 14, "column": 46}  # ü and ï are 2 bytes each
    text = (project / "calls.py").read_text(encoding="utf-8")
    edits = [
        (
            offset(text, s["range"]["start"]["line"], s["range"]["start"]["column"], utf8=True),
            offset(text, s["range"]["end"]["line"], s["range"]["end"]["column"], utf8=True),
            s["text"],
        )
        for d in diagnostics[:2]
        for s in d["suggestions"]
    ]
    assert apply(text, edits) == fix_source(text).text
    # An unsafe fix is not a one-click suggestion unless --unsafe-fixes was given.
    assert "suggestions" not in diagnostics[2] and "--unsafe-fixes" in diagnostics[2]["message"]
    with_unsafe = json.loads(jaxfix("check", "--output-format", "rdjson", "--unsafe-fixes", "unsafe.py", cwd=project).stdout)
    assert with_unsafe["diagnostics"][0]["suggestions"]


def test_github_annotations(project: Path) -> None:
    result = jaxfix("check", "--output-format", "github", "calls.py", "broken.py", cwd=project)
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "::warning file=calls.py,line=14,endLine=14,title=JAX101 static-operand-to-branch,col=44,endColumn=52::"
        "`jax.lax.cond` passes `3` as an operand"
    )
    assert "%0Afix: bind static operands into the branches (apply with `jaxfix migrate`)" in lines[0]
    assert lines[-1].startswith("::error file=broken.py,title=jaxfix::")
    assert all(line.startswith("::") and "\n" not in line for line in lines)


def test_annotation_values_cannot_break_out_of_the_command() -> None:
    assert escape_data("50%\nnext::x") == "50%25%0Anext::x"
    assert escape_property("a,b:c\r\n") == "a%2Cb%3Ac%0D%0A"


def test_json_lists_findings_with_fix_edits(project: Path) -> None:
    payload = json.loads(jaxfix("check", "--output-format", "json", "factory.py", cwd=project).stdout)
    (finding,) = payload["findings"]
    assert finding["fix"]["edits"][0] == {
        "content": "from functools import partial\n",
        "location": {"line": 4, "column": 1},
        "end_location": {"line": 4, "column": 1},
    }


def test_suppressed_findings_stay_out_of_every_format(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(
        BRANCHES + call(3).rstrip("\n") + "  # jaxfix: ignore[JAX101]\n" + "# jaxfix: ignore\n" + call(4) + call(5)
    )
    for output_format in ("json", "sarif", "rdjson", "github"):
        result = jaxfix("check", "--output-format", output_format, "s.py", cwd=tmp_path)
        assert result.returncode == 1
        assert "`5`" in result.stdout and "`3`" not in result.stdout and "`4`" not in result.stdout, output_format

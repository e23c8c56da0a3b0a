"""`jaxfix check --output-format json|sarif|github|rdjson`: valid, and their fixes really are the fixes."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from pathlib import Path

import jsonschema
import pytest

from jaxfix.codemods.report.github import escape_data, escape_property
from jaxfix.transforms import Options, fix_source

from .helpers import BRANCHES, GOLDEN, call, jaxfix

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
SHARED_SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "schemas" / SCHEMA.name


def sarif_schema() -> dict:
    """The official OASIS schema, carried in tests/data (with its notice): a clone alone has it."""
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def test_the_schema_is_the_official_one_unchanged() -> None:
    """The copy's hash is the one its notice records, and equals the shared copy where CI has one."""
    notice = (SCHEMA.parent / "README.md").read_text(encoding="utf-8")
    (recorded,) = re.findall(r"^sha256: ([0-9a-f]{64})$", notice, re.MULTILINE)
    assert hashlib.sha256(SCHEMA.read_bytes()).hexdigest() == recorded
    schema = sarif_schema()
    assert schema["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    if SHARED_SCHEMA.is_file():
        assert SHARED_SCHEMA.read_bytes() == SCHEMA.read_bytes()


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
    assert [r["id"] for r in run["tool"]["driver"]["rules"]][:3] == ["JAX001", "JAX101", "JAX102"]
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


LISTS = """\
from functools import partial

import jax


@partial(jax.jit, static_argnames=("cfg",))
def scale(x, cfg):
    return x * cfg[0]


print(scale(1.0, cfg=[1.0, 2.0]))
"""


def as_reviewdog_applies(text: str, suggestion: dict) -> str:
    """One suggestion applied on its own, as reviewdog builds its ```suggestion block: the
    suggestion's lines, with the text between its byte columns replaced (ranges in UTF-8 bytes)."""
    lines = text.splitlines(keepends=True)
    start, end = suggestion["range"]["start"], suggestion["range"]["end"]
    first = lines[start["line"] - 1].encode("utf-8")
    last = lines[end["line"] - 1].encode("utf-8")
    block = first[: start["column"] - 1].decode() + suggestion["text"] + last[end["column"] - 1 :].decode()
    return "".join(lines[: start["line"] - 1]) + block + "".join(lines[end["line"] :])


def as_text_edit(text: str, suggestion: dict) -> str:
    """The same suggestion read as the format defines it: a replacement of a byte range."""
    start, end = suggestion["range"]["start"], suggestion["range"]["end"]
    edit = (
        offset(text, start["line"], start["column"], utf8=True),
        offset(text, end["line"], end["column"], utf8=True),
        suggestion["text"],
    )
    return apply(text, [edit])


def test_rdjson_gives_each_diagnostic_one_whole_line_suggestion_that_works_alone(project: Path) -> None:
    (project / "lists.py").write_text(LISTS)
    result = jaxfix("check", "--output-format", "rdjson", "calls.py", "factory.py", "lists.py", "unsafe.py", cwd=project)
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert payload["source"]["name"] == "jaxfix"
    diagnostics = payload["diagnostics"]
    assert [d["location"]["path"] for d in diagnostics] == ["calls.py", "calls.py", "factory.py", "lists.py", "unsafe.py"]
    first = diagnostics[0]
    assert first["code"]["value"] == "JAX101" and first["severity"] == "WARNING"
    assert first["location"]["range"]["start"] == {"line": 14, "column": 46}  # ü and ï are 2 bytes each
    suggested = [d for d in diagnostics if "suggestions" in d]
    assert [d["location"]["path"] for d in suggested] == ["calls.py", "calls.py", "lists.py"]
    for record in suggested:
        (suggestion,) = record["suggestions"]  # one: reviewdog makes a block of each
        assert suggestion["range"]["start"]["column"] == 1  # whole lines
        text = (project / record["location"]["path"]).read_text(encoding="utf-8")
        alone = as_reviewdog_applies(text, suggestion)
        ast.parse(alone)  # not `cfg=(1.0, 2.0]`, not `partial(run_true, N), run_false, N`
        assert as_text_edit(text, suggestion) == alone
    lists = (project / "lists.py").read_text()
    assert as_reviewdog_applies(lists, suggested[2]["suggestions"][0]) == fix_source(lists).text
    calls = (project / "calls.py").read_text(encoding="utf-8")
    both = as_reviewdog_applies(as_reviewdog_applies(calls, suggested[1]["suggestions"][0]), suggested[0]["suggestions"][0])
    assert both == fix_source(calls).text
    # The import and the call are separate places: no suggestion, the whole fix as a diff in the message.
    factory = diagnostics[2]
    assert "+from functools import partial" in factory["message"]
    assert "+        print(jax.lax.cond(flag, partial(fill, 3), partial(blank, 3), 7.0))" in factory["message"]
    # An unsafe fix is not a one-click suggestion unless --unsafe-fixes was given.
    assert "suggestions" not in diagnostics[4] and "--unsafe-fixes" in diagnostics[4]["message"]
    with_unsafe = json.loads(jaxfix("check", "--output-format", "rdjson", "--unsafe-fixes", "unsafe.py", cwd=project).stdout)
    (suggestion,) = with_unsafe["diagnostics"][0]["suggestions"]
    unsafe = (project / "unsafe.py").read_text()
    assert as_reviewdog_applies(unsafe, suggestion) == fix_source(unsafe, Options(unsafe_fixes=True)).text


def test_rdjson_takes_each_files_unsafe_fixes_from_its_own_project(tmp_path: Path) -> None:
    """Two projects, one that allows unsafe fixes: only its unsafe fix becomes a suggestion."""
    unsafe = (GOLDEN / "JAX101" / "report_unsafe_by_default" / "before.py").read_text()
    for name, allowed in (("bold", "true"), ("careful", "false")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pyproject.toml").write_text(f"[tool.jaxfix]\nunsafe-fixes = {allowed}\n")
        (tmp_path / name / "unsafe.py").write_text(unsafe)
    for order in (["bold", "careful"], ["careful", "bold"]):
        payload = json.loads(jaxfix("check", "--output-format", "rdjson", *order, cwd=tmp_path).stdout)
        by_path = {d["location"]["path"]: d for d in payload["diagnostics"]}
        assert sorted(by_path) == ["bold/unsafe.py", "careful/unsafe.py"]
        assert "suggestions" in by_path["bold/unsafe.py"]
        assert "suggestions" not in by_path["careful/unsafe.py"]
        assert "--unsafe-fixes" in by_path["careful/unsafe.py"]["message"]


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

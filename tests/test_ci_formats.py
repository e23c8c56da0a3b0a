"""The formats CI systems read: junit, gitlab, json-lines, grouped, pylint; SARIF's fingerprints and help links."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from jaxfix.codemods import rule_docs

from .helpers import BRANCHES, ROOT, call, commit_all, init_repo, jaxfix
from .test_formats import sarif_schema

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Two findings in one file (one line written twice: the same fingerprint but for its number), a broken file."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "calls.py").write_text(BRANCHES + call(3) + call(3) + call(4))
    (tmp_path / "broken.py").write_text("import jax\ndef f(:\n    static_argnums = jax.lax.cond\n")
    (tmp_path / "clean.py").write_text("x = 1\n")
    return tmp_path


def run(project: Path, fmt: str, *paths: str) -> str:
    result = jaxfix("check", "--output-format", fmt, *(paths or (".",)), cwd=project)
    assert result.returncode == (2 if not paths else 1), result.stderr
    return result.stdout


def test_the_notice_records_each_schema_as_carried() -> None:
    notice = (DATA / "README.md").read_text(encoding="utf-8")
    (recorded,) = re.findall(r"^sha256 of junit-10\.xsd: ([0-9a-f]{64})$", notice, re.MULTILINE)
    assert hashlib.sha256((DATA / "junit-10.xsd").read_bytes()).hexdigest() == recorded
    assert "gitlab-code-quality.schema.json" in notice


def test_junit_validates_against_the_jenkins_schema(project: Path) -> None:
    xml = run(project, "junit")
    schema = xmlschema.XMLSchema(str(DATA / "junit-10.xsd"))
    schema.validate(xml)
    tree = schema.to_dict(xml)
    assert (tree["@tests"], tree["@failures"], tree["@errors"]) == ("4", "3", "1")
    suites = {s["@name"]: s for s in tree["testsuite"]}
    assert sorted(suites) == ["broken.py", "pkg/calls.py"]
    cases = suites["pkg/calls.py"]["testcase"]
    assert [c["@name"] for c in cases] == ["JAX101 pkg/calls.py:14:25", "JAX101 pkg/calls.py:15:25", "JAX101 pkg/calls.py:16:25"]
    assert all(c["failure"][0]["@type"] == "static-operand-to-branch" for c in cases)
    assert "error" in suites["broken.py"]["testcase"][0]


def test_junit_of_a_clean_run_is_one_passing_test(project: Path) -> None:
    result = jaxfix("check", "--output-format", "junit", "clean.py", cwd=project)
    assert result.returncode == 0
    xml = result.stdout
    schema = xmlschema.XMLSchema(str(DATA / "junit-10.xsd"))
    schema.validate(xml)
    tree = schema.to_dict(xml)
    assert (tree["@tests"], tree["@failures"]) == ("1", "0")
    assert "failure" not in tree["testsuite"][0]["testcase"][0]


def test_gitlab_validates_and_gives_paths_from_the_repository_root(project: Path) -> None:
    init_repo(project)
    commit_all(project, "init")
    result = jaxfix("check", "--output-format", "gitlab", ".", cwd=project / "pkg")
    issues = json.loads(result.stdout)
    jsonschema.Draft7Validator(json.loads((DATA / "gitlab-code-quality.schema.json").read_text())).validate(issues)
    assert [i["location"]["path"] for i in issues] == ["pkg/calls.py"] * 3  # run from pkg/, relative to the root
    assert [i["location"]["lines"]["begin"] for i in issues] == [14, 15, 16]
    assert len({i["fingerprint"] for i in issues}) == 3  # the twice-written line gets two fingerprints
    assert issues[0]["check_name"] == "JAX101 static-operand-to-branch" and issues[0]["severity"] == "minor"
    assert not result.stdout.startswith("\ufeff")


def test_gitlab_fingerprints_survive_code_moving_down(project: Path) -> None:
    before = [i["fingerprint"] for i in json.loads(run(project, "gitlab", "pkg"))]
    calls = project / "pkg" / "calls.py"
    calls.write_text("# a new first line\n" + calls.read_text())
    after = [i["fingerprint"] for i in json.loads(run(project, "gitlab", "pkg"))]
    assert before == after


def test_json_lines_is_the_json_reports_findings_one_a_line(project: Path) -> None:
    lines = run(project, "json-lines").splitlines()
    records = [json.loads(line) for line in lines]
    whole = json.loads(run(project, "json"))
    assert records[:-1] == whole["findings"]
    assert records[-1] == {"filename": "broken.py", "error": whole["errors"][0]["message"]}


def test_grouped_names_each_file_once(project: Path) -> None:
    text = run(project, "grouped")
    assert text.startswith("broken.py:\n  error: ")
    block = text[text.index("pkg/calls.py:\n"):]
    assert block.splitlines()[1].startswith("  14:25 JAX101 [*] `jax.lax.cond` passes `3`")
    assert text.count("pkg/calls.py") == 1


def test_pylint_lines(project: Path) -> None:
    lines = run(project, "pylint").splitlines()
    assert lines[0].startswith("pkg/calls.py:14: [JAX101] `jax.lax.cond` passes `3`")
    assert lines[-1].startswith("broken.py:1: [error] ")
    assert all(re.match(r"^[^:]+:\d+: \[[A-Za-z0-9]+\] ", line) for line in lines)


def test_sarif_has_partial_fingerprints_and_a_help_uri_per_rule(project: Path) -> None:
    log = json.loads(run(project, "sarif"))
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    (sarif_run,) = log["runs"]
    marks = [r["partialFingerprints"]["jaxfixFindingHash/v1"] for r in sarif_run["results"]]
    gitlab = [i["fingerprint"] for i in json.loads(run(project, "gitlab")) if i["check_name"] != "jaxfix error"]
    assert marks == gitlab and len(set(marks)) == 3
    rules = sarif_run["tool"]["driver"]["rules"]
    anchors = {f"#{rule_docs.anchor(r['id'])}" for r in rules}
    page = (ROOT / rule_docs.PAGE).read_text(encoding="utf-8")
    for rule in rules:
        uri = rule["helpUri"]
        assert uri.startswith("https://") and uri.endswith(f"#{rule_docs.anchor(rule['id'])}")
        heading = f"## {rule['id']} {rule['name']}"
        assert heading in page  # the link's target exists on the page
    assert len(anchors) == len(rules)


def test_the_rules_page_is_made_from_the_rules() -> None:
    """docs/rules.md (what helpUri links to): regenerate with `python -m jaxfix.codemods.rule_docs > docs/rules.md`."""
    assert (ROOT / rule_docs.PAGE).read_text(encoding="utf-8") == rule_docs.markdown()

"""Findings as JUnit XML, which CI systems (GitLab, Jenkins, Azure, CircleCI) show as test results.

One test suite per file with findings (or errors), one failing test case per
finding, named after its rule and place; a file that could not be read is a
test case with an error. A clean run is one passing test case, so a CI that
fails on "no tests" does not. The shape is the Jenkins xunit plugin's
junit-10.xsd (the tests validate against it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from jaxfix.transforms import RULES

from ..engine import RunResult
from .diff import display_path
from .text import finding_lines


def render(run: RunResult) -> str:
    findings, errors = len(run.findings), len(run.errors)
    suites = ET.Element(
        "testsuites", name="jaxfix", tests=str(max(1, findings + errors)), failures=str(findings), errors=str(errors)
    )
    for result in run.files:
        if not result.findings and not result.error:
            continue
        path = display_path(result.path)
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=path,
            tests=str(len(result.findings) + bool(result.error)),
            failures=str(len(result.findings)),
            errors=str(int(bool(result.error))),
            file=path,
        )
        if result.error:
            case = ET.SubElement(suite, "testcase", name=f"{path}: error", classname=path)
            ET.SubElement(case, "error", message=result.error, type="error").text = result.error
        for finding in result.findings:
            where = f"{result.location(finding.span.start.line)}:{finding.span.start.column + 1}"
            rule = RULES.get(finding.code)
            case = ET.SubElement(suite, "testcase", name=f"{finding.code} {path}:{where}", classname=path)
            failure = ET.SubElement(case, "failure", message=finding.message, type=rule.name if rule else finding.code)
            failure.text = "\n".join(finding_lines(result, finding))
    if not findings and not errors:
        suite = ET.SubElement(suites, "testsuite", name="jaxfix", tests="1", failures="0", errors="0")
        ET.SubElement(suite, "testcase", name="no findings", classname="jaxfix")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"

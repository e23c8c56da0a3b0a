"""A run imports what its files and its command need, and nothing else (issue 22.1).

Each case runs the real command in a fresh interpreter and lists the modules
it imported: a file no rule can match never loads libcst or the rules, no
command loads a reporter it does not print with, and the review bot, the
interactive diff and pydantic load only for the commands that use them.
(How long each costs is measured by benchmarks/latency.py, as ratios.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import env

# Runs the command as `jaxfix` does, then writes the names of every module imported to argv[1].
PROGRAM = """
import atexit, json, sys
out, sys.argv = sys.argv[1], ["jaxfix", *sys.argv[2:]]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from jaxfix.codemods.cli import main
main()
"""

CLEAN = "import os\n\n\ndef total(values):\n    return sum(values) + len(os.sep)\n"
FINDING = (Path(__file__).resolve().parent.parent / "examples" / "seed000_cond_static.py").read_text()

ANALYSIS = ("libcst", "jaxfix.transforms.rules", "jaxfix.transforms.semantics")
REPORTERS = tuple(f"jaxfix.codemods.report.{name}" for name in ("json", "sarif", "github", "rdjson", "review"))
OTHER_COMMANDS = (
    "jaxfix.codemods.review", "jaxfix.codemods.interactive", "jaxfix.codemods.triage_report", "jaxfix.codemods.server",
    "pygls", "pydantic",
)  # fmt: skip


def imported(tmp_path: Path, *args: str) -> tuple[int, set[str]]:
    listing = tmp_path / "modules.json"
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(listing), *args], cwd=tmp_path, env=env(), capture_output=True, text=True
    )
    assert listing.exists(), run.stderr
    return run.returncode, set(json.loads(listing.read_text()))


def loaded(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_a_file_no_rule_can_match_loads_no_analysis_and_no_reporter(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text(CLEAN)
    code, modules = imported(tmp_path, "check", "--no-cache", "clean.py")
    assert code == 0
    assert loaded(modules, ANALYSIS + REPORTERS + OTHER_COMMANDS) == []
    assert "jaxfix.transforms.catalogue" in modules  # the pre-filter read the rules' cards


def test_the_result_cache_is_not_keyed_for_a_file_the_pre_filter_drops(tmp_path: Path) -> None:
    """Keying reads jaxfix's own sources and its installed version: a dropped file needs no key."""
    (tmp_path / "clean.py").write_text(CLEAN)
    code, modules = imported(tmp_path, "check", "--cache-dir", str(tmp_path / "cache"), "clean.py")
    assert code == 0
    assert loaded(modules, ANALYSIS + ("importlib.metadata",)) == []


def test_a_file_with_a_finding_loads_the_analysis_but_only_the_format_it_prints(tmp_path: Path) -> None:
    (tmp_path / "seed.py").write_text(FINDING)
    code, modules = imported(tmp_path, "check", "--no-cache", "seed.py")
    assert code == 1
    assert "libcst" in modules and "jaxfix.transforms.rules" in modules
    assert loaded(modules, REPORTERS + OTHER_COMMANDS) == []
    code, modules = imported(tmp_path, "check", "--no-cache", "--output-format", "sarif", "seed.py")
    assert code == 1
    assert loaded(modules, REPORTERS) == ["jaxfix.codemods.report.sarif"]


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["rules"], ["check", "--help"]], ids=" ".join)
def test_help_version_and_the_rule_list_load_no_analysis(tmp_path: Path, args: list[str]) -> None:
    code, modules = imported(tmp_path, *args)
    assert code == 0
    assert loaded(modules, ANALYSIS + REPORTERS + OTHER_COMMANDS) == []


def test_explain_loads_the_rules(tmp_path: Path) -> None:
    """The rules' documentation is their docstrings: explain is where they must load."""
    code, modules = imported(tmp_path, "explain", "JAX201")
    assert code == 0
    assert "jaxfix.transforms.rules" in modules

"""The golden cases: golden/<CODE>/<case>/ with before.py, after.py, reference.py, case.toml.

case.toml:
    description = "what the case shows"
    origin = "https://github.com/..."   # where a case cut down from a real report comes from
    error = "regex"           # must match the stderr of `python before.py` (which must fail)
    findings = ["JAX101:11"]  # every finding on before.py, as CODE:LINE
    explain = true            # optional: the pair `jaxfix explain CODE` shows for this rule
    [options]                 # optional: transforms.Options fields (unsafe_fixes = true, ...)

A case without after.py is report-only: the text must come back unchanged.

golden/valid/<case>/ holds working programs that look like a pitfall: before.py
and case.toml (description, origin). They must get no finding on either path,
come back unchanged, and run cleanly.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jaxfix.transforms import Options

from . import programs
from .programs import Run

__all__ = ["ROOT", "Case", "Run", "all_cases", "load", "run_python"]

ROOT = Path(__file__).resolve().parent.parent / "golden"


@dataclass(frozen=True)
class Case:
    folder: Path
    description: str
    error: str
    findings: tuple[str, ...]
    options: Options
    origin: str = ""

    @property
    def id(self) -> str:
        return f"{self.folder.parent.name}/{self.folder.name}"

    @property
    def before(self) -> Path:
        return self.folder / "before.py"

    @property
    def after(self) -> Path:
        return self.folder / "after.py"

    @property
    def reference(self) -> Path:
        return self.folder / "reference.py"

    @property
    def report_only(self) -> bool:
        return not self.after.exists()


def load(folder: Path) -> Case:
    meta = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    options = meta.get("options", {})
    return Case(
        folder,
        meta["description"],
        meta["error"],
        tuple(meta.get("findings", ())),
        Options(**options),
        meta.get("origin", ""),
    )


def all_cases() -> list[Case]:
    return [load(p.parent) for p in sorted(ROOT.glob("JAX*/*/case.toml"))]


@dataclass(frozen=True)
class ValidCase:
    folder: Path
    description: str
    origin: str

    @property
    def id(self) -> str:
        return f"valid/{self.folder.name}"

    @property
    def program(self) -> Path:
        return self.folder / "before.py"


def valid_cases() -> list[ValidCase]:
    out = []
    for path in sorted((ROOT / "valid").glob("*/case.toml")):
        meta = tomllib.loads(path.read_text(encoding="utf-8"))
        out.append(ValidCase(path.parent, meta["description"], meta.get("origin", "")))
    return out


@cache
def run_python(path: Path) -> Run:
    """Run a golden program with real JAX on the CPU, from its own folder, as `python path.name`
    would (tests/programs.py: forked from a process that imported JAX once, and cached)."""
    return programs.run_script(path)

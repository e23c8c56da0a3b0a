"""One verified before/after pair per rule, taken from golden/, for ``jaxfix explain``.

Documentation examples are not written by hand: they are golden cases, which
the test suite runs with real JAX (before.py fails as documented, after.py
prints what an independent fix prints), so what ``explain`` shows cannot
drift from what is verified. From a checkout the pairs are read from golden/
directly; an installed package carries ``golden_examples.json``, which the
build writes from golden/ with this same module (see setup.py).

Which case: the one whose case.toml says ``explain = true``, else the first
(by name) with an after.py and default options; a report-only rule (no case
has an after.py) shows its marked, else first, report-only case with
``after`` empty. Only the standard library is used here, since setup.py runs
this module before anything is installed.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

INDEX_NAME = "golden_examples.json"
CHECKOUT_GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def _choose(cases: list[Path]) -> Path | None:
    usable = []
    report_only = []
    for folder in cases:
        meta = tomllib.loads(_read(folder / "case.toml"))
        if not (folder / "after.py").is_file():
            if not meta.get("options"):
                report_only.append((meta.get("explain") is not True, folder))
            continue
        if meta.get("explain") is True:
            return folder
        if not meta.get("options"):
            usable.append(folder)
    if usable:
        return usable[0]
    return min(report_only)[1] if report_only else None


def collect(golden: Path) -> dict[str, dict[str, str]]:
    """{code: {case, description, before, after}} for every rule folder of golden/."""
    index: dict[str, dict[str, str]] = {}
    # Only rule folders (JAX101/, ...): golden/valid/ holds look-alikes with no finding to show.
    for rule_folder in sorted(p for p in golden.iterdir() if p.is_dir() and p.name.startswith("JAX")):
        # golden/multi/ holds whole-project cases (before/ trees, no before.py): not a rule's pair.
        cases = sorted(p.parent for p in rule_folder.glob("*/case.toml") if (p.parent / "before.py").is_file())
        chosen = _choose(cases)
        if chosen is None:
            continue
        meta = tomllib.loads(_read(chosen / "case.toml"))
        index[rule_folder.name] = {
            "case": f"{rule_folder.name}/{chosen.name}",
            "description": meta.get("description", ""),
            "before": _read(chosen / "before.py"),
            "after": _read(chosen / "after.py") if (chosen / "after.py").is_file() else "",
        }
    return index


def write_index(golden: Path, target: Path) -> None:
    target.write_text(json.dumps(collect(golden), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load() -> dict[str, dict[str, str]]:
    """The pairs: from the checkout's golden/ when there is one, else from the installed index."""
    if CHECKOUT_GOLDEN.is_dir():
        return collect(CHECKOUT_GOLDEN)
    packaged = Path(__file__).resolve().parent / INDEX_NAME
    if packaged.is_file():
        return json.loads(packaged.read_text(encoding="utf-8"))
    return {}


def example(code: str) -> dict[str, str] | None:
    return load().get(code)

"""Score jaxfix on a folder of cases cut down from real reports: is each fixed, reported, left alone?

    python benchmarks/real_cases.py FOLDER [--unsafe-fixes] [--only NAME] [--json FILE]

FOLDER holds case folders (at any depth), each with ``before.py`` (or
``before.ipynb``), ``case.toml`` (``kind = "fix" | "report" | "valid"``) and,
for fix and report cases, ``reference.py``: an independent hand fix whose
output the fixed program must print. Each case is rewritten by the engine
`jaxfix migrate` uses (on a copy) and the result is run with real JAX:

    fixed        the rewrite runs and prints what reference.py prints
    fixed-wrong  the rewrite runs and prints something else      (the worst)
    broken       the rewrite fails                                (the worst)
    reported     no rewrite, and a finding says why
    missed       no rewrite, no finding
    clean        a valid program: no finding, no rewrite
    false-positive  a valid program got a finding or a rewrite

A notebook is run cell by cell in one namespace, as a kernel would. The
table and the totals go to stdout; the exit code is 1 when any rewrite is
fixed-wrong or broken, or a valid program got a finding.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jaxfix.codemods import engine  # noqa: E402
from jaxfix.transforms import Options  # noqa: E402

NOTEBOOK_RUNNER = """\
import json, sys
nb = json.load(open(sys.argv[1]))
namespace = {"__name__": "__main__"}
for i, cell in enumerate(nb["cells"]):
    if cell["cell_type"] != "code":
        continue
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    lines = []
    for line in source.splitlines():
        bare = line.lstrip()
        if bare.startswith(("%time ", "%timeit ")):
            lines.append(line[: len(line) - len(bare)] + bare.split(" ", 1)[1])
        elif not bare.startswith(("%", "!")):
            lines.append(line)
    exec(compile("\\n".join(lines), f"{sys.argv[1]}:cell {i}", "exec"), namespace)
"""

BAD = ("fixed-wrong", "broken", "false-positive")


@dataclass
class Score:
    name: str
    kind: str
    verdict: str
    detail: str


def _run(program: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONHASHSEED": "0"}
    if program.suffix == ".ipynb":
        runner = program.parent / "_run_notebook.py"
        runner.write_text(NOTEBOOK_RUNNER)
        command = [sys.executable, str(runner), program.name]
    else:
        command = [sys.executable, program.name]
    return subprocess.run(command, cwd=program.parent, capture_output=True, text=True, env=env, timeout=300)


def score(case: Path, unsafe: bool) -> Score:
    meta = tomllib.loads((case / "case.toml").read_text())
    kind = meta.get("kind", "fix")
    name = str(case.relative_to(case.parent.parent)) if case.parent.parent != case.parent else case.name
    before = next((case / n for n in ("before.py", "before.ipynb") if (case / n).exists()), None)
    if before is None:
        return Score(name, kind, "skipped", "no before.py")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "case"
        shutil.copytree(case, work)
        target = work / before.name
        result = engine.process_file(target, Options(unsafe_fixes=unsafe), fix=True, write=True)
        if result.error:
            return Score(name, kind, "error", result.error)
        left = [f"{f.code}:{f.line}" for f in result.findings]
        applied = [f"{f.code}:{f.line}" for f in result.applied]
        if kind == "valid":
            if applied or left:
                return Score(name, kind, "false-positive", " ".join(applied + left))
            return Score(name, kind, "clean", "")
        if not result.changed:
            return Score(name, kind, "reported" if left else "missed", " ".join(left))
        fixed_run = _run(target)
        reference = _run(work / "reference.py")
        if fixed_run.returncode != 0:
            last = (fixed_run.stderr.strip().splitlines() or ["?"])[-1]
            return Score(name, kind, "broken", f"{' '.join(applied)}: {last[:160]}")
        if fixed_run.stdout != reference.stdout:
            return Score(name, kind, "fixed-wrong", f"{' '.join(applied)}: printed {fixed_run.stdout[:80]!r}")
        return Score(name, kind, "fixed", " ".join(applied) + (f" (left: {' '.join(left)})" if left else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--unsafe-fixes", action="store_true")
    parser.add_argument("--only", help="run only cases whose path contains this")
    parser.add_argument("--json", type=Path, help="also write the scores here")
    args = parser.parse_args()
    cases = sorted(p.parent for p in args.folder.rglob("case.toml"))
    if args.only:
        cases = [c for c in cases if args.only in str(c)]
    scores = [score(c, args.unsafe_fixes) for c in cases]
    width = max((len(s.name) for s in scores), default=10)
    for s in scores:
        print(f"{s.name:<{width}}  {s.kind:<6}  {s.verdict:<14}  {s.detail}")
    totals: dict[str, dict[str, int]] = {}
    for s in scores:
        totals.setdefault(s.kind, {}).setdefault(s.verdict, 0)
        totals[s.kind][s.verdict] += 1
    print()
    for kind, verdicts in sorted(totals.items()):
        print(f"{kind}: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    if args.json:
        args.json.write_text(json.dumps([s.__dict__ for s in scores], indent=1))
    return 1 if any(s.verdict in BAD for s in scores) else 0


if __name__ == "__main__":
    sys.exit(main())

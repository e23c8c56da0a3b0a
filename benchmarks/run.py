"""Time jaxfix against its baselines over one folder, in one invocation.

    python benchmarks/run.py DIR [--repeat 3] [--jobs N]

Runs, each as its own process over DIR, `--repeat` times (the median is kept):

* ``jaxfix check --no-cache``          (cold: nothing cached)
* ``jaxfix check --no-cache --single-file`` (cold, imports not followed into
  other modules: what whole-project analysis costs is the ratio of the two)
* ``jaxfix check`` with a fresh cache   (the run that fills it)
* ``jaxfix check`` again                (warm: the cache is full, nothing changed)
* LibCST's own codemod runner with its no-op command (diff mode, nothing written)
* ``ruff check --select ALL --no-cache`` and ``ruff check --select E,F --no-cache``
  when ruff is installed

and prints wall time, files per second and the peak memory of the largest
process of each command tree, then the ratios the targets are stated in;
then the latency of small runs as ratios to starting Python
(``benchmarks/latency.py``: one clean file, one file with a finding).
Timings are only ever reported as ratios against baselines run here, in the
same invocation, on the same files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Timing:
    name: str
    seconds: float
    peak_mb: float
    exit_code: int


def measure(name: str, argv: list[str], env: dict[str, str], cwd: Path) -> Timing:
    """Run argv to completion; wall time, and max RSS over the process and its children."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Timing(name, seconds, usage.ru_maxrss / 1024, proc.returncode)


def median_of(runs: list[Timing]) -> Timing:
    best = sorted(runs, key=lambda t: t.seconds)[len(runs) // 2]
    return Timing(best.name, statistics.median(t.seconds for t in runs), max(t.peak_mb for t in runs), best.exit_code)


def count_files(folder: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from jaxfix.codemods.discovery import discover

    return len(discover([folder]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None, help="workers for jaxfix and libcst (default: all cores)")
    parser.add_argument("--latency-repeat", type=int, default=9, help="rounds of benchmarks/latency.py (0: skip it)")
    args = parser.parse_args()
    folder = args.folder.resolve()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    jobs = ["-j", str(args.jobs)] if args.jobs else []
    jaxfix = [sys.executable, "-m", "jaxfix", "check", *jobs]
    results: list[Timing] = []
    scratch = Path(tempfile.mkdtemp(prefix="jaxfix-bench-"))
    try:
        runs: dict[str, list[Timing]] = {}
        for round_ in range(args.repeat):
            cache = scratch / f"cache{round_}"
            plan = [
                ("jaxfix check --no-cache (cold)", [*jaxfix, "--no-cache", str(folder)]),
                ("jaxfix check --single-file (cold)", [*jaxfix, "--no-cache", "--single-file", str(folder)]),
                ("jaxfix check (filling the cache)", [*jaxfix, "--cache-dir", str(cache), str(folder)]),
                ("jaxfix check (warm)", [*jaxfix, "--cache-dir", str(cache), str(folder)]),
                (
                    "libcst codemod, no-op command",
                    [
                        sys.executable, "-m", "libcst.tool", "codemod", "-x", *jobs, "--no-format", "--hide-progress",
                        "--unified-diff=0", "libcst.codemod.commands.noop.NOOPCommand", str(folder),
                    ],
                ),
            ]
            ruff = shutil.which("ruff") or (shutil.which("ruff", path=str(Path(sys.executable).parent)))
            if ruff:
                plan.append(("ruff check --select ALL --no-cache", [ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", "-q", str(folder)]))
                plan.append(("ruff check --select E,F --no-cache", [ruff, "check", "--select", "E,F", "--no-cache", "--exit-zero", "-q", str(folder)]))
            for name, argv in plan:
                runs.setdefault(name, []).append(measure(name, argv, env, scratch))
        results = [median_of(r) for r in runs.values()]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    files = count_files(folder)
    print(f"{files} files (.py and .ipynb) under {folder}; median of {args.repeat} run(s); {os.cpu_count()} cores\n")
    print(f"{'command':40} {'wall s':>8} {'files/s':>9} {'peak MB':>8} {'exit':>5}")
    for t in results:
        print(f"{t.name:40} {t.seconds:8.2f} {files / t.seconds:9.0f} {t.peak_mb:8.0f} {t.exit_code:5}")
    by_name = {t.name: t for t in results}
    cold = by_name["jaxfix check --no-cache (cold)"]
    warm = by_name["jaxfix check (warm)"]
    print()
    ratios = [("cold jaxfix / libcst no-op codemod", cold, by_name["libcst codemod, no-op command"])]
    if "ruff check --select ALL --no-cache" in by_name:
        ratios.append(("cold jaxfix / ruff --select ALL   (target <= 1.0)", cold, by_name["ruff check --select ALL --no-cache"]))
        ratios.append(("warm jaxfix / ruff --select E,F   (target <= 1.5)", warm, by_name["ruff check --select E,F --no-cache"]))
    ratios.append(("cold jaxfix / cold --single-file  (target <= 1.3)", cold, by_name["jaxfix check --single-file (cold)"]))
    ratios.append(("warm jaxfix / cold jaxfix", warm, cold))
    for label, a, b in ratios:
        print(f"{label:52} {a.seconds / b.seconds:6.2f}")
    print(f"{'peak memory of any jaxfix process (target <= 500 MB)':52} {max(cold.peak_mb, warm.peak_mb):6.0f} MB")
    if args.latency_repeat:
        import latency  # beside this script

        print(f"\nsmall runs (benchmarks/latency.py), median of {args.latency_repeat} interleaved rounds:")
        met = latency.report(*latency.measure(args.latency_repeat))
        return 0 if met else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

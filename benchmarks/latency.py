"""How long the small runs people feel take, as ratios to starting Python, in one invocation.

    python benchmarks/latency.py [--repeat 15]

Each command runs as its own process, `--repeat` times, interleaved round by
round with the baseline ``python -c "import ast"`` (so a busy machine slows
both alike); the median of each is kept and divided by the baseline's:

* ``jaxfix check --no-cache clean.py``    a file with nothing to find   (target <= 5)
* ``jaxfix check --no-cache finding.py``  a file with a JAX101 finding  (target <= 15)
* ``jaxfix check --no-cache jax_clean.py`` a JAX file without a pitfall (libcst runs; no target)
* ``jaxfix check clean.py`` with the default cache, ``--help``, ``--version``, ``rules``

jaxfix is the checkout this script sits in (``PYTHONPATH``), run as
``python -m jaxfix``, its bytecode cached as an installed copy's is (one
warm-up run of each command writes it). ``benchmarks/run.py`` prints this
table too. The exit code is 1 when a target is missed.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CLEAN = '''"""Helpers for reading a training log: nothing here a rule could match."""
import os
import re

PATTERN = re.compile(r"step (\\d+): loss ([0-9.]+)")


def read_losses(path):
    losses = []
    with open(path) as handle:
        for line in handle:
            match = PATTERN.search(line)
            if match:
                losses.append((int(match.group(1)), float(match.group(2))))
    return losses


def latest(folder):
    names = sorted(n for n in os.listdir(folder) if n.endswith(".log"))
    return os.path.join(folder, names[-1]) if names else None
'''

JAX_CLEAN = '''"""A jitted step with a static count, used correctly: libcst runs, nothing is found."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("steps",))
def smooth(x, steps):
    for _ in range(steps):
        x = 0.5 * (x + jnp.roll(x, 1))
    return x


print(smooth(jnp.arange(8.0), steps=3))
'''

TARGETS = {"check, nothing to find": 5.0, "check, one finding": 15.0}


def _time(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def measure(repeat: int) -> tuple[float, dict[str, float]]:
    """(baseline median, {name: median}) over `repeat` interleaved rounds."""
    work = Path(tempfile.mkdtemp(prefix="jaxfix-latency-"))
    (work / "clean.py").write_text(CLEAN)
    (work / "jax_clean.py").write_text(JAX_CLEAN)
    (work / "finding.py").write_text((ROOT / "examples" / "seed000_cond_static.py").read_text())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAXFIX_CACHE_DIR": str(work / "cache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: the bytecode is cached (the warm-up writes it)
    jaxfix = [sys.executable, "-m", "jaxfix"]
    plan = {
        "check, nothing to find": [*jaxfix, "check", "--no-cache", "clean.py"],
        "check, one finding": [*jaxfix, "check", "--no-cache", "finding.py"],
        "check, JAX file without a pitfall": [*jaxfix, "check", "--no-cache", "jax_clean.py"],
        "check, nothing to find (cache on)": [*jaxfix, "check", "clean.py"],
        "--help": [*jaxfix, "--help"],
        "--version": [*jaxfix, "--version"],
        "rules": [*jaxfix, "rules"],
    }
    baseline: list[float] = []
    runs: dict[str, list[float]] = {name: [] for name in plan}
    try:
        for argv in plan.values():  # warm the file cache and the bytecode
            _time(argv, env, work)
        for _ in range(repeat):
            baseline.append(_time([sys.executable, "-c", "import ast"], env, work))
            for name, argv in plan.items():
                runs[name].append(_time(argv, env, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return statistics.median(baseline), {name: statistics.median(times) for name, times in runs.items()}


def report(baseline: float, medians: dict[str, float]) -> bool:
    """Print the table; True when every target is met."""
    ok = True
    label = 'python -c "import ast" (baseline)'
    print(f"{label:44} {baseline * 1000:8.0f} ms {1.0:7.2f}x")
    for name, seconds in medians.items():
        ratio = seconds / baseline
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            met = ratio <= target
            ok = ok and met
            verdict = f"  (target <= {target:g}: {'met' if met else 'MISSED'})"
        print(f"{'jaxfix ' + name:44} {seconds * 1000:8.0f} ms {ratio:7.2f}x{verdict}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(f"latency, median of {args.repeat} interleaved rounds; {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}\n")
    baseline, medians = measure(args.repeat)
    return 0 if report(baseline, medians) else 1


if __name__ == "__main__":
    raise SystemExit(main())

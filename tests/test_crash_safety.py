"""A ``jaxfix migrate`` killed with SIGKILL leaves every file as it was or fully rewritten.

`codemods.writer.write_atomic` writes a temporary file in the file's own
folder, fsyncs it and renames it over the file (atomic on POSIX within one
file system). So wherever a kill lands, each file holds its old bytes or its
new bytes, never a mix; what a kill may leave is the temporary file itself
(``.NAME.PID-<random>.jaxfix``), which discovery never takes for a source;
a later ``migrate`` finishes the job and removes it (its writer is dead).

The folder holds many fixable files (every golden before.py with an
after.py, several times). Half of the kills land at a random moment of the
run; the other half a random few milliseconds after the first file is seen
rewritten, so some land in the middle of the writes. Seeded: a failure
replays. (One run, loaded machine: kills caught 0, 24, 0, 6, 0 and 8 of 122
rewritten files: the targeted kills land mid-write.)
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from jaxfix.codemods.discovery import discover
from jaxfix.codemods.writer import write_atomic

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
FILES = 80
KILLS = 4


def _fixable_folder(folder: Path) -> None:
    """`FILES` golden programs that have a fix: a fixed number, so the test takes no longer as the
    golden set grows (every case once, as it used to be, cost 30 s at 153 cases)."""
    folder.mkdir()
    cases = sorted(p.parent for p in GOLDEN.glob("JAX*/*/after.py"))
    for number in range(FILES):
        case = cases[number * len(cases) // FILES]  # spread over the rules, in a fixed order
        shutil.copy(case / "before.py", folder / f"{case.parent.name}_{case.name}_{number}.py")


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _migrate(folder: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAXFIX_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [sys.executable, "-m", "jaxfix", "migrate", "--no-cache", "--allow-no-vcs", "--unsafe-fixes", "."],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill takes its workers too
    )


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def _wait_for_first_write(process: subprocess.Popen, folder: Path, original: dict[str, bytes]) -> None:
    names = sorted(original)
    while process.poll() is None:
        for name in names:
            try:
                if (folder / name).read_bytes() != original[name]:
                    return
            except OSError:
                continue


def test_writer_replaces_in_the_same_folder_and_leaves_nothing_behind(tmp_path):
    target = tmp_path / "a.py"
    target.write_text("x = 1\n")
    target.chmod(0o640)
    write_atomic(target, b"x = 2\n", expected=b"x = 1\n")
    assert target.read_bytes() == b"x = 2\n"
    assert (target.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]


def test_sigkill_leaves_each_file_old_or_new(tmp_path):
    source = tmp_path / "source"
    _fixable_folder(source)
    original = _contents(source)

    clean = tmp_path / "clean"
    shutil.copytree(source, clean)
    started = time.monotonic()
    assert _migrate(clean).wait() == 0
    duration = time.monotonic() - started
    rewritten = _contents(clean)
    changed = {name for name in original if rewritten[name] != original[name]}
    assert set(rewritten) == set(original)
    assert len(changed) > len(original) // 2  # most files have a fix: the kills can catch writes

    rng = random.Random(8)
    states: list[int] = []
    leftovers: list[Path] = []
    for attempt in range(KILLS):
        folder = tmp_path / f"killed{attempt}"
        shutil.copytree(source, folder)
        process = _migrate(folder)
        if attempt % 2 == 0:
            time.sleep(rng.uniform(0.3, 1.0) * duration)
        else:
            _wait_for_first_write(process, folder, original)
            time.sleep(rng.uniform(0.0, 0.02))
        _kill(process)

        after = _contents(folder)
        left = set(after) - set(original)
        assert set(original) <= set(after)
        for name in original:
            assert after[name] in (original[name], rewritten[name]), f"{name} is neither old nor new"
        for name in left:  # only the writer's own temporary files may be left
            assert name.startswith(".") and name.endswith(".jaxfix"), name
        assert not {p.name for p in discover([folder])} & left
        if left:
            leftovers.append(folder)
        states.append(sum(after[name] == rewritten[name] != original[name] for name in original))

    # A later migrate finishes the job, and removes the temporary files the killed runs left.
    for again in sorted({folder, *leftovers}):
        assert _migrate(again).wait() == 0
        finished = _contents(again)
        assert {name: finished[name] for name in original} == rewritten
        assert set(finished) == set(original), sorted(set(finished) - set(original))
    print("files rewritten when killed:", states, "of", len(changed), "; temporaries left in", len(leftovers))

"""Signals and dying processes, with real processes (issue 21 items 6 and 8).

A worker that dies costs its own file only; workers die with their parent,
however the parent ends; SIGTERM is handled as Ctrl-C is.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from jaxfix.codemods import engine
from jaxfix.transforms import Options

from .helpers import GOLDEN, env

SEED = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()
FIXED = (GOLDEN / "JAX101" / "seed000_eager" / "after.py").read_text()


def _busy_folder(folder: Path, files: int = 120) -> None:
    """Enough work to keep two workers busy for a few seconds: a fixed number of files (copies of the
    golden programs), so that the tests take no longer as the golden set grows."""
    folder.mkdir()
    befores = sorted(GOLDEN.glob("JAX*/*/before.py"))
    for number in range(files):
        before = befores[number % len(befores)]
        shutil.copy(before, folder / f"{before.parent.parent.name}_{before.parent.name}_{number // len(befores)}.py")


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent (init, here) has not collected it


def _start(folder: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "jaxfix", *args, "--no-cache", "-j", "2", "."],
        cwd=folder,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _wait_for_workers(process: subprocess.Popen, count: int = 2, timeout: float = 120) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = _children(process.pid)
        if len(workers) >= count:
            return workers
        assert process.poll() is None, "the run ended before its workers were seen"
        time.sleep(0.05)
    raise AssertionError("no workers started")


def _gone(pids: list[int], timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def test_workers_die_when_the_parent_is_killed(tmp_path: Path) -> None:
    folder = tmp_path / "busy"
    _busy_folder(folder)
    process = _start(folder, "check")
    workers = _wait_for_workers(process)
    try:
        process.kill()  # SIGKILL to the parent alone: it cannot clean up
        process.wait()
        assert _gone(workers), f"workers {workers} outlived their parent"
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_sigterm_ends_the_run_as_ctrl_c_does(tmp_path: Path) -> None:
    folder = tmp_path / "busy"
    _busy_folder(folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    complete = tmp_path / "complete"
    shutil.copytree(folder, complete)
    subprocess.run([sys.executable, "-m", "jaxfix", "migrate", "--no-cache", "--allow-no-vcs", "."], cwd=complete,
                   env=env(), capture_output=True, timeout=600)
    fixed = {p.name: p.read_bytes() for p in complete.iterdir()}
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    process = _start(folder, "migrate", "--allow-dirty")
    workers = _wait_for_workers(process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert _gone(workers)
    after = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    assert set(after) == set(before)  # no temporary file left, nothing lost
    assert all(after[name] in (data, fixed[name]) for name, data in before.items())


def test_a_worker_killed_mid_run_costs_no_file(tmp_path: Path) -> None:
    """The pool breaks (BrokenProcessPool); every file is still reported, none lost."""
    folder = tmp_path / "busy"
    _busy_folder(folder)
    expected = subprocess.run(
        [sys.executable, "-m", "jaxfix", "check", "--no-cache", "-j", "1", "."], cwd=folder, env=env(),
        capture_output=True, text=True, timeout=600,
    )
    process = _start(folder, "check")
    workers = _wait_for_workers(process)
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=600)
    assert "BrokenProcessPool" not in stderr and "Traceback" not in stderr
    assert process.returncode == expected.returncode, stderr
    assert stdout == expected.stdout  # the tasks that were running were run again


def test_a_file_whose_analysis_kills_its_process_is_reported_and_the_rest_done(tmp_path: Path, monkeypatch) -> None:
    """A worker dying with SIGSEGV (what libcst does on a stack overflow) on one file."""
    paths = []
    for number in range(6):
        path = tmp_path / f"f{number}.py"
        path.write_text(SEED.replace("N = 3", f"N = {number + 1}"))
        paths.append(path)
    crash = tmp_path / "crash.py"
    crash.write_text(SEED)
    paths.insert(2, crash)
    real = engine._analyse_text

    def segfault_on_crash_py(task, *args, **kwargs):
        if task.path.name == "crash.py":
            faulthandler.disable()  # pytest's handler would print the dying worker's stack
            os.kill(os.getpid(), signal.SIGSEGV)
        return real(task, *args, **kwargs)

    monkeypatch.setattr(engine, "_analyse_text", segfault_on_crash_py)  # the forked workers inherit it
    run = engine.run(paths, Options(), fix=True, write=True, jobs=2)
    by_name = {r.path.name: r for r in run.files}
    assert by_name["crash.py"].error == (
        "analysis crashed: the process analysing it died (killed by SIGSEGV); the file was left as it is"
    )
    assert crash.read_text() == SEED
    for path in paths:
        if path != crash:
            assert by_name[path.name].error is None and by_name[path.name].written
            assert "partial(run_true, N)" in path.read_text()
    assert run.exit_code(pending_changes=False) == 2


def test_a_worker_signalled_before_its_initializer_ends_without_a_traceback() -> None:
    """The race behind a flaky run of the test above: the pool ends its workers with SIGTERM, and a
    worker forked a moment before still has the run's handler (SIGTERM raises KeyboardInterrupt there,
    and multiprocessing printed the traceback). In a forked child the handler acts as the default."""
    program = textwrap.dedent(
        """\
        import os, signal, sys, time
        from jaxfix.codemods import interrupts
        interrupts.install()
        child = os.fork()
        if child == 0:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
            os._exit(0)
        _, status = os.waitpid(child, 0)
        print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)
        """
    )
    run = subprocess.run([sys.executable, "-c", program], env=env(), capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "True", run.stderr
    assert "Traceback" not in run.stderr and "KeyboardInterrupt" not in run.stderr


def test_an_interrupt_python_swallows_is_raised_again_between_files() -> None:
    """SIGTERM landing where Python cannot raise (an after-fork hook, as starting the pool is; a
    ``__del__`` here) was printed as "Exception ignored" and lost, and the run went on to its end."""
    program = textwrap.dedent(
        """\
        import os, signal
        from jaxfix.codemods import interrupts
        interrupts.install()
        class Dies:
            def __del__(self):
                os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here, inside __del__
        Dies()
        print("went on")
        try:
            interrupts.raise_if_interrupted()
        except KeyboardInterrupt:
            print("raised again after", interrupts.received().name)
        """
    )
    run = subprocess.run([sys.executable, "-c", program], env=env(), capture_output=True, text=True, timeout=60)
    assert run.stdout.splitlines() == ["went on", "raised again after SIGTERM"], run.stderr
    assert run.stderr == ""


def test_an_interrupt_while_files_are_still_being_sent_ends_the_workers_at_once(tmp_path: Path) -> None:
    """The cause of a SIGTERM run that went on for minutes: the interrupt came while the parent was
    still sending files to the pool (the pool starts with the second file), outside the loop that
    shuts the pool down; at exit, `concurrent.futures` then waited for the workers to analyse every
    file already sent. Here the interrupt is raised from the first `started` call, which the parent
    makes while it sends files. The workers must be ended by the run (SIGTERM from its shutdown), not
    left to finish the files sent and exit on their own: that is what the exit status tells, however
    loaded the machine is (a check that they are merely gone at once was flaky in CI)."""
    import multiprocessing

    folder = tmp_path / "busy"
    _busy_folder(folder, files=40)
    paths = sorted(folder.iterdir())
    before = {p.pid for p in multiprocessing.active_children()}
    workers: list = []

    def interrupt(path: Path) -> None:
        workers.extend(p for p in multiprocessing.active_children() if p.pid not in before)
        raise KeyboardInterrupt

    try:
        engine.run(paths, Options(), fix=False, write=False, jobs=2, started=interrupt)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interrupt did not end the run")
    assert workers, "the pool's workers were not seen while files were being sent"
    deadline = time.monotonic() + 30
    for worker in workers:
        # The pool's own thread may be reaping the same child: a join racing it returns at once
        # with no exit code (its waitpid finds no child), so wait until the code is known.
        while worker.exitcode is None and time.monotonic() < deadline:
            worker.join(timeout=0.1)
    assert [w.exitcode for w in workers] == [-signal.SIGTERM] * len(workers), "the run did not end its workers"

"""The progress display on long runs: files done, elapsed time, ETA (by bytes), the file being analysed;
nothing of it on a non-terminal (issue 20.6)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from jaxfix.codemods import engine, runner
from jaxfix.codemods.runner import RunSettings, run_files
from jaxfix.transforms import Options

from .helpers import BRANCHES, call, jaxfix
from .test_cli_terminal import ANSI, run_with_stderr_on_a_terminal


def shown(display: runner._Display) -> str:
    console = Console(file=io.StringIO(), width=200, force_terminal=True, color_system=None)
    console.print(display.progress.get_renderable())
    return ANSI.sub("", console.file.getvalue())


def files(folder: Path, count: int) -> list[Path]:
    out = []
    for n in range(count):
        path = folder / f"m{n}.py"
        path.write_text(BRANCHES + call(n + 1) * (n + 1))
        out.append(path)
    return out


def test_the_display_counts_files_and_bytes_and_names_the_running_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    paths = [Path(p.name) for p in files(tmp_path, 3)]
    display = runner._Display(paths, "checking", Console(file=io.StringIO(), force_terminal=True))
    assert re.search(r"checking .* 0/3 files .*ETA.* 0 findings", shown(display))
    display.started(paths[2])
    assert shown(display).rstrip().endswith("m2.py")
    display.finished(engine.FileResult(paths[2], findings=()))
    task = display.progress.tasks[0]
    assert task.completed == paths[2].stat().st_size and task.total == sum(p.stat().st_size for p in paths)
    text = shown(display)
    assert "1/3 files" in text and "m2.py" not in text  # done: no longer the file being analysed
    assert re.search(r"\d:\d\d:\d\d", text)  # elapsed (and the time left)


def test_a_long_path_is_cut_from_the_left() -> None:
    name = "a/" * 40 + "model.py"
    assert runner.shortened(name).endswith("model.py") and len(runner.shortened(name)) == 48


def test_the_engine_says_which_file_starts_in_one_process_and_in_a_pool(tmp_path: Path) -> None:
    paths = files(tmp_path, 4)
    for jobs in (1, 2):
        started: list[Path] = []
        engine.run(paths, Options(), fix=False, write=False, jobs=jobs, started=started.append)
        assert set(started) <= set(paths) and len(started) >= (4 if jobs == 1 else 1)


def test_run_files_shows_the_display_only_on_a_terminal(tmp_path: Path) -> None:
    paths = files(tmp_path, 3)
    for terminal in (True, False):
        stream = io.StringIO()
        console = Console(file=stream, force_terminal=terminal, width=200)
        run_files(paths, Options(), RunSettings(jobs=1, no_cache=True), console, fix=False, write=False)
        assert ("checking" in stream.getvalue()) is terminal


def test_on_a_terminal_stderr_shows_eta_and_a_file_and_a_pipe_shows_none(tmp_path: Path) -> None:
    files(tmp_path, 6)
    out, screen, code = run_with_stderr_on_a_terminal("check", "--no-cache", "-j", "1", ".", cwd=tmp_path)
    assert code == 1
    screen = ANSI.sub("", screen)
    assert "ETA" in screen and re.search(r"m\d\.py", screen.split("ETA", 1)[1]), screen[-2000:]
    assert "ETA" not in out
    piped = jaxfix("check", "--no-cache", "-j", "1", ".", cwd=tmp_path)
    assert "ETA" not in piped.stderr and "files" not in piped.stderr
    quiet, screen, _ = run_with_stderr_on_a_terminal("check", "-q", "--no-cache", "-j", "1", ".", cwd=tmp_path)
    assert "ETA" not in ANSI.sub("", screen)

"""Hostile files and folders (issue 21): each costs at most its own file, never a traceback or data.

Every test runs jaxfix as a user does (a real process) on real files. The
tests run as root here, so a folder root cannot write is made with
``chattr +i``, and a folder that cannot be listed is tried by a root process
that ``setpriv`` has stripped of every capability.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from jaxfix.codemods.writer import write_atomic

from .helpers import GOLDEN, env, jaxfix
from .programs import run_cli_bytes

SEED = (GOLDEN / "JAX101" / "seed000_eager" / "before.py").read_text()
FIXED = (GOLDEN / "JAX101" / "seed000_eager" / "after.py").read_text()


def run_bytes(*args: str, cwd: Path, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return run_cli_bytes(list(args), cwd, env(), stdin, timeout=300)


# -- migrate - (stdin to stdout): the whole input always comes back ------------------------------


def test_stdin_text_the_prefilter_skips_comes_back_unchanged(tmp_path: Path) -> None:
    result = run_bytes("migrate", "-", cwd=tmp_path, stdin=b"x = 1\n")
    assert result.returncode == 0 and result.stdout == b"x = 1\n"


def test_stdin_that_cannot_be_decoded_comes_back_unchanged_with_exit_2(tmp_path: Path) -> None:
    data = b"# static_argnums cond jit\nx = '\xff'\n"
    result = run_bytes("migrate", "-", cwd=tmp_path, stdin=data)
    assert result.returncode == 2 and b"cannot decode" in result.stderr
    assert result.stdout == data


def test_stdin_keeps_its_bom(tmp_path: Path) -> None:
    unfixable = b"\xef\xbb\xbfx = 1\n"
    assert run_bytes("migrate", "-", cwd=tmp_path, stdin=unfixable).stdout == unfixable
    fixed = run_bytes("migrate", "-", cwd=tmp_path, stdin=b"\xef\xbb\xbf" + SEED.encode())
    assert fixed.stdout == b"\xef\xbb\xbf" + FIXED.encode()


def test_stdin_keeps_a_latin1_cookie_encoding(tmp_path: Path) -> None:
    head = "# -*- coding: latin-1 -*-\n# caf\u00e9\n"
    fixed = run_bytes("migrate", "-", cwd=tmp_path, stdin=(head + SEED).encode("latin-1"))
    assert fixed.returncode == 0
    assert fixed.stdout == (head + FIXED).encode("latin-1")


# -- links ----------------------------------------------------------------------------------------


def test_a_link_inside_the_tree_fixes_its_target_once_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.py").write_text(SEED)
    (tmp_path / "alias.py").symlink_to("real.py")  # sorts before its target
    result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "alias.py").is_symlink() and os.readlink(tmp_path / "alias.py") == "real.py"
    assert (tmp_path / "real.py").read_text() == FIXED
    assert "Fixed 1 finding in 1 file." in result.stdout


def test_a_link_to_a_file_outside_is_never_replaced(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.py").write_text(SEED)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.py").symlink_to(outside / "target.py")
    result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", "link.py", cwd=tree)
    assert result.returncode == 2
    assert "link.py: error: a symbolic link; not replaced" in result.stderr
    assert (tree / "link.py").is_symlink() and (outside / "target.py").read_text() == SEED


def test_a_link_written_mid_run_over_a_file_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    (tmp_path / "elsewhere.py").write_text("x = 1\n")
    path.symlink_to("elsewhere.py")
    with pytest.raises(Exception, match="symbolic link"):
        write_atomic(path, b"y = 2\n", expected=b"x = 1\n")
    assert path.is_symlink() and (tmp_path / "elsewhere.py").read_text() == "x = 1\n"


def test_a_link_loop_is_one_error_line_and_the_rest_is_checked(tmp_path: Path) -> None:
    (tmp_path / "loop1.py").symlink_to("loop2.py")
    (tmp_path / "loop2.py").symlink_to("loop1.py")
    (tmp_path / "seed.py").write_text(SEED)
    for args in ((".",), ("loop1.py", "seed.py")):
        result = jaxfix("check", "--no-cache", *args, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "loop1.py: error: a symbolic link loop; not read" in result.stderr
        assert "seed.py:11:30: JAX101" in result.stdout


# -- files that are not files ---------------------------------------------------------------------


def test_a_fifo_named_like_a_module_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "seed.py").write_text(SEED)
    result = jaxfix("check", "--no-cache", ".", cwd=tmp_path)  # reading the FIFO would wait forever
    assert result.returncode == 2
    assert "pipe.py: error: a FIFO, not a regular file; not read" in result.stderr
    assert "seed.py:11:30: JAX101" in result.stdout


def test_a_folder_named_like_a_module_is_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "pkg.py").mkdir()
    (tmp_path / "pkg.py" / "inner.py").write_text(SEED)
    result = jaxfix("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1 and "pkg.py/inner.py:11:30: JAX101" in result.stdout


def test_a_path_that_never_existed_says_no_such_file(tmp_path: Path) -> None:
    result = jaxfix("check", "nope.py", cwd=tmp_path)
    assert result.returncode == 2 and "nope.py: error: no such file" in result.stderr
    assert "vanished" not in result.stderr


def test_names_with_spaces_and_unicode_are_fixed(tmp_path: Path) -> None:
    folder = tmp_path / "my project é"
    folder.mkdir()
    (folder / "sé ed ü.py").write_text(SEED)
    result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", ".", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert (folder / "sé ed ü.py").read_text() == FIXED


def test_mixed_line_ends_are_kept_line_by_line(tmp_path: Path) -> None:
    lines = SEED.splitlines(keepends=True)
    mixed = "".join(line.replace("\n", "\r\n") if i % 2 else line for i, line in enumerate(lines))
    (tmp_path / "mixed.py").write_bytes(mixed.encode())
    assert jaxfix("migrate", "--allow-no-vcs", "--no-cache", "mixed.py", cwd=tmp_path).returncode == 0
    after = (tmp_path / "mixed.py").read_bytes().decode()
    assert after.replace("\r\n", "\n") == FIXED
    # every line the fix did not touch keeps its own ending
    untouched = [line for line in mixed.splitlines(keepends=True) if line.replace("\r\n", "\n") in FIXED.splitlines(True)]
    assert all(line in after.splitlines(keepends=True) for line in untouched)


# -- writing where the folder refuses -------------------------------------------------------------


def _chattr(flag: str, path: Path) -> bool:
    return shutil.which("chattr") is not None and subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


def test_a_folder_that_refuses_the_temporary_file_costs_only_its_files(tmp_path: Path) -> None:
    locked, free = tmp_path / "locked", tmp_path / "free"
    locked.mkdir()
    free.mkdir()
    (locked / "a.py").write_text(SEED)
    (free / "b.py").write_text(SEED)
    if os.geteuid() == 0:
        assert _chattr("+i", locked), "chattr +i is needed to make a folder root cannot write in"
    else:
        locked.chmod(0o555)
    try:
        result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", "-j", "1", "locked", "free", cwd=tmp_path)
    finally:
        if os.geteuid() == 0:
            _chattr("-i", locked)
        locked.chmod(0o755)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "locked/a.py: error: cannot write a temporary file beside it" in result.stderr
    assert (locked / "a.py").read_text() == SEED and [p.name for p in locked.iterdir()] == ["a.py"]
    assert (free / "b.py").read_text() == FIXED  # the file after it was still written


def _world_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="jaxfix-nobody-", dir="/tmp"))
    folder.chmod(0o777)
    return folder


def test_a_folder_that_cannot_be_listed_is_reported_not_skipped() -> None:
    """Without the privilege to read any folder: root lists every folder, so under root the child
    drops all capabilities with `setpriv` and keeps its uid (changing to nobody would also lose
    the interpreter's packages wherever they were installed with a private umask, as in CI)."""
    setpriv = shutil.which("setpriv")
    assert setpriv is not None or os.geteuid() != 0, "setpriv is needed to list a folder as someone other than root"
    folder = _world_folder()
    try:
        (folder / "closed").mkdir()
        (folder / "closed" / "hidden.py").write_text(SEED)
        (folder / "closed").chmod(0o000)
        (folder / "seed.py").write_text(SEED)
        (folder / "seed.py").chmod(0o666)
        prefix = [setpriv, "--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all"] if os.geteuid() == 0 else []
        result = subprocess.run(
            [*prefix, sys.executable, "-m", "jaxfix", "check", "--no-cache", "."],
            cwd=folder,
            capture_output=True,
            text=True,
            env={**env(), "HOME": str(folder)},
            timeout=300,
        )
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "closed: error: cannot list this folder: Permission denied" in result.stderr
        assert "seed.py:11:30: JAX101" in result.stdout
    finally:
        (folder / "closed").chmod(0o755)
        shutil.rmtree(folder)


# -- temporary files a killed writer left ---------------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporaries_of_dead_writers_are_removed_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "seed.py").write_text(SEED)
    dead = tmp_path / f".seed.py.{_dead_pid()}-0123abcd.jaxfix"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".seed.py.{sleeper.pid}-0123abcd.jaxfix"
        lookalikes = [
            tmp_path / f".seed.py.{_dead_pid()}-0123ABCD.jaxfix",  # not our hex
            tmp_path / f".seed.py.{_dead_pid()}-0123abcd.jaxfix.bak",
            tmp_path / ".seed.py.abcdefgh.jaxfix",  # an older jaxfix's name: its writer is unknown
            tmp_path / "seed.py.1-0123abcd.jaxfix",
        ]
        for path in (dead, live, *lookalikes):
            path.write_text("half a file")
        result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", ".", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert not dead.exists() and f"removed .{dead.name[1:]}" in result.stderr
        assert live.exists() and all(p.exists() for p in lookalikes)
        assert (tmp_path / "seed.py").read_text() == FIXED
    finally:
        sleeper.kill()
        sleeper.wait()


def test_check_never_removes_anything(tmp_path: Path) -> None:
    stale = tmp_path / f".seed.py.{_dead_pid()}-0123abcd.jaxfix"
    stale.write_text("half")
    (tmp_path / "seed.py").write_text(SEED)
    jaxfix("check", "--no-cache", ".", cwd=tmp_path)
    assert stale.exists()


def test_a_killed_writer_leaves_a_temporary_the_next_run_removes(tmp_path: Path) -> None:
    """A real writer, stopped by SIGKILL in the middle of writing its temporary file."""
    target = tmp_path / "seed.py"
    target.write_text(SEED)
    script = (
        "import os, sys, time\n"
        "from pathlib import Path\n"
        "import jaxfix.codemods.writer as w\n"
        "real = os.fsync\n"
        "def stall(fd):\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(60)\n"
        "os.fsync = stall\n"
        f"w.write_atomic(Path({str(target)!r}), b'x' * 100)\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env())
    assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    from jaxfix.codemods.writer import remove_stale_temporaries

    (left,) = [p for p in tmp_path.iterdir() if p.name != "seed.py"]
    assert left.name.startswith(f".seed.py.{writer.pid}-") and left.name.endswith(".jaxfix")
    assert remove_stale_temporaries([tmp_path]) == [left]
    assert [p.name for p in tmp_path.iterdir()] == ["seed.py"] and target.read_text() == SEED


def test_the_writer_keeps_the_mode_and_its_temporary_is_private_until_renamed(tmp_path: Path) -> None:
    target = tmp_path / "tool.py"
    target.write_text("x = 1\n")
    target.chmod(0o755)
    write_atomic(target, b"x = 2\n", expected=b"x = 1\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o755 and target.read_bytes() == b"x = 2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tool.py"]


def test_sigterm_while_writing_removes_the_temporary(tmp_path: Path) -> None:
    target = tmp_path / "seed.py"
    target.write_text(SEED)
    script = (
        "import os, signal, time\n"
        "from pathlib import Path\n"
        "import jaxfix.codemods.writer as w\n"
        "def stop(signum, frame):\n"
        "    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGTERM, stop)\n"
        "def stall(fd):\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(60)\n"
        "os.fsync = stall\n"
        f"w.write_atomic(Path({str(target)!r}), b'x' * 100)\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env())
    assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
    writer.send_signal(signal.SIGTERM)
    writer.wait(timeout=30)
    assert [p.name for p in tmp_path.iterdir()] == ["seed.py"] and target.read_text() == SEED


# -- configuration and cache files of the wrong shape ---------------------------------------------


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("tool = 5\n", "`tool` must be a table, not int 5"),
        ('tool = "jaxfix"\n', "`tool` must be a table, not str 'jaxfix'"),
        ('project = "x"\n[tool.jaxfix]\nselect = ["JAX1"]\n', "`project` must be a table, not str 'x'"),
        ("[tool]\njaxfix = 5\n", "[tool.jaxfix] must be a table"),
        ("not toml [[\n", "not valid TOML"),
    ],
)
def test_a_pyproject_of_the_wrong_shape_is_one_clear_error(tmp_path: Path, document: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(document)
    (tmp_path / "seed.py").write_text(SEED)
    result = jaxfix("check", "--no-cache", "seed.py", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"pyproject.toml: {message}" in result.stderr


@pytest.mark.parametrize("planted", ["[]", '{"deps": 7}', '{"stage": "parsed"}', "null", '"text"'])
def test_a_cache_entry_of_the_wrong_shape_is_discarded_and_recomputed(tmp_path: Path, planted: str) -> None:
    (tmp_path / "seed.py").write_text(SEED)
    cache = tmp_path / "cache"
    first = jaxfix("check", "--cache-dir", str(cache), "seed.py", cwd=tmp_path)
    assert first.returncode == 1
    (entry,) = cache.rglob("*.json")
    entry.write_text(planted)
    for _ in range(2):  # the bad entry must not fail this run, nor every later one
        again = jaxfix("check", "--cache-dir", str(cache), "seed.py", cwd=tmp_path)
        assert again.returncode == 1 and "Traceback" not in again.stderr
        assert again.stdout == first.stdout
    assert entry.read_text() != planted  # replaced by a good entry


def test_a_cache_folder_that_is_a_file_only_warns(tmp_path: Path) -> None:
    (tmp_path / "seed.py").write_text(SEED)
    (tmp_path / "cache").write_text("not a folder")
    result = jaxfix("check", "--cache-dir", "cache", "seed.py", cwd=tmp_path)
    assert result.returncode == 1 and "seed.py:11:30: JAX101" in result.stdout
    assert "warning: results are not cached: cannot write in cache" in result.stderr
    assert (tmp_path / "cache").read_text() == "not a folder"


# -- options that would silently do nothing, or too much ------------------------------------------


def test_select_of_nothing_is_refused(tmp_path: Path) -> None:
    (tmp_path / "seed.py").write_text(SEED)
    result = jaxfix("check", "--select", "", "seed.py", cwd=tmp_path)
    assert result.returncode == 2 and "selects no rule" in result.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.jaxfix]\nselect = []\n")
    configured = jaxfix("check", "seed.py", cwd=tmp_path)
    assert configured.returncode == 2 and "[tool.jaxfix] select: an empty list selects no rule" in configured.stderr


def test_jobs_never_exceed_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from jaxfix.codemods import engine
    from jaxfix.transforms import Options

    started: list[int] = []
    real = engine._Dispatch.__init__

    def spy(self, jobs, *args):
        started.append(jobs)
        real(self, jobs, *args)

    monkeypatch.setattr(engine._Dispatch, "__init__", spy)
    paths = []
    for number in range(3):
        paths.append(tmp_path / f"f{number}.py")
        paths[-1].write_text(SEED)
    run = engine.run(paths, Options(), fix=False, write=False, jobs=64)
    assert started == [3] and all(len(r.findings) == 1 for r in run.files)


def test_a_huge_file_is_passed_by_with_a_note_unless_asked(tmp_path: Path) -> None:
    """A generated module is not bad input: a note says it was not analysed, and the exit code is the
    other files' (jax's own repository holds a 2.4 MB docs module)."""
    big = tmp_path / "generated.py"
    big.write_text(SEED + "# padding\n" * 120_000)  # 1.2 MB
    (tmp_path / "seed.py").write_text(SEED)
    refused = jaxfix("check", "--no-cache", ".", cwd=tmp_path)
    assert refused.returncode == 1  # the seed's finding
    assert "generated.py: note: 1.2 MB, above the 1 MB limit: not analysed" in refused.stderr
    assert "seed.py:11:30: JAX101" in refused.stdout
    asked = jaxfix("check", "--no-cache", "--max-file-size", "2MB", ".", cwd=tmp_path)
    assert asked.returncode == 1 and "generated.py:11:30: JAX101" in asked.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.jaxfix]\nmax-file-size = "0"\n')
    configured = jaxfix("check", "--no-cache", ".", cwd=tmp_path)
    assert configured.returncode == 1 and "generated.py:11:30: JAX101" in configured.stdout
    bad = jaxfix("check", "--max-file-size", "big", ".", cwd=tmp_path)
    assert bad.returncode == 2 and "is not a size" in bad.stderr


def test_a_file_replaced_by_a_folder_or_removed_mid_run_costs_only_itself(tmp_path: Path, monkeypatch) -> None:
    from jaxfix.codemods import engine
    from jaxfix.transforms import Options

    for name in ("becomes_folder.py", "removed.py", "kept.py"):
        (tmp_path / name).write_text(SEED)
    real = engine._analyse_text

    def meddle(task, *args, **kwargs):  # after the read, before the write
        if task.path.name == "becomes_folder.py":
            task.path.unlink()
            task.path.mkdir()
        elif task.path.name == "removed.py":
            task.path.unlink()
        return real(task, *args, **kwargs)

    monkeypatch.setattr(engine, "_analyse_text", meddle)
    run = engine.run(sorted(tmp_path.iterdir()), Options(), fix=True, write=True, jobs=1)
    errors = {r.path.name: r.error for r in run.files}
    assert errors == {
        "becomes_folder.py": "not a regular file; not written",
        "kept.py": None,
        "removed.py": "file vanished before it could be written",
    }
    assert (tmp_path / "becomes_folder.py").is_dir() and not (tmp_path / "removed.py").exists()
    assert (tmp_path / "kept.py").read_text() == FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["becomes_folder.py", "kept.py"]  # no temporary left


def test_links_passed_by_are_said(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(SEED)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "out.py").symlink_to(outside)
    (tree / "dangling.py").symlink_to(tree / "missing.py")
    result = jaxfix("migrate", "--allow-no-vcs", "--no-cache", ".", cwd=tree)
    assert result.returncode == 0, result.stderr
    assert "note: out.py: a symbolic link to a file outside the folder walked: not followed" in result.stderr
    assert "note: dangling.py: a dangling symbolic link: skipped" in result.stderr
    assert outside.read_text() == SEED and (tree / "out.py").is_symlink()

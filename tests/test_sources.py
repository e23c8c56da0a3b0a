"""Reading and writing files: encodings, line ends, modes, atomic replacement."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.sourcefile import InputError, decode, read
from jaxfix.codemods.writer import write_atomic
from jaxfix.transforms import Options

SEED = (Path(__file__).resolve().parent.parent / "golden" / "JAX101" / "seed000_eager" / "before.py").read_text()
FIXED = (Path(__file__).resolve().parent.parent / "golden" / "JAX101" / "seed000_eager" / "after.py").read_text()


def migrate(path: Path) -> engine.FileResult:
    return engine.process_file(path, Options(), fix=True, write=True)


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "crlf.py"
    path.write_bytes(b"\xef\xbb\xbf" + SEED.replace("\n", "\r\n").encode())
    result = migrate(path)
    assert result.written
    assert path.read_bytes() == b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode()


def test_coding_cookie_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "latin.py"
    text = "# -*- coding: latin-1 -*-\n# caf\u00e9\n" + SEED
    path.write_bytes(text.encode("latin-1"))
    migrate(path)
    assert path.read_bytes() == ("# -*- coding: latin-1 -*-\n# caf\u00e9\n" + FIXED).encode("latin-1")


def test_mode_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_text(SEED)
    path.chmod(0o750)
    migrate(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    assert path.read_text() == FIXED


def test_file_without_fix_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / "clean.py"
    path.write_text("import jax\n# static_argnums cond, but no pitfall\n")
    before = path.stat().st_mtime_ns
    result = migrate(path)
    assert not result.written and path.stat().st_mtime_ns == before


def test_read_only_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "ro.py"
    path.write_text(SEED)
    path.chmod(0o444)
    result = migrate(path)
    assert result.error and "read-only" in result.error
    assert path.read_text() == SEED


def test_read_only_folder_leaves_file_whole(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "seed.py"
    path.write_text(SEED)
    folder.chmod(0o555)
    try:
        result = migrate(path)
        if os.geteuid() != 0:
            assert result.error and "cannot write" in result.error
            assert path.read_text() == SEED
        assert [p.name for p in folder.iterdir()] == ["seed.py"]  # no temporary file left
    finally:
        folder.chmod(0o755)


def test_vanished_file(tmp_path: Path) -> None:
    result = migrate(tmp_path / "gone.py")
    assert result.error == "no such file"


def test_changed_on_disk_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "race.py"
    path.write_bytes(b"new content\n")
    with pytest.raises(InputError, match="changed on disk"):
        write_atomic(path, b"ours\n", expected=b"old content\n")
    assert path.read_bytes() == b"new content\n"


def test_decode_errors_are_one_line() -> None:
    with pytest.raises(InputError, match=r"byte 0xff at offset 5"):
        decode(b"x = '\xff'\n")
    with pytest.raises(InputError, match="unknown encoding"):
        decode(b"# coding: klingon\nx = 1\n")


def test_read_keeps_bytes_exact(tmp_path: Path) -> None:
    path = tmp_path / "mixed.py"
    data = b"a = 1\r\nb = 2\rc = 3\n"
    path.write_bytes(data)
    raw, source = read(path)
    assert raw == data and source.encode(source.text) == data

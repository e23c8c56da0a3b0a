"""Reading a Python file as text and writing it back exactly as it was encoded.

The encoding comes from the file itself (BOM or PEP 263 cookie, else UTF-8),
and line endings are kept as they are (no newline translation), so a file
with no fix round-trips byte for byte and a fixed file keeps its encoding,
BOM and CRLF line ends.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path


class InputError(Exception):
    """A file cannot be read or decoded; the message is one line for people."""


@dataclass(frozen=True)
class SourceText:
    text: str
    encoding: str  # as tokenize names it: "utf-8-sig" when there is a BOM

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)


def decode(data: bytes) -> SourceText:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        # No usable cookie and the first lines are not UTF-8: say which byte.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise InputError(
                f"cannot decode as utf-8: byte {data[bad.start]:#04x} at offset {bad.start} "
                "(and no coding cookie)"
            ) from None
        raise InputError(f"cannot tell the file's encoding: {error}") from None
    try:
        codecs.lookup(encoding)
        text = data.decode(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} in the coding cookie") from None
    except UnicodeDecodeError as error:
        raise InputError(
            f"cannot decode as {encoding}: byte {data[error.start]:#04x} at offset {error.start}"
        ) from None
    return SourceText(text, encoding)


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def read_bytes(path: Path) -> bytes:
    """The file's bytes; only a regular file is read (opening a FIFO must not wait for a writer)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError("no such file") from None
    except IsADirectoryError:
        raise InputError("is a directory") from None
    except PermissionError:
        raise InputError("permission denied") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputError("a symbolic link loop; not read") from None
        raise InputError(f"cannot read: {error.strerror or error}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError("is a directory")
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise InputError(f"{kind}, not a regular file; not read")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except IsADirectoryError:
        raise InputError("is a directory") from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}") from None
    finally:
        os.close(fd)


def read(path: Path) -> tuple[bytes, SourceText]:
    data = read_bytes(path)
    return data, decode(data)

"""Reading a Python file as text and writing it back exactly as it was encoded.

The encoding comes from the file itself (BOM or PEP 263 cookie, else UTF-8),
and line endings are kept as they are (no newline translation), so a file
with no fix round-trips byte for byte and a fixed file keeps its encoding,
BOM and CRLF line ends.
"""

from __future__ import annotations

import codecs
import io
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


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError("file vanished before it could be read") from None
    except IsADirectoryError:
        raise InputError("is a directory") from None
    except PermissionError:
        raise InputError("permission denied") from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}") from None


def read(path: Path) -> tuple[bytes, SourceText]:
    data = read_bytes(path)
    return data, decode(data)

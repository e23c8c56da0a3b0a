"""Replacing a file atomically: a temporary file in the same folder, then rename.

A reader (or a crash) sees the old file or the new one, never half of either.
The file's permission bits are kept; a file we cannot replace is reported,
and the temporary file is removed.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .sourcefile import InputError


def write_atomic(path: Path, data: bytes, *, expected: bytes | None = None) -> None:
    """Replace path's content with data.

    If `expected` is given and the file no longer holds exactly those bytes
    (someone changed it meanwhile), nothing is written.
    """
    try:
        st = path.stat()
        if expected is not None and path.read_bytes() != expected:
            raise InputError("changed on disk while jaxfix ran; not written")
        # Mode bits, not just access(): root may write anything, but a file
        # nobody may write was made read-only on purpose.
        if not os.access(path, os.W_OK) or not st.st_mode & 0o222:
            raise InputError("read-only; not written")
    except FileNotFoundError:
        raise InputError("file vanished before it could be written") from None
    except PermissionError:
        raise InputError("permission denied; not written") from None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".jaxfix", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, path)
    except OSError as error:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise InputError(f"cannot write: {error.strerror or error}") from None

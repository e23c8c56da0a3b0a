"""Replacing a file atomically: a temporary file in the same folder, then rename.

A reader (or a crash) sees the old file or the new one, never half of either.
The file's permission bits are kept; a file we cannot replace is reported,
and the temporary file is removed. A symbolic link is never replaced: the
rename would turn it into a regular file and leave its target as it was.

The temporary file is ``.NAME.PID-XXXXXXXX.jaxfix`` (PID: the writing
process; X: hex digits). A writer killed with SIGKILL cannot remove it, so
the next writing run removes the ones whose writer is no longer alive
(`remove_stale_temporaries`); nothing else in a folder matches that pattern
by accident, and a live writer's file is never touched.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from .sourcefile import InputError

SUFFIX = ".jaxfix"
#: Exactly the names `_temporary` makes: the file's name, the writer's pid, 8 hex digits.
_TEMPORARY = re.compile(r"\A\.(?P<name>.+)\.(?P<pid>[1-9][0-9]{0,9})-[0-9a-f]{8}\.jaxfix\Z", re.DOTALL)


def _temporary(folder: Path, name: str) -> tuple[int, Path]:
    """A new file of ours beside the target, opened for writing (never an existing one)."""
    for _ in range(100):
        candidate = folder / f".{name}.{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
        try:
            return os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), candidate
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def write_atomic(path: Path, data: bytes, *, expected: bytes | None = None) -> None:
    """Replace path's content with data.

    If `expected` is given and the file no longer holds exactly those bytes
    (someone changed it meanwhile), nothing is written.
    """
    try:
        if path.is_symlink():
            raise InputError("a symbolic link; not replaced (its target is rewritten only when it lies in the tree)")
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise InputError("not a regular file; not written")
        if expected is not None and path.read_bytes() != expected:
            raise InputError("changed on disk while jaxfix ran; not written")
        # Mode bits, not just access(): root may write anything, but a file
        # nobody may write was made read-only on purpose.
        if not os.access(path, os.W_OK) or not st.st_mode & 0o222:
            raise InputError("read-only; not written")
    except FileNotFoundError:
        raise InputError("file vanished before it could be written") from None
    except IsADirectoryError:
        raise InputError("replaced by a directory while jaxfix ran; not written") from None
    except PermissionError:
        raise InputError("permission denied; not written") from None
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}") from None
    try:
        fd, tmp = _temporary(path.parent, path.name)
    except OSError as error:
        raise InputError(f"cannot write a temporary file beside it: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, path)
    except BaseException as error:  # Ctrl-C or SIGTERM mid-write too: never leave our file behind
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise InputError(f"cannot write: {error.strerror or error}") from None
        raise


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    except OSError:
        return True  # cannot tell: keep the file
    return True


def remove_stale_temporaries(folders: Iterable[Path]) -> list[Path]:
    """Remove the temporary files a killed jaxfix left in these folders; the ones removed.

    Only regular files named exactly as `_temporary` names them, whose writing
    process is gone, are removed.
    """
    removed: list[Path] = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            match = _TEMPORARY.match(entry.name)
            if match is None or _alive(int(match.group("pid"))):
                continue
            try:
                if not entry.is_file(follow_symlinks=False):
                    continue
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed

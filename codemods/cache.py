"""The result cache: what a file's analysis gave, keyed by what could change it.

The key is the file's bytes (hashed), how it is read (Python or notebook, check
or fix), the options that reach the rules, and the tool itself: its version
and a hash of its own analysis code, so a changed rule never serves an old
answer. Entries are JSON (never pickle: a cache folder can come from a pull
request's checkout, and reading it must not run anything), one file each,
written atomically; a corrupt or unreadable entry is a miss.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from functools import cached_property, lru_cache
from pathlib import Path

from jaxfix import transforms
from jaxfix.transforms import Options

from . import notebooks
from .version import version

FORMAT = 1


def deciding_sources() -> list[Path]:
    """Every module that decides a result: all of transforms/ (its rules are in subfolders), and
    the notebook reader."""
    root = Path(transforms.__file__).parent
    return sorted(root.rglob("*.py")) + [Path(notebooks.__file__)]


@lru_cache(maxsize=1)
def tool_fingerprint() -> str:
    """The installed version plus a hash of every module that decides a result."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(version().encode())
    root = Path(transforms.__file__).parent.parent
    for source in deciding_sources():
        digest.update(source.relative_to(root).as_posix().encode() + b"\0")
        digest.update(source.read_bytes())
    return digest.hexdigest()


def options_fingerprint(options: Options) -> str:
    """Every option, so that a new one can never be forgotten here (each changes results)."""
    fields = {}
    for item in dataclasses.fields(options):
        value = getattr(options, item.name)
        if isinstance(value, (set, frozenset)):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, dict):
            value = {k: repr(v) for k, v in sorted(value.items())}
        fields[item.name] = value
    return json.dumps(fields, sort_keys=True)


class ResultCache:
    def __init__(self, folder: Path, options: Options) -> None:
        self.folder = folder / f"v{FORMAT}"
        self._options = options
        self.hits = 0
        self.misses = 0
        self._prepared = False
        #: Why entries cannot be written (set once): the run says so instead of only being slower.
        self.unusable: str | None = None

    @cached_property
    def _salt(self) -> bytes:
        """Made on the first key, not before: the tool's fingerprint reads its sources, and a run
        whose files the pre-filter drops asks for no key."""
        salt = f"{tool_fingerprint()}|{options_fingerprint(self._options)}".encode()
        return hashlib.blake2b(salt, digest_size=32).digest()

    def key(self, data: bytes, kind: str, fix: bool, project: str = "") -> str:
        """`project` fingerprints what the project offers (module names, static-jitted names)."""
        digest = hashlib.blake2b(data, digest_size=20, key=self._salt)
        digest.update(f"|{kind}|{'fix' if fix else 'check'}|".encode())
        digest.update(hashlib.blake2b(project.encode(), digest_size=16).digest())
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            with open(self._path(key), encoding="utf-8") as handle:
                entry = json.load(handle)
        except (OSError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        return entry

    def put(self, key: str, entry: dict) -> None:
        path = self._path(key)
        try:
            if not self._prepared:
                self.folder.mkdir(parents=True, exist_ok=True)
                ignore = self.folder.parent / ".gitignore"
                if not ignore.exists():
                    ignore.write_text("# made by jaxfix: nothing here belongs in version control\n*\n")
                self._prepared = True
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(entry, handle)
            os.replace(tmp, path)
        except OSError as error:
            if self.unusable is None:  # a cache that cannot be written only makes runs slower: say it once
                self.unusable = f"{self.folder.parent}: {error.strerror or error}"

    def discard(self, key: str) -> None:
        """Forget an entry that cannot be used (it is recomputed and written again)."""
        self.hits = max(0, self.hits - 1)
        self.misses += 1
        try:
            os.unlink(self._path(key))
        except OSError:
            pass

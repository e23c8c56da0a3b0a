"""Wheels of distributions installed here, so that pip can install them again with no network.

pre-commit builds a hook's own virtualenv and pip-installs the hook repository
into it, dependencies and build backend included. The tests point that pip at
a folder of wheels made from what the test environment already has installed
(PIP_NO_INDEX + PIP_FIND_LINKS): each installed distribution's files, as its
RECORD lists them, zipped back into a wheel with a fresh RECORD. Files
installed outside site-packages (console scripts) are left out; pip writes
scripts again from entry_points.txt.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

#: Written by the installer, not part of a wheel.
_INSTALLER_FILES = {"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"}


def closure(names: list[str]) -> list[metadata.Distribution]:
    """The installed distributions ``names`` need here, themselves included."""
    found: dict[str, metadata.Distribution] = {}
    queue = list(names)
    while queue:
        name = canonicalize_name(queue.pop())
        if name in found:
            continue
        found[name] = distribution = metadata.distribution(name)
        for raw in distribution.requires or []:
            requirement = Requirement(raw)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                queue.append(requirement.name)
    return list(found.values())


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def repack(distribution: metadata.Distribution, folder: Path) -> Path:
    """A wheel holding the distribution as installed here, in ``folder``."""
    info = next(f for f in distribution.files or [] if f.parent.name.endswith(".dist-info"))
    dist_info = info.parent.as_posix()
    wheel_meta = distribution.read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip().split("-") for line in wheel_meta.splitlines() if line.startswith("Tag:")]
    # Several tags (py2-none-any, py3-none-any) compress into one name: py2.py3-none-any.
    tag = "-".join(".".join(dict.fromkeys(part[i] for part in tags)) for i in range(3))
    name = canonicalize_name(distribution.metadata["Name"]).replace("-", "_")
    target = folder / f"{name}-{distribution.version}-{tag}.whl"
    records = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for file in distribution.files or []:
            path = file.as_posix()
            if path.startswith("..") or "__pycache__" in file.parts or path.endswith(".pyc"):
                continue
            if file.parent.as_posix() == dist_info and file.name in _INSTALLER_FILES:
                continue
            source = Path(distribution.locate_file(file))
            if not source.is_file():
                continue
            data = source.read_bytes()
            wheel.writestr(path, data)
            records.append(f"{path},{_record_hash(data)},{len(data)}")
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return target


def build(names: list[str], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for distribution in closure(names):
        repack(distribution, folder)
    return folder

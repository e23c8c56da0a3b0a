"""jaxfix's version, as installed (reports and the review bot name it)."""

from __future__ import annotations

from importlib import metadata


def version() -> str:
    try:
        return metadata.version("jaxfix")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0+unknown"

"""jaxfix's version, as installed (reports and the review bot name it)."""

from __future__ import annotations


def version() -> str:
    # Imported here, not above: importlib.metadata costs more than the rest of a run that lints
    # one clean file, and only --version, SARIF and the cache key ask for the version.
    from importlib import metadata

    try:
        return metadata.version("jaxfix")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0+unknown"

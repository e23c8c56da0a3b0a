"""Test-session wiring: where the golden programs' results are cached (tests/programs.py), where
the fork servers of every test process share what XLA compiles, and where the processes the
tests start keep their bytecode."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from . import programs

#: Where the run's shared XLA compilation cache is (see `pytest_configure`).
_SHARED_XLA = "PYTEST_JAXFIX_XLA_CACHE"


def pytest_configure(config: pytest.Config) -> None:
    cache = getattr(config, "cache", None)  # None under `-p no:cacheprovider`: nothing is cached
    if cache is not None:
        programs.cache_dir = cache.mkdir("jaxfix-programs")
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            # Hundreds of `python -m jaxfix` processes would each compile jaxfix from source again
            # (0.7 s apiece here). Their bytecode goes under pytest's cache instead, never beside the
            # sources, so what PYTHONDONTWRITEBYTECODE keeps clean stays clean.
            os.environ["PYTHONPYCACHEPREFIX"] = str(cache.mkdir("jaxfix-bytecode"))
            del os.environ["PYTHONDONTWRITEBYTECODE"]
    # One XLA compilation cache for the whole run: the controller (the process without
    # `workerinput`) makes the folder and names it in the environment xdist's workers inherit (a
    # name no program reads and no result's key holds), and removes it at the end.
    if not hasattr(config, "workerinput") and _SHARED_XLA not in os.environ:
        os.environ[_SHARED_XLA] = tempfile.mkdtemp(prefix="jaxfix-xla-")
        config._jaxfix_xla_owner = True  # type: ignore[attr-defined]
    programs.xla_cache_dir = Path(os.environ[_SHARED_XLA]) if _SHARED_XLA in os.environ else None


def pytest_unconfigure(config: pytest.Config) -> None:
    programs.stop_servers()
    if getattr(config, "_jaxfix_xla_owner", False):
        shutil.rmtree(os.environ.pop(_SHARED_XLA), ignore_errors=True)

"""Test-session wiring: where the golden programs' results are cached (tests/programs.py), and
where the processes the tests start keep their bytecode."""

from __future__ import annotations

import os

import pytest

from . import programs


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


def pytest_unconfigure(config: pytest.Config) -> None:
    programs.stop_servers()

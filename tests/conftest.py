"""Test-session wiring: where the golden programs' results are cached (tests/programs.py)."""

from __future__ import annotations

import pytest

from . import programs


def pytest_configure(config: pytest.Config) -> None:
    cache = getattr(config, "cache", None)  # None under `-p no:cacheprovider`: nothing is cached
    if cache is not None:
        programs.cache_dir = cache.mkdir("jaxfix-programs")


def pytest_unconfigure(config: pytest.Config) -> None:
    programs.stop_servers()

"""The wheel ships every package of the checkout: pyproject.toml lists them by hand (the folders are
mapped into `jaxfix`), so a new folder must be listed too, or an installed jaxfix cannot import it."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"jaxfix"} | {
        "jaxfix." + ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("transforms", "codemods")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert listed == found

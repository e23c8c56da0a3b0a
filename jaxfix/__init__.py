"""jaxfix: finds JAX static-argument pitfalls and rewrites them into code that runs.

The code lives in two subpackages, kept as the repository's top-level folders
(the design card's layout): ``jaxfix.transforms`` (pure: source text in, new
text and findings out) and ``jaxfix.codemods`` (files, engine, reporters, the
CLI). Installed, setuptools puts both inside this package, so they can never
shadow, or be shadowed by, a user's own ``transforms.py`` or ``codemods.py``.
In a checkout they sit beside this folder, and the package looks there.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent

if not (_HERE / "transforms").is_dir():  # a checkout (or an editable install of one)
    __path__.append(str(_HERE.parent))  # type: ignore[name-defined]  # noqa: F821

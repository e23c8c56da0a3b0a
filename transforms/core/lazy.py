"""A module imported on first use, for the few heavy imports a run may never need.

Most runs of jaxfix are small (a pre-commit hook on three files, an editor on
one), and most files are dropped by the byte pre-filter before anything is
parsed: such a run must not pay for libcst, the rules or a reporter it does
not print with. Each module that reaches for one names it once, at the top,
as ``name = lazy("package.module")``, and uses it as the module it stands for;
the import runs when the first attribute is read (``benchmarks/latency.py``
measures what that saves).
"""

from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """Stands for a module until an attribute is read, then forwards to it.

    Attributes are read from the module every time (never copied here), so a
    test that monkeypatches the module, or this stand-in, sees its patch.
    """

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_lazy_name", name)
        object.__setattr__(self, "_lazy_module", None)

    def _load(self) -> ModuleType:
        module = object.__getattribute__(self, "_lazy_module")
        if module is None:
            # import_module holds the import lock: two threads asking at once get one module.
            module = importlib.import_module(object.__getattribute__(self, "_lazy_name"))
            object.__setattr__(self, "_lazy_module", module)
        return module

    def __getattr__(self, attribute: str):
        return getattr(self._load(), attribute)

    def __setattr__(self, attribute: str, value) -> None:
        setattr(self._load(), attribute, value)

    def __delattr__(self, attribute: str) -> None:
        delattr(self._load(), attribute)

    def __repr__(self) -> str:
        name = object.__getattribute__(self, "_lazy_name")
        loaded = object.__getattribute__(self, "_lazy_module") is not None
        return f"<lazy module {name!r}{'' if loaded else ' (not imported yet)'}>"


def lazy(name: str) -> ModuleType:
    """The module `name`, imported when one of its attributes is first read."""
    return LazyModule(name)  # type: ignore[return-value]  # it stands for the module

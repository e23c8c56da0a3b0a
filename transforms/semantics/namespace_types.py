"""Standard-library attribute bags that compare by value and so cannot hash.

``argparse.Namespace`` and ``types.SimpleNamespace`` define ``__eq__`` and no
``__hash__``: passed as a static argument, jit's hash fails (docs/jax201-behaviour.md
N1). Kept free of libcst so the screen and the analysis share one list.
"""

from __future__ import annotations

#: Qualified name of the class -> how messages name an instance.
NAMESPACES = {"argparse.Namespace": "an `argparse.Namespace`", "types.SimpleNamespace": "a `types.SimpleNamespace`"}

"""The architecture holds: layers import only the layers below them, no rule imports another
rule's folder, and no module imports itself back through others (no import circles).

transforms/ is layered, lowest first:

    core       findings, edits as text, options, the Rule contract, the guards every fix passes
    project    the repository around a module: its files, what each exports and jits
    semantics  the model of how JAX traces a program (vocabulary, resolution, values, sinks)
    edits      the text that rules and repairs write
    gate       the fast path: the screen and the slicer
    repairs    strategies more than one rule applies
    rules      one folder per rule

`semantics.vocabulary` (the JAX API tables) imports nothing of ours, so every layer may read it.
Imports under ``if TYPE_CHECKING:`` name types only and do not count; a module loaded on first use
(``lazy("jaxfix.transforms.x")``, core/lazy.py) counts as imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TRANSFORMS = ROOT / "transforms"
LAYERS = ("core", "project", "semantics", "edits", "gate", "repairs", "rules")
LEAVES = frozenset({"jaxfix.transforms.semantics.vocabulary"})


def _module(path: Path) -> str:
    parts = path.relative_to(TRANSFORMS).with_suffix("").parts
    return ".".join(("jaxfix", "transforms", *(p for p in parts if p != "__init__")))


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text())
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    imports = [
        (node.module, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and id(node) not in typing_only
    ]
    # `name = lazy("jaxfix.transforms.x")` (core/lazy.py) imports on first use: it counts as well.
    imports += [
        (node.args[0].value, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "lazy"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]
    return [(module, line) for module, line in imports if module.startswith("jaxfix.transforms")]


MODULES = {_module(p): p for p in sorted(TRANSFORMS.rglob("*.py"))}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 or (len(parts) == 3 and parts[2] in LAYERS) else None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_layer_imports_only_the_layers_below_it(module: str) -> None:
    mine = _layer(module)
    if mine is None:
        return  # transforms/__init__.py: the public API assembles every layer
    for imported, line in _imports(MODULES[module]):
        theirs = _layer(imported)
        if theirs is None or imported in LEAVES or imported.startswith(tuple(f"{leaf}." for leaf in LEAVES)):
            continue
        assert LAYERS.index(theirs) <= LAYERS.index(mine), f"{module}:{line} imports {imported} ({theirs} above {mine})"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) == "rules" and m.count(".") >= 4))
def test_no_rule_imports_another_rules_folder(module: str) -> None:
    folder = module.split(".")[3]
    for imported, line in _imports(MODULES[module]):
        parts = imported.split(".")
        if len(parts) > 3 and parts[2] == "rules":
            assert parts[3] == folder, f"{module}:{line} imports {imported}"


def test_no_import_circles() -> None:
    graph = {
        m: {i for i, _ in _imports(p) if i in MODULES and i != m}
        for m, p in MODULES.items()
        if not m.endswith(("transforms", "transforms.rules"))  # the registries import downwards only
    }
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                raise AssertionError("import circle: " + " -> ".join(path[path.index(nxt) :] + [nxt]))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_every_rule_has_its_own_folder() -> None:
    from jaxfix.transforms import RULES

    for code, rule in RULES.items():
        parts = rule.__module__.split(".")
        assert parts[2] == "rules" and parts[3].startswith(code.lower() + "_"), (code, rule.__module__)

"""Which frozen mapping a fix writes, and how to spell it in this module.

Option ``frozen_mapping`` (DESIGN.md 1, "frozen-mapping"):

* ``"auto"`` (the default): the project's own choice first, that is a frozen
  mapping this module already imports (``immutabledict``,
  ``flax.core.FrozenDict``, ``ml_collections.FrozenConfigDict``, in that
  order); else the ``frozendict`` package if imported; else the builtin
  ``frozendict`` when the target Python is 3.15 or newer (PEP 814); else the
  ``frozendict`` package, whose name and constructor match the builtin, so
  moving to the builtin later is one deleted import.
* ``"frozendict"``, ``"immutabledict"``, ``"flax"``, ``"ml_collections"``,
  ``"builtin"``: that one.

What each library does with nested values differs, and the freezer must
know (jax-behaviour.md 2e, docs/frozen-forms.md): immutabledict and
frozendict are shallow, so every nested dict is frozen where it is written;
flax's FrozenDict freezes dicts nested in dicts but not lists, sets, or dicts
inside a list; FrozenConfigDict freezes lists and sets inside it too, but
takes string keys only, no keyword constructor, and no dict inside a list,
and iterates its keys sorted.
``types.MappingProxyType`` is not hashable and a sorted tuple of pairs
changes what the body reads, so neither is ever written.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.edits.imports import Spelling, builtin_spelling, planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.literals import Freezes


@dataclass(frozen=True)
class MappingLibrary:
    key: str
    #: Qualified names of the constructor; the first is the one to import.
    constructors: tuple[str, ...]
    #: The PyPI distribution it comes from (None: the builtin).
    package: str | None
    #: The constructor freezes dicts nested directly in dicts.
    freezes_nested_dicts: bool = False
    #: The constructor also turns lists and sets inside it into tuples and frozensets.
    freezes_nested_sequences: bool = False
    #: ``X(a=1)`` and ``X({...}, b=2)`` work as for dict.
    keyword_constructor: bool = True
    #: Only string keys (FrozenConfigDict), and no dict inside a list or tuple.
    config_dict_rules: bool = False
    #: Iterates its keys sorted, not in insertion order (FrozenConfigDict).
    sorts_keys: bool = False
    #: A run-time deep freeze: qualified names, first to import.
    deep_freeze: tuple[str, ...] = ()
    #: The deep freeze keeps functions and other objects as they are.
    deep_freeze_keeps_objects: bool = True
    #: The deep freeze accepts a list or set at the top, not only a mapping.
    deep_freeze_any_container: bool = False
    #: Imports that mean a module already uses this library.
    detect: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.constructors[0] if self.constructors else "builtin frozendict"


FROZENDICT = MappingLibrary(
    "frozendict",
    ("frozendict.frozendict",),
    "frozendict",
    deep_freeze=("frozendict.deepfreeze",),
    # deepfreeze replaces any object with a __dict__ (a function!) by a frozendict of it.
    deep_freeze_keeps_objects=False,
    deep_freeze_any_container=True,
    detect=("frozendict.frozendict", "frozendict.deepfreeze", "frozendict"),
)
IMMUTABLEDICT = MappingLibrary(
    "immutabledict",
    ("immutabledict.immutabledict",),
    "immutabledict",
    detect=("immutabledict.immutabledict", "immutabledict"),
)
FLAX = MappingLibrary(
    "flax",
    ("flax.core.FrozenDict", "flax.core.frozen_dict.FrozenDict"),
    "flax",
    freezes_nested_dicts=True,
    deep_freeze=("flax.core.freeze", "flax.core.frozen_dict.freeze"),
    detect=(
        "flax.core.FrozenDict",
        "flax.core.frozen_dict.FrozenDict",
        "flax.core.freeze",
        "flax.core.frozen_dict.freeze",
        "flax.core.frozen_dict",
    ),
)
ML_COLLECTIONS = MappingLibrary(
    "ml_collections",
    (
        "ml_collections.FrozenConfigDict",
        "ml_collections.config_dict.FrozenConfigDict",
        "ml_collections.config_dict.config_dict.FrozenConfigDict",
    ),
    "ml_collections",
    freezes_nested_dicts=True,
    freezes_nested_sequences=True,
    keyword_constructor=False,
    config_dict_rules=True,
    sorts_keys=True,
    deep_freeze=(
        "ml_collections.FrozenConfigDict",
        "ml_collections.config_dict.FrozenConfigDict",
        "ml_collections.config_dict.config_dict.FrozenConfigDict",
    ),
    detect=(
        "ml_collections.FrozenConfigDict",
        "ml_collections.config_dict.FrozenConfigDict",
        "ml_collections.config_dict.config_dict.FrozenConfigDict",
    ),
)
BUILTIN = MappingLibrary("builtin", (), None)

LIBRARIES = {lib.key: lib for lib in (FROZENDICT, IMMUTABLEDICT, FLAX, ML_COLLECTIONS, BUILTIN)}
#: The project's own choices, in the order "auto" prefers them.
_PROJECT_CHOICES = (IMMUTABLEDICT, FLAX, ML_COLLECTIONS, FROZENDICT)
_DETECTED_ATTRIBUTES = frozenset(
    {"FrozenDict", "freeze", "FrozenConfigDict", "frozendict", "immutabledict", "deepfreeze"}
)


def frozen_constructors() -> dict[str, Freezes]:
    """Every frozen mapping constructor, by qualified name, and what it freezes inside it."""
    out = {
        q: Freezes(lib.freezes_nested_dicts, lib.freezes_nested_sequences)
        for lib in LIBRARIES.values()
        for q in lib.constructors
    }
    out["builtins.frozendict"] = Freezes()
    return out


def imported_names(analysis: Analysis) -> frozenset[str]:
    """Qualified names the module imports, or reaches as ``module.attr`` through an import."""
    if "imported_names" not in analysis.memo:
        ctx = analysis.ctx
        names: set[str] = set()
        for node in ctx.nodes_of(cst.ImportFrom):
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                continue
            module = cst.helpers.get_full_name_for_node(node.module)
            names.update(f"{module}.{alias.evaluated_name}" for alias in node.names)
        for node in ctx.nodes_of(cst.Import):
            names.update(alias.evaluated_name for alias in node.names)
        for node in ctx.nodes_of(cst.Attribute):
            if node.attr.value in _DETECTED_ATTRIBUTES:
                qualified = ctx.names.qualified_name(node)
                if qualified:
                    names.add(qualified)
        analysis.memo["imported_names"] = frozenset(names)
    return analysis.memo["imported_names"]  # type: ignore[return-value]


def choose_library(analysis: Analysis) -> MappingLibrary | str:
    """The library the options and the module select, or why none can be chosen."""
    options = analysis.ctx.options
    choice = options.frozen_mapping
    if choice != "auto":
        return LIBRARIES.get(choice, f"unknown frozen-mapping setting {choice!r}")
    imported = imported_names(analysis)
    for library in _PROJECT_CHOICES:
        if imported & set(library.detect):
            return library
    if tuple(options.target_version) >= (3, 15):
        return BUILTIN
    return FROZENDICT


def spell_one_of(analysis: Analysis, qualified_names: tuple[str, ...], at: cst.CSTNode) -> Spelling | None:
    """How to write any of these (equivalent) names at `at`: as the module already does, if it does."""
    spellings = [planner(analysis).spell(q, at) for q in qualified_names]
    existing = next((s for s in spellings if s is not None and s.edit is None), None)
    return existing or _written_out(analysis, qualified_names, at) or spellings[0]


def _written_out(analysis: Analysis, qualified_names: tuple[str, ...], at: cst.CSTNode) -> Spelling | None:
    """An attribute chain the module already writes (``flax.core.FrozenDict``), valid at `at` too."""
    ctx = analysis.ctx
    scope = ctx.scope(at)
    if scope is None:
        return None
    for node in sorted(ctx.nodes_of(cst.Attribute), key=ctx.start):
        if node.attr.value not in _DETECTED_ATTRIBUTES or ctx.names.qualified_name(node) not in qualified_names:
            continue
        base = node
        while isinstance(base, cst.Attribute):
            base = base.value
        here = ctx.scope(base)
        same = isinstance(base, cst.Name) and here is not None
        if same and ctx.names.target_in_scope(scope, base.value) == ctx.names.target_in_scope(here, base.value):
            return Spelling(ctx.module.code_for_node(node), None)
    return None


def spell_constructor(analysis: Analysis, library: MappingLibrary, at: cst.CSTNode) -> Spelling | None:
    if library is BUILTIN:
        return builtin_spelling(analysis, "frozendict", at, allow=("frozendict.frozendict",))
    return spell_one_of(analysis, library.constructors, at)



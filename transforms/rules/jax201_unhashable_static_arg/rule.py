"""JAX201: a dict, list, set or namespace reaches a static parameter of a jitted function.

jax.jit hashes static arguments to key its cache; a dict, list or set cannot
be hashed (jax-behaviour.md 2a). The fix freezes the value where it is built,
recursively, into the frozen mapping chosen by `frozen_mapping`, tuples and
frozensets (2b, 2e), and leaves the static declaration and the function body
alone. It is applied only where it provably changes nothing else:

* the value is written out in this module (a display, or ``dict(...)``,
  ``list(...)``, ``set(...)`` of written-out values), at the call or bound
  once to a name;
* every value inside is hashable and not an array: arrays are never hashable,
  so those are reported with the closure alternative (2c);
* nothing mutates it, hands it to code we cannot see, or reads it in a way
  that tells a frozen value apart (`container_uses`), in the jitted bodies
  too.

A value inside that cannot be followed makes the fix unsafe. A config built
at run time is reported; with --unsafe-fixes it is frozen at the call.

The frozen mapping (option ``frozen_mapping``, `frozen_mapping.choose_library`):
with "auto", one the module already imports (immutabledict, then
flax.core.FrozenDict, then ml_collections.FrozenConfigDict, then the
frozendict package); else the builtin ``frozendict`` when ``target_version``
is 3.15 or newer (PEP 814); else the PyPI ``frozendict`` package, which has
the builtin's name and constructor, so that moving to the builtin later is one
deleted import. "frozendict", "immutabledict", "flax", "ml_collections" and
"builtin" force one. immutabledict and frozendict are shallow (every nested
dict is frozen where written), flax's FrozenDict freezes nested dicts but not
lists, FrozenConfigDict freezes lists too; `freezer` writes only what the
library leaves undone. ``MappingProxyType`` (unhashable) and sorted tuples of
pairs (the body would read them differently) are never written.

Layout: `static_calls` (which argument lands in a static parameter),
`config_origin` (where the value was built), `literal_config` and
`value_kind` (what it holds), `shapes` and `container_uses` (who would
notice the freeze), `frozen_mapping` and `freezer` (what to write);
`namespace_fields` (whether a namespace's fields are known to hash);
`instance_fields` (a slice or list an instance's ``__init__`` stores).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import STATIC_JITTED, Rule
from jaxfix.transforms.edits.imports import Spelling, builtin_spelling, planner
from jaxfix.transforms.gate.screen import Facts, calls_on, has_static_keyword, lines_mentioning
from jaxfix.transforms.gate.screen_containers import may_hold_unhashable
from jaxfix.transforms.rules.jax201_unhashable_static_arg import instance_fields, nnx_graphdef
from jaxfix.transforms.rules.jax201_unhashable_static_arg.freeze_shapes import NAMESPACE, Shape, opaque, shape_of
from jaxfix.transforms.rules.jax201_unhashable_static_arg.freezer import Freezer
from jaxfix.transforms.rules.jax201_unhashable_static_arg.frozen_class import FrozenClass, plan_frozen_dataclass
from jaxfix.transforms.rules.jax201_unhashable_static_arg.imported_config import elsewhere, remote_build, uses_here
from jaxfix.transforms.rules.jax201_unhashable_static_arg.made_traced import TracedConfig, floats_only
from jaxfix.transforms.rules.jax201_unhashable_static_arg.mapping_library import (
    MappingLibrary,
    choose_library,
    frozen_constructors,
    spell_constructor,
    spell_one_of,
)
from jaxfix.transforms.rules.jax201_unhashable_static_arg.namespace_fields import unproven_fields
from jaxfix.transforms.rules.jax201_unhashable_static_arg.uses import Problem, Use, UseChecker
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.arguments import passed_keywords, passed_to
from jaxfix.transforms.semantics.call_binding import ArgumentSlot, static_arguments, static_receivers
from jaxfix.transforms.semantics.class_hashing import unhashable_builtin_base
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.container_origin import Origin, OriginKind, OriginTracer
from jaxfix.transforms.semantics.hashability import Kind, ValueClassifier
from jaxfix.transforms.semantics.literals import Container, Leaf, LiteralReader
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pmap_statics import broadcast_slots
from jaxfix.transforms.semantics.python_values import PythonValue, python_value

CODE = "JAX201"
HASH_ERROR = '"Non-hashable static arguments are not supported"'
CLOSURE_COST = "each new wrapper traces and compiles again (jax-behaviour.md 2c)"


@dataclass(frozen=True)
class _Wrap:
    """A run-time value frozen at the call: `spelling(value)`."""

    spelling: Spelling
    caveat: str
    #: What the jitted body receives, for `container_uses`.
    shape: Shape
    library: MappingLibrary | None = None
    #: The mapping's own constructor, which freezes the top only (its values stay as they are).
    shallow: bool = False


@dataclass(frozen=True)
class _Plan:
    """What to do about one build site: a fix, or why not (shared by every call it reaches)."""

    #: Why not fixed, when that does not depend on the call (None: see `uses` or fixed).
    reason: str | None = None
    #: Uses that would notice the freeze (their wording depends on the call).
    uses: tuple[Use, ...] = ()
    #: Which options to name when not fixed: "closure", "array", "library", or "" for none.
    options: str = "closure"
    edits: tuple[Edit, ...] = ()
    applicability: Applicability = Applicability.SAFE
    conversions: str = ""
    notes: tuple[str, ...] = ()

    @property
    def fixed(self) -> bool:
        return self.reason is None and not self.uses


class FrozenConfigs:
    """The JAX201 pass over one module."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx: ModuleContext = analysis.ctx
        self.values = ValueClassifier(self.ctx, lambda p: passed_to(analysis, p))
        self.literals = LiteralReader(self.ctx, self.values, frozen_constructors())
        self.tracer = OriginTracer(self.ctx, self.values, self.literals, lambda p: passed_to(analysis, p))
        self._static_calls: set[cst.Call] = set()

    def findings(self) -> Iterator[Finding]:
        sites: dict[cst.CSTNode, list[tuple[ArgumentSlot, Origin]]] = {}
        slots = [*static_arguments(self.ctx), *static_receivers(self.ctx), *broadcast_slots(self.analysis)]
        self._static_calls = {slot.call for slot in slots}
        for slot in slots:
            origin = self.tracer.trace(slot.arg.value)
            if origin.kind is OriginKind.LITERAL:
                sites.setdefault(origin.node, []).append((slot, origin))  # type: ignore[arg-type]
            elif origin.kind is OriginKind.RUNTIME:
                yield self._runtime(slot, origin)
            elif origin.kind is OriginKind.ARRAY and origin.container == "tree":
                yield self._tree_of_arrays(slot, origin)
            elif origin.kind is OriginKind.ARRAY and not origin.holder:
                # One bug, one finding (issue 17.5): an array itself in a static slot is
                # JAX403's (or JAX301's for a loop count, JAX402's for jnp arithmetic on
                # static ints); JAX201 owns containers and objects, arrays inside them included.
                continue
            elif origin.kind is OriginKind.INSTANCE:
                yield self._instance(slot, origin)
            elif origin.kind is not OriginKind.NONE:
                yield self._unfixable(slot, origin)
            elif self.ctx.repo is not None:
                found = self._imported(slot)
                if found is not None:
                    yield found
        for group in sites.values():
            yield from self._literal(group)

    # -- a config written out in the module ------------------------------------
    def _literal(self, group: list[tuple[ArgumentSlot, Origin]]) -> Iterator[Finding]:
        origin = group[0][1]
        plan = self._plan_literal(origin)
        what = _describe(origin.tree)  # type: ignore[arg-type]
        if origin.holder:
            what = f"{origin.holder} {what}"
        built = f" (built on line {self._line(origin.node)})" if origin.binding is not None else ""
        for slot, _ in group:
            head = f"`{self._short(slot.arg.value)}` is {what}{built}; {self._needs_hash(slot)}"
            if plan.fixed and floats_only(self.ctx, origin.tree):  # type: ignore[arg-type]
                # Physical parameters (herculens: `kwargs_lens_light`, a list of dicts of floats) are
                # data: traced, they compile once; frozen, every new value would compile again.
                traced = self._made_traced(slot, origin, head, " (it holds only floats: data, which frozen would compile again for every new value)")
                if traced is not None and traced.fix is not None and traced.fix.applicability is Applicability.SAFE:
                    yield traced
                    continue
            if plan.fixed:
                message = f"{head}; freeze it where it is built: {plan.conversions}"
                yield self._finding(slot, message, plan.edits, plan.applicability, plan.notes)
                continue
            reason = plan.reason or self._problem_reason(list(plan.uses), slot)
            at_call = self._frozen_at_call(slot, origin, head, reason) if plan.uses else None
            if at_call is None and plan.uses:
                at_call = self._filled_frozen_at_call(slot, origin, head, plan.uses)
            if at_call is not None:
                yield at_call
                continue
            traced = self._made_traced(slot, origin, head, f" (freezing it is not proven: {reason})")
            if traced is not None:
                yield traced
                continue
            yield self._finding(slot, f"{head}; not frozen: {reason}", notes=self._options(plan.options, slot))

    def _frozen_at_call(self, slot: ArgumentSlot, origin: Origin, head: str, kept: str) -> Finding | None:
        """The second strategy, when the literal's other uses need it as built: hand the jitted call
        a frozen copy, ``tuple(weights)``, and leave every other use the list it was.

        Only a flat list or set of Python values (so the copy hashes, and holds what the literal
        holds), only at a call the value reaches by name alone, and only when the jitted body's
        uses take the frozen form.
        """
        tree = origin.tree
        if tree is None or tree.kind not in ("list", "set") or origin.binding is None or origin.holder:
            return None
        if any(not isinstance(child, Leaf) or child.value.kind is not Kind.PLAIN for _, child in tree.entries):
            return None
        value = slot.arg.value
        if not isinstance(value, cst.Name):
            return None
        name = "tuple" if tree.kind == "list" else "frozenset"
        spelling = builtin_spelling(self.analysis, name, value)
        if spelling is None or spelling.edit is not None:
            return None
        checker = self._checker()
        checker.follow_parameter(slot, shape_of(tree, sorts_keys=False), slot.call)
        if checker.problems:
            return None
        wrapped = f"{spelling.text}({self.ctx.code(value)})"
        message = f"{head}; it stays {_describe(tree)} where it is built ({kept}), so the call gets a frozen copy: `{wrapped}`"
        return self._finding(slot, message, (self.ctx.replace(value, wrapped),), Applicability.SAFE)

    def _filled_frozen_at_call(self, slot: ArgumentSlot, origin: Origin, head: str, uses: tuple[Use, ...]) -> Finding | None:
        """A dict filled after it is built (``cfg.update({...})``, ``cfg["k"] = v``) with Python
        values we can read: the call gets a frozen copy of what it holds then, ``frozendict(cfg)``,
        and the dict stays a dict for the code that fills it.

        The copy is taken where jit hashes the argument, so the jitted body sees the items the
        dict held at the call, as before; proven only when every item, written or added, is a
        plain Python value (a shallow freeze hashes it) and the jitted body's uses take the
        frozen form."""
        tree = origin.tree
        value = slot.arg.value
        if tree is None or tree.kind != "dict" or origin.binding is None or origin.holder or not isinstance(value, cst.Name):
            return None
        if any(not isinstance(child, Leaf) or child.value.kind is not Kind.PLAIN for _, child in tree.entries):
            return None
        if not all(use.problem is Problem.MUTATED and self._fills_plain(use.node) for use in uses):
            return None
        library = choose_library(self.analysis)
        if isinstance(library, str):
            return None
        checker = self._checker()
        checker.follow_parameter(slot, shape_of(tree, sorts_keys=library.sorts_keys), slot.call)
        if checker.problems:
            return None
        constructor = spell_constructor(self.analysis, library, value)
        if constructor is None:
            return None
        wrapped = f"{constructor.text}({self.ctx.code(value)})"
        edits = [self.ctx.replace(value, wrapped)]
        notes: list[str] = []
        if constructor.edit is not None:
            edits.append(constructor.edit)
            notes.append(self._dependency_note(constructor, library))
        filled = ", ".join(f"line {self._line(use.node)}" for use in uses)
        message = (
            f"{head}; it is filled after it is built ({filled}) with Python values only, so the call gets a "
            f"frozen copy of what it holds then: `{shorten(wrapped, 50)}`"
        )
        return self._finding(slot, message, tuple(edits), Applicability.SAFE, tuple(notes))

    def _fills_plain(self, node: cst.CSTNode) -> bool:
        """`node` (a mutation `UseChecker` found) is ``d.update({...})`` of a dict display or
        ``d[k] = v``, every value a plain Python value (`ValueClassifier`)."""
        parent = self.ctx.parent(node)
        if isinstance(node, cst.Attribute) and node.attr.value == "update" and isinstance(parent, cst.Call):
            if len(parent.args) != 1 or parent.args[0].keyword is not None or parent.args[0].star:
                return False
            added = parent.args[0].value
            if not isinstance(added, cst.Dict) or any(not isinstance(e, cst.DictElement) for e in added.elements):
                return False
            values = [e.value for e in added.elements if isinstance(e, cst.DictElement)]
        elif isinstance(node, cst.Subscript) and isinstance(parent, cst.AssignTarget):
            statement = self.ctx.parent(parent)
            if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
                return False
            values = [statement.value]
        else:
            return False
        return all(self.values.classify(v).kind is Kind.PLAIN for v in values)

    def _made_traced(self, slot: ArgumentSlot, origin: Origin, head: str, why: str) -> Finding | None:
        """The third strategy, when the value cannot be frozen: data jit can trace (numbers and arrays)
        stops being static (`made_traced`). The first for floats alone (`floats_only`). `why` ends
        the message: why this strategy."""
        if origin.tree is None or origin.holder:
            return None
        checker = self._checker()
        shape = shape_of(origin.tree, sorts_keys=False)
        if origin.binding is not None:
            checker.follow_binding(origin.binding, shape)
        else:
            checker.follow(origin.node, shape)  # type: ignore[arg-type]
        # What may change the contents before a call: a mutation, code we cannot see, a use we cannot follow.
        changes = [u for u in checker.problems if u.problem in (Problem.MUTATED, Problem.ESCAPES, Problem.UNKNOWN)]
        return self._traced_finding(slot, origin.tree, changes, head, why)

    def _traced_finding(
        self, slot: ArgumentSlot, tree: Container | None, changes: list, head: str, after: str = ""
    ) -> Finding | None:
        """The finding making `slot`'s parameter traced (`made_traced`); None where not proven."""
        planned = TracedConfig(self.analysis, self.tracer).plan(slot, tree, changes)
        if planned is None:
            return None
        ending, edits, unsure, notes = planned
        return self.ctx.finding(
            CODE,
            slot.arg.value,
            f"{head}; {ending}{after}",
            edits,
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description=f"make `{slot.param}` a traced argument of `{self._callee(slot)}`",
            notes=notes,
        )

    def _plan_literal(self, origin: Origin) -> _Plan:
        tree = origin.tree
        at = origin.node
        assert tree is not None and at is not None
        leaves = list(tree.leaves())
        array = next((leaf for leaf in leaves if leaf.value.kind is Kind.ARRAY), None)
        if array is not None:
            return _Plan(f"it holds an array ({array.value.reason}), and no array is hashable", options="array")
        mutable = next((leaf for leaf in leaves if leaf.value.kind is Kind.MUTABLE), None)
        if mutable is not None:
            return _Plan(f"it holds {mutable.value.reason}, which would need freezing where it is built too")
        library = choose_library(self.analysis)
        if isinstance(library, str):
            return _Plan(library, options="")
        checker = self._checker()
        shape = shape_of(tree, sorts_keys=library.sorts_keys)
        if origin.binding is not None:
            checker.follow_binding(origin.binding, shape)
        else:
            checker.follow(at, shape)
        built_by = self.ctx.parent(self.ctx.parent(at)) if origin.library else None
        library_only = bool(checker.problems) and all(p.problem is Problem.ESCAPES and p.node is built_by for p in checker.problems)
        if checker.problems and not library_only:
            return _Plan(uses=tuple(checker.problems))
        constructor = spell_constructor(self.analysis, library, at)
        if constructor is None:
            return _Plan(f"`{library.label}` cannot be imported here: its name is taken")
        freezer = Freezer(
            self.ctx,
            library,
            constructor.text,
            _text(builtin_spelling(self.analysis, "tuple", at)),
            _text(builtin_spelling(self.analysis, "frozenset", at)),
        )
        refusal = freezer.refusal(tree)
        if refusal is not None:
            return _Plan(refusal, options="library")
        frozen = freezer.freeze(tree)
        edits = list(frozen.edits)
        notes: list[str] = []
        if any(c.startswith("dict") for c in frozen.conversions) and constructor.edit is not None:
            edits.append(constructor.edit)
            notes.append(self._dependency_note(constructor, library))
        unknown = next((leaf for leaf in leaves if leaf.value.kind is Kind.UNKNOWN), None)
        applicability = Applicability.SAFE
        if library_only:
            applicability = Applicability.UNSAFE
            notes.append(
                f"unsafe: `{self._short(built_by.func)}` keeps it as a field and reads it where jaxfix cannot see; "  # type: ignore[union-attr]
                "a frozen mapping or a tuple serves reads and `**` unpacking, not writes"
            )
        if unknown is not None:
            applicability = Applicability.UNSAFE
            notes.append(
                f"unsafe: {unknown.value.reason}; if it is not hashable (a list, a dict, an array) "
                "the frozen value still fails to hash"
            )
        return _Plan(
            edits=tuple(edits),
            applicability=applicability,
            conversions=", ".join(frozen.conversions),
            notes=tuple(notes),
        )

    # -- a config another module of the project builds ---------------------------
    def _imported(self, slot: ArgumentSlot) -> Finding | None:
        """Frozen where it is built, with that module's analysis (see `imported_config`)."""
        build = remote_build(self.ctx, slot.arg.value)
        if build is None:
            return None
        there = FrozenConfigs(build.analysis)  # type: ignore[arg-type]
        origin = there.tracer.trace(build.target)
        if origin.kind is OriginKind.NONE:
            return None
        module = build.definition.module.name
        line = build.analysis.ctx.span(build.target).start.line  # type: ignore[attr-defined]
        built = f"built in `{module}` (line {line})"
        if origin.kind is not OriginKind.LITERAL:
            message = f"`{self._short(slot.arg.value)}` is {origin.reason or 'not hashable'}, {built}; {self._needs_hash(slot)}"
            return self._finding(slot, message, notes=self._closure_options(slot))
        what = _describe(origin.tree)  # type: ignore[arg-type]
        head = f"`{self._short(slot.arg.value)}` is {what}, {built}; {self._needs_hash(slot)}"
        plan = there._plan_literal(origin)
        if not plan.fixed:
            first = plan.uses[0] if plan.uses else None
            reason = plan.reason or (
                first.what if first.elsewhere else f"in `{module}`, {first.what} (line {there._line(first.node)})"
            )
            return self._finding(slot, f"{head}; not frozen: {reason}", notes=self._options(plan.options, slot))
        library = choose_library(build.analysis)  # type: ignore[arg-type]
        shape = shape_of(origin.tree, sorts_keys=library.sorts_keys)  # type: ignore[union-attr,arg-type]
        checker = self._checker()
        for node in uses_here(self.ctx, slot.arg.value):
            checker.follow(node, shape)
        if checker.problems:
            return self._finding(
                slot, f"{head}; not frozen: {self._problem_reason(checker.problems, slot)}", notes=self._closure_options(slot)
            )
        path = build.definition.module.path
        message = f"{head}; freeze it where it is built, in `{module}`: {plan.conversions}"
        notes = (f"edits `{module}` ({path})", *plan.notes)
        return self._finding(slot, message, elsewhere(plan.edits, build.definition.module), plan.applicability, notes)

    # -- a config built at run time ---------------------------------------------
    def _runtime(self, slot: ArgumentSlot, origin: Origin) -> Finding:
        what = {"dict": "a dict", "list": "a list", "set": "a set"}.get(origin.container, "a container")
        head = f"`{self._short(slot.arg.value)}` is {what} {origin.reason}; {self._needs_hash(slot)}"
        options = self._closure_options(slot)
        wrap = self._runtime_wrap(slot, origin)
        if isinstance(wrap, str):
            return self._finding(slot, f"{head}; not frozen: {wrap}", notes=options)
        checker = self._checker()
        checker.follow_parameter(slot, wrap.shape, slot.call)
        if checker.problems:
            return self._finding(
                slot, f"{head}; not frozen: {self._problem_reason(checker.problems, slot)}", notes=options
            )
        value = slot.arg.value
        wrapped = f"{wrap.spelling.text}({self.ctx.code(value)})"
        edits = [self.ctx.replace(value, wrapped)]
        # `{"n_steps": 10}` returned by a helper: its contents are seen, plain data each, and a
        # shallow freeze hands the function the same keys and values (what it does with them is
        # followed above); anything else is only known at run time
        known = origin.flat and origin.container == "dict" and wrap.shallow
        notes = [] if known else [f"unsafe: its contents are only known at run time; {wrap.caveat}"]
        if wrap.spelling.edit is not None:
            edits.append(wrap.spelling.edit)
            notes.append(self._dependency_note(wrap.spelling, wrap.library))
        if known:
            message = f"{head}; it holds plain data written out there, so it is frozen at the call: `{shorten(wrapped, 50)}`"
            return self._finding(slot, message, tuple(edits), Applicability.SAFE, (*notes, *options))
        message = f"{head}; with --unsafe-fixes it is frozen at the call: `{shorten(wrapped, 50)}`"
        return self._finding(slot, message, tuple(edits), Applicability.UNSAFE, (*notes, *options))

    def _runtime_wrap(self, slot: ArgumentSlot, origin: Origin) -> _Wrap | str:
        """How to freeze a run-time value at the call, or why it cannot be."""
        at = slot.arg.value
        if origin.container in ("list", "set"):
            name = "tuple" if origin.container == "list" else "frozenset"
            spelling = builtin_spelling(self.analysis, name, at)
            if spelling is None:
                return f"`{name}` is shadowed here"
            return _Wrap(spelling, "every element must be hashable, and a list in it stays a list", opaque(deep=False))
        library = choose_library(self.analysis)
        if isinstance(library, str):
            return library
        if not library.deep_freeze:
            return f"{library.label} has no deep freeze for a value whose contents are only known at run time"
        if origin.container == "dict" and (origin.flat or self._hashable_values(origin)):
            shallow = spell_one_of(self.analysis, library.constructors, at) if library.constructors else None
            if shallow is not None and not library.config_dict_rules:
                shape = opaque(deep=False, sorts_keys=library.sorts_keys)
                return _Wrap(shallow, "every value must stay hashable", shape, library, shallow=True)
        if not library.deep_freeze_keeps_objects and not origin.plain:
            return (
                f"`{library.deep_freeze[0]}` would replace any function or object it holds by a frozendict "
                "of that object's attributes (docs/frozen-forms.md), and what it holds cannot be seen"
            )
        spelling = spell_one_of(self.analysis, library.deep_freeze, at)
        if spelling is None:
            return f"`{library.deep_freeze[0]}` cannot be imported here: its name is taken"
        if library.freezes_nested_sequences or library.deep_freeze_any_container:
            caveat = "nested lists become tuples, so code that needs a list there sees a tuple"
        else:
            caveat = "lists inside stay lists and still cannot be hashed"
        return _Wrap(spelling, caveat, opaque(deep=True, sorts_keys=library.sorts_keys), library)

    def _hashable_values(self, origin: Origin) -> bool:
        """``dict(potentials)`` of a ``**potentials`` parameter every call of whose function
        passes only values that hash (numbers, strings, frozen or identity-hashed objects:
        galax#18's potentials): a shallow freeze makes it hashable, and a deep one is not needed."""
        call = origin.node
        if not (isinstance(call, cst.Call) and len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star):
            return False
        name = call.args[0].value
        param = single_binding(self.ctx, name) if isinstance(name, cst.Name) else None
        values = passed_keywords(self.analysis, param) if isinstance(param, cst.Param) else None
        return bool(values) and all(isinstance(python_value(self.analysis, v), PythonValue) for v in values)  # type: ignore[union-attr]

    # -- reported only -------------------------------------------------------------
    def _instance(self, slot: ArgumentSlot, origin: Origin) -> Finding:
        """An instance of a class of this module that Python cannot hash: freeze the dataclass."""
        assert origin.cls is not None
        value = self._short(slot.arg.value)
        head = f"`{value}` is {origin.reason}; {self._needs_hash(slot)}"
        name = origin.cls.name.value
        plan = plan_frozen_dataclass(self.analysis, origin.cls) if origin.cls.decorators else None
        if isinstance(plan, FrozenClass):
            return self._finding(
                slot,
                f"{head}; nothing assigns a field of `{name}` and every `{name}(...)` passes hashable values, "
                f"so the class becomes frozen: `{plan.decorator}`",
                plan.edits,
                notes=(f"a frozen `{name}` hashes by its fields: equal values share one compile",),
            )
        compares = "compares as the container it derives from" if unhashable_builtin_base(origin.cls) else "defines `__eq__`"
        why = plan if isinstance(plan, str) else f"`{name}` {compares}; giving it a `__hash__` that agrees is a choice for its author"
        notes = (
            f"make `{name}` hashable where it is defined (a frozen dataclass, or a `__hash__` that agrees with `__eq__`)",
            *self._closure_options(slot),
        )
        return self._finding(slot, f"{head}; not rewritten: {why}", notes=notes)

    def _tree_of_arrays(self, slot: ArgumentSlot, origin: Origin) -> Finding:
        """A tree whose every leaf is an array (``tree_map(np.asarray, batch)``): no freeze makes it
        hashable; it stops being static where nothing needs it concrete."""
        head = f"`{self._short(slot.arg.value)}` is a tree of arrays ({origin.reason}); {self._needs_hash(slot)}"
        traced = self._traced_finding(slot, None, [], head)
        if traced is None:
            return self._finding(slot, f"{head}, and no array is hashable", notes=self._array_options(slot))
        return traced

    def _unfixable(self, slot: ArgumentSlot, origin: Origin) -> Finding:
        value = self._short(slot.arg.value)
        needs = self._needs_hash(slot)
        if origin.kind is OriginKind.ARRAY:
            what = origin.holder or "an array"
            message = f"`{value}` is {what} ({origin.reason}); {needs}, and no array is hashable"
            return self._finding(slot, message, notes=self._array_options(slot))
        if origin.kind is OriginKind.NAMESPACE:
            return self._namespace(slot, origin)
        what = {"dict": "a dict", "list": "a list", "set": "a set"}.get(origin.container, "a mutable container")
        message = f"`{value}` is {what}; {needs}; not frozen: {origin.reason}"
        return self._finding(slot, message, notes=self._closure_options(slot))

    def _namespace(self, slot: ArgumentSlot, origin: Origin) -> Finding:
        """An attribute bag becomes a namedtuple of its fields where it is built, when every use
        only reads fields (`UseChecker` with the NAMESPACE shape), and its fields are known to
        hash (`namespace_fields`); with unknown fields the same rewrite is unsafe."""
        value = slot.arg.value
        short = self._short(value)
        head = f"`{short}` is {origin.reason}, which cannot be hashed; {self._needs_hash(slot)}"
        notes = (
            f"pass the values `{self._callee(slot)}` reads from it (`{short}.<name>`) as static arguments of their own",
            "or make it a namedtuple of its fields once, where it is built: "
            "`namedtuple(\"Namespace\", vars(args))(**vars(args))` (built at each call, it would be a new type "
            "each time, and jit would compile again)",
            *self._closure_options(slot),
        )
        checker = self._checker()
        checker.follow_parameter(slot, NAMESPACE, slot.call)
        if checker.problems:
            return self._finding(slot, f"{head}; not rewritten: {self._problem_reason(checker.problems, slot)}", notes=notes)
        built = self._namespace_where_built(origin)
        if isinstance(built, str):
            return self._finding(slot, f"{head}; not rewritten: {built}", notes=notes)
        at, line = built
        how = f"frozen where it is built (line {self._line(at)}), since every use only reads its fields"
        namedtuple = planner(self.analysis).spell("collections.namedtuple", at)
        fields = builtin_spelling(self.analysis, "vars", at)
        if namedtuple is None or fields is None:
            return self._finding(slot, f"{head}; not rewritten: `namedtuple` or `vars` cannot be spelled here", notes=notes)
        typename = "SimpleNamespace" if "SimpleNamespace" in origin.reason else "Namespace"
        text = at.value
        frozen = f'{namedtuple.text}("{typename}", {fields.text}({text}))(**{fields.text}({text}))'
        edits = [Edit(line, line, f"{self.ctx.indent_of(at)}{text} = {frozen}\n")]
        unproven = unproven_fields(self.ctx, self.values, origin)
        fix_notes = ["a namedtuple of the same fields hashes, and reading a field gives the very same value"]
        if namedtuple.edit is not None:
            edits.append(namedtuple.edit)
            fix_notes.append(f"adds `{namedtuple.added}`")
        applicability = Applicability.SAFE
        if unproven is not None:
            applicability = Applicability.UNSAFE
            how = f"with --unsafe-fixes, {how}"
            fix_notes.append(f"unsafe: {unproven}; a field holding a list or a dict would still not hash")
        message = f"{head}; {how}: `{shorten(frozen, 60)}`"
        return self._finding(slot, message, tuple(edits), applicability, (*fix_notes, *notes))

    def _namespace_where_built(self, origin: Origin) -> tuple[cst.Name, int] | str:
        """``args = parser.parse_args()`` alone on its line, and every use of ``args`` only reads
        fields (followed through calls, returns and static parameters): the name, and the offset
        of the line after, where the frozen copy is bound once. Else why not.

        Never at the call: jit compares a static argument's type too, and a namedtuple class
        built at each call is a new type each time, so every call would trace and compile
        again (docs/jax201-behaviour.md N2).
        """
        name = origin.binding
        if name is None or assigned_value(self.ctx, name) is not origin.node:
            return "it is not bound to a name where it is built, the one place a namedtuple class would be made once"
        statement = self.ctx.statement_of(name)
        assign = self.ctx.parent(self.ctx.parent(name))
        if not (
            isinstance(statement, cst.SimpleStatementLine)
            and len(statement.body) == 1
            and statement.body[0] is assign
            and isinstance(assign, cst.Assign)
            and len(assign.targets) == 1
        ):
            return f"line {self._line(name)} binds it beside other statements"
        checker = self._checker()
        checker.follow_binding(name, NAMESPACE)
        if checker.problems:
            use = min(checker.problems, key=lambda u: (self._line(u.node), self.ctx.span(u.node).start.column))
            return f"{use.what} (line {self._line(use.node)}), where only its fields may be read"
        return name, self.ctx.line_after(self.ctx.end(assign))

    def _checker(self) -> UseChecker:
        return UseChecker(self.ctx, self.values, self.analysis.staticness)

    # -- wording ------------------------------------------------------------------
    def _needs_hash(self, slot: ArgumentSlot) -> str:
        if slot.broadcast:
            return (
                f"`static_broadcasted_argnums` makes `{slot.param}` of the pmapped `{slot.target.function.name}` static, "
                f"so pmap must hash it ({HASH_ERROR})"
            )
        return f"static parameter `{slot.param}` of the jitted `{self._callee(slot)}` must hash it ({HASH_ERROR})"

    def _options(self, which: str, slot: ArgumentSlot) -> tuple[str, ...]:
        if which == "array":
            return self._array_options(slot)
        if which == "library":
            return ("set `frozen-mapping` to another library", *self._closure_options(slot))
        return self._closure_options(slot) if which == "closure" else ()

    def _closure_options(self, slot: ArgumentSlot) -> tuple[str, ...]:
        function = slot.target.function.name
        if slot.broadcast:
            return (
                f"close over it instead of hashing it: pmap `{function}` once with it bound, "
                f"`jax.pmap(partial({function}, {slot.param}=...), ...)` (its position leaves `static_broadcasted_argnums` "
                f"and the call), and reuse that wrapper: {CLOSURE_COST}",
            )
        undecorated = " (without its jit decorator)" if isinstance(slot.target.jit_node, cst.Decorator) else ""
        closure = (
            f"close over it instead of hashing it: jit `{function}`{undecorated} once with it bound, "
            f"`jax.jit(partial({function}, {slot.param}=...))`, and reuse that wrapper: {CLOSURE_COST}"
        )
        return (closure,)

    def _array_options(self, slot: ArgumentSlot) -> tuple[str, ...]:
        return (
            f"pass the array as a regular (traced) argument of `{self._callee(slot)}`, not inside a static value",
            *self._closure_options(slot),
            "a closed-over array becomes a constant of the compiled program, not a static value",
        )

    def _problem_reason(self, problems: list[Use], slot: ArgumentSlot) -> str:
        """The first use that would notice the freeze, said where it is and how it got there."""
        use = min(problems, key=lambda u: (self._line(u.node), self.ctx.span(u.node).start.column))
        line = self._line(use.node)
        lead = "it is changed after it is built: " if use.problem is Problem.MUTATED else ""
        tail = ", and that code may need it mutable" if use.problem is Problem.ESCAPES else ""
        if use.elsewhere:
            return f"{lead}{use.what}{tail}"
        if use.via is None:
            before = ", before the call" if self._before(use.node, slot) else ""
            return f"{lead}{use.what} (line {line}{before}){tail}"
        if use.via is slot.call or self._is_static_call(use.via):
            return f"{lead}in `{self._short(use.via.func)}`, {use.what} (line {line}){tail}"
        before = ", before the call" if self._before(use.via, slot) else ""
        handed = f"it is handed to `{self._short(use.via)}` (line {self._line(use.via)}{before})"
        return f"{lead}{handed}, where {use.what} (line {line}){tail}"

    def _before(self, node: cst.CSTNode, slot: ArgumentSlot) -> bool:
        same_scope = self.ctx.scope(node) is self.ctx.scope(slot.call)
        return same_scope and self._line(node) < self._line(slot.call)

    def _is_static_call(self, call: cst.Call) -> bool:
        return call in self._static_calls

    def _dependency_note(self, spelling: Spelling, library: MappingLibrary | None) -> str:
        package = library.package if library is not None else None
        if package is None:
            return f"adds `{spelling.added}`"
        return f"adds `{spelling.added}`: the `{package}` package becomes a dependency"

    def _callee(self, slot: ArgumentSlot) -> str:
        return self._short(slot.call.func)

    def _line(self, node: cst.CSTNode | None) -> int:
        return self.ctx.span(node).start.line  # type: ignore[arg-type]

    def _short(self, node: cst.CSTNode) -> str:
        return shorten(self.ctx.module.code_for_node(node), 50)

    def _finding(
        self,
        slot: ArgumentSlot,
        message: str,
        edits: tuple[Edit, ...] = (),
        applicability: Applicability = Applicability.SAFE,
        notes: Iterable[str] = (),
    ) -> Finding:
        return self.ctx.finding(
            CODE,
            slot.arg.value,
            message,
            edits or None,
            applicability,
            description="freeze the static value where it is built" if edits else "",
            notes=tuple(notes),
        )


def _text(spelling: Spelling | None) -> str | None:
    return spelling.text if spelling is not None else None


def _describe(tree: Container) -> str:
    """'a dict', 'a list', 'a tuple holding a list', for messages."""
    simple = {"dict": "a dict", "list": "a list", "set": "a set"}
    if tree.kind in simple:
        return simple[tree.kind]
    inner = next((c for c in tree.containers() if c.kind in simple), None)
    outer = {"tuple": "a tuple", "frozenset": "a frozenset", "frozen": "a frozen mapping"}[tree.kind]
    return f"{outer} holding {simple[inner.kind]}" if inner is not None else f"{outer} holding an array"


class UnhashableStaticArg(Rule):
    """A dict, list or set reaches a static parameter of a jitted function.

    jax.jit hashes every static argument (``static_argnums`` /
    ``static_argnames``) to look up its compiled code, and a dict, list or
    set cannot be hashed::

        ValueError: Non-hashable static arguments are not supported. An error
        occurred while trying to hash an object of type <class 'dict'>, ...

    The fix freezes the value where it is built, recursively: a dict becomes
    a frozen mapping, a list a tuple, a set a frozenset. The static
    declaration and the function body stay as they are, and an equal config
    built again still hits jit's cache. The frozen mapping is the project's
    own choice when the module imports one (``immutabledict``,
    ``flax.core.FrozenDict``, ``ml_collections.FrozenConfigDict``), else the
    ``frozendict`` package (the builtin ``frozendict`` when the target Python
    is 3.15 or newer); setting ``frozen-mapping`` picks one. A fix that adds
    an import names the new dependency.

    A value whose every leaf is a Python float (a list of dicts of a model's
    parameters, herculens' ``kwargs_lens_light``) is data: where nothing in the
    jitted code needs it concrete and every call passes such data, it stops being
    static instead (its entry leaves ``static_argnums``), so each new value no
    longer compiles again; a float read by a Python ``if`` keeps it static, frozen.

    The value is followed from every call of a jitted function with static
    parameters (decorator, ``partial(jax.jit, ...)``, an assigned or inline
    jit; passed by position or keyword) back to where it is written: at the
    call, or a name bound once. It is fixed only when that provably changes
    nothing else, and reported with the reason otherwise:

    * it holds an array, or something that may be one: no array is hashable.
      Pass the array as a regular argument, or close over the config
      (``jax.jit(partial(f, config=cfg))``, created once: each new wrapper
      traces and compiles again);
    * it is changed after it is built (item assignment, ``update``,
      ``append``, ``pop``, ``del``, augmented assignment) or handed to code
      that may need it mutable. A flat list or set then gives the call a frozen
      copy (``tuple(weights)``), and so does a dict filled only with Python
      values by ``cfg.update({...})`` or ``cfg["k"] = v`` (``frozendict(cfg)``:
      the items it holds at the call, which is what jit hashes there);
    * some code reads it in a way a frozen value would change: a comparison
      (``config["layers"] == [64, 64]`` is False for a tuple), ``isinstance``,
      ``print``. These would run and compute something else.

    Command-line options (``parser.parse_args()``, ``argparse.Namespace(...)``,
    ``types.SimpleNamespace(...)``) define ``__eq__`` and no ``__hash__``.
    Where every use of the namespace only reads its fields (``opts.its``,
    ``getattr(opts, "its")``, through helpers, ``partial`` and returns), it
    becomes a namedtuple of the same fields right where it is built::

        args = parser.parse_args()
        args = namedtuple("Namespace", vars(args))(**vars(args))

    It is safe when the parser's options are written out and each stores one
    hashable value (no ``nargs="+"``, no ``append``, a ``type`` of ``int``,
    ``float``, ``str`` or ``bool``), unsafe otherwise. It is never done at the
    call: a namedtuple class made at each call is a new type each time, and jit
    would compile every call again.

    An instance of an equinox module, a ``flax.struct`` or a registered
    dataclass hashes its fields, so one whose ``__init__`` stores
    ``self.channel_map = slice(start, stop)`` (slices hash only from Python
    3.12) or a list fails the same way. The field then holds a tuple: the
    slice's arguments, each ``x[self.channel_map]`` becoming
    ``x[slice(*self.channel_map)]``; or the list's elements, where every
    read only indexes, iterates, measures or tests ``in``. Reported where
    code outside the class's methods reads the field.

    A value inside that cannot be followed makes the fix unsafe. A config
    built at run time (loaded from JSON, YAML or TOML, ``vars(args)``,
    returned by a function) is reported; with ``--unsafe-fixes`` it is frozen
    at the call with the library's deep freeze (``frozendict.deepfreeze``,
    ``flax.core.freeze``, ``FrozenConfigDict``). ``frozendict.deepfreeze`` is
    used only for plain data: it turns functions and other objects into
    frozendicts of their attributes.

    A name bound again in straight-line code (``layers = [0, 2]``, calls,
    ``layers = [1, 3]``, more calls; jax#4712) is followed to the binding each
    call sees, and each list is frozen where it is written. A tree whose every
    leaf is an array (``jax.tree_util.tree_map(np.asarray, item)``, returned
    by a method of the adapter: google-research#1025) has no hashable form: it
    stops being static where nothing in the jitted function needs it concrete.
    """

    code = CODE
    name = "unhashable-static-arg"
    summary = "a dict, list, set or namespace reaches a static parameter of a jitted function"
    required = (("static_argnums", "static_argnames", "static_broadcasted_argnums", STATIC_JITTED),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Calls that may hand something unhashable to a static parameter."""
        slots = facts.static_slots
        lines = lines_mentioning(facts, slots) | set(facts.static_lines)
        out: list[ast.AST] = []
        for call in calls_on(facts, lines):
            if isinstance(call.func, ast.Call) and has_static_keyword(call.func):
                where: list = [None]  # an inline jit
            else:
                where = facts.slots_for_call(call)
            stars = any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)
            for slot in where:
                if stars:  # where `*`/`**` land is unknown; a named keyword lands by name (`call_binding`)
                    arguments = [k.value for k in call.keywords if k.arg is not None and (slot is None or k.arg in slot.names)]
                else:
                    arguments = [*call.args, *(k.value for k in call.keywords)] if slot is None else slot.arguments(call)
                if any(may_hold_unhashable(facts, call, a) for a in arguments):
                    out.append(call)
                    break
        if "static_broadcasted_argnums" in facts.text:
            return [facts.tree]  # pmap's static arguments (`pmap_statics`): rare enough to analyse whole
        return out or instance_fields.seeds(facts) or nnx_graphdef.seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [
            *FrozenConfigs(analysis).findings(),
            *instance_fields.unhashable_field_findings(analysis),
            *nnx_graphdef.graphdef_list_findings(analysis),
        ]

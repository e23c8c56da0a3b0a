"""JAX202 array-in-static-field: a static field of a pytree dataclass is given an array.

A field declared static (``struct.field(pytree_node=False)``,
``eqx.field(static=True)``, ``dataclasses.field(metadata=dict(static=True))``
under ``register_dataclass``: `pytree_classes`) is part of the tree's structure.
jit finds a compiled function by comparing the structure of its arguments with
``==``, and an array's ``==`` is elementwise, no bool: the second call with
another instance fails with ``ValueError: Exception raised while checking
equality of metadata fields of pytree ... (Note: arrays cannot be passed as
metadata fields!)``; even the same array object fails (docs/jax306-behaviour.md,
P5). The maintainers' answer (jax#24204, jax#7826, equinox#746) is to make the
field an ordinary one: a leaf, traced like the others, which the fix writes by
removing the static declaration.

The finding needs one value the module gives the field to be an array
(`field_values`, `array_values`): a construction's argument, the default, a
``self.f = ...`` of an equinox ``__init__``. The fix is

* safe when the array then works as a leaf and nothing sees the change: no read
  of the field needs a concrete value (`concrete_uses`: a NumPy call, a shape,
  ``int()``), and every instance is only read field by field, directly or inside
  a function called plainly or through ``jax.jit`` alone (`instance_uses`);
* unsafe when an instance goes elsewhere (``tree_map``, ``jax.grad``, ``vmap``,
  ``eqx.filter_jit``, a return): each would now see one more leaf;
* a report when a read needs the value concrete (the array was meant to stay
  out of the trace: keep a hashable form such as a tuple, or close over it), or
  the declaration is one the fix does not rewrite.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.field_lists import move_field
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.rules.jax202_array_in_static_field.aux_data import aux_data_findings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.class_hashing import instance_class
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.expected_errors import expected_failure
from jaxfix.transforms.semantics.field_values import GivenValue, field_values
from jaxfix.transforms.semantics.instance_uses import only_fields_read
from jaxfix.transforms.semantics.python_values import NotStatic, python_value
from jaxfix.transforms.semantics.pytree_classes import (
    EQUINOX_STATIC_FIELD,
    FIELD,
    JAX_TREE_STATIC,
    PytreeClass,
    PytreeField,
    instance_class_of,
    pytree_class,
    static_argument,
)
from jaxfix.transforms.semantics.static_instances import static_instances

CODE = "JAX202"


class ArraysInStaticFields202:
    """One module's JAX202 findings: per static field, the first array it is given."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for cls in self.ctx.nodes_of(cst.ClassDef):
            tree = pytree_class(self.ctx, cls)
            if tree is None:
                continue
            for field in tree.fields:
                if not field.static or (field.field_call is None and tree.lists is None):
                    continue
                given = self._first_array(tree, field)
                if given is not None:
                    out.append(self._finding(tree, field, *given))
        return out

    def _first_array(self, tree: PytreeClass, field: PytreeField) -> tuple[GivenValue, str] | None:
        """The first value given the field that is an array, or holds one; with what shows it."""
        for given in field_values(self.ctx, tree, field).given:
            if expected_failure(self.ctx, given.site) is not None:
                continue  # a test builds it to watch the library object (equinox's `pytest.warns`)
            origin = array_origin(self.analysis, given.value)
            if origin is not None:
                return given, f"an array ({origin})"
            value = python_value(self.analysis, given.value)
            if isinstance(value, NotStatic) and value.certain and "array" in value.reason:
                return given, f"which holds an array ({value.reason})"
            held = self._held_by_instance(given.value)
            if held is not None:
                return given, f"which holds {held}"
        return None

    def _held_by_instance(self, expr: cst.BaseExpression) -> str | None:
        """An instance of a pytree class of the module built with an array or a tracer
        (``StaticModule(a=static[0])`` inside ``eqx.filter_vmap``: equinox#312): what it holds."""
        built = instance_class(self.ctx, expr)
        if built is None or pytree_class(self.ctx, built[0]) is None:
            return None
        for arg in built[1].args:
            if arg.star:
                return None
            code = shorten(self.ctx.code(arg.value), 40)
            origin = array_origin(self.analysis, arg.value)
            if origin is not None:
                return f"an array (`{code}`: {origin})"
            source = self.analysis.traced.tracer_source(arg.value)
            if source is not None:
                return f"a tracer (`{code}`: {source.reason})"
        return None

    def _finding(self, tree: PytreeClass, field: PytreeField, given: GivenValue, origin: str) -> Finding:
        ctx = self.ctx
        anchor = field.field_call if field.field_call is not None else _listed_name(tree, field.name)
        value = f"`{shorten(ctx.code(given.value))}`"
        gives = f"{given.described} sets it to {value}" if isinstance(given.site, cst.Assign) else f"{given.described} gives it {value}"
        if origin.startswith("which holds a tracer"):
            why = (
                "a static field is part of the tree's structure, not a traced leaf, so the tracer leaves the "
                "transform that made it: `UnexpectedTracerError` (equinox#312)"
            )
        else:
            why = (
                "jit compares static fields with `==` to find a compiled function, and an array's `==` is no "
                "bool: `ValueError: Exception raised while checking equality of metadata fields of pytree` at a "
                "second call"
            )
        head = (
            f"`{field.name}` is a static field of `{tree.cls.name.value}` ({tree.style.described}), but "
            f"{gives}, {origin}; {why}"
        )
        plan = self._hashed_elsewhere(tree, given) or self._plan(tree, field)
        options = (
            "make it an ordinary field (a leaf jit traces) where the traced code can take an array",
            "or keep it static in a hashable form (a tuple of numbers), or close over the array instead",
        )
        if isinstance(plan, str):
            return ctx.finding(CODE, anchor, f"{head}; not rewritten: {plan}", notes=options)
        edits, declaration = plan
        whole = only_fields_read(self.analysis, tree.cls, frozenset(f.name for f in tree.fields))
        message = f"{head}; make it an ordinary field: `{declaration}`"
        if whole is None:
            notes = ("every instance is only read field by field, so no tree operation sees the new leaf",)
            return ctx.finding(CODE, anchor, message, edits, Applicability.SAFE,
                               description="make the field an ordinary one", notes=notes)
        notes = (
            f"unsafe: {whole}; a tree operation, `grad` or `vmap` given an instance now sees `{field.name}` as a leaf",
        )
        return ctx.finding(CODE, anchor, message, edits, Applicability.UNSAFE,
                           description="make the field an ordinary one", notes=notes)

    # -- the fix ---------------------------------------------------------------------
    def _plan(self, tree: PytreeClass, field: PytreeField) -> tuple[tuple[Edit, ...], str] | str:
        """The edits that remove the static declaration, and the declaration as it will read."""
        ctx = self.ctx
        need = self._needed_concrete(tree, field)
        if need is not None:
            return need
        if tree.lists is not None:
            return move_field(ctx, tree.lists, field.name, to_meta=False)
        call = field.field_call
        assert call is not None
        if any(a.star for a in call.args):
            return f"`{shorten(ctx.code(call))}` passes arguments jaxfix cannot list"
        called = ctx.names.qualified_name(call.func)
        style = tree.style
        if called == EQUINOX_STATIC_FIELD:
            kept = list(call.args)
            if kept:
                return "its `static_field(...)` has arguments an ordinary field would need spelled another way"
        elif called == JAX_TREE_STATIC:
            kept = list(call.args)
            if kept:
                return "its `jax.tree.static(...)` has arguments an ordinary field would need spelled another way"
        elif called == style.field_function and style.static_keyword is not None:
            given = static_argument(call, style)
            kept = [a for a in call.args if a.value is not given]
        elif called == FIELD:
            metadata = next(a for a in call.args if a.keyword is not None and a.keyword.value == "metadata")
            if not _only_the_static_key(metadata.value, style.metadata_key):
                return "its `metadata` holds more than the static declaration"
            kept = [a for a in call.args if a is not metadata]
        else:
            return f"it is declared by `{ctx.code(call.func)}`, which jaxfix does not rewrite"
        statement = field.statement
        target = f"{field.name}: {ctx.code(statement.annotation.annotation)}"
        if not kept:
            return (Edit(ctx.end(statement.annotation), ctx.end(call), ""),), target
        value = f"{ctx.code(call.func)}({', '.join(ctx.code(a).rstrip(', ') for a in kept)})"
        return (ctx.replace(call, value),), f"{target} = {value}"

    def _hashed_elsewhere(self, tree: PytreeClass, given: GivenValue) -> str | None:
        """The class, or the instance the field is given, also goes to a static parameter of a jit,
        which hashes it: an ordinary field mends nothing there (JAX403's finding, pymdp#346)."""
        held = instance_class(self.ctx, given.value)
        classes = {id(tree.cls), id(held[0])} if held is not None else {id(tree.cls)}
        for found in static_instances(self.analysis):
            if id(found.cls) in classes:
                line = self.ctx.span(found.call).start.line
                return f"`{self.ctx.code(found.given)}` also goes to the static parameter `{found.param}` of the jitted `{found.function.name.value}` (line {line}), which hashes it"
        return None

    def _needed_concrete(self, tree: PytreeClass, field: PytreeField) -> str | None:
        """A read of the field that a traced array would not support: any read by that name, but
        those of an object the module shows is of another class (``self.a`` in another class)."""
        uses = ConcreteUses(self.ctx)
        for read in self.ctx.attributes_named(field.name):
            fn = self.ctx.enclosing_function(read)
            if fn is None:
                continue
            other = instance_class_of(self.ctx, read.value)
            if other is not None and other is not tree.cls:
                continue
            use = uses.need_of(read, fn)
            if use is not None and use.need is Need.NEEDS:
                return f"{use.reason}, which a traced leaf would not support"
        return None


def _listed_name(tree: PytreeClass, name: str) -> cst.CSTNode:
    """The string naming the field in ``meta_fields``: where a finding on a listed field points."""
    assert tree.lists is not None
    return next(e.value for e in tree.lists.meta.elements if e.value.evaluated_value == name)  # type: ignore[union-attr]


def _only_the_static_key(metadata: cst.BaseExpression, key: str) -> bool:
    if isinstance(metadata, cst.Call):
        return len(metadata.args) == 1 and metadata.args[0].keyword is not None and metadata.args[0].keyword.value == key
    if isinstance(metadata, cst.Dict):
        return len(metadata.elements) == 1
    return False


class ArrayInStaticField202(Rule):
    """A static field of a pytree dataclass is given an array, which jit cannot compare.

    A static field (``struct.field(pytree_node=False)`` in a flax struct,
    ``eqx.field(static=True)`` in an equinox module, ``metadata=dict(static=True)``
    under ``register_dataclass``) is part of the pytree's structure, which jit
    compares with ``==`` to find a compiled function. An array's ``==`` is
    elementwise, so the second call fails::

        @struct.dataclass
        class Foo:
            scale: jax.Array
            bar: jax.Array = struct.field(pytree_node=False)

        jit_step = jax.jit(step)
        for i in range(2):
            params = Foo(scale=jnp.float32(i + 1), bar=jnp.arange(4))
            jit_step(params)   # i = 1: ValueError: Exception raised while checking
                               # equality of metadata fields of pytree

    The fix makes it an ordinary field, a leaf jit traces::

            bar: jax.Array

    It is safe when no read of the field needs a concrete value and every
    instance is only read field by field (directly, or in functions called
    plainly or through ``jax.jit``); unsafe when an instance goes where a tree
    operation, ``grad`` or ``vmap`` would see the new leaf; a report when the
    traced code needs the array concrete (keep a tuple, or close over it).

    A class with its own flatten function (``tree_flatten``, or the function
    ``register_pytree_node`` names) keeps its static part in the aux_data it
    returns: an attribute there that a construction gives an array of two
    elements or more (a raw ``PRNGKey`` is one; jax#14718) fails the same way.
    Where flatten returns it as the whole aux_data (or a tuple of it alone,
    jax#28659) and the unflatten reads it once and its children by index or
    one whole unpacking, it moves among the children (unsafe: it becomes a
    traced leaf); otherwise it is reported (`aux_data`).
    """

    code = CODE
    name = "array-in-static-field"
    summary = "a static field of a pytree dataclass (register_dataclass, flax.struct, equinox) is given an array"
    required = (
        ("register_dataclass", "struct", "PyTreeNode", "equinox", "register_pytree_node"),
        ("static", "pytree_node", "meta_fields"),
    )
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The whole module, when it may declare a static field (the constructions may be anywhere)."""
        return [facts.tree]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [*ArraysInStaticFields202(analysis).findings(), *aux_data_findings(analysis)]

"""JAX403 for an object jit hashes whose own ``__hash__`` hashes an array attribute.

A static argument is hashed to key jit's cache. An object of a class with its own ``__hash__``
(``hash((self.x, self.mul))``) is hashable only while every attribute that hash reads is: a
construction that gives ``self.x`` an array makes the call fail, "Non-hashable static arguments
are not supported ... unhashable type: 'jaxlib._jax.ArrayImpl'" (jax#39858: a method jitted with
``static_argnums=0`` hashes ``self``). A class with its own ``__hash__`` is reported, never
rewritten: the ways out are a redesign (register the class as a pytree, the array a child and the
rest aux data, and jit without ``static_argnums``; or keep a hashable form of the array), and which
one the class's other code allows is for a person. An instance of a pytree class already (a
registered or ``flax.struct`` dataclass, an ``equinox.Module``) whose arrays sit in data fields
needs no redesign: it leaves the static arguments and traces (tinygp#57's kernel), where nothing
needs it concrete.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.traced_parameter import entered_jit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.field_values import given_by
from jaxfix.transforms.semantics.instance_attributes import constructed_value, receiver_reads
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.pytree_classes import method_named, pytree_class
from jaxfix.transforms.semantics.static_instances import StaticInstance, static_instances


def seeds(facts: Facts) -> list[ast.AST]:
    """The module, when a class of it may hash its own fields or define ``__hash__`` (its
    constructions and the jitted calls may be anywhere): over-approximated by spelling."""
    words = ("__hash__", "Module", "struct", "dataclass")
    return [facts.tree] if any(w in facts.text for w in words) else []


def hashed_array_findings(analysis: Analysis) -> Iterator[Finding]:
    ctx = analysis.ctx
    seen: set[int] = set()
    for found_instance in static_instances(analysis):
        cls, made, given = found_instance.cls, found_instance.made, found_instance.given
        if id(made) in seen:
            continue
        found = _hashed_array(analysis, cls, made)
        if found is None:
            continue
        seen.add(id(made))
        hashed, value, origin = found
        head = (
            f"`{found_instance.param}` is static on the jit of `{found_instance.function.name.value}`, so jit hashes "
            f"`{ctx.code(given)}`, a `{cls.name.value}`, {hashed}; `{shorten(ctx.code(made), 60)}` "
            f"(line {ctx.span(made).start.line}) gives it `{shorten(ctx.code(value), 40)}` ({origin}), and no array "
            "is hashable"
        )
        traced = _made_traced(analysis, found_instance, head)
        if traced is not None:
            yield traced
            continue
        yield ctx.finding(
            "JAX403",
            found_instance.call,
            f"{head}; not rewritten: the class must change",
            notes=(
                f"option: register `{cls.name.value}` as a pytree (the array a child, the rest aux data) and jit "
                "without the static argument: the array is then traced",
                "option: keep a hashable form where the hash reads it (a tuple of Python numbers), when the code "
                "needs it static",
            ),
        )


def _made_traced(analysis: Analysis, found: StaticInstance, head: str) -> Finding | None:
    """A pytree class's instance (an ``equinox.Module``, a ``flax.struct`` or registered dataclass)
    whose array is a data field traces as it is: its arrays become tracers, its static fields stay
    Python values. The parameter leaves the static arguments (`StaticEditor.drop`) when its class
    is such a pytree, every array it is given sits in a data field, nothing in the function needs
    it concrete (`ConcreteUses`: a use we cannot follow makes the fix unsafe), and, for a method,
    the receiver is traced already or static (a plain object there would fail to trace)."""
    ctx = analysis.ctx
    tree = pytree_class(ctx, found.cls)
    if tree is None or method_named(found.cls, "__hash__") is not None:
        return None
    for field in tree.fields:
        value = given_by(found.made, tree, field)
        if isinstance(value, cst.BaseExpression) and array_origin(analysis, value) is not None and field.static:
            return None  # an array in a static field stays hashed: JAX202's, the class must change
    fn = found.function
    entry = entered_jit(analysis, fn)
    if entry is None or entry.wrapper.spec is None or entry.wrapper.call is None:
        return None
    info = function_info(ctx, fn)
    if info.method is MethodKind.INSTANCE and info.signature.params:
        receiver = info.signature.params[0].name
        owner = ctx.parent(ctx.parent(fn))
        static = receiver in entry.wrapper.spec.declared_static(info.signature)
        if not static and not (isinstance(owner, cst.ClassDef) and pytree_class(ctx, owner) is not None):
            return None  # jax#17158: the receiver would be traced too, and may be no pytree
    elif info.method is MethodKind.CLASS:
        return None
    use = ConcreteUses(ctx).first_need(fn, found.param)
    if use is not None and use.need is Need.NEEDS:
        return None
    edit = StaticEditor(ctx).drop(entry.wrapper, entry.node, info.signature, found.param)
    if isinstance(edit, str):
        return None
    notes = [f"`{found.cls.name.value}` is a pytree: its arrays are traced, its static fields stay Python values"]
    if use is not None:
        notes.insert(0, f"unsafe: {use.reason}; if it needs `{found.param}` concrete, the traced value fails there")
    return ctx.finding(
        "JAX403",
        found.call,
        f"{head}; the class is a pytree and nothing in `{info.name}` needs `{found.param}` concrete, so it becomes a "
        "regular (traced) argument",
        edit.edits,
        Applicability.UNSAFE if use is not None else Applicability.SAFE,
        description=f"make `{found.param}` a traced argument of `{info.name}`",
        notes=tuple(notes),
    )


def _hashed_array(analysis: Analysis, cls: cst.ClassDef, made: cst.Call) -> tuple[str, cst.BaseExpression, str] | None:
    """(what the hash reads, said for the message; the value the construction gives it; why it is
    an array): a read in the class's own ``__hash__``, or a field of a pytree dataclass (hashed
    field by field: equinox, flax.struct, a frozen registered dataclass)."""
    ctx = analysis.ctx
    tree = pytree_class(ctx, cls)
    if tree is not None and method_named(cls, "__hash__") is None:
        for field in tree.fields:
            value = given_by(made, tree, field)
            origin = array_origin(analysis, value) if isinstance(value, cst.BaseExpression) else None
            if origin is not None:
                return f"{tree.style.described}, which hashes its field `{field.name}`", value, origin  # type: ignore[return-value]
        return None
    hashing = method_named(cls, "__hash__")
    init = method_named(cls, "__init__")
    if hashing is None or init is None:
        return None
    for read in receiver_reads(hashing, hashing.body):
        value = constructed_value(ctx, init, made, read.attr.value)
        origin = array_origin(analysis, value) if value is not None else None
        if origin is not None:
            return f"whose `__hash__` hashes `{ctx.code(read)}`", value, origin  # type: ignore[return-value]
    return None

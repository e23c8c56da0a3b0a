"""JAX201 for an instance jit hashes whose ``__init__`` stores a slice or a list in a field.

An equinox module, a ``flax.struct`` or a frozen registered dataclass hashes field by field, so
an instance handed to a static parameter fails at the call when ``__init__`` stores
``self.channel_map = slice(start, stop)`` (slices hash only from Python 3.12) or ``self.sizes =
[...]``: "Non-hashable static arguments are not supported ... unhashable type: 'slice'"
(scarlet2#188, where the renderer was a static argument of a jitted likelihood). The field then
holds a tuple, which hashes:

* ``self.f = slice(a, b)`` becomes ``self.f = (a, b)``, and each read ``x[self.f]`` becomes
  ``x[slice(*self.f)]``: the same slice, built where it indexes;
* ``self.f = [a, b]`` becomes ``self.f = (a, b)``, when every read only indexes it, iterates it,
  takes its ``len`` or tests ``in``: what a tuple does alike;
* an annotation ``f: slice`` or ``f: list`` says ``tuple``.

Proven only where the module shows every read: ``__init__``'s one statement stores the field;
every other ``.f`` of the module is ``self.f`` read in a method of the class, in one of the
shapes above; the class is subclassed nowhere here and no other module of the project uses it.
Anything else is reported with the same way out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.class_hashing import subclass_of
from jaxfix.transforms.semantics.importers import module_using
from jaxfix.transforms.semantics.instance_attributes import stored_value
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import PytreeClass, PytreeField, method_named, pytree_class
from jaxfix.transforms.semantics.static_instances import StaticInstance, static_instances

#: ``self.x = slice(`` or ``self.x = [``: what the screen looks for before the analysis runs.
_STORE = re.compile(r"self\.\w+\s*=\s*(slice\(|\[)")
#: Slices hash from this Python on (CPython 3.12 made them hashable).
_SLICES_HASH = (3, 12)


def seeds(facts: Facts) -> list[ast.AST]:
    """The module, when a method may store a slice or a list in ``self`` (the instance may reach a
    static parameter anywhere in it)."""
    return [facts.tree] if _STORE.search(facts.text) else []


def unhashable_field_findings(analysis: Analysis) -> Iterator[Finding]:
    ctx = analysis.ctx
    seen: set[tuple[int, str]] = set()
    for instance in static_instances(analysis):
        tree = pytree_class(ctx, instance.cls)
        init = method_named(instance.cls, "__init__")
        if tree is None or init is None or method_named(instance.cls, "__hash__") is not None:
            continue
        for field in tree.fields:
            value = stored_value(init, field.name)
            kind = _unhashable_kind(ctx, value) if value is not None else None
            if kind is None or (id(instance.cls), field.name) in seen:
                continue
            seen.add((id(instance.cls), field.name))
            yield _finding(analysis, instance, tree, field, value, kind)  # type: ignore[arg-type]


def _unhashable_kind(ctx: ModuleContext, value: cst.BaseExpression) -> str | None:
    """"slice" for ``slice(...)`` (when the target Python cannot hash one), "list" for a list display."""
    if isinstance(value, cst.List):
        return "list"
    if (
        isinstance(value, cst.Call)
        and ctx.names.qualified_name(value.func) == "builtins.slice"
        and ctx.options.target_version < _SLICES_HASH
    ):
        return "slice"
    return None


def _finding(
    analysis: Analysis, instance: StaticInstance, tree: PytreeClass, field: PytreeField, value: cst.BaseExpression, kind: str
) -> Finding:
    ctx = analysis.ctx
    cls = instance.cls.name.value
    why = (
        f"a slice, which Python hashes only from 3.12 (the target is {'.'.join(map(str, ctx.options.target_version))})"
        if kind == "slice"
        else "a list, which Python cannot hash"
    )
    head = (
        f"`{instance.param}` is static on the jit of `{instance.function.name.value}`, so jit hashes "
        f"`{shorten(ctx.code(instance.given), 40)}`, a `{cls}` ({tree.style.described}, which hashes its field "
        f"`{field.name}`); `__init__` stores `{shorten(ctx.code(value), 40)}` there (line {ctx.span(value).start.line}), {why}"
    )
    edits = _tuple_field(analysis, instance.cls, tree, field, value, kind)
    note = (
        f"option: store a tuple (`{_as_tuple(ctx, value, kind)}`) and build the slice where it indexes (`slice(*self.{field.name})`)"
        if kind == "slice"
        else "option: store a tuple, which indexes, iterates and measures as the list does"
    )
    if isinstance(edits, str):
        return ctx.finding("JAX201", value, f"{head}; not rewritten: {edits}", notes=(note,))
    tail = (
        f"so the field holds the tuple `{_as_tuple(ctx, value, kind)}` and each read builds the slice from it"
        if kind == "slice"
        else "so the field holds a tuple, which every read uses as it used the list"
    )
    return ctx.finding(
        "JAX201",
        value,
        f"{head}; {tail}",
        edits,
        description=f"store `{field.name}` as a tuple",
    )


def _as_tuple(ctx: ModuleContext, value: cst.BaseExpression, kind: str) -> str:
    """The tuple holding what `value` holds: the slice's arguments, or the list's elements."""
    if kind == "slice":
        parts = [ctx.code(a.value) for a in value.args]  # type: ignore[attr-defined]
    else:
        parts = [ctx.code(e.value) for e in value.elements]  # type: ignore[attr-defined]
    return f"({parts[0]},)" if len(parts) == 1 else f"({', '.join(parts)})"


def _tuple_field(
    analysis: Analysis, cls: cst.ClassDef, tree: PytreeClass, field: PytreeField, value: cst.BaseExpression, kind: str
) -> tuple[Edit, ...] | str:
    """The edits storing a tuple and adapting each read; else why the module does not show them all."""
    ctx = analysis.ctx
    if kind == "slice" and (any(a.star or a.keyword for a in value.args) or not value.args):  # type: ignore[attr-defined]
        return "the slice is built from `*` arguments"
    if kind == "list" and any(isinstance(e, (cst.StarredElement,)) for e in value.elements):  # type: ignore[attr-defined]
        return "the list is built with `*`"
    problem = class_shared(ctx, cls)
    if problem is not None:
        return problem
    edits = [ctx.replace(value, _as_tuple(ctx, value, kind))]
    for node in ctx.attributes_named(field.name):
        if _is_the_store(ctx, node, value):
            continue
        if receiver_class(ctx, node.value) is not cls:
            return f"`{shorten(ctx.code(node), 40)}` (line {ctx.span(node).start.line}) reads `{field.name}` outside the methods of `{cls.name.value}`, where the module does not show what it does with a tuple"
        read = _read_edit(ctx, node, kind)
        if isinstance(read, str):
            return read
        if read is not None:
            edits.append(read)
    annotation = field.statement.annotation.annotation
    if isinstance(annotation, cst.Name) and annotation.value in ("slice", "list"):
        edits.append(ctx.replace(annotation, "tuple"))
    return tuple(edits)


def tuple_read(ctx: ModuleContext, node: cst.Attribute) -> str | None:
    """Why a read ``self.f`` of a list may tell a tuple from it; None when a tuple reads alike."""
    found = _read_edit(ctx, node, "list")
    return found if isinstance(found, str) else None


def _is_the_store(ctx: ModuleContext, node: cst.Attribute, value: cst.BaseExpression) -> bool:
    target = ctx.parent(node)
    assign = ctx.parent(target) if isinstance(target, cst.AssignTarget) else None
    return isinstance(assign, cst.Assign) and assign.value is value


def _read_edit(ctx: ModuleContext, node: cst.Attribute, kind: str) -> Edit | None | str:
    """The edit of one read ``self.f`` (None: it reads a tuple alike); why not, when it may not."""
    where = f"`{shorten(ctx.code(ctx.parent(node)), 40)}` (line {ctx.span(node).start.line})"
    parent = ctx.parent(node)
    if isinstance(parent, cst.AssignTarget) or isinstance(parent, (cst.AugAssign, cst.Del)):
        return f"{where} assigns the field"
    if kind == "slice":
        element = ctx.parent(parent) if isinstance(parent, cst.Index) else None
        if isinstance(element, cst.SubscriptElement) and isinstance(ctx.parent(element), cst.Subscript):
            return ctx.replace(node, f"slice(*{ctx.code(node)})")
        return f"{where} uses the slice other than as an index"
    if isinstance(parent, cst.Subscript) and parent.value is node:
        return None
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
        return None  # a loop or a comprehension iterates a tuple as the list
    if isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.In, cst.NotIn)):
        return None
    if isinstance(parent, cst.Arg):
        call = ctx.parent(parent)
        if parent.star == "*" or (
            isinstance(call, cst.Call) and ctx.names.qualified_name(call.func) in ("builtins.len", "builtins.tuple")
        ):
            return None
    return f"{where} may tell a tuple from the list"


def class_shared(ctx: ModuleContext, cls: cst.ClassDef) -> str | None:
    """Why code the module does not show may read the field: a subclass, another module."""
    name = cls.name.value
    other = subclass_of(ctx, cls)
    if other is not None:
        return f"`{other.name.value}` subclasses `{name}`"
    module = module_using(ctx, name)
    return f"`{module}` uses `{name}` too, and may read the field" if module is not None else None

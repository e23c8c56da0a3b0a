"""Freeze a dataclass whose instances reach a static parameter: ``@dataclass`` -> ``@dataclass(frozen=True)``.

A plain dataclass compares by value and so cannot hash (``eq=True`` sets
``__hash__ = None``); frozen, it hashes by its fields, and equal configs share
one compile (docs/jax302-behaviour.md). Freezing changes one other thing:
assigning to a field raises ``FrozenInstanceError``. So the fix is proven only
where nothing can assign one:

* the decorator is the standard library's ``dataclass`` with literal options,
  not ``eq=False`` (that one hashes by identity already), not frozen yet;
* the class has no base class and no subclass here (a frozen dataclass and a
  non-frozen one cannot inherit from each other), and no other module of the
  project uses it;
* no method of the class assigns an attribute of ``self`` (``__post_init__``
  included), and no code of the module assigns, augments, deletes or
  ``setattr``s an attribute named like one of its fields;
* every field hashes: no ``field(default_factory=...)``, and every call that
  builds one passes hashable Python values (`semantics.python_values`).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import subclass_of
from jaxfix.transforms.semantics.importers import module_using
from jaxfix.transforms.semantics.python_values import NotStatic, python_value


@dataclass(frozen=True)
class FrozenClass:
    edits: tuple[Edit, ...]
    #: The decorator as it reads after the edit.
    decorator: str


def plan_frozen_dataclass(analysis: Analysis, cls: cst.ClassDef) -> FrozenClass | str:
    """The edit freezing `cls`, or why freezing it is not proven harmless."""
    ctx = analysis.ctx
    name = cls.name.value
    decorators = [d for d in cls.decorators if _is_dataclass(ctx, d.decorator)]
    if len(decorators) != 1 or len(cls.decorators) != 1:
        return f"`{name}` has decorators besides one `dataclass`"
    decorator = decorators[0].decorator
    if isinstance(decorator, cst.Call) and any(a.keyword is None for a in decorator.args):
        return f"`{ctx.code(decorator)}` takes arguments that cannot be read"
    if cls.bases or cls.keywords:
        return f"`{name}` has a base class, whose fields and methods we cannot see"
    fields = _fields(cls)
    if fields is None:
        return f"a field of `{name}` is built by `field(...)`, which may give each instance a list or dict"
    problem = _assigned_somewhere(analysis, cls, fields) or _subclassed(ctx, cls) or _used_elsewhere(ctx, name)
    if problem is not None:
        return problem
    for call in _constructions(ctx, cls):
        for arg in call.args:
            value = python_value(analysis, arg.value)
            if isinstance(value, NotStatic) or arg.star:
                line = ctx.span(call).start.line
                why = value.reason if isinstance(value, NotStatic) else "it unpacks its arguments"
                return f"`{ctx.code(call)}` (line {line}) gives it a value not proven hashable: {why}"
    if isinstance(decorator, cst.Call):
        text = ctx.code(decorator)
        inner = text[: text.rindex(")")].rstrip()
        joined = f"{inner}frozen=True)" if inner.endswith("(") else f"{inner}, frozen=True)"
        new = joined
    else:
        new = f"{ctx.code(decorator)}(frozen=True)"
    return FrozenClass((ctx.replace(decorator, new),), f"@{new}")


def _is_dataclass(ctx, expr: cst.BaseExpression) -> bool:
    head = expr.func if isinstance(expr, cst.Call) else expr
    return ctx.names.qualified_name(head) == "dataclasses.dataclass"


def _fields(cls: cst.ClassDef) -> set[str] | None:
    """The names the class body annotates; None when one is a ``field(...)`` call."""
    out: set[str] = set()
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for line in body:
        if not isinstance(line, cst.SimpleStatementLine):
            continue
        for small in line.body:
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                value = small.value
                if isinstance(value, cst.Call):
                    return None
                out.add(small.target.value)
    return out


def _assigned_somewhere(analysis: Analysis, cls: cst.ClassDef, fields: set[str]) -> str | None:
    ctx = analysis.ctx
    name = cls.name.value
    for node in ctx.nodes_of(cst.Attribute):
        parent = ctx.parent(node)
        target = None
        if isinstance(parent, cst.AssignTarget) and parent.target is node:
            target = parent
        elif isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is node:
            target = parent
        elif isinstance(parent, cst.Del):
            target = parent
        if target is None:
            continue
        inside = any(a is cls for a in ctx.ancestors(node))
        if node.attr.value in fields or (inside and isinstance(node.value, cst.Name) and node.value.value == "self"):
            line = ctx.span(node).start.line
            return f"`{ctx.code(node)}` is assigned on line {line}, which a frozen `{name}` would refuse"
    for call in ctx.calls:
        if ctx.names.qualified_name(call.func) in ("builtins.setattr", "builtins.delattr", "object.__setattr__"):
            line = ctx.span(call).start.line
            return f"`{ctx.code(call.func)}(...)` on line {line} may assign a field, which a frozen `{name}` would refuse"
    return None


def _subclassed(ctx, cls: cst.ClassDef) -> str | None:
    other = subclass_of(ctx, cls)
    if other is None:
        return None
    return f"`{other.name.value}` subclasses `{cls.name.value}`, and frozen and non-frozen dataclasses cannot inherit from each other"


def _used_elsewhere(ctx, name: str) -> str | None:
    module = module_using(ctx, name)
    return f"`{module}` uses `{name}` too, and could assign its fields" if module is not None else None



def _constructions(ctx, cls: cst.ClassDef) -> list[cst.Call]:
    scope = ctx.scope(cls)
    if scope is None:
        return []
    out: list[cst.Call] = []
    for assignment in scope.assignments[cls.name.value]:
        for access in assignment.references:
            parent = ctx.parent(access.node)
            if isinstance(parent, cst.Call) and parent.func is access.node:
                out.append(parent)
    return out

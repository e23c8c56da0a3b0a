"""How Python hashes instances of a class the module defines, and which values are instances.

A static argument is hashed: an instance of a class with neither ``__eq__``
nor a decorator hashes by identity; a frozen dataclass, or one with its own
``__hash__``, by value; a plain ``@dataclass`` (``eq=True`` sets ``__hash__ =
None``) or a class defining ``__eq__`` alone cannot hash at all
(docs/jax302-behaviour.md). A base class or decorator we cannot see leaves it
unknown.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.module import ModuleContext


def instance_class(ctx: ModuleContext, expr: cst.BaseExpression) -> tuple[cst.ClassDef, cst.Call] | None:
    """(the class, the call that builds it) when `expr` is ``Model(...)`` of a class this module
    defines, or a name bound once to such a call."""
    call = expr
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        call = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None  # type: ignore[assignment]
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name):
        return None
    cls = single_binding(ctx, call.func)
    return (cls, call) if isinstance(cls, cst.ClassDef) else None


#: Methods by which a class tells JAX it is a pytree or an array.
_JAX_PROTOCOL = frozenset({"__jax_array__", "tree_flatten", "tree_unflatten", "__array__", "__array_priority__"})


def plain_class(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """No base class, no decorator but a plain ``@dataclass``, no JAX protocol method, and its name
    never handed to a call (``register_pytree_node(Cls, ...)``): an instance is surely no pytree."""
    if cls.bases or any(
        ctx.names.qualified_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
        != "dataclasses.dataclass"
        for d in cls.decorators
    ):
        return False
    body = _body(cls)
    if any(isinstance(s, cst.FunctionDef) and s.name.value in _JAX_PROTOCOL for s in body):
        return False
    scope = ctx.scope(cls)
    if scope is None:
        return False
    for assignment in scope.assignments[cls.name.value]:
        for access in assignment.references:
            parent = ctx.parent(access.node)
            if isinstance(parent, cst.Arg):
                return False  # registered, or handed to code we cannot see
    return True


def class_hashing(ctx: ModuleContext, cls: cst.ClassDef, _depth: int = 0) -> str | None:
    """How Python hashes instances of `cls`: "hashed by identity", "hashed by value" (a frozen
    dataclass, its own ``__hash__``); None when it cannot (``__hash__ = None``); "" when unknown."""
    if _depth > 4:
        return ""
    dataclass_call = None
    for decorator in cls.decorators:
        expr = decorator.decorator
        head = expr.func if isinstance(expr, cst.Call) else expr
        if ctx.names.qualified_name(head) != "dataclasses.dataclass":
            return ""
        dataclass_call = expr
    methods = {
        stmt.name.value
        for stmt in _body(cls)
        if isinstance(stmt, cst.FunctionDef)
    }
    assigned = {
        target.target.value
        for line in _body(cls)
        if isinstance(line, cst.SimpleStatementLine)
        for small in line.body
        if isinstance(small, cst.Assign)
        for target in small.targets
        if isinstance(target.target, cst.Name)
    }
    if "__hash__" in assigned:
        return ""
    if "__hash__" in methods:
        return "hashed by value, by its own `__hash__`"
    for base in cls.bases:
        if base.keyword is not None:
            return ""
        value = base.value
        if isinstance(value, cst.Name) and value.value == "object" and ctx.names.qualified_name(value) == "builtins.object":
            continue
        parent = single_binding(ctx, value) if isinstance(value, cst.Name) else None
        if not isinstance(parent, cst.ClassDef):
            return ""
        inherited = class_hashing(ctx, parent, _depth + 1)
        if inherited is None or inherited == "":
            return inherited
    if dataclass_call is not None:
        options = _keyword_flags(dataclass_call)
        if options is None:
            return ""
        if options.get("unsafe_hash"):
            return "hashed by value (`unsafe_hash=True`)"
        if options.get("eq", True) is False:
            return "hashed by identity"
        return "hashed by value, a frozen dataclass" if options.get("frozen") else None
    if "__eq__" in methods:
        return None
    return "hashed by identity"


def unhashable_why(cls: cst.ClassDef) -> str:
    """Why instances of an unhashable class (`class_hashing` None) cannot hash."""
    if cls.decorators:
        return "a dataclass that is not frozen (`eq=True` sets `__hash__ = None`)"
    return "a class that defines `__eq__` without `__hash__`"


def _keyword_flags(decorator: cst.BaseExpression) -> dict[str, bool] | None:
    """``@dataclass(frozen=True, eq=False)`` -> {"frozen": True, "eq": False}; None: not literal."""
    if not isinstance(decorator, cst.Call):
        return {}
    out: dict[str, bool] = {}
    for arg in decorator.args:
        if arg.keyword is None:
            return None
        value = arg.value
        if not (isinstance(value, cst.Name) and value.value in ("True", "False")):
            if arg.keyword.value in ("frozen", "eq", "unsafe_hash"):
                return None
            continue
        out[arg.keyword.value] = value.value == "True"
    return out


def _body(cls: cst.ClassDef) -> list[cst.CSTNode]:
    body = cls.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []

"""Dataclasses registered as pytrees: which fields jit traces, and which it keeps static.

``jax.tree_util.register_dataclass`` over a ``@dataclasses.dataclass`` makes
each field a leaf that jit, vmap and the lax primitives trace, except a field
declared ``dataclasses.field(metadata=dict(static=True))``, which becomes part
of the tree's structure: hashed, compared, and handed to the code as the Python
value it is (docs/jax306-behaviour.md, P1). This module reads those classes
and says which class an expression's value is an instance of, where the
module shows it: ``self`` in a method, a parameter annotated with the class,
a name bound to ``Model(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.constants import constant_value, single_binding
from jaxfix.transforms.semantics.module import ModuleContext

REGISTER_DATACLASS = "jax.tree_util.register_dataclass"
DATACLASS = "dataclasses.dataclass"
FIELD = "dataclasses.field"


@dataclass(frozen=True)
class PytreeField:
    name: str
    #: The ``name: type = value`` line in the class body.
    statement: cst.AnnAssign
    #: What the field is given when a construction leaves it out (None: it must be given).
    default: cst.BaseExpression | None
    #: ``dataclasses.field(...)`` written as the value, if it is.
    field_call: cst.Call | None
    #: jit keeps it static (``metadata=dict(static=True)``).
    static: bool


@dataclass(frozen=True)
class PytreeClass:
    cls: cst.ClassDef
    #: Fields in declaration order (a positional construction fills them in this order).
    fields: tuple[PytreeField, ...]

    def field(self, name: str) -> PytreeField | None:
        return next((f for f in self.fields if f.name == name), None)


def pytree_class(ctx: ModuleContext, cls: cst.ClassDef) -> PytreeClass | None:
    """The class, when it is ``@register_dataclass`` over ``@dataclass`` with fields read from
    its own body (no base class: an inherited field would be missing)."""
    decorators = {_decorator_name(ctx, d): d.decorator for d in cls.decorators}
    register = decorators.get(REGISTER_DATACLASS)
    if register is None or DATACLASS not in decorators or cls.bases:
        return None
    if isinstance(register, cst.Call):
        return None  # `register_dataclass(data_fields=...)` names its fields itself
    fields: list[PytreeField] = []
    for line in cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ():
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
            continue
        statement = line.body[0]
        if not isinstance(statement, cst.AnnAssign) or not isinstance(statement.target, cst.Name):
            continue
        if _class_var(ctx, statement.annotation.annotation):
            continue
        value = statement.value
        call = value if isinstance(value, cst.Call) and ctx.names.qualified_name(value.func) == FIELD else None
        if call is None:
            fields.append(PytreeField(statement.target.value, statement, value, None, False))
            continue
        default = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "default"), None)
        fields.append(PytreeField(statement.target.value, statement, default, call, _static_metadata(ctx, call)))
    return PytreeClass(cls, tuple(fields))


def _decorator_name(ctx: ModuleContext, decorator: cst.Decorator) -> str | None:
    """``@dataclass`` and ``@dataclass(frozen=True)`` alike: the qualified name applied."""
    expr = decorator.decorator
    return ctx.names.qualified_name(expr.func if isinstance(expr, cst.Call) else expr)


def instance_class_of(ctx: ModuleContext, expr: cst.BaseExpression) -> cst.ClassDef | None:
    """The class of this module `expr` is an instance of, where the module shows it: ``self`` of an
    instance method or an instance the module builds (`callables.receiver_class`), or a parameter
    annotated with the class."""
    cls = receiver_class(ctx, expr)
    if cls is not None:
        return cls
    binding = single_binding(ctx, expr) if isinstance(expr, cst.Name) else None
    if isinstance(binding, cst.Param) and binding.annotation is not None:
        return _named_class(ctx, binding.annotation.annotation)
    return None


def _named_class(ctx: ModuleContext, expr: cst.BaseExpression) -> cst.ClassDef | None:
    """``Model`` or ``"Model"``: a class of this module bound once."""
    if isinstance(expr, cst.SimpleString):
        name = constant_value(ctx, expr)
        if not isinstance(name, str) or not name.isidentifier():
            return None
        cls = next((c for c in ctx.nodes_of(cst.ClassDef) if c.name.value == name), None)
        return cls if cls is not None and isinstance(ctx.parent(cls), cst.Module) and _defined_once(ctx, cls) else None
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        return binding if isinstance(binding, cst.ClassDef) else None
    return None


def _defined_once(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    return sum(1 for c in ctx.nodes_of(cst.ClassDef) if c.name.value == cls.name.value) == 1


def _static_metadata(ctx: ModuleContext, call: cst.Call) -> bool:
    metadata = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "metadata"), None)
    if isinstance(metadata, cst.Call) and ctx.names.qualified_name(metadata.func) == "builtins.dict":
        return any(a.keyword is not None and a.keyword.value == "static" and _true(a.value) for a in metadata.args)
    if isinstance(metadata, cst.Dict):
        return any(
            isinstance(e, cst.DictElement) and constant_value(ctx, e.key) == "static" and _true(e.value)
            for e in metadata.elements
        )
    return False


def _true(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "True"


def _class_var(ctx: ModuleContext, annotation: cst.BaseExpression) -> bool:
    """``ClassVar[...]``: a class attribute, not a field."""
    head = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    return (ctx.names.qualified_name(head) or "").endswith("ClassVar")

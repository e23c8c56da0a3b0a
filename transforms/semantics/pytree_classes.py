"""Dataclasses registered as pytrees: which fields jit traces, and which it keeps static.

Three spellings of one thing (docs/jax306-behaviour.md, P1, P2, P4):

* ``jax.tree_util.register_dataclass`` over a ``@dataclasses.dataclass``; a
  field is static when declared ``dataclasses.field(metadata=dict(static=True))``;
* ``@flax.struct.dataclass``, or a subclass of ``flax.struct.PyTreeNode``; static:
  ``flax.struct.field(pytree_node=False)``;
* a subclass of ``equinox.Module``; static: ``equinox.field(static=True)``.

Every other field is a leaf that jit, vmap and the lax primitives trace; a
static one is part of the tree's structure: hashed, compared, and handed to the
code as the Python value it is. `PytreeStyle` holds what differs between the
three: how a static field is declared, and how the fix declares one. This
module reads those classes and says which class an expression's value is an
instance of, where the module shows it: ``self`` in a method, a parameter
annotated with the class, a name bound to ``Model(...)``.

Only a class whose fields are all in its own body is read (the one base class
a library style needs, no other): an inherited field would be missing.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.callables import plain_def, receiver_class
from jaxfix.transforms.semantics.constants import assigned_value, constant_value, reaching_parameter, single_binding
from jaxfix.transforms.semantics.module import ModuleContext

REGISTER_DATACLASS = "jax.tree_util.register_dataclass"
DATACLASS = "dataclasses.dataclass"
FIELD = "dataclasses.field"
FLAX_DATACLASS = "flax.struct.dataclass"
FLAX_NODE = "flax.struct.PyTreeNode"
FLAX_FIELD = "flax.struct.field"
EQUINOX_MODULE = "equinox.Module"
EQUINOX_FIELD = "equinox.field"
EQUINOX_STATIC_FIELD = "equinox.static_field"
#: ``jax.tree.static(**field_kwargs)``: a ``dataclasses.field`` with ``metadata={"static": True}``.
JAX_TREE_STATIC = "jax.tree.static"


@dataclass(frozen=True)
class PytreeStyle:
    """What one library's pytree classes differ in: how a field is declared static."""

    #: How messages name such a class: "a dataclass registered as a pytree".
    described: str
    #: The function the fix calls to declare a field written without one.
    field_function: str
    #: Its keyword that makes the field static, and the value it takes (None: through `metadata`).
    static_keyword: str | None
    #: The key of a ``dataclasses.field``'s metadata the library reads, and the value that makes
    #: the field static (``flax.struct.field(pytree_node=False)`` writes ``{"pytree_node": False}``).
    metadata_key: str
    static_value: str
    #: False where every field is a leaf whatever its declaration says (``tree_math.struct``, or a
    #: decorator of the module that registers every field as data): no field can be made static.
    declares_static: bool = True

    def keyword_text(self, dict_name: str) -> str:
        """The argument that declares a field static in a call of `field_function`."""
        if self.static_keyword is not None:
            return f"{self.static_keyword}={self.static_value}"
        return self.metadata_text(dict_name)

    def metadata_text(self, dict_name: str) -> str:
        """The argument that declares a field static in a ``dataclasses.field`` call."""
        return f"metadata={dict_name}({self.metadata_key}={self.static_value})"


REGISTERED = PytreeStyle("a dataclass registered as a pytree", FIELD, None, "static", "True")
FLAX_STRUCT = PytreeStyle("a `flax.struct` dataclass", FLAX_FIELD, "pytree_node", "pytree_node", "False")
EQUINOX = PytreeStyle("an `equinox.Module`", EQUINOX_FIELD, "static", "static", "True")
ALL_LEAVES = PytreeStyle(
    "a dataclass registered as a pytree with every field a leaf", FIELD, None, "static", "True", declares_static=False
)
#: The tree_math package's class decorator: a dataclass whose every field is a child of the tree.
TREE_MATH_STRUCT = "tree_math.struct"


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
class FieldLists:
    """``jax.tree_util.register_dataclass(Cls, data_fields=[...], meta_fields=[...])`` after the
    class: the lists say which fields are static (the meta ones)."""

    call: cst.Call
    data: cst.List | cst.Tuple
    meta: cst.List | cst.Tuple

    @staticmethod
    def names(listed: cst.List | cst.Tuple) -> list[str]:
        return [e.value.evaluated_value for e in listed.elements]  # type: ignore[union-attr]


@dataclass(frozen=True)
class PytreeClass:
    cls: cst.ClassDef
    #: Fields in declaration order (a positional construction fills them in this order).
    fields: tuple[PytreeField, ...]
    style: PytreeStyle
    #: Set when the class is registered by a call naming its fields (not by decorator).
    lists: FieldLists | None = None

    def field(self, name: str) -> PytreeField | None:
        return next((f for f in self.fields if f.name == name), None)


def pytree_class(ctx: ModuleContext, cls: cst.ClassDef) -> PytreeClass | None:
    """The class, when it is a pytree class of one of the styles with fields read from its own body."""
    style = _style(ctx, cls)
    lists = _registration(ctx, cls) if style is None else None
    if lists is not None:
        style = REGISTERED
    if style is None:
        return None
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
        called = ctx.names.qualified_name(value.func) if isinstance(value, cst.Call) else None
        if called not in (FIELD, FLAX_FIELD, EQUINOX_FIELD, EQUINOX_STATIC_FIELD, JAX_TREE_STATIC):
            fields.append(PytreeField(statement.target.value, statement, value, None, False))
            continue
        assert isinstance(value, cst.Call)
        default = _keyword(value, "default")
        static = _static(ctx, value, called, style)
        fields.append(PytreeField(statement.target.value, statement, default, value, static))
    base = _struct_base(ctx, cls) if cls.bases and style is FLAX_STRUCT else None
    inherited = pytree_class(ctx, base) if base is not None else None
    if inherited is not None:  # a dataclass keeps an inherited field's place, even when redefined
        own = {f.name: f for f in fields}
        fields = [own.pop(f.name, f) for f in inherited.fields] + list(own.values())
    if not style.declares_static:  # every field is data, whatever its declaration says
        fields = [PytreeField(f.name, f.statement, f.default, f.field_call, False) for f in fields]
    if lists is not None:
        data, meta = FieldLists.names(lists.data), FieldLists.names(lists.meta)
        if sorted(data + meta) != sorted(f.name for f in fields) or any(f.field_call is not None for f in fields):
            return None  # a field the lists do not name, or a field call whose metadata would also count
        fields = [PytreeField(f.name, f.statement, f.default, None, f.name in meta) for f in fields]
    return PytreeClass(cls, tuple(fields), style, lists)


def _registration(ctx: ModuleContext, cls: cst.ClassDef) -> FieldLists | None:
    """The one ``register_dataclass(Cls, data_fields=[...], meta_fields=[...])`` statement of the
    module for a ``@dataclass`` class with no base, both lists literal lists of strings."""
    if cls.bases:
        return None
    decorated = _partial_registration(ctx, cls)
    if decorated is not None:
        return decorated
    decorators = {_decorator_name(ctx, d) for d in cls.decorators}
    if decorators != {DATACLASS}:
        return None
    found: list[FieldLists] = []
    for call in ctx.calls_of(REGISTER_DATACLASS):
        if not call.args:
            continue
        first = call.args[0]
        if first.keyword is not None or not isinstance(first.value, cst.Name) or single_binding(ctx, first.value) is not cls:
            continue
        data, meta = _keyword(call, "data_fields"), _keyword(call, "meta_fields")
        statement = ctx.parent(call)
        if not isinstance(statement, cst.Expr) or not all(_string_list(x) for x in (data, meta)):
            return None  # registered some other way: the fields it makes static are not read
        found.append(FieldLists(call, data, meta))  # type: ignore[arg-type]
    return found[0] if len(found) == 1 else None


def _partial_registration(ctx: ModuleContext, cls: cst.ClassDef) -> FieldLists | None:
    """``@functools.partial(register_dataclass, data_fields=[...], meta_fields=[...])`` over
    ``@dataclass``: the decorator spelling of the registration call, both lists literal."""
    if len(cls.decorators) != 2 or _decorator_name(ctx, cls.decorators[1]) != DATACLASS:
        return None
    call = cls.decorators[0].decorator
    if not isinstance(call, cst.Call) or ctx.names.qualified_name(call.func) != "functools.partial":
        return None
    if not call.args or call.args[0].keyword is not None or ctx.names.qualified_name(call.args[0].value) != REGISTER_DATACLASS:
        return None
    if any(a.keyword is None for a in call.args[1:]) or any(a.star for a in call.args):
        return None
    data, meta = _keyword(call, "data_fields"), _keyword(call, "meta_fields")
    if not all(_string_list(x) for x in (data, meta)):
        return None
    return FieldLists(call, data, meta)  # type: ignore[arg-type]


def _string_list(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, (cst.List, cst.Tuple)) and all(
        isinstance(e.value, cst.SimpleString) and isinstance(e.value.evaluated_value, str) for e in expr.elements
    )


def method_named(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    """The def `name` written in the class's own body."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)


def init_stores(ctx: ModuleContext, tree: PytreeClass, field: PytreeField) -> list[cst.Assign] | None:
    """An equinox module's own ``__init__`` sets its fields (``self.steps = steps``): every
    assignment of `field` in the module, when each is a statement ``self.<field> = value`` of that
    ``__init__``'s body (``self`` its first parameter); None when one is anything else, or the class
    is not an equinox module with its own ``__init__``."""
    init = method_named(tree.cls, "__init__")
    if tree.style is not EQUINOX or init is None:
        return None
    positional = [*init.params.posonly_params, *init.params.params]
    if not positional or init.decorators:
        return None
    stores: list[cst.Assign] = []
    for node in ctx.attributes_named(field.name):
        target = ctx.parent(node)
        assign = ctx.parent(target) if isinstance(target, cst.AssignTarget) else None
        if isinstance(assign, cst.Assign):
            line = ctx.parent(assign)
            inside = ctx.parent(ctx.parent(line)) is init and isinstance(line, cst.SimpleStatementLine)
            receiver = single_binding(ctx, node.value) if isinstance(node.value, cst.Name) else None
            if not inside or len(assign.targets) != 1 or receiver is not positional[0]:
                return None
            stores.append(assign)
        elif isinstance(target, (cst.AugAssign, cst.AnnAssign, cst.Del)) or (
            isinstance(target, cst.AssignTarget)
        ):
            return None
    return stores


def _style(ctx: ModuleContext, cls: cst.ClassDef) -> PytreeStyle | None:
    """Which of the three pytree styles `cls` is written in, if one."""
    decorators = {_decorator_name(ctx, d): d.decorator for d in cls.decorators}
    bases = [ctx.names.qualified_name(b.value) if b.keyword is None and not b.star else None for b in cls.bases]
    if not bases:
        if len(cls.decorators) == 1 and (
            TREE_MATH_STRUCT in decorators or registers_every_field(ctx, cls.decorators[0].decorator)
        ):
            return ALL_LEAVES
        register = decorators.get(REGISTER_DATACLASS)
        if register is not None and DATACLASS in decorators and not isinstance(register, cst.Call):
            return REGISTERED  # `register_dataclass(data_fields=...)` names its fields itself: not read
        if FLAX_DATACLASS in decorators:
            return FLAX_STRUCT
        return None
    if len(bases) == 1 and not decorators:
        return {FLAX_NODE: FLAX_STRUCT, EQUINOX_MODULE: EQUINOX}.get(bases[0])  # type: ignore[arg-type]
    if set(decorators) == {FLAX_DATACLASS} and _struct_base(ctx, cls) is not None:
        return FLAX_STRUCT
    return None


def _struct_base(ctx: ModuleContext, cls: cst.ClassDef, depth: int = 0) -> cst.ClassDef | None:
    """The one base of a ``@struct.dataclass`` subclass, when it is a class of this module that is
    a flax struct itself (netket's ``SRLazyGMRES(SRLazy)``): the subclass is a struct whose
    fields follow the base's."""
    if len(cls.bases) != 1 or cls.bases[0].keyword is not None or not isinstance(cls.bases[0].value, cst.Name) or depth > 8:
        return None
    base = single_binding(ctx, cls.bases[0].value)
    if not isinstance(base, cst.ClassDef) or base is cls:
        return None
    decorators = {_decorator_name(ctx, d) for d in base.decorators}
    if decorators != {FLAX_DATACLASS} or (base.bases and _struct_base(ctx, base, depth + 1) is None):
        return None
    return base


def registers_every_field(ctx: ModuleContext, decorator: cst.BaseExpression) -> bool:
    """A class decorator of the module (a def, or a namespace class's staticmethod: jax-gcm's
    stand-in for ``tree_math.struct``) that makes its class a dataclass and registers it with every
    field data: ``data_cls = dataclasses.dataclass(cls)`` (or the call itself) handed to
    ``return jax.tree_util.register_dataclass(data_cls, data_fields=..., meta_fields=[])``. With no
    meta field, register_dataclass accepts only the whole list of fields as data."""
    fn = plain_def(ctx, decorator) if isinstance(decorator, (cst.Name, cst.Attribute)) else None
    positional = [*fn.params.posonly_params, *fn.params.params] if fn is not None else []
    if fn is None or len(positional) != 1 or not isinstance(fn.body, cst.IndentedBlock):
        return False
    last = fn.body.body[-1]
    returned = last.body[0].value if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return) else None
    if not isinstance(returned, cst.Call) or ctx.names.qualified_name(returned.func) != REGISTER_DATACLASS:
        return False
    meta = _keyword(returned, "meta_fields")
    if not returned.args or returned.args[0].keyword is not None or not (isinstance(meta, (cst.List, cst.Tuple)) and not meta.elements):
        return False
    registered = returned.args[0].value
    if isinstance(registered, cst.Name):
        binding = single_binding(ctx, registered)
        registered = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    return (
        isinstance(registered, cst.Call)
        and ctx.names.qualified_name(registered.func) == DATACLASS
        and len(registered.args) >= 1
        and registered.args[0].keyword is None
        and isinstance(registered.args[0].value, cst.Name)
        and single_binding(ctx, registered.args[0].value) is positional[0]
    )


def _keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    return next((a.value for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def _static(ctx: ModuleContext, call: cst.Call, called: str | None, style: PytreeStyle) -> bool:
    """The field call declares the field static for the class's library (each reads its own key of
    a ``dataclasses.field``'s metadata)."""
    if called == EQUINOX_STATIC_FIELD:
        return True
    if called == JAX_TREE_STATIC:
        return style.metadata_key == "static"  # register_dataclass and equinox read it; flax reads pytree_node
    if called == style.field_function and style.static_keyword is not None:
        given = static_argument(call, style)
        return given is not None and _is(given, style.static_value)
    if called == FIELD:
        return _static_metadata(ctx, call, style)
    return False


def static_argument(call: cst.Call, style: PytreeStyle) -> cst.BaseExpression | None:
    """What a call of the style's field function gives its static keyword (``flax.struct.field``
    takes ``pytree_node`` first, so positionally too)."""
    given = _keyword(call, style.static_keyword or "")
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if given is None and positional and style is FLAX_STRUCT:
        given = positional[0].value
    return given


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
    if binding is None and isinstance(expr, cst.Name):
        binding = reaching_parameter(ctx, expr)  # `range(state.t)` before `state = step(state)` rebinds it
    if isinstance(binding, cst.Param) and binding.annotation is not None:
        return named_class(ctx, binding.annotation.annotation)
    return None


def named_class(ctx: ModuleContext, expr: cst.BaseExpression) -> cst.ClassDef | None:
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


def _static_metadata(ctx: ModuleContext, call: cst.Call, style: PytreeStyle) -> bool:
    """``metadata=dict(static=True)`` or ``{"static": True}`` (register_dataclass, equinox), or
    ``{"pytree_node": False}`` (flax): the key and value the class's library reads."""
    metadata = _keyword(call, "metadata")
    if isinstance(metadata, cst.Call) and ctx.names.qualified_name(metadata.func) == "builtins.dict":
        pairs = [(a.keyword.value, a.value) for a in metadata.args if a.keyword is not None]
    elif isinstance(metadata, cst.Dict):
        pairs = [(constant_value(ctx, e.key), e.value) for e in metadata.elements if isinstance(e, cst.DictElement)]
    else:
        return False
    return any(key == style.metadata_key and _is(value, style.static_value) for key, value in pairs)


def _is(expr: cst.BaseExpression | None, constant: str) -> bool:
    """`expr` is the literal ``True`` or ``False`` named by `constant`."""
    return isinstance(expr, cst.Name) and expr.value == constant


def _class_var(ctx: ModuleContext, annotation: cst.BaseExpression) -> bool:
    """``ClassVar[...]``: a class attribute, not a field."""
    head = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    return (ctx.names.qualified_name(head) or "").endswith("ClassVar")


def static_field_read(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Is `expr` (``model.frame_parent``) a read of a pytree class's static field: a Python value
    jit hands the code as it is, never an array (a tracer cannot index it)?

    The instance's class where the module shows it (`instance_class_of`); otherwise the field's
    name, when a pytree class of this module declares it static and none declares it a leaf."""
    if not isinstance(expr, cst.Attribute):
        return False
    name = expr.attr.value
    cls = instance_class_of(ctx, expr.value)
    if cls is not None:
        tree = pytree_class(ctx, cls)
        field = tree.field(name) if tree is not None else None
        return field is not None and field.static
    kinds = {
        field.static
        for cls in ctx.nodes_of(cst.ClassDef)
        if (tree := pytree_class(ctx, cls)) is not None
        for field in tree.fields
        if field.name == name
    }
    return kinds == {True}

"""How Python hashes instances of a class the module defines, and which values are instances.

A static argument is hashed: an instance of a class with neither ``__eq__``
nor a decorator hashes by identity; a frozen dataclass, or one with its own
``__hash__``, by value; a plain ``@dataclass`` (``eq=True`` sets ``__hash__ =
None``) or a class defining ``__eq__`` alone cannot hash at all
(docs/jax302-behaviour.md). A base class or decorator we cannot see leaves it
unknown.
"""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst
from libcst.metadata import Assignment

from jaxfix.transforms.semantics.constants import (
    assigned_value,
    class_members,
    members_named,
    own_returns,
    reaching_binding,
    single_binding,
)
from jaxfix.transforms.semantics.module import ModuleContext


def instance_class(ctx: ModuleContext, expr: cst.BaseExpression, _depth: int = 0) -> tuple[cst.ClassDef, cst.Call] | None:
    """(the class, the call that builds it) when `expr` is ``Model(...)`` of a class this module
    defines, or a name whose binding that reaches it is such a call, or a call of an undecorated
    function of the module whose one ``return`` is one (``model = make_model(key)``)."""
    call = expr
    if isinstance(expr, cst.Name):
        binding = reaching_binding(ctx, expr)  # `c = A(2)` ... `c = A(3)`: the one each read sees
        call = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None  # type: ignore[assignment]
    if not isinstance(call, cst.Call):
        return None
    if isinstance(call.func, cst.Name):
        bound = single_binding(ctx, call.func)
    elif isinstance(call.func, cst.Attribute):
        built = _classmethod_factory(ctx, call.func)  # `Model.create(...)` returning `cls(...)`
        if built is not None:
            return built
        bound = static_method(ctx, call.func)  # `Model.make(...)`, a staticmethod helper
    else:
        return None
    if isinstance(bound, cst.ClassDef):
        return bound, call
    if isinstance(bound, cst.FunctionDef) and runs_as_written(ctx, bound) and _depth < 4:
        returns = own_returns(bound)
        if len(returns) == 1 and returns[0].value is not None:
            return instance_class(ctx, returns[0].value, _depth + 1)
    return None


def _classmethod_factory(ctx: ModuleContext, func: cst.Attribute) -> tuple[cst.ClassDef, cst.Call] | None:
    """``Model.create(...)`` of a classmethod whose one return is ``cls(...)``, read from the class
    itself (a subclass read would make ``cls`` the subclass): (that class, the ``cls(...)`` call)."""
    members = class_members(ctx, func)
    method = members[0] if members and len(members) == 1 else None
    if not isinstance(method, cst.FunctionDef):
        return None
    cls = ctx.parent(ctx.parent(method))
    if not isinstance(cls, cst.ClassDef) or not isinstance(func.value, cst.Name) or single_binding(ctx, func.value) is not cls:
        return None
    if [ctx.names.qualified_name(d.decorator) for d in method.decorators] != ["builtins.classmethod"]:
        return None
    positional = [*method.params.posonly_params, *method.params.params]
    returns = own_returns(method)
    if not positional or len(returns) != 1 or not isinstance(returns[0].value, cst.Call):
        return None
    made = returns[0].value
    if not isinstance(made.func, cst.Name) or made.func.value != positional[0].name.value:
        return None
    if subclass_of(ctx, cls) is not None:
        return None
    return cls, made


def subclass_of(ctx: ModuleContext, cls: cst.ClassDef) -> cst.ClassDef | None:
    """A class of the module that names `cls` among its bases (it may override what `cls` does)."""
    return next(
        (
            other
            for other in ctx.nodes_of(cst.ClassDef)
            if any(isinstance(base.value, cst.Name) and base.value.value == cls.name.value for base in other.bases)
        ),
        None,
    )


def called_def(ctx: ModuleContext, func: cst.BaseExpression) -> cst.FunctionDef | None:
    """The def of this module a call of `func` runs as written: ``helper(...)`` of a plain def,
    ``Model.helper(...)`` of a staticmethod; None for anything else."""
    if isinstance(func, cst.Name):
        fn = single_binding(ctx, func)
        return fn if isinstance(fn, cst.FunctionDef) and runs_as_written(ctx, fn) else None
    if isinstance(func, cst.Attribute):
        return static_method(ctx, func)
    return None


def static_method(ctx: ModuleContext, attr: cst.Attribute) -> cst.FunctionDef | None:
    """``Model.make``: the one def of that name in a class this module defines, a staticmethod."""
    members = class_members(ctx, attr)
    if not members or len(members) != 1 or not isinstance(members[0], cst.FunctionDef):
        return None
    method = members[0]
    return method if runs_as_written(ctx, method) and method.decorators else None


#: flax.linen's Module class, as it is imported.
LINEN_MODULE = frozenset({"flax.linen.Module", "flax.linen.module.Module"})


def setup_stores(ctx: ModuleContext, cls: cst.ClassDef) -> dict[str, cst.BaseExpression]:
    """What the ``setup`` of `cls` stores, by name, where that statement is the class's only store of
    the name and sits in setup's own body: ``self.gate = nn.Dense(...)``, ``self.experts = Cls(...)``
    (a flax linen Module builds its submodules and layers there)."""
    setup = next((m for m in members_named(cls, "setup") if isinstance(m, cst.FunctionDef)), None)
    if setup is None or not setup.params.params or not isinstance(setup.body, cst.IndentedBlock):
        return {}
    me = setup.params.params[0].name.value
    out: dict[str, cst.BaseExpression] = {}
    for line in setup.body.body:
        assign = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        target = assign.targets[0].target if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
        if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == me):
            continue
        name = target.attr.value
        stores = [
            a for a in ctx.attributes_named(name)
            if isinstance(ctx.parent(a), (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)) and ctx.enclosing_class(a) is cls
        ]
        if stores == [target]:
            out[name] = assign.value  # type: ignore[union-attr]
    return out


def linen_module(ctx: ModuleContext, cls: cst.ClassDef, _depth: int = 0) -> bool:
    """A subclass of ``flax.linen.Module`` (directly, or through classes of this module), without
    a decorator: its instances are leaves, never pytrees (jit cannot trace one), and hash by
    their fields."""
    if cls.decorators or _depth > 4:
        return False
    for base in cls.bases:
        if base.keyword is not None:
            continue
        if ctx.names.qualified_name(base.value) in LINEN_MODULE:
            return True
        parent = single_binding(ctx, base.value) if isinstance(base.value, cst.Name) else None
        if isinstance(parent, cst.ClassDef) and linen_module(ctx, parent, _depth + 1):
            return True
    return False


def runs_as_written(ctx: ModuleContext, fn: cst.FunctionDef) -> bool:
    """Undecorated, or only ``@staticmethod``: calling it runs its body with the arguments given."""
    return all(ctx.names.qualified_name(d.decorator) == "builtins.staticmethod" for d in fn.decorators)


#: Methods by which a class tells JAX it is a pytree or an array.
_JAX_PROTOCOL = frozenset({"__jax_array__", "tree_flatten", "tree_unflatten", "__array__", "__array_priority__"})


def written_bases(ctx: ModuleContext, cls: cst.ClassDef) -> list[cst.Arg]:
    """The class's bases and keywords but ``object``, which ``class Sampler(object):`` names and
    every class has (mcx's style, mcx#36)."""
    return [
        b for b in cls.bases
        if not (b.keyword is None and isinstance(b.value, cst.Name) and ctx.names.qualified_name(b.value) == "builtins.object")
    ]


def plain_class(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """No base class, no decorator but a plain ``@dataclass``, no JAX protocol method, and its name
    never handed to a call (``register_pytree_node(Cls, ...)``): an instance is surely no pytree."""
    if written_bases(ctx, cls) or any(
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
    if namedtuple_fields(ctx, cls) is not None:
        return "hashed by value, a NamedTuple" if "__eq__" not in methods else ""
    if linen_module(ctx, cls):
        # flax.linen's Module is a dataclass whose instances hash and compare by their fields
        # (docs/jax203-behaviour.md): a field holding a dict fails to hash, as a frozen one's.
        return "" if "__eq__" in methods else "hashed by value, a flax linen Module"
    for base in written_bases(ctx, cls):
        if base.keyword is not None:
            return ""
        value = base.value
        if ctx.names.qualified_name(value) in UNHASHABLE_BUILTINS:
            return None  # `class DotDict(dict)` (brainpy): the builtin's `__hash__` is None
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


#: Class-body methods that change what the generated ``__init__`` stores, or how an instance hashes.
_FIELD_HOOKS = frozenset({"__init__", "__post_init__", "__new__", "__hash__", "__eq__", "__setattr__", "__getattribute__", "__getattr__"})


def hashed_fields(ctx: ModuleContext, cls: cst.ClassDef) -> dict[str, cst.BaseExpression | None] | None:
    """The fields a dataclass's generated ``__hash__`` hashes, in the order its ``__init__`` takes
    them, when that is sure: a frozen (or ``unsafe_hash``) ``@dataclass`` with no base class, or a
    direct subclass of flax's linen ``Module`` (flax's ``parent`` and ``name`` come after, by keyword); no
    hook that changes what is stored, and fields written ``name: type`` or ``name: type = value``
    (a ``field(...)`` only with options that keep it hashed and in ``__init__``'s order: no
    ``hash``, ``compare``, ``init`` or ``kw_only``; no ``ClassVar``, ``InitVar`` or ``KW_ONLY``).
    So ``Config(sizes={...})`` hashes the dict it is given, and fails to. Each field maps to the
    value an instance holds when the constructor leaves it out: its default, the
    ``default_factory`` call, or None when it has none.
    """
    if not (_direct_linen_module(ctx, cls) or _hashing_dataclass(ctx, cls)):
        return None
    return init_fields(ctx, cls)


def init_fields(ctx: ModuleContext, cls: cst.ClassDef) -> dict[str, cst.BaseExpression | None] | None:
    """The fields ``__init__`` takes, in its order, with the value an instance holds when the
    constructor leaves one out, for a class whose generated ``__init__`` is sure (`hashed_fields`'
    conditions but hashing: a plain ``@dataclass`` counts too); None otherwise."""
    if not (_direct_linen_module(ctx, cls) or _dataclass_options(ctx, cls) is not None):
        return None
    fields: dict[str, cst.BaseExpression | None] = {}
    for line in _body(cls):
        if isinstance(line, cst.FunctionDef) and line.name.value in _FIELD_HOOKS:
            return None
        if not isinstance(line, cst.SimpleStatementLine):
            continue
        for small in line.body:
            if isinstance(small, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == "__hash__" for t in small.targets
            ):
                return None
            if not isinstance(small, cst.AnnAssign):
                continue
            if not isinstance(small.target, cst.Name):
                return None
            annotation = ctx.code(small.annotation.annotation)
            if any(word in annotation for word in ("ClassVar", "InitVar", "KW_ONLY")):
                return None
            value = small.value
            if isinstance(value, cst.Call) and ctx.names.qualified_name(value.func) == "dataclasses.field":
                value = _field_default(value)
                if value is False:
                    return None
            fields[small.target.value] = value  # type: ignore[assignment]
    return fields


def _hashing_dataclass(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """``@dataclass(frozen=True)`` (or ``unsafe_hash=True``) with no base class: it hashes its fields."""
    options = _dataclass_options(ctx, cls)
    if options is None or options.get("eq", True) is False:
        return False
    return bool(options.get("frozen") or options.get("unsafe_hash"))


def _dataclass_options(ctx: ModuleContext, cls: cst.ClassDef) -> dict | None:
    """The options of the one ``@dataclass`` decorating a class with no base, whose ``__init__``
    takes its fields by position (no ``kw_only``); None for any other class. A registration that
    hands the class back as it is may sit beside it (``@register_pytree_node_class`` over
    ``@dataclasses.dataclass``, jax#28659)."""
    decorators = [
        d for d in cls.decorators
        if (ctx.names.qualified_name(d.decorator) or "") not in CLASS_KEEPING_REGISTRATIONS
    ]
    if cls.bases or len(decorators) != 1:
        return None
    decorator = decorators[0].decorator
    head = decorator.func if isinstance(decorator, cst.Call) else decorator
    if ctx.names.qualified_name(head) != "dataclasses.dataclass":
        return None
    options = _keyword_flags(decorator)
    return None if options is None or options.get("kw_only") else options


#: Decorators that register a class with JAX and return it unchanged (its ``__init__``, its hash).
CLASS_KEEPING_REGISTRATIONS = frozenset(
    {"jax.tree_util.register_pytree_node_class", "jax.tree_util.register_pytree_with_keys_class", "jax.tree_util.register_static"}
)


def _direct_linen_module(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """``class M(nn.Module)`` itself, undecorated: its fields are its own annotated lines, none
    inherited from a class of this module."""
    return (
        not cls.decorators
        and len(cls.bases) == 1
        and cls.bases[0].keyword is None
        and ctx.names.qualified_name(cls.bases[0].value) in LINEN_MODULE
    )


#: `dataclasses.field` options that leave a field hashed, in ``__init__``, in its place.
_NEUTRAL_FIELD_OPTIONS = frozenset({"default", "default_factory", "repr", "metadata", "doc"})


def _field_default(value: cst.Call) -> cst.BaseExpression | None | bool:
    """What ``field(default=v)`` leaves in an instance (v; the ``default_factory`` call written as
    a call of it; None for no default); False when an option changes hashing or order."""
    options = {arg.keyword.value: arg.value for arg in value.args if arg.keyword is not None}
    if len(options) != len(value.args) or not set(options) <= _NEUTRAL_FIELD_OPTIONS:
        return False
    if "default_factory" in options:
        return cst.Call(func=options["default_factory"])
    return options.get("default")


#: Builtin containers whose ``__hash__`` is None: a subclass without its own cannot hash.
UNHASHABLE_BUILTINS = frozenset({"builtins.dict", "builtins.list", "builtins.set", "builtins.bytearray"})


def unhashable_builtin_base(cls: cst.ClassDef) -> str | None:
    """``dict`` of ``class DotDict(dict)``: the builtin container among the class's bases, by name."""
    names = {q.rpartition(".")[2] for q in UNHASHABLE_BUILTINS}
    return next((b.value.value for b in cls.bases if isinstance(b.value, cst.Name) and b.value.value in names), None)


def unhashable_why(cls: cst.ClassDef) -> str:
    """Why instances of an unhashable class (`class_hashing` None) cannot hash."""
    builtin = unhashable_builtin_base(cls)
    if builtin is not None:
        return f"a subclass of `{builtin}` without its own `__hash__` (`{builtin}` sets `__hash__ = None`)"
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


def only_reads_class(ctx: ModuleContext, ref: cst.CSTNode) -> bool:
    """A use of a class that cannot construct it: ``Model.m``, ``isinstance(x, Model)``, an annotation."""
    parent = ctx.parent(ref)
    if isinstance(parent, cst.Attribute) and parent.value is ref:
        return True
    if any(isinstance(a, cst.Annotation) for a in ctx.ancestors(ref)):
        return True
    if isinstance(parent, cst.Arg) and parent.value is ref:
        call = ctx.parent(parent)
        if not isinstance(call, cst.Call):
            return False
        qualified = ctx.names.qualified_name(call.func)
        if qualified in ("builtins.isinstance", "builtins.issubclass"):
            return True
        # Registering the class as a pytree (in place, the statement alone) builds no instance.
        return qualified in _REGISTRATIONS and call.args[0] is parent and isinstance(ctx.parent(call), cst.Expr)
    return False


#: Calls that register a class as a pytree node: they read the class, never build one.
_REGISTRATIONS = frozenset({"jax.tree_util.register_dataclass", "jax.tree_util.register_pytree_node_class"})


def constructions(
    ctx: ModuleContext, cls: cst.ClassDef, subclasses: Collection[cst.ClassDef] = ()
) -> list[cst.Call] | None:
    """Every ``Model(...)`` of a class bound once in its scope; None when another use of the
    name (``make = Model``, a subclass, a container) may construct it where we cannot see. A base
    of one of `subclasses` is no such use: the caller reads their constructions too."""
    scope = ctx.scope(cls)
    assignments = scope.assignments[cls.name.value] if scope is not None else ()
    if len(assignments) != 1 or not isinstance(next(iter(assignments)), Assignment):
        return None
    calls: list[cst.Call] = []
    for access in next(iter(assignments)).references:
        ref = access.node
        parent = ctx.parent(ref)
        if isinstance(parent, cst.Call) and parent.func is ref:
            calls.append(parent)
        elif isinstance(parent, cst.Arg) and any(parent is base for s in subclasses for base in s.bases):
            continue
        elif not only_reads_class(ctx, ref):
            return None
    return sorted(calls, key=ctx.start)


def namedtuple_fields(ctx: ModuleContext, cls: cst.ClassDef) -> dict[str, cst.BaseExpression | None] | None:
    """The fields of ``class Config(typing.NamedTuple)`` in order, each with its default (None:
    none), as `hashed_fields` gives a dataclass's; None for any other class. A NamedTuple is a
    tuple: it hashes its fields, and jit traces each as a leaf."""
    if cls.decorators or len(cls.bases) != 1 or cls.bases[0].keyword is not None:
        return None
    if ctx.names.qualified_name(cls.bases[0].value) != "typing.NamedTuple":
        return None
    return {
        small.target.value: small.value
        for line in _body(cls)
        if isinstance(line, cst.SimpleStatementLine)
        for small in line.body
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
    }


def constructed_field(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> tuple[cst.ClassDef, str] | None:
    """(the class, the field) that `arg` of ``Model(...)`` fills, for a class of this module whose
    fields `hashed_fields` reads in ``__init__``'s order (a flax linen module, a frozen
    dataclass): by keyword, or by position among the fields."""
    if arg.star or not isinstance(call.func, cst.Name):
        return None
    cls = single_binding(ctx, call.func)
    fields = hashed_fields(ctx, cls) if isinstance(cls, cst.ClassDef) else None
    if fields is None or any(a.star for a in call.args):
        return None
    if arg.keyword is not None:
        name = arg.keyword.value
        return (cls, name) if name in fields else None  # type: ignore[return-value]
    index = [a for a in call.args if a.keyword is None].index(arg)
    return (cls, list(fields)[index]) if index < len(fields) else None  # type: ignore[return-value]


def own_field_reads(ctx: ModuleContext, cls: cst.ClassDef, field: str) -> list[cst.Attribute] | None:
    """Every ``self.<field>`` read in the methods of `cls`; None when the field may be read where
    those do not show (a subclass of the module, another attribute ``.field`` on anything else, a
    method whose receiver is not its first parameter)."""
    if subclass_of(ctx, cls) is not None:
        return None
    found: list[cst.Attribute] = []
    for line in _body(cls):
        if not isinstance(line, cst.FunctionDef):
            continue
        if any(ctx.names.qualified_name(d.decorator) in ("builtins.staticmethod", "builtins.classmethod") for d in line.decorators):
            continue
        positional = [*line.params.posonly_params, *line.params.params]
        receiver = positional[0].name.value if positional else None
        for attribute in ctx.attributes_named(field):
            if ctx.enclosing_function(attribute) is not line:
                continue
            if not (isinstance(attribute.value, cst.Name) and attribute.value.value == receiver):
                return None
            found.append(attribute)
    others = [a for a in ctx.attributes_named(field) if not any(a is f for f in found)]
    if any(not _another_class_own(ctx, cls, a) for a in others):
        return None  # `.field` read elsewhere: perhaps of an instance, out of our sight
    return found


def _another_class_own(ctx: ModuleContext, cls: cst.ClassDef, attribute: cst.Attribute) -> bool:
    """``self._bins`` in a method of another class of the module, neither a base nor a subclass of
    `cls` (waymax's discretizer and its wrapper each keep a ``_bins``): that class's own field."""
    method = ctx.enclosing_function(attribute)
    other = ctx.enclosing_class(attribute)
    if not isinstance(method, cst.FunctionDef) or other is None or other is cls or ctx.parent(ctx.parent(method)) is not other:
        return False
    if any(ctx.names.qualified_name(d.decorator) in ("builtins.staticmethod", "builtins.classmethod") for d in method.decorators):
        return False
    positional = [*method.params.posonly_params, *method.params.params]
    if not positional or not (isinstance(attribute.value, cst.Name) and attribute.value.value == positional[0].name.value):
        return False
    related = {b.value.value for b in (*cls.bases, *other.bases) if isinstance(b.value, cst.Name)}
    return not related & {cls.name.value, other.name.value} and subclass_of(ctx, other) is None


def given_to_field(ctx: ModuleContext, cls: cst.ClassDef, field: str) -> list[cst.BaseExpression] | None:
    """What every construction of `cls` in this module gives `field` (what it passes, else the
    default); None when a construction cannot be read or one may happen out of sight
    (`constructions`). Another module building the class is the caller's to rule out."""
    fields = hashed_fields(ctx, cls)
    built = constructions(ctx, cls)
    if fields is None or built is None or field not in fields:
        return None
    position = list(fields).index(field)
    given: list[cst.BaseExpression] = []
    for call in built:
        keyword = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == field), None)
        positional = [a for a in call.args if a.keyword is None]
        if keyword is not None:
            given.append(keyword)
        elif any(a.star for a in call.args):
            return None
        elif position < len(positional):
            given.append(positional[position].value)
        elif fields[field] is not None:
            given.append(fields[field])  # type: ignore[arg-type]
        else:
            return None
    return given

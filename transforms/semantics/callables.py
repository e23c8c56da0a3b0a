"""What a callable expression handed to a JAX primitive really calls.

A branch or loop body is written as a name (``run_true``), a method
(``self.run_true``), an inline jit (``jax.jit(f, static_argnums=0)``) or a
``partial(...)`` of one of these. This module follows such an expression to the
def it calls and the jit it goes through, or says it cannot (``target`` None):
a callable defined in another module, a parameter, a name bound twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment

from jaxfix.transforms.core.containers import CHANGING_METHODS
from jaxfix.transforms.semantics.class_hashing import instance_class, static_method, subclass_of
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    class_members,
    declared_annotation,
    display_items,
    members_named,
    own_returns,
    single_binding,
)
from jaxfix.transforms.semantics.jit_wrappers import (
    JitWrapper,
    MethodKind,
    Target,
    function_info,
    read_jit_application,
)
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.vocabulary import NEUTRAL_DECORATORS, PARTIAL


@dataclass(frozen=True)
class CallableUse:
    """A callable argument as written: ``f`` or ``partial(f, *bound, **bound_kw)``."""

    expr: cst.BaseExpression
    callee: cst.BaseExpression
    target: Target | None
    partial: cst.Call | None = None
    bound_args: tuple[cst.Arg, ...] = ()
    bound_kwargs: tuple[cst.Arg, ...] = ()


def read_callable_use(ctx: ModuleContext, expr: cst.BaseExpression) -> CallableUse | None:
    """None when the expression binds arguments we cannot see (``partial(f, *a)``)."""
    if isinstance(expr, cst.Call) and ctx.names.is_api(expr.func, PARTIAL) and expr.args:
        first = expr.args[0]
        if first.keyword is not None or first.star:
            return None
        rest = expr.args[1:]
        if any(a.star for a in rest):
            return None
        bound = tuple(a for a in rest if a.keyword is None)
        bound_kw = tuple(a for a in rest if a.keyword is not None)
        if any(a.keyword is None for a in rest[len(bound) :]):
            return None
        return CallableUse(expr, first.value, resolve_callable(ctx, first.value), expr, bound, bound_kw)
    return CallableUse(expr, expr, resolve_callable(ctx, expr))


def python_function(ctx: ModuleContext, expr: cst.BaseExpression | None) -> cst.FunctionDef | cst.Lambda | None:
    """The Python function `expr` surely is: a lambda, a name bound once to a def or a lambda, or
    ``Model.f``, a staticmethod. No JAX type: jit cannot return one, a carry cannot hold one."""
    if isinstance(expr, cst.Lambda):
        return expr
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        if isinstance(binding, cst.FunctionDef):
            return binding
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value if isinstance(value, cst.Lambda) else None
    if isinstance(expr, cst.Attribute):
        return static_method(ctx, expr)
    return None


def plain_def(ctx: ModuleContext, func: cst.BaseExpression) -> cst.FunctionDef | None:
    """The def a call of `func` runs as written: an undecorated def bound once to the name, or the
    static method ``Model.f`` names."""
    if isinstance(func, cst.Attribute):
        return static_method(ctx, func)
    found = single_binding(ctx, func) if isinstance(func, cst.Name) else None
    return found if isinstance(found, cst.FunctionDef) and not found.decorators else None


def unjitted_def(ctx: ModuleContext, target: Target | None) -> tuple[cst.FunctionDef, bool] | None:
    """The def a resolved callable (`resolve_callable`) runs, when no jit is in between, it can be
    read, and it has no decorator but neutral ones; with whether the call's arguments come after
    its receiver (``self.coords(...)``)."""
    if target is None or target.jit is not None or target.function.opaque:
        return None
    fn = target.function.node
    if not isinstance(fn, cst.FunctionDef) or any(ctx.names.qualified_name(d.decorator) not in NEUTRAL_DECORATORS for d in fn.decorators):
        return None
    return fn, target.implicit_self


def dispatched_def(ctx: ModuleContext, call: cst.Call) -> cst.FunctionDef | None:
    """The implementation a ``functools.singledispatch`` function of the module runs for `call`:
    its first argument an instance the module surely builds of one of its classes (``Tri()``),
    and one def registered for exactly that class (``@jax_funcify.register(Tri)``, pytensor's
    JAX backend, jax#22751). A class registered through a base, or by annotation, is not read."""
    dispatcher = single_binding(ctx, call.func) if isinstance(call.func, cst.Name) else None
    if not isinstance(dispatcher, cst.FunctionDef) or not call.args or call.args[0].keyword or call.args[0].star:
        return None
    if [ctx.names.qualified_name(d.decorator) for d in dispatcher.decorators] != ["functools.singledispatch"]:
        return None
    built = instance_class(ctx, call.args[0].value)
    if built is None:
        return None
    name = dispatcher.name.value
    found = []
    for fn in ctx.nodes_of(cst.FunctionDef):
        for d in fn.decorators:
            register = d.decorator
            if (
                isinstance(register, cst.Call)
                and isinstance(register.func, cst.Attribute)
                and register.func.attr.value == "register"
                and isinstance(register.func.value, cst.Name)
                and register.func.value.value == name
                and single_binding(ctx, register.func.value) is dispatcher
                and len(register.args) == 1
                and isinstance(register.args[0].value, cst.Name)
                and single_binding(ctx, register.args[0].value) is built[0]
            ):
                found.append(fn)
    return found[0] if len(found) == 1 and len(found[0].decorators) == 1 else None


def resolve_callable(ctx: ModuleContext, expr: cst.BaseExpression, _depth: int = 0) -> Target | None:
    if isinstance(expr, cst.Name):
        return _resolve_name(ctx, expr, _depth) or _imported(ctx, expr)
    if isinstance(expr, cst.Attribute):
        return _resolve_method(ctx, expr) or _class_member(ctx, expr) or _imported(ctx, expr)
    if isinstance(expr, cst.Lambda):
        return _from_function(ctx, expr, via_instance=False)
    if isinstance(expr, cst.Call):
        applied = read_jit_application(ctx, expr)
        if applied is not None:
            return _jitted(ctx, applied[0], applied[1], expr, implicit_self=False)
    return None


def _imported(ctx: ModuleContext, expr: cst.BaseExpression) -> Target | None:
    """A jitted function another module of the project defines (see `external`)."""
    if ctx.repo is None:
        return None
    from jaxfix.transforms.semantics.imported_definitions import external_target

    return external_target(ctx, expr)


def def_target(ctx: ModuleContext, node: cst.FunctionDef | cst.Lambda) -> Target | None:
    """The def called by its own name (no instance binds its first parameter)."""
    return _from_function(ctx, node, via_instance=False)


def _from_function(ctx: ModuleContext, node: cst.FunctionDef | cst.Lambda, *, via_instance: bool) -> Target | None:
    info = function_info(ctx, node)
    if info.opaque:
        return None
    implicit = via_instance and info.method in (MethodKind.INSTANCE, MethodKind.CLASS)
    return Target(info, info.jit, info.jit_node, implicit)


def _jitted(
    ctx: ModuleContext, wrapper: JitWrapper, fexpr: cst.BaseExpression, call: cst.Call, *, implicit_self: bool
) -> Target | None:
    """`jit(f)` where f must be a plain, un-jitted def or lambda."""
    if isinstance(fexpr, cst.Lambda):
        node: cst.CSTNode | None = fexpr
    elif isinstance(fexpr, cst.Attribute):
        member = _class_def_member(ctx, fexpr)
        if member is None or function_info(ctx, member).method is not MethodKind.FUNCTION:
            return None  # only a staticmethod read through its class is a plain function to jit
        node = member
    elif isinstance(fexpr, cst.Name):
        node = single_binding(ctx, fexpr)
    else:
        return None
    if not isinstance(node, (cst.FunctionDef, cst.Lambda)):
        return None
    info = function_info(ctx, node)
    if info.opaque or info.jit is not None:
        return None
    return Target(info, wrapper, call, implicit_self)


def _value_target(ctx: ModuleContext, value: cst.BaseExpression, *, in_class: bool) -> Target | None:
    if isinstance(value, cst.Call):
        applied = read_jit_application(ctx, value)
        if applied is not None:
            return _jitted(ctx, applied[0], applied[1], value, implicit_self=in_class)
        return None
    if isinstance(value, cst.Lambda) and not in_class:
        return _from_function(ctx, value, via_instance=False)
    if isinstance(value, cst.Name) and not in_class:
        return _resolve_name(ctx, value)
    return None


def _resolve_name(ctx: ModuleContext, name: cst.Name, depth: int = 0) -> Target | None:
    node = single_binding(ctx, name)
    if isinstance(node, cst.FunctionDef):
        return _from_function(ctx, node, via_instance=False)
    if isinstance(node, cst.Name):
        value = assigned_value(ctx, node)
        return _value_target(ctx, value, in_class=False) if value is not None else None
    if node is None:
        return _rebound_by_jit(ctx, name)
    if isinstance(node, cst.Param):
        return passed_target(ctx, node, depth)
    return None


def passed_target(ctx: ModuleContext, param: cst.Param, depth: int = 0) -> Target | None:
    """What every use of `param`'s def hands it, when that is one and the same callable of the
    module (``choose(flag, grow, shrink, x)`` for ``def choose(flag, on_true, on_false, x)``, with
    ``grow = jax.jit(_grow, static_argnums=0)``): a call of the parameter there runs it, jit and
    all (`tracing.TraceIndex.passed_arguments`, asked through the module's trace index once an
    analysis made one). None when uses hand it different ones, or code we cannot see may."""
    arguments = ctx.passed_arguments(param) if depth < 6 else None  # a parameter handed on through others, or to itself
    if not arguments:
        return None
    targets = [resolve_callable(ctx, a, depth + 1) for a in arguments]
    first = targets[0]
    if first is None or any(t is None or t.function.node is not first.function.node or t.jit_node is not first.jit_node for t in targets):
        return None
    return first


def _rebound_by_jit(ctx: ModuleContext, name: cst.Name) -> Target | None:
    """``def f(...)`` then ``f = jax.jit(f, ...)`` in one block, used from a function body or,
    at module level, after the rebinding.

    Every call made after the module is imported sees the rebinding, and so does module-level
    code that runs after it; the ``f`` inside the rebinding itself is the plain function.
    """
    scope = ctx.scope(name)
    if scope is None:
        return None
    bindings = scope[name.value]
    if len(bindings) != 2 or not all(isinstance(a, Assignment) for a in bindings):
        return None
    defs = [a.node for a in bindings if isinstance(a.node, cst.FunctionDef)]  # type: ignore[attr-defined]
    targets = [a.node for a in bindings if isinstance(a.node, cst.Name)]  # type: ignore[attr-defined]
    if len(defs) != 1 or len(targets) != 1:
        return None
    (fdef,), (target,) = defs, targets
    value = assigned_value(ctx, target)
    applied = read_jit_application(ctx, value) if isinstance(value, cst.Call) else None
    if applied is None or not isinstance(applied[1], cst.Name) or applied[1].value != name.value:
        return None
    rebinding = ctx.statement_of(target)
    if ctx.start(fdef) > ctx.start(rebinding) or ctx.parent(fdef) is not ctx.parent(rebinding):
        return None
    if ctx.enclosing_function(name) is None and (
        ctx.start(name) < ctx.start(rebinding) or any(a is rebinding for a in ctx.ancestors(name))
    ):
        return None  # module-level code before the rebinding, or the rebinding's own `f`
    info = function_info(ctx, fdef)
    if info.opaque or info.jit is not None:
        return None
    return Target(info, applied[0], value, implicit_self=False)


def _resolve_method(ctx: ModuleContext, attr: cst.Attribute) -> Target | None:
    """``self.m`` inside a method of the class that defines ``m``; ``Model(...).m``, or ``obj.m``
    with ``obj = Model(...)`` bound once, for a class of this module (`instance_class`)."""
    cls = receiver_class(ctx, attr.value)
    if cls is None:
        return None
    members = members_named(cls, attr.attr.value)
    if len(members) == 2:
        return _rebound_in_class(ctx, members)
    if len(members) != 1:
        return None
    (member,) = members
    if isinstance(member, cst.FunctionDef):
        return _from_function(ctx, member, via_instance=True)
    value = member.body[0].value  # type: ignore[union-attr]
    return _value_target(ctx, value, in_class=True)


def receiver_class(ctx: ModuleContext, receiver: cst.BaseExpression) -> cst.ClassDef | None:
    """The class an instance method is read from: ``self`` of one of its instance methods, or an
    instance the module builds of it."""
    built = instance_class(ctx, receiver)
    if built is not None:
        return built[0]
    if isinstance(receiver, cst.Attribute):
        return _annotated_field_class(ctx, receiver) or _built_field_class(ctx, receiver)
    if isinstance(receiver, cst.Subscript):
        return _item_class(ctx, receiver)
    if not isinstance(receiver, cst.Name):
        return None
    binding = single_binding(ctx, receiver)
    if isinstance(binding, cst.Name):
        return _fetched_class(ctx, assigned_value(ctx, binding))
    if not isinstance(binding, cst.Param):
        return None
    method = ctx.enclosing_function(binding)
    if not isinstance(method, cst.FunctionDef):
        return None
    positional = [*method.params.posonly_params, *method.params.params]
    if not positional or positional[0] is not binding:
        return None
    cls = ctx.parent(ctx.parent(method))
    if not isinstance(cls, cst.ClassDef):
        return None
    if function_info(ctx, method).method is not MethodKind.INSTANCE:
        return None
    return cls


def _annotated_field_class(ctx: ModuleContext, receiver: cst.Attribute) -> cst.ClassDef | None:
    """``self.block`` where the instance's class declares the field ``block: Block`` (an equinox
    module, a flax struct, a dataclass) with `Block` a class of this module that no class of the
    module derives from (a subclass could override the method)."""
    owner = receiver_class(ctx, receiver.value)
    annotation = declared_annotation(owner, receiver.attr.value) if owner is not None else None
    cls = single_binding(ctx, annotation) if isinstance(annotation, cst.Name) else None
    if not isinstance(cls, cst.ClassDef):
        return None
    return None if subclass_of(ctx, cls) is not None else cls


def _built_field_class(ctx: ModuleContext, receiver: cst.Attribute) -> cst.ClassDef | None:
    """``self._discretizer`` where the instance's class sets the field once, in its ``__init__``'s
    own body, to ``Discretizer(...)`` of a class of this module no class derives from (waymax's
    action-space wrapper), and nothing else in the module stores an attribute of that name."""
    value = _init_field_value(ctx, receiver)
    return _built_class(ctx, value) if value is not None else None


def _built_class(ctx: ModuleContext, value: cst.BaseExpression) -> cst.ClassDef | None:
    """The class `value` constructs, when no class of the module derives from it."""
    built = instance_class(ctx, value)
    if built is None or subclass_of(ctx, built[0]) is not None:
        return None
    return built[0]


def _init_field_value(ctx: ModuleContext, receiver: cst.Attribute) -> cst.BaseExpression | None:
    """What ``self.name`` holds where the instance's class sets it once, in its ``__init__``'s own
    body, and nothing else in the module stores an attribute of that name (nor an item of one, nor
    calls a method that changes a dict or list: ``self._objs[k] = v``, ``self._objs.update(...)``)."""
    owner = receiver_class(ctx, receiver.value)
    init = next((m for m in members_named(owner, "__init__") if isinstance(m, cst.FunctionDef)), None) if owner else None
    if init is None:
        return None
    named = ctx.attributes_named(receiver.attr.value)
    stores = [a for a in named if isinstance(ctx.parent(a), cst.AssignTarget)]
    if len(stores) != 1 or ctx.enclosing_function(stores[0]) is not init or any(changed_in_place(ctx, a) for a in named):
        return None
    assign = ctx.parent(ctx.parent(stores[0]))
    line = ctx.parent(assign)
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1 or ctx.parent(ctx.parent(line)) is not init:
        return None
    if receiver_class(ctx, stores[0].value) is not owner:
        return None
    return assign.value


def changed_in_place(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """An item of `node` stored or deleted, or a changing method called on it."""
    parent = ctx.parent(node)
    if isinstance(parent, cst.Subscript) and parent.value is node:
        return isinstance(ctx.parent(parent), (cst.AssignTarget, cst.AugAssign, cst.Del))
    return isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in CHANGING_METHODS


def _item_class(ctx: ModuleContext, item: cst.Subscript) -> cst.ClassDef | None:
    """``self._objs[name]`` where ``self._objs`` is set once, in ``__init__``, to a dict (list,
    tuple) display every value of which constructs one class, and nothing changes it (a ROOT-like
    workspace, jax#9085); or the same of a name bound once to such a display."""
    container = item.value
    if isinstance(container, cst.Attribute):
        display = _init_field_value(ctx, container)
    elif isinstance(container, cst.Name):
        binding = single_binding(ctx, container)
        if not isinstance(binding, cst.Name) or any(changed_in_place(ctx, r) for r in reads(ctx, binding)):
            return None
        display = assigned_value(ctx, binding)
    else:
        return None
    values = display_items(display)
    classes = {_built_class(ctx, v) for v in values} if values is not None else set()
    return classes.pop() if len(classes) == 1 else None


def _fetched_class(ctx: ModuleContext, value: cst.BaseExpression | None, depth: int = 0) -> cst.ClassDef | None:
    """The class of the object a name is bound to when it is an item of a display of one class's
    instances (`_item_class`), or the one value a function or method of the module returns is
    (``var = workspace.obj("lumi")`` of ``def obj(self, name): return self._objs[name]``)."""
    if isinstance(value, cst.Subscript):
        return _item_class(ctx, value)
    if not isinstance(value, cst.Call) or depth > 3:
        return None
    func = value.func
    fn: cst.CSTNode | None = None
    if isinstance(func, cst.Name):
        fn = single_binding(ctx, func)
    elif isinstance(func, cst.Attribute):
        owner = receiver_class(ctx, func.value)
        members = members_named(owner, func.attr.value) if owner is not None else []
        fn = members[0] if len(members) == 1 else None
    if not isinstance(fn, cst.FunctionDef) or fn.decorators:
        return None
    returns = own_returns(fn)
    if len(returns) != 1 or returns[0].value is None:
        return None
    returned = returns[0].value
    if isinstance(returned, cst.Call) and instance_class(ctx, returned) is not None:
        return _built_class(ctx, returned)  # `return Var()`, unless a subclass may stand for it
    return _fetched_class(ctx, returned, depth + 1)


def _rebound_in_class(ctx: ModuleContext, members: list[cst.CSTNode]) -> Target | None:
    """``def m(self, ...)`` then ``m = jax.jit(m, ...)`` in a class body: ``self.m`` is the jit
    of the def (the class is built by running its body in order)."""
    fdef, rebinding = members
    if not isinstance(fdef, cst.FunctionDef) or isinstance(rebinding, cst.FunctionDef):
        return None
    value = rebinding.body[0].value  # type: ignore[union-attr]
    applied = read_jit_application(ctx, value) if isinstance(value, cst.Call) else None
    if applied is None or not isinstance(applied[1], cst.Name) or applied[1].value != fdef.name.value:
        return None
    if single_binding(ctx, applied[1]) not in (fdef, None):
        return None
    info = function_info(ctx, fdef)
    if info.opaque or info.jit is not None:
        return None
    return Target(info, applied[0], value, implicit_self=info.method is MethodKind.INSTANCE)


def _class_member(ctx: ModuleContext, attr: cst.Attribute) -> Target | None:
    """``Model.f``: a staticmethod of a class this module defines, read through the class: a
    plain function. (A method read through its class is left alone: which argument is self
    depends on the call, and a classmethod's bound class is a value the rules do not model.)"""
    member = _class_def_member(ctx, attr)
    if member is None:
        return None
    info = function_info(ctx, member)
    if info.opaque or info.method is not MethodKind.FUNCTION:
        return None
    return Target(info, info.jit, info.jit_node, False)


def _class_def_member(ctx: ModuleContext, attr: cst.Attribute) -> cst.FunctionDef | None:
    """The one def named `attr.attr` in the body of the class `attr.value` names (bound once)."""
    members = class_members(ctx, attr)
    if not members or len(members) != 1 or not isinstance(members[0], cst.FunctionDef):
        return None
    return members[0]

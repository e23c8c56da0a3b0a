"""Classes that flatten themselves for JAX: which method splits an instance, and into what.

A class registered with ``@jax.tree_util.register_pytree_node_class`` (its
``tree_flatten`` and ``tree_unflatten`` methods) or ``register_pytree_node(Cls,
flatten, unflatten)`` tells JAX itself what an instance is made of: the first
value its flatten returns holds the children, leaves that jit, vmap and the lax
primitives trace; the second, the aux_data, is static: kept in the tree's
structure, hashed and compared with ``==`` (docs/jax306-behaviour.md, "A class
with its own tree_flatten"). JAX202 reads the aux_data (an array there fails the
comparison); JAX306 reads the children (a Python count there is traced).

A subclass decorated again that writes no ``tree_flatten`` of its own flattens
with its base's (ott's ``GromovWasserstein(WassersteinSolver)``): the method is
looked up through the module's own classes, single inheritance only.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.constants import assigned_value, own_returns, single_binding
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import method_named

REGISTER_CLASS = "jax.tree_util.register_pytree_node_class"
REGISTER_NODE = "jax.tree_util.register_pytree_node"


def registration(ctx: ModuleContext, cls: cst.ClassDef) -> cst.Call | None:
    """The module's ``register_pytree_node(Cls, flatten, unflatten)`` of `cls`."""
    for call in ctx.calls_of(REGISTER_NODE):
        if not call.args:
            continue
        first = call.args[0].value
        if isinstance(first, cst.Name) and single_binding(ctx, first) is cls:
            return call
    return None


def decorated(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """``@register_pytree_node_class`` over `cls`."""
    return any(ctx.names.qualified_name(d.decorator) == REGISTER_CLASS for d in cls.decorators)


def registered_def(ctx: ModuleContext, cls: cst.ClassDef, expr: cst.BaseExpression) -> cst.FunctionDef | None:
    """The def a registration names: ``Cls.m``, a method of `cls`, or a function bound once."""
    if isinstance(expr, cst.Attribute):
        if isinstance(expr.value, cst.Name) and single_binding(ctx, expr.value) is cls:
            return method_named(cls, expr.attr.value)
        return None
    function = single_binding(ctx, expr) if isinstance(expr, cst.Name) else None
    return function if isinstance(function, cst.FunctionDef) else None


def module_base(ctx: ModuleContext, cls: cst.ClassDef) -> cst.ClassDef | None:
    """The one base of `cls`, when it is a class of this module bound once."""
    if len(cls.bases) != 1 or cls.bases[0].keyword is not None or not isinstance(cls.bases[0].value, cst.Name):
        return None
    base = single_binding(ctx, cls.bases[0].value)
    return base if isinstance(base, cst.ClassDef) else None


def inherited_method(ctx: ModuleContext, cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    """The def `name` an instance of `cls` runs: its own, or its module bases' (single inheritance)."""
    seen: set[int] = set()
    current: cst.ClassDef | None = cls
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = method_named(current, name)
        if found is not None:
            return found
        current = module_base(ctx, current)
    return None


def flatten_method(ctx: ModuleContext, cls: cst.ClassDef) -> cst.FunctionDef | None:
    """The method that flattens `cls` for JAX: ``tree_flatten`` under
    ``@register_pytree_node_class`` (the class's own, or a module base's), or the ``Cls.m`` (or
    module-level function, its first parameter the instance) a ``register_pytree_node(Cls,
    flatten, ...)`` of the module names."""
    if decorated(ctx, cls):
        return inherited_method(ctx, cls, "tree_flatten")
    call = registration(ctx, cls)
    if call is None or len(call.args) < 2:
        return None
    second = call.args[1].value
    function = registered_def(ctx, cls, second)
    if isinstance(second, cst.Name) and function is not None and ctx.enclosing_function(function) is not None:
        return None  # a def nested in a function: not followed
    return function


def unflatten_function(ctx: ModuleContext, cls: cst.ClassDef) -> tuple[cst.FunctionDef, int] | None:
    """The function that rebuilds `cls` and how many leading parameters come before aux_data
    (``cls`` of a classmethod): ``tree_unflatten`` under ``@register_pytree_node_class`` (the
    class's own, or a module base's), or the third argument of ``register_pytree_node(Cls, ...)``."""
    if decorated(ctx, cls):
        method = inherited_method(ctx, cls, "tree_unflatten")
        return (method, 1) if method is not None else None
    call = registration(ctx, cls)
    if call is None or len(call.args) != 3:
        return None
    third = call.args[2].value
    function = registered_def(ctx, cls, third)
    if function is None:
        return None
    if isinstance(third, cst.Name):
        return function, 0
    classmethod = any(ctx.names.qualified_name(d.decorator) == "builtins.classmethod" for d in function.decorators)
    return (function, 1) if classmethod else None


def unflatten_parameters(ctx: ModuleContext, cls: cst.ClassDef) -> tuple[cst.FunctionDef, str, str] | str:
    """The unflatten function of `cls` and the names of its aux_data and children parameters; or
    why they cannot be read (a repair edits the flatten and the unflatten together)."""
    unflatten = unflatten_function(ctx, cls)
    if unflatten is None:
        return "the unflatten function is not found"
    function, skip = unflatten
    positional = [*function.params.posonly_params, *function.params.params]
    if len(positional) != skip + 2:
        return f"`{function.name.value}` does not take (aux_data, children)"
    return function, positional[skip].name.value, positional[skip + 1].name.value


@dataclass(frozen=True)
class Flattened:
    """The one ``return children, aux_data`` of a flatten method, as written."""

    statement: cst.Return
    children: cst.BaseExpression
    aux: cst.BaseExpression


def flattened(ctx: ModuleContext, flatten: cst.FunctionDef) -> Flattened | None:
    """The flatten's one return, a tuple display of two: (children, aux_data), each as written there
    or as the value of a name the method binds once (``children = (...)`` then ``return children,
    aux``, j-Wave's ``Medium``)."""
    returns = own_returns(flatten)
    value = returns[0].value if len(returns) == 1 else None
    if not isinstance(value, cst.Tuple) or len(value.elements) != 2:
        return None
    first, second = value.elements
    if not isinstance(first, cst.Element) or not isinstance(second, cst.Element):
        return None
    return Flattened(returns[0], _bound_in(ctx, flatten, first.value), _bound_in(ctx, flatten, second.value))


def _bound_in(ctx: ModuleContext, flatten: cst.FunctionDef, expr: cst.BaseExpression) -> cst.BaseExpression:
    """The value of `expr` when it is a name the flatten binds once, by a plain assignment."""
    if not isinstance(expr, cst.Name):
        return expr
    binding = single_binding(ctx, expr)
    value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    return value if value is not None and ctx.enclosing_function(binding) is flatten else expr

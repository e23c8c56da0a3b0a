"""Equinox modules that hold a function as a leaf: what jit and vmap cannot take as an array.

An equinox module is a pytree of all its fields. Some keep a function among
them, not declared static: ``eqx.nn.MLP`` (its activations), the pooling
layers (their reduction), ``eqx.nn.Lambda``, a ``Sequential`` holding one of
those, or a module of the program with a ``Callable`` field given a function
(docs/jax306-behaviour.md, P6). ``jax.jit`` (JAX302) and ``jax.vmap`` (JAX405)
fail on such a leaf; equinox's filtered transforms keep it as it is.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.arguments import passed_to
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.constants import assigned_value, own_returns, single_binding
from jaxfix.transforms.semantics.field_values import given_by
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.python_values import PythonValue, ValueKind, python_value
from jaxfix.transforms.semantics.pytree_classes import EQUINOX, init_stores, pytree_class

FILTER_VMAP = "equinox.filter_vmap"
#: Library modules that hold a function as an ordinary leaf (each probed under jax.jit, P6).
FUNCTION_LEAVES = {
    "equinox.nn.MLP": "its activation functions",
    "equinox.nn.MaxPool1d": "its reduction function",
    "equinox.nn.MaxPool2d": "its reduction function",
    "equinox.nn.MaxPool3d": "its reduction function",
    "equinox.nn.AvgPool1d": "its reduction function",
    "equinox.nn.AvgPool2d": "its reduction function",
    "equinox.nn.AvgPool3d": "its reduction function",
    "equinox.nn.Pool": "its reduction function",
    "equinox.nn.Lambda": "the function it wraps",
}
_SEQUENTIAL = "equinox.nn.Sequential"
_DEPTH = 6


def function_leaf(analysis: Analysis, expr: cst.BaseExpression, depth: int) -> str | None:
    """What function `expr`, an equinox module, holds as a leaf ("its activation functions"), if
    the module shows one: a library module of `FUNCTION_LEAVES`, a ``Sequential`` holding one, or a
    module class of this file whose non-static field is given a function or such a module."""
    ctx = analysis.ctx
    if depth > _DEPTH:
        return None
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        if isinstance(binding, cst.Param):
            # `def rollout(mlp, xs)` called with the module (equinox#630): a call that passes one fails
            passed = passed_to(analysis, binding) or []
            return next((w for value in passed if (w := function_leaf(analysis, value, depth + 1))), None)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return function_leaf(analysis, value, depth + 1) if value is not None else None
    if isinstance(expr, cst.Attribute):
        stored = read_attribute(ctx, expr)  # `self.ensemble`, set once in `__init__`
        return function_leaf(analysis, stored.value, depth + 1) if stored is not None else None
    if isinstance(expr, (cst.List, cst.Tuple)):
        return next((w for e in expr.elements if (w := function_leaf(analysis, e.value, depth + 1))), None)
    if not isinstance(expr, cst.Call):
        return None
    if isinstance(expr.func, cst.Call) and ctx.names.qualified_name(expr.func.func) == FILTER_VMAP and len(expr.func.args) == 1:
        # `eqx.filter_vmap(Model)(keys)`: an ensemble of `Model`s, its arrays stacked, the rest as
        # `Model.__init__` builds them (what the construction passes is mapped: not read here);
        # `eqx.filter_vmap(lambda k: eqx.nn.MLP(..., key=k))(keys)`: what the lambda builds
        built = expr.func.args[0].value
        if isinstance(built, cst.Lambda):
            return function_leaf(analysis, built.body, depth + 1)
        return _class_leaf(analysis, built, None, depth)
    qualified = ctx.names.qualified_name(expr.func) or ""
    if qualified in FUNCTION_LEAVES:
        return FUNCTION_LEAVES[qualified]
    if qualified == _SEQUENTIAL and expr.args:
        return function_leaf(analysis, expr.args[0].value, depth + 1)
    helper = plain_def(ctx, expr.func)
    if helper is not None:
        returns = own_returns(helper)  # `make_ensemble(3, key)`: what its one return builds
        value = returns[0].value if len(returns) == 1 else None
        return function_leaf(analysis, value, depth + 1) if value is not None else None
    return _class_leaf(analysis, expr.func, expr, depth)


def _class_leaf(analysis: Analysis, named: cst.BaseExpression, built: cst.Call | None, depth: int) -> str | None:
    """The function leaf an instance of the equinox module class `named` holds: what its
    ``__init__`` stores, or what the construction `built` (None: not read) gives a field."""
    ctx = analysis.ctx
    cls = single_binding(ctx, named) if isinstance(named, cst.Name) else None
    tree = pytree_class(ctx, cls) if isinstance(cls, cst.ClassDef) else None
    if tree is None or tree.style is not EQUINOX:
        return None
    for field in tree.fields:
        if field.static:
            continue
        stores = init_stores(ctx, tree, field)
        if stores:
            values = [s.value for s in stores]
        elif built is None:
            values = [field.default] if field.default else []
        else:
            given = given_by(built, tree, field)
            values = [given] if isinstance(given, cst.BaseExpression) else [field.default] if field.default else []
        for value in values:
            found = python_value(analysis, value)
            if isinstance(found, PythonValue) and (
                found.kind is ValueKind.CALLABLE or _library_function(ctx.names.qualified_name(value))
            ):
                return f"a function in its field `{field.name}`"
            inner = function_leaf(analysis, value, depth + 1)
            if inner is not None:
                return f"{inner} (in its field `{field.name}`)"
    return None


#: jax.numpy names that are values, not functions.
_JNP_VALUES = frozenset({"pi", "e", "inf", "nan", "euler_gamma", "newaxis", "ndarray", "dtype"})


def _library_function(qualified: str | None) -> bool:
    """A function of jax.nn or jax.numpy (``jax.nn.gelu``, ``jnp.tanh``), not a constant, a dtype or a
    submodule: what an activation field is given."""
    if not qualified:
        return False
    module, _, last = qualified.rpartition(".")
    if module == "jax.nn":
        return last not in ("initializers",)
    if module == "jax.numpy":
        return last.islower() and last not in _JNP_VALUES and not any(ch.isdigit() for ch in last) and last != "bool_"
    return False



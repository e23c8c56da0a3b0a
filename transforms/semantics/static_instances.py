"""Objects a jit hashes: instances of the module's classes handed to a static parameter.

jit hashes each static argument to key its cache, so an instance there must hash. Where the
module shows which instance a call hands a static parameter (built by ``Cls(...)`` and bound
once, read from ``self`` for a method jitted with its receiver static, or an attribute an owner's
``__init__`` stores: ``agent.policies``), `static_instances` lists it with the construction that
made it. JAX403 reports the ones whose hash reaches an array; JAX202 will not make a field of such
a class ordinary when the instance goes to a hash as well.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.arguments import passed_to
from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.class_hashing import constructions, instance_class
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.field_values import given_by
from jaxfix.transforms.semantics.instance_attributes import stored_value
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.pytree_classes import method_named, pytree_class
from jaxfix.transforms.semantics.vocabulary import JIT


@dataclass(frozen=True)
class StaticInstance:
    #: The jitted function, the call through its jit, and the static parameter.
    function: cst.FunctionDef
    call: cst.Call
    param: str
    #: What the call hands it, and the instance's class and construction.
    given: cst.BaseExpression
    cls: cst.ClassDef
    made: cst.Call


def static_instances(analysis: Analysis) -> Iterator[StaticInstance]:
    ctx = analysis.ctx
    for fn in ctx.nodes_of(cst.FunctionDef):
        sig = function_info(ctx, fn).signature
        for route in analysis.traces.routes(fn) or ():
            jits = [w for w in route.wraps if w.name == JIT and w.jit is not None and w.jit.spec is not None]
            if route.call is None or route.escapes or len(jits) != 1:
                continue
            for name in jits[0].jit.spec.declared_static(sig):  # type: ignore[union-attr]
                given = route.argument(sig, name)
                if given is None and route.bound and sig.params and sig.params[0].name == name:
                    given = _receiver(route.call)  # `model(x)`, `m.run(x)`: the jitted method's static `self`
                built = instance_of(analysis, given) if isinstance(given, cst.BaseExpression) else None
                if built is not None:
                    yield StaticInstance(fn, route.call, name, given, *built)  # type: ignore[arg-type]


def _receiver(call: cst.Call) -> cst.BaseExpression | None:
    """The instance a bound call runs its method on: `model` of ``model(x)`` (its ``__call__``) or
    of ``model.run(x)``."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.value
    return func if isinstance(func, cst.Name) else None


def instance_of(analysis: Analysis, expr: cst.BaseExpression) -> tuple[cst.ClassDef, cst.Call] | None:
    """`instance_class`, and ``agent.policies`` where `agent` is one and its class's ``__init__``
    stores ``self.policies = Policies(...)`` (pymdp#346)."""
    ctx = analysis.ctx
    built = instance_class(ctx, expr)
    if built is None and isinstance(expr, cst.Name):
        return _passed_instance(analysis, expr)
    if built is not None or not isinstance(expr, cst.Attribute):
        return built
    owner = instance_class(ctx, expr.value)
    mine = receiver_class(ctx, expr.value) if owner is None else None  # `self._state` in a method: what `__init__` stores
    init = method_named(owner[0] if owner is not None else mine, "__init__") if owner is not None or mine is not None else None  # type: ignore[arg-type]
    value = stored_value(init, expr.attr.value) if init is not None else None
    if value is not None:
        return instance_class(ctx, value)
    return _field_instance(analysis, expr) if owner is None else None


def _passed_instance(analysis: Analysis, name: cst.Name) -> tuple[cst.ClassDef, cst.Call] | None:
    """A parameter every call of its function passes an instance of one class (jax-gcm's
    ``model.resume(boundaries=BoundaryData(...))`` handing it on to a jitted method's static slot):
    that class, and the first call's construction (`arguments.passed_to`: plain calls only)."""
    param = single_binding(analysis.ctx, name)
    given = passed_to(analysis, param) if isinstance(param, cst.Param) else None
    found = [instance_of(analysis, value) for value in given or ()]
    if not found or any(f is None for f in found) or len({id(f[0]) for f in found}) != 1:  # type: ignore[index]
        return None
    return found[0]


def _field_instance(analysis: Analysis, expr: cst.Attribute) -> tuple[cst.ClassDef, cst.Call] | None:
    """``self.renderer`` in a method of a pytree dataclass whose generated ``__init__`` takes the
    field (scarlet2#188's ``Observation(..., renderer=renderer)``): the instance the first
    construction that gives the field one passes."""
    ctx = analysis.ctx
    owner = receiver_class(ctx, expr.value)
    tree = pytree_class(ctx, owner) if owner is not None and method_named(owner, "__init__") is None else None
    field = tree.field(expr.attr.value) if tree is not None else None
    made = constructions(ctx, owner) if field is not None else None  # type: ignore[arg-type]
    for call in made or ():
        given = given_by(call, tree, field)  # type: ignore[arg-type]
        built = instance_class(ctx, given) if isinstance(given, cst.BaseExpression) else None
        if built is not None:
            return built
    return None


"""Which registered dataclasses' instances a traced value may hold, nested ones included.

A model written as nested pytree dataclasses (an actor holding layers, each
holding a dropout) is carried whole through ``lax.scan`` or passed to a jit:
every instance inside is traced with it (docs/jax306-behaviour.md, P1). This
module answers, for the module's traced parameters, which registered classes
may be built into the values they receive, by following each value to where
it is built: ``Model(...)`` and what its arguments build, names bound once,
lists, tuples and comprehensions, and the returns of the module's plain
functions (``actor = make_actor(...)``).

The values a parameter receives are read from its jitted or direct calls, and
from the carry of ``lax.scan`` (its init), ``lax.fori_loop`` and
``lax.while_loop``; anything else adds nothing (no evidence).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.constants import assigned_value, dominating_binding, own_returns, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.pytree_classes import method_named, pytree_class
from jaxfix.transforms.semantics.traced_values import Taint
from jaxfix.transforms.semantics.vocabulary import CARRY_PARAMETER, LAX_PARAMETERS, OPERANDS

#: Loop primitives: the argument position of the carry's initial value, and the body's carry parameter.
_CARRIES = {name: (LAX_PARAMETERS[name].index(OPERANDS[name]), at) for name, at in CARRY_PARAMETER.items()}


class TracedInstances:
    """The registered classes some traced parameter of the module may hold an instance of, each
    with the parameter that shows it."""

    def __init__(self, analysis: Analysis, registered: Callable[[cst.ClassDef], bool] | None = None) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        #: Which classes count (default: the dataclass styles of `pytree_class`; JAX306 also asks
        #: about classes that flatten themselves).
        self.registered = registered or (lambda cls: pytree_class(self.ctx, cls) is not None)
        self._found: dict[cst.ClassDef, tuple[FunctionNode, str]] | None = None
        #: Per traced parameter, the classes the values it receives are instances of (not nested).
        self._direct: dict[tuple[FunctionNode, str], set[cst.ClassDef]] = {}

    def holder(self, cls: cst.ClassDef) -> tuple[FunctionNode, str] | None:
        """(a function, its traced parameter) whose value may hold an instance of `cls`."""
        if self._found is None:
            self._found = self._collect()
        return self._found.get(cls)

    def classes(self) -> frozenset[cst.ClassDef]:
        """Every registered class a traced parameter may hold an instance of."""
        if self._found is None:
            self._found = self._collect()
        return frozenset(self._found)

    def instance_of(self, fn: FunctionNode, param: str) -> cst.ClassDef | None:
        """The one registered class every value `param` of `fn` is shown to receive is an instance
        of (``run(x, Config(...))``); None when no value shows one, or two classes are seen."""
        if self._found is None:
            self._found = self._collect()
        direct = self._direct.get((fn, param), set())
        return next(iter(direct)) if len(direct) == 1 else None

    def receivers(self, cls: cst.ClassDef) -> list[tuple[FunctionNode, str]]:
        """Each traced parameter (its function, its name) a call is shown to hand an instance of `cls`."""
        if self._found is None:
            self._found = self._collect()
        return [key for key, classes in self._direct.items() if cls in classes]

    def classes_of(self, fn: FunctionNode, param: str) -> frozenset[cst.ClassDef]:
        """Every registered class `param` of `fn` is shown to receive an instance of (chex#104's
        ``do_scan(C(...))`` and ``do_scan(D(...))``): a read of a field there reads each's own."""
        if self._found is None:
            self._found = self._collect()
        return frozenset(self._direct.get((fn, param), set()))

    def _collect(self) -> dict[cst.ClassDef, tuple[FunctionNode, str]]:
        ctx = self.ctx
        found: dict[cst.ClassDef, tuple[FunctionNode, str]] = {}
        for fn in ctx.nodes_of(cst.FunctionDef):
            routes = self.analysis.traces.routes(fn) or ()
            sig = function_info(ctx, fn).signature
            for param in sig.params:
                source = self.analysis.traced.param_source(fn, param.name)
                if source is None or source.taint is not Taint.TRACED or source.keeps_value:
                    continue
                for value in self._received(fn, param.name, routes, sig):
                    for cls in self.built_in(value):
                        found.setdefault(cls, (fn, param.name))
                    self._direct.setdefault((fn, param.name), set()).update(self.built_in(value, nested=False))
        return found

    def _received(self, fn: FunctionNode, param: str, routes, sig) -> list[cst.BaseExpression]:
        out: list[cst.BaseExpression] = []
        for route in routes:
            if route.call is not None and not route.escapes:
                argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed)
                if isinstance(argument, cst.BaseExpression):
                    out.append(argument)
            elif route.wraps and isinstance(route.wraps[-1].node, cst.Call):
                primitive = route.wraps[-1]
                carry = _CARRIES.get(primitive.name)
                positional = [a for a in primitive.node.args if a.keyword is None]
                if carry is None or len(route.wraps) != 1 or any(a.star for a in primitive.node.args):
                    continue
                at, index = carry
                params = sig.params
                if index < len(params) and params[index].name == param and at < len(positional):
                    out.append(positional[at].value)
        return out

    def _items(self, iterable: cst.BaseExpression, depth: int) -> list[cst.BaseExpression]:
        """The expressions the items of `iterable` are written as: a display's elements, a
        comprehension's element, through a name bound once or a helper's returns."""
        ctx = self.ctx
        if depth > 8:
            return []
        if isinstance(iterable, (cst.List, cst.Tuple, cst.Set)):
            return [e.value for e in iterable.elements if isinstance(e, cst.Element)]
        if isinstance(iterable, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return [iterable.elt]
        if isinstance(iterable, cst.Name):
            binding = single_binding(ctx, iterable)
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            return self._items(value, depth + 1) if value is not None else []
        function = plain_def(ctx, iterable.func) if isinstance(iterable, cst.Call) else None  # `make()`, `Model.make()`
        if function is None:
            return []
        return [i for r in own_returns(function) if r.value is not None for i in self._items(r.value, depth + 1)]

    def _passed(self, param: cst.Param, depth: int, nested: bool) -> set[cst.ClassDef]:
        """What a parameter is handed, as far as its function's calls show (a helper given the
        jitted function's own parameter: ``_sweep(sampler, ...)``)."""
        fn = self.ctx.enclosing_function(param)
        if not isinstance(fn, cst.FunctionDef):
            return set()
        sig = function_info(self.ctx, fn).signature
        received = self._received(fn, param.name.value, self.analysis.traces.routes(fn) or (), sig)
        return {c for value in received for c in self.built_in(value, depth, nested)}

    def _built_by_init(self, cls: cst.ClassDef, depth: int) -> set[cst.ClassDef]:
        """What a class's own ``__init__`` builds into its instance: ``self.linear = Linear(...)``
        (an equinox module building its sub-modules)."""
        init = method_named(cls, "__init__")
        if init is None:
            return set()
        found: set[cst.ClassDef] = set()
        for assign in self.ctx.nodes_of(cst.Assign):
            if self.ctx.enclosing_function(assign) is init and any(isinstance(t.target, cst.Attribute) for t in assign.targets):
                found |= self.built_in(assign.value, depth)
        return found

    def built_in(self, expr: cst.BaseExpression, depth: int = 0, nested: bool = True) -> set[cst.ClassDef]:
        """Registered classes whose instances may be built into the value of `expr` (`nested`
        False: only the class of the value itself, not of what it holds)."""
        ctx = self.ctx
        if depth > 8:
            return set()
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return {c for e in expr.elements for c in self.built_in(e.value, depth + 1)} if nested else set()
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.built_in(expr.elt, depth + 1) if nested else set()
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr) or dominating_binding(ctx, expr)  # the one reaching here
            if isinstance(binding, cst.Param):
                return self._passed(binding, depth + 1, nested)
            loop = ctx.parent(binding) if isinstance(binding, cst.Name) else None
            if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding:
                # `for foo in make_sensors():` each item of what the loop runs over
                return {c for item in self._items(loop.iter, depth + 1) for c in self.built_in(item, depth + 1, nested)}
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            return self.built_in(value, depth + 1, nested) if value is not None else set()
        if not isinstance(expr, cst.Call):
            return set()
        inside = {c for a in expr.args for c in self.built_in(a.value, depth + 1)} if nested else set()
        callee = single_binding(ctx, expr.func) if isinstance(expr.func, cst.Name) else None
        if isinstance(callee, cst.ClassDef):
            if not self.registered(callee):
                return set()
            return {callee} | inside | (self._built_by_init(callee, depth + 1) if nested else set())
        if isinstance(expr.func, cst.Attribute) and callee is None:
            # `Boozer(...).build(modes)` of a method that returns `self`: the receiver's class
            receivers = self.built_in(expr.func.value, depth + 1, nested=False)
            fluent = {c for c in receivers if _returns_self(method_named(c, expr.func.attr.value))}
            if fluent:
                return fluent | inside
        function = plain_def(ctx, expr.func)
        if function is not None:
            returned = [r.value for r in own_returns(function) if r.value is not None]
            return {c for r in returned for c in self.built_in(r, depth + 1, nested)}
        return set()


def _returns_self(method: cst.FunctionDef | None) -> bool:
    """Every return of the method gives its receiver back (``return self``)."""
    positional = [*method.params.posonly_params, *method.params.params] if method is not None else []
    returns = own_returns(method) if method is not None else []
    return bool(positional and returns) and all(
        isinstance(r.value, cst.Name) and r.value.value == positional[0].name.value for r in returns
    )

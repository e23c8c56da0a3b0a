"""Which functions of a module run traced, and under which jit.

A parameter's value is static only where we can see how the function is
entered. Two cases are provable from one module:

* the function is jitted (decorator, or ``g = jax.jit(f, ...)`` as its only
  use): its declared static parameters are static, the others are tracers;
* the function is *eager*: no decorator but staticmethod/classmethod, every
  reference to it is a direct call, and every such call runs eagerly (at
  module level, or in another eager function). Its parameters hold whatever
  Python values callers pass.

Anything else (passed to vmap or grad, stored, returned, nested in traced
code) is unknown to those two questions. `routes` answers the wider one: every
way the module hands a function on (to jit, vmap, grad, scan, partial, a
name) and how each ends (a call, a primitive, or somewhere we cannot follow);
`Wrap.traces` says which parameters one such layer turns into tracers.
`reached_from` gives the functions whose code may run when some functions run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property

import libcst as cst
from libcst.metadata import Assignment

from jaxfix.transforms.core import identifiers
from jaxfix.transforms.semantics.callables import dispatched_def, plain_def, receiver_class
from jaxfix.transforms.semantics.class_hashing import (
    instance_class,
    linen_module,
    only_reads_class,
    runs_as_written,
    setup_stores,
    static_method,
    subclass_of,
)
from jaxfix.transforms.semantics.constants import (
    NOT_CONSTANT,
    assigned_value,
    class_members,
    constant_value,
    members_named,
    own_returns,
    reaching_parameter,
    single_binding,
)
from jaxfix.transforms.semantics.importers import here, used_elsewhere
from jaxfix.transforms.semantics.instance_attributes import InstanceAttribute, stored_attribute
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import (
    JitWrapper,
    MethodKind,
    function_info,
    read_jit_application,
    read_jit_wrapper,
)
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.optax_schedules import OPTAX_SCHEDULE, schedule_slot, traced_update
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, NOTHING_CONSUMED, Consumed, call_argument
from jaxfix.transforms.semantics.pytree_classes import EQUINOX, FLAX_STRUCT, pytree_class
from jaxfix.transforms.semantics.reads import parameter, reads
from jaxfix.transforms.semantics.vocabulary import (
    ARRAY_TRACING,
    CALLS_NOW,
    DIFFERENTIATION,
    FILTER_VMAP,
    JIT,
    MAPPING,
    NEUTRAL_DECORATORS,
    PARTIAL,
    REVERSE_MODE,
    TRANSFORMS,
    TREE_MAP,
    TREE_MAPS,
)

#: The methods of a flax linen Module that run its ``__call__`` (and ``setup``) with the
#: arguments after the first (the variables, or the keys of ``init``).
LINEN_ENTRIES = ("init", "apply", "init_with_output")


@dataclass(frozen=True)
class JitEntry:
    """How a function is entered through jit: the wrapper and where it is written."""

    wrapper: JitWrapper
    node: cst.CSTNode


class TraceIndex:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self._eager: dict[FunctionNode, bool] = {}
        self._routes: dict[FunctionNode, tuple[Route, ...] | None] = {}
        #: `optax_schedules.traced_update`, once asked.
        self._traced_update: tuple[cst.Attribute | None] | None = None
        #: Parameters whose calls `_parameter_calls` is reading (a cycle ends there).
        self._defaults_asked: set[cst.Param] = set()

    def references(self, fn: FunctionNode) -> list[cst.CSTNode] | None:
        """Every expression in the module that refers to fn; None if unknowable."""
        if isinstance(fn, cst.Lambda):
            return None
        ctx = self.ctx
        if isinstance(ctx.parent(ctx.parent(fn)), cst.ClassDef):
            name = fn.name.value
            # `eqx.partition` read from an imported module is that module's, never this method.
            return [a for a in ctx.attributes_named(name) if ctx.names.qualified_name(a.value) is None]
        scope = ctx.scope(fn)
        if scope is None:
            return None
        refs: list[cst.CSTNode] = []
        for assignment in scope.assignments[fn.name.value]:
            if not isinstance(assignment, Assignment):
                return None
            refs.extend(access.node for access in assignment.references)
        defs = [a.node for a in scope.assignments[fn.name.value] if isinstance(a.node, (cst.FunctionDef, cst.ClassDef))]
        if len(defs) > 1:
            refs = [r for r in refs if self._sees_def(r, fn, defs)]
        return refs

    def _sees_def(self, ref: cst.CSTNode, fn: cst.FunctionDef, defs: list[cst.CSTNode]) -> bool:
        """With two defs of one name (a notebook's later cell, a test redefining `f`), which a use
        means: code running in the defs' own block sees the last def above it; code in another
        function (it runs later, when called) sees the last one."""
        ctx = self.ctx
        if ctx.enclosing_function(ref) is ctx.enclosing_function(fn):
            above = [d for d in defs if ctx.start(d) < ctx.start(ref)]
            return bool(above) and max(above, key=ctx.start) is fn
        return max(defs, key=ctx.start) is fn

    def _direct_call(self, ref: cst.CSTNode) -> cst.Call | None:
        parent = self.ctx.parent(ref)
        return parent if isinstance(parent, cst.Call) and parent.func is ref else None

    def jit_entry(self, fn: FunctionNode) -> JitEntry | None:
        """The jit every entry into fn goes through, if there is exactly one."""
        info = function_info(self.ctx, fn)
        if info.opaque:
            return None
        if info.jit is not None:
            return JitEntry(info.jit, info.jit_node)  # type: ignore[arg-type]
        refs = self.references(fn)
        rebound = self._rebound_entry(fn, refs)
        if rebound is not None:
            return rebound
        if not refs or len(refs) != 1:
            return None
        if self._access(fn, refs[0]).bound:
            return None  # `jax.jit(obj.m)`: its positions count the arguments after the receiver
        parent = self.ctx.parent(self.ctx.parent(refs[0]))
        if isinstance(parent, cst.Call):
            applied = read_jit_application(self.ctx, parent)
            if applied is not None and applied[1] is refs[0]:
                return JitEntry(applied[0], parent)
        return None

    def _rebound_entry(self, fn: FunctionNode, refs) -> JitEntry | None:
        """``f = jax.jit(f, ...)`` after the def: every use after it, and every use from a function
        body, goes through that jit; a module-level use before it does not (then None)."""
        rebinding = self._rebinding(fn)
        if rebinding is None or not refs:
            return None
        wrap, statement = rebinding
        ctx = self.ctx
        # The `f` inside the rebinding is the plain function (a class body's own name may not be
        # listed among the references at all).
        inside = [r for r in refs if any(a is statement for a in ctx.ancestors(r))]
        if len(inside) > 1:
            return None
        for ref in refs:
            if ref not in inside and not self._after_rebinding(ref, statement):
                return None
        applied = read_jit_application(ctx, wrap.node) if isinstance(wrap.node, cst.Call) else None
        return JitEntry(applied[0], wrap.node) if applied is not None else None

    def is_eager(self, fn: FunctionNode) -> bool:
        if fn not in self._eager:
            self._eager[fn] = True  # optimistic while in progress: recursion stays eager
            self._eager[fn] = self._compute_eager(fn)
        return self._eager[fn]

    def _compute_eager(self, fn: FunctionNode) -> bool:
        if isinstance(fn, cst.Lambda) or fn.name.value == "__call__":
            return False  # an instance is called without naming `__call__`: its calls cannot be listed
        ctx = self.ctx
        for decorator in fn.decorators:
            if ctx.names.qualified_name(decorator.decorator) not in NEUTRAL_DECORATORS:
                return False
        outer = ctx.enclosing_function(fn)
        if outer is not None and not self.is_eager(outer):
            return False
        refs = self.references(fn)
        if refs is None:
            return False
        for ref in refs:
            call = self._direct_call(ref)
            if call is None:
                return False
            caller = ctx.enclosing_function(call)
            if caller is not None and not self.is_eager(caller):
                return False
        if outer is None and isinstance(ctx.parent(fn), cst.Module):
            # another module of the project may jit it (`extremes = jax.jit(_extremes)` in main.py
            # for a def of defs.py): its calls there are not all seen here
            return not used_elsewhere(ctx, here(ctx, fn.name.value))
        return True

    # -- every use of a function ---------------------------------------------

    def routes(self, fn: FunctionNode) -> tuple[Route, ...] | None:
        """Every use the module makes of fn; None when its references cannot be listed."""
        if fn not in self._routes:
            self._routes[fn] = self._find_routes(fn)
        return self._routes[fn]

    def _find_routes(self, fn: FunctionNode) -> tuple[Route, ...] | None:
        head = self._decorator_wraps(fn)
        refs = [fn] if isinstance(fn, cst.Lambda) else self.references(fn)
        if refs is None:
            return None
        rebinding = self._rebinding(fn)
        out: list[Route] = []
        for ref in sorted(set(refs), key=self.ctx.start):  # a name bound twice lists each use twice
            wraps = head or ()
            if rebinding is not None:
                jit_wrap, statement = rebinding
                if any(a is jit_wrap.node for a in self.ctx.ancestors(ref)):
                    continue  # the reference inside `f = jax.jit(f)` itself
                if self._after_rebinding(ref, statement):
                    wraps = (*wraps, jit_wrap)
            if self._surely_elsewhere(fn, ref):
                continue  # `Other.m`, or `x.m` of a class nothing builds: another def of that name
            access = self._access(fn, ref)
            if access.uncertain and head is not None and _used_as_operand(self.ctx, ref):
                continue  # `cfg.top_p < x`: a function there raises TypeError, so it is another object's field
            out.extend(
                replace(r, ref=ref, head=len(wraps), bound=access.bound, uncertain=access.uncertain)
                for r in self._climb(ref, wraps, 0)
            )
        out.extend(self._constructions(fn))
        out.extend(self._linen_entries(fn))
        # Its decorators' layers and the jit it is rebound to: what a use from outside goes through.
        outer = (*(head or ()), rebinding[0]) if rebinding is not None else (head or ())
        out.extend(self._instance_calls(fn, outer))  # an instance is called after its class is made
        if not out:  # used from elsewhere
            out = [Route(outer, None, True, head=len(outer))]
        if head is None:  # a decorator we do not understand wraps every use
            out = [replace(r, escapes=True) for r in out]
        return tuple(out)

    def _constructions(self, fn: FunctionNode) -> list[Route]:
        """An ``__init__`` runs at each ``Model(...)``, given the call's arguments after ``self``:
        a route per use of its class (a class of this module, not nested in a class). A use that
        only reads it (``Model.m``, ``isinstance(x, Model)``, an annotation) constructs nothing;
        any other (``make = Model``, a subclass) escapes: its calls cannot all be seen."""
        ctx = self.ctx
        cls = ctx.parent(ctx.parent(fn)) if isinstance(fn, cst.FunctionDef) and fn.name.value == "__init__" else None
        if not isinstance(cls, cst.ClassDef) or isinstance(ctx.parent(ctx.parent(cls)), cst.ClassDef):
            return []  # a class nested in a class is reached through it: not followed
        uses = self._class_uses(cls)
        if uses is None:
            return [Route((), None, True, bound=True)]
        out: list[Route] = []
        for ref in uses:
            parent = ctx.parent(ref)
            if isinstance(parent, cst.Call) and parent.func is ref:
                out.append(Route((), parent, bound=True, ref=ref))
            elif not only_reads_class(ctx, ref):
                out.append(Route((), None, True, bound=True, ref=ref))
        return out

    def _surely_elsewhere(self, fn: FunctionNode, ref: cst.CSTNode) -> bool:
        """Does `ref`, an ``x.m`` found by the name of `fn`, a method, surely read something else?
        ``Other.m`` with ``Other`` another class of this module with no base class; or, fn a
        staticmethod of a class never built (a namespace: every use of its name reads an attribute
        of it, and no other module of the project names it), ``x.m`` of anything but the class."""
        ctx = self.ctx
        cls = ctx.parent(ctx.parent(fn)) if isinstance(fn, cst.FunctionDef) else None
        if not isinstance(ref, cst.Attribute) or not isinstance(cls, cst.ClassDef):
            return False
        bound = single_binding(ctx, ref.value) if isinstance(ref.value, cst.Name) else None
        if isinstance(bound, cst.ClassDef):
            return bound is not cls and not bound.bases  # `Model.forecast`: Model's own, unless it derives
        if function_info(ctx, fn).method is not MethodKind.FUNCTION:
            return False  # an instance method runs on instances built anywhere, another file's too
        if cls.bases or cls.decorators or subclass_of(ctx, cls) is not None:
            return False
        uses = self._class_uses(cls)
        if uses is None or not all(only_reads_class(ctx, u) for u in uses):
            return False
        return not used_elsewhere(ctx, here(ctx, cls.name.value))

    def _class_uses(self, cls: cst.ClassDef) -> list[cst.CSTNode] | None:
        """Every use of the class's name, in source order; None when the name is bound more than once."""
        scope = self.ctx.scope(cls)
        assignments = scope.assignments[cls.name.value] if scope is not None else ()
        if len(assignments) != 1 or not isinstance(next(iter(assignments)), Assignment):
            return None
        return sorted((a.node for a in next(iter(assignments)).references), key=self.ctx.start)

    def _linen_entries(self, fn: FunctionNode) -> list[Route]:
        """The ``__call__`` of a flax linen Module runs at ``model.apply(variables, *args)`` and
        ``model.init(rng, *args)`` (without ``method=``), and at ``model(*args)`` (a submodule
        called from another module's code), for `model` an instance the module surely builds of
        its class. `apply`'s first argument fills the slot of ``self`` (`Route.from_call`);
        a jit around ``model.apply`` sees the same positions. Flax also runs it from code this
        module cannot see (``self.sub(x)`` of a submodule made in ``setup``): one route escapes."""
        ctx = self.ctx
        cls = ctx.parent(ctx.parent(fn)) if isinstance(fn, cst.FunctionDef) and fn.name.value == "__call__" else None
        if not isinstance(cls, cst.ClassDef) or not linen_module(ctx, cls):
            return []
        out = [Route((), None, True, bound=True)] if self._linen_runs_unseen(cls) else []
        for attribute in (*ctx.attributes_named("apply"), *ctx.attributes_named("init")):
            built = instance_class(ctx, attribute.value)
            if built is None or built[0] is not cls:
                continue
            for route in self._climb(attribute, (), 0):
                mapped = route.wraps and (len(route.wraps) > 1 or route.wraps[0].name != JIT or _has_static_options(route.wraps[0]))
                if route.call is None or mapped or any(a.keyword is not None and a.keyword.value == "method" for a in route.call.args):
                    continue  # another method, or positions a layer counts differently from `__call__`'s
                out.append(replace(route, ref=attribute, from_call=True, consumed=LINEN_APPLY))
        for call in self._instance_called.get(cls, ()):
            out.append(Route((), call, bound=True, ref=call.func))
        out.extend(Route((), call, bound=True, ref=call.func) for call in self._setup_submodule_calls.get(cls, ()))
        return out

    @cached_property
    def _instance_called(self) -> dict[cst.ClassDef, list[cst.Call]]:
        """Each class of the module -> the calls of an instance it surely builds (``model(x)``,
        ``Model()(x)``): found in one pass over the calls, for every linen ``__call__`` asked about."""
        out: dict[cst.ClassDef, list[cst.Call]] = {}
        for call in self.ctx.calls:
            built = instance_class(self.ctx, call.func)
            if built is not None:
                out.setdefault(built[0], []).append(call)
        return out

    @cached_property
    def _setup_submodule_calls(self) -> dict[cst.ClassDef, list[cst.Call]]:
        """Each class -> ``self.experts(mask, x)`` in a method of another linen Module whose
        ``setup`` alone stores ``self.experts = Cls(...)`` (the Mixtral block of jax#19424;
        `class_hashing.setup_stores`): calls of the class's ``__call__``. Flax binds the submodule
        there; what the parent's method passes is what it gets."""
        ctx = self.ctx
        out: dict[cst.ClassDef, list[cst.Call]] = {}
        for parent in ctx.nodes_of(cst.ClassDef):
            if not linen_module(ctx, parent) or not isinstance(parent.body, cst.IndentedBlock):
                continue
            methods = [m for m in parent.body.body if isinstance(m, cst.FunctionDef)]
            for name, value in setup_stores(ctx, parent).items():
                built = instance_class(ctx, value)
                if built is None or built[0] is parent:
                    continue
                cls = built[0]
                for method in methods:
                    me = method.params.params[0].name.value if method.params.params else None
                    for attr in ctx.attributes_named(name):
                        call = ctx.parent(attr)
                        inside = any(a is method for a in ctx.ancestors(attr))
                        if inside and isinstance(attr.value, cst.Name) and attr.value.value == me and isinstance(call, cst.Call) and call.func is attr:
                            out.setdefault(cls, []).append(call)
        return out

    def _instance_calls(self, fn: FunctionNode, head: tuple[Wrap, ...]) -> list[Route]:
        """The ``__call__`` of a plain class of this module runs where an instance is called:
        ``model(x)``, ``Model()(x)``, or through a layer, ``jax.jit(model)(x)`` (gwpopulation's
        population models, jitted whole). Each construction, used at once or bound once to a name,
        is followed as a reference to a method bound to its receiver; reading the instance's
        attributes (``model.grid``, ``model.step(x)``) calls no ``__call__``; a use of the class
        other than a construction (a subclass, an alias) escapes: its instances are not all seen.
        `head`: the layers the method's decorators put around it (``@jax.jit def __call__``)."""
        ctx = self.ctx
        cls = ctx.parent(ctx.parent(fn)) if isinstance(fn, cst.FunctionDef) and fn.name.value == "__call__" else None
        if not isinstance(cls, cst.ClassDef) or linen_module(ctx, cls) or isinstance(ctx.parent(ctx.parent(cls)), cst.ClassDef):
            return []
        uses = self._class_uses(cls)
        if uses is None:
            return [Route((), None, True, bound=True)]
        out: list[Route] = []
        for ref in uses:
            made = ctx.parent(ref)
            if not (isinstance(made, cst.Call) and made.func is ref):
                if only_reads_class(ctx, ref):
                    continue
                return [Route((), None, True, bound=True)]
            target = _assigned_name(ctx, made)
            instances = self._name_references(target) if target is not None else [made]
            if instances is None:
                out.append(Route((), None, True, bound=True))
                continue
            for use in instances:
                parent = ctx.parent(use)
                if isinstance(parent, cst.Attribute) and parent.value is use:
                    continue  # an attribute of the instance, not its call
                out.extend(replace(r, ref=use, bound=True, head=len(head)) for r in self._climb(use, head, 0))
        return out

    def _linen_runs_unseen(self, cls: cst.ClassDef) -> bool:
        """May flax run the module's ``__call__`` where this module cannot see? Not when the class
        is used nowhere else in the project, and every use of its name here is ``Cls(...)`` called
        at once, or bound once to a name read only as ``model.init`` / ``model.apply`` (a
        top-level model, never a submodule another module's ``setup`` keeps)."""
        ctx = self.ctx
        scope = ctx.scope(cls)
        assignments = scope.assignments[cls.name.value] if scope is not None else ()
        if len(assignments) != 1 or not isinstance(next(iter(assignments)), Assignment):
            return True
        for access in next(iter(assignments)).references:
            made = ctx.parent(access.node)
            if not isinstance(made, cst.Call) or made.func is not access.node:
                return True
            if self._entered_only(made):
                continue
            statement = ctx.parent(made)
            target = statement.targets[0].target if isinstance(statement, cst.Assign) and len(statement.targets) == 1 else None
            refs = self._name_references(target) if isinstance(target, cst.Name) else None
            if not refs or not all(self._entered_only(ref) for ref in refs):
                return True
        # Last: the other modules are parsed to answer it.
        return used_elsewhere(ctx, here(ctx, cls.name.value))

    def _entered_only(self, instance: cst.CSTNode) -> bool:
        """`instance` is called at once (``Cls(...)(x)``) or read as ``.init`` / ``.apply``."""
        parent = self.ctx.parent(instance)
        if isinstance(parent, cst.Call) and parent.func is instance:
            return True
        return isinstance(parent, cst.Attribute) and parent.value is instance and parent.attr.value in LINEN_ENTRIES

    def binds_receiver(self, fn: FunctionNode, ref: cst.CSTNode) -> bool:
        """Does `ref` read fn as a method bound to its receiver (``obj.m``, ``self.m``)?"""
        return self._access(fn, ref).bound

    def _access(self, fn: FunctionNode, ref: cst.CSTNode) -> MethodAccess:
        """How a reference reaches fn: does it bind fn's first parameter, and is it surely fn?

        A method is found by its attribute name, so ``other.step`` may be some
        other class's ``step``: only ``self.m`` (the first parameter of an
        instance method of fn's own class), ``Cls.m``, ``Cls(...).m`` and
        ``m.step`` with ``m = Cls(...)`` bound once are surely fn. An
        instance method read from an instance, and a classmethod read from
        anything, is bound: its first parameter is the receiver, which no layer
        put around the bound method ever sees (``jax.vmap(self.step)`` maps
        step's other parameters, never ``self``).
        """
        if not isinstance(ref, cst.Attribute) or isinstance(fn, cst.Lambda):
            return MethodAccess(bound=False, uncertain=False)
        kind = function_info(self.ctx, fn).method
        cls = self.ctx.parent(self.ctx.parent(fn))
        receiver = ref.value
        binding = single_binding(self.ctx, receiver) if isinstance(receiver, cst.Name) else None
        if binding is not None and binding is cls:
            return MethodAccess(bound=kind is MethodKind.CLASS, uncertain=False)
        # `self` of one of the class's instance methods, or an instance the module builds of it.
        read_from = receiver_class(self.ctx, receiver)
        surely = read_from is cls or any(
            _finds_method(self.ctx, built, fn)
            for built in (read_from, self._default_instance_of(receiver), self.passed_instance_of(receiver))
        )
        return MethodAccess(bound=kind is not MethodKind.FUNCTION, uncertain=not surely)

    def passed_instance_of(self, receiver: cst.BaseExpression) -> cst.ClassDef | None:
        """The class every call of a function passes an instance of to its parameter `receiver`
        (``condition(Exp(scale=1.0), X)`` for ``def condition(kernel, X)``, or a method's own
        ``self``), where each call can be read."""
        read = self._parameter_calls(receiver)
        if read is None:
            return self._passed_class(receiver)  # `jit(partial(generic, likelihood))` binds it
        binding, routes, sig = read
        found: set[cst.ClassDef] = set()
        for route in routes:
            argument = call_argument(route.call, sig, binding.name.value, bound=route.bound)  # type: ignore[arg-type]
            cls = self._argument_class(argument)
            if cls is None:
                return None
            found.add(cls)
        return found.pop() if len(found) == 1 else None

    def _default_instance_of(self, receiver: cst.BaseExpression) -> cst.ClassDef | None:
        """The class of a parameter's default ``Cls(...)`` (``def get(x, emu=Emulator()):``) when
        every call of its function leaves the parameter out: then it surely holds that instance."""
        read = self._parameter_calls(receiver)
        if read is None or read[0].default is None:
            return None
        binding, routes, sig = read
        built = instance_class(self.ctx, binding.default)  # type: ignore[arg-type]
        if built is None or any(call_argument(r.call, sig, binding.name.value, bound=r.bound) is not DEFAULT for r in routes):  # type: ignore[arg-type]
            return None
        return built[0]

    def _parameter_calls(self, receiver: cst.BaseExpression) -> tuple[cst.Param, tuple[Route, ...], Signature] | None:
        """(the parameter `receiver` names, every route of its function, its signature) when each
        route ends in a call whose arguments are the function's own (no layer that binds or
        consumes some, nothing escaping); None otherwise, or while this parameter is being asked."""
        binding = (single_binding(self.ctx, receiver) or reaching_parameter(self.ctx, receiver)) if isinstance(receiver, cst.Name) else None
        if not isinstance(binding, cst.Param) or binding in self._defaults_asked:
            return None
        fn = self.ctx.enclosing_function(binding)
        if fn is None:
            return None
        self._defaults_asked.add(binding)
        try:
            routes = self.routes(fn)
        finally:
            self._defaults_asked.discard(binding)
        if not routes or any(
            r.call is None or r.escapes or r.uncertain or r.from_call or r.consumed.leading or any(w.name == PARTIAL for w in r.wraps)
            for r in routes
        ):
            return None
        return binding, routes, function_info(self.ctx, fn).signature

    def _decorator_wraps(self, fn: FunctionNode) -> tuple[Wrap, ...] | None:
        """The layers fn's decorators put around it, innermost first; None if one is unknown."""
        if isinstance(fn, cst.Lambda):
            return ()
        wraps: list[Wrap] = []
        for decorator in reversed(fn.decorators):
            if self.ctx.names.qualified_name(decorator.decorator) in NEUTRAL_DECORATORS:
                continue
            layer = self._layer(decorator.decorator, decorator)
            if layer is None:
                return None
            wraps.append(layer)
        return tuple(wraps)

    def _layer(self, expr: cst.BaseExpression, node: cst.CSTNode) -> Wrap | None:
        """`expr` used as a wrapper: a decorator, or the callee of ``partial(jax.vmap, ...)(f)``."""
        ctx = self.ctx
        jit = read_jit_wrapper(ctx, expr)
        if jit is not None:
            return Wrap(JIT, node, jit.call, jit)
        qualified = ctx.names.qualified_name(expr)
        if qualified in TRANSFORMS:
            return Wrap(qualified, node)  # type: ignore[arg-type]
        if isinstance(expr, cst.Call) and ctx.names.qualified_name(expr.func) in ARRAY_TRACING and all(a.keyword for a in expr.args):
            # `@eqx.filter_vmap(in_axes=(0, None))`: equinox's own decorator factory, options only
            return Wrap(ctx.names.qualified_name(expr.func), node, expr)  # type: ignore[arg-type]
        if isinstance(expr, cst.Call) and ctx.names.is_api(expr.func, PARTIAL) and expr.args:
            first = expr.args[0]
            inner = ctx.names.qualified_name(first.value) if first.keyword is None and not first.star else None
            if inner in TRANSFORMS:
                return Wrap(inner, node, expr)  # type: ignore[arg-type]
        return None

    def _optax_schedule(self, call: cst.CSTNode | None, expr: cst.BaseExpression) -> bool:
        """`expr` is an optax optimizer's learning rate, and some `update` of the module runs traced."""
        if not isinstance(call, cst.Call) or not schedule_slot(self.ctx, call, expr):
            return False
        if self._traced_update is None:
            self._traced_update = (traced_update(self.ctx, self._jitted_by_a_route),)
        return self._traced_update[0] is not None

    def _jitted_by_a_route(self, fn: cst.FunctionDef) -> bool:
        """Some way into `fn` goes through a jit (``train_step = jax.jit(train_step)``)."""
        return any(any(w.name == JIT for w in route.wraps) for route in self.routes(fn) or ())

    def _application(self, call: cst.Call, expr: cst.BaseExpression) -> Wrap | None:
        """The layer `call` puts around `expr`, one of its arguments; None: code we do not know."""
        ctx = self.ctx
        applied = read_jit_application(ctx, call)
        if applied is not None:
            return Wrap(JIT, call, applied[0].call, applied[0]) if applied[1] is expr else None
        qualified = ctx.names.qualified_name(call.func)
        if qualified in TRANSFORMS:
            return Wrap(qualified, call, call)  # type: ignore[arg-type]
        if qualified == PARTIAL:
            first = call.args[0] if call.args else None
            if first is not None and first.value is expr and first.keyword is None and not first.star:
                return Wrap(PARTIAL, call, call)
            return None
        layer = self._layer(call.func, call)
        if layer is not None and len(call.args) == 1 and call.args[0].keyword is None:
            return layer
        return None

    def _climb(self, expr: cst.CSTNode, wraps: tuple[Wrap, ...], depth: int) -> Iterator[Route]:
        """Follow one reference outwards through layers and names to where it ends."""
        ctx = self.ctx
        parent = ctx.parent(expr)
        if depth > 12:
            yield Route(wraps, None, True)
        elif isinstance(parent, cst.Call) and parent.func is expr:
            yield Route(wraps, parent)
        elif (staged := staged_call(ctx, expr, wraps)) is not None:
            yield Route(wraps, staged)
        elif isinstance(parent, cst.Arg) and parent.value is expr and _tree_map_function(ctx, parent):
            # `tree_map(f, tree)` calls f right there, with the leaves of `tree`: the caller's values.
            call = ctx.parent(parent)
            yield Route((*wraps, Wrap(TREE_MAP, call, call)), call, consumed=TREE_MAP_CALL)  # type: ignore[arg-type]
        elif isinstance(parent, cst.Arg) and parent.value is expr and self._optax_schedule(ctx.parent(parent), expr):
            # `optax.sgd(schedule)`: optax's `update` calls it with the step count, traced under jit.
            call = ctx.parent(parent)
            yield Route((*wraps, Wrap(OPTAX_SCHEDULE, call, call)))  # type: ignore[arg-type]
        elif isinstance(parent, cst.Arg) and parent.value is expr:
            call = ctx.parent(parent)
            wrap = self._application(call, expr)  # type: ignore[arg-type]
            if wrap is None and (param_reads := self._parameter_reads(call, parent, expr)) is not None:  # type: ignore[arg-type]
                for read in param_reads:  # `solve(rhs, x0)`, and `solve` calls or wraps its parameter
                    yield from (replace(r, handed=r.handed or read) for r in self._climb(read, wraps, depth + 1))
                if not param_reads:
                    yield Route(wraps)
            elif wrap is None:
                yield Route(wraps, None, True)
            elif wrap.name in CALLS_NOW:
                yield Route((*wraps, wrap))
            else:
                yield from self._climb(call, (*wraps, wrap), depth + 1)  # type: ignore[arg-type]
        elif (
            isinstance(parent, (cst.Element, cst.DictElement))
            and parent.value is expr
            and isinstance(container := ctx.parent(parent), (cst.List, cst.Tuple, cst.Dict))
            and not isinstance(ctx.parent(container), cst.Arg)
        ):
            yield from self._table_calls(container, wraps)
        elif isinstance(parent, cst.Element) and isinstance(ctx.parent(parent), (cst.List, cst.Tuple)):
            yield self._branch_list(parent, wraps)
        elif isinstance(parent, cst.IfExp) and expr is not parent.test:
            # `run = jax.jit(iterations) if self.jit else iterations` (ott): either arm is the value.
            yield from self._climb(parent, wraps, depth + 1)
        elif isinstance(parent, cst.Return) and (calls := self._factory_calls(parent)) is not None:
            # `return run` from a factory: each call of the factory stands for the function.
            for call in calls:
                yield from self._climb(call, wraps, depth + 1)
            if not calls:
                yield Route(wraps)
        elif (stored := _stored_once(ctx, expr)) is not None:
            # `self._run = jax.jit(model.run)` in `__init__`, read only as `self._run` in the class's
            # methods (`instance_attributes`): each read stands for the function (openpi#550)
            for read in stored.reads:
                yield from self._climb(read, wraps, depth + 1)
            if not stored.reads:
                yield Route(wraps)
        else:
            target = _assigned_name(ctx, expr)
            refs = self._name_references(target) if target is not None else None
            if refs is None:
                yield Route(wraps, None, True)
            elif not refs:
                yield Route(wraps)
            else:
                for ref in refs:
                    yield from self._climb(ref, wraps, depth + 1)

    def _parameter_reads(self, call: cst.Call, arg: cst.Arg, expr: cst.CSTNode) -> list[cst.CSTNode] | None:
        """``solve_ode(rhs, x0)``: `expr`, a function, handed to a parameter of a def of this module
        that runs as written (`callables.plain_def`). The reads of that parameter in its body stand
        for the function, as a name bound to it would, when every use of the def hands the
        parameter this same function (`passed_functions`), so that whatever a repair edits where
        the parameter is read serves no other function; and the body never binds it again. None
        otherwise: the use escapes, as any call of code we do not follow."""
        ctx = self.ctx
        callee = plain_def(ctx, call.func)
        if callee is None or any(a.star for a in call.args):
            return None
        info = function_info(ctx, callee)
        if isinstance(call.func, cst.Attribute) and info.method is not MethodKind.FUNCTION:
            return None  # a bound method: its first parameter is the receiver
        name = next((p.name for p in info.signature.params if call_argument(call, info.signature, p.name, bound=False) is expr), None)
        param = parameter(callee, name) if name is not None else None
        if param is None:
            return None
        functions = self.functions_in(expr)  # type: ignore[arg-type]
        if len(functions) != 1 or self.passed_functions(param) != functions:
            return None
        scope = ctx.scope(param)
        if scope is None or len(scope.assignments[name]) != 1:
            return None  # the body binds it again: a read may see another value
        return reads(ctx, param.name)

    def _factory_calls(self, returned: cst.Return) -> list[cst.Call] | None:
        """The calls of the undecorated function that returns a function with `returned`, when
        that is its only return and every use of it is a direct call; else None."""
        ctx = self.ctx
        factory = ctx.enclosing_function(returned)
        if not isinstance(factory, cst.FunctionDef) or not runs_as_written(ctx, factory):
            return None  # decorated: what its calls give is not what it returns
        if len(own_returns(factory)) != 1:
            return None
        refs = self.references(factory)
        if refs is None:
            return None
        calls: list[cst.Call] = []
        for ref in refs:
            call = self._direct_call(ref)
            if call is None or self._access(factory, ref).uncertain:
                return None  # used otherwise, or `x.make` that may be another class's `make`
            calls.append(call)
        return calls

    def _table_calls(self, table: cst.List | cst.Tuple | cst.Dict, wraps: tuple[Wrap, ...]) -> Iterator[Route]:
        """A function held in a table of functions (scenic's ``lr_fn_dict()[name](step, **kw)``): the
        table bound once to a name, or returned by a factory; each use that picks a function and calls
        it at once (``TABLE[k](x)``) is a call of this one, as far as its arguments go; a table handed
        to a primitive that calls what it holds (``lax.switch(i, BRANCHES, x)``) is that layer; any
        other use escapes."""
        ctx = self.ctx
        holder = ctx.parent(table)
        uses: list[cst.CSTNode] | None = None
        if isinstance(holder, cst.Return):
            uses = self._factory_calls(holder)  # type: ignore[assignment]
        elif (target := _assigned_name(ctx, table)) is not None:
            uses = self._name_references(target)
        elif isinstance(holder, cst.Subscript) and holder.value is table:
            # `method = {"rk4": rk4, "euler": euler}[name]`: the pick stands for each function held
            yield from self._climb(holder, wraps, 1)
            return
        if uses is None:
            yield Route(wraps, None, True)
            return
        for use in uses:  # none: a table no code reads (a factory never called) calls nothing
            picked = ctx.parent(use)
            call = ctx.parent(picked)
            if isinstance(picked, cst.Subscript) and picked.value is use and isinstance(call, cst.Call) and call.func is picked:
                yield Route(wraps, call)
            else:
                yield self._calls_now(picked, wraps)

    def _branch_list(self, element: cst.Element, wraps: tuple[Wrap, ...]) -> Route:
        """One of ``[f0, f1]`` written right in a primitive's call (``lax.switch``)."""
        return self._calls_now(self.ctx.parent(self.ctx.parent(element)), wraps)  # type: ignore[arg-type]

    def _calls_now(self, arg: cst.CSTNode | None, wraps: tuple[Wrap, ...]) -> Route:
        """The table `arg` is handed to a primitive that calls what it holds (``lax.switch(i, table,
        x)``): that layer; anything else escapes."""
        ctx = self.ctx
        call = ctx.parent(arg) if isinstance(arg, cst.Arg) else None
        qualified = ctx.names.qualified_name(call.func) if isinstance(call, cst.Call) else None
        if qualified in CALLS_NOW:
            return Route((*wraps, Wrap(qualified, call, call)))  # type: ignore[arg-type]
        return Route(wraps, None, True)

    def _name_references(self, target: cst.Name) -> list[cst.CSTNode] | None:
        """Uses of a name bound once (``g = jax.jit(f)``); None when it is bound more than once."""
        scope = self.ctx.scope(target)
        if scope is None:
            return None
        assignments = scope.assignments[target.value]
        if len(assignments) != 1:
            return None
        (assignment,) = assignments
        if not isinstance(assignment, Assignment) or assignment.node is not target:
            return None
        return [access.node for access in assignment.references]

    def _after_rebinding(self, ref: cst.CSTNode, statement: cst.CSTNode) -> bool:
        """Does this use see the rebinding ``f = jax.jit(f)``? From code after the statement in the
        same body, yes; from another function's body (it runs when called, after the block that
        rebinds is built), yes; from code above it in the same body (a script's `main()` calling
        `pad(...)` eagerly before `pad = jax.jit(pad, ...)`), no."""
        if self.ctx.enclosing_function(ref) is not self.ctx.enclosing_function(statement):
            return True
        return self.ctx.start(ref) > self.ctx.start(statement)

    def rebinding_layer(self, fn: FunctionNode) -> Wrap | None:
        """The layer ``f = jax.checkpoint(f)`` (or any transform, jit included) puts around `fn` by
        assigning its own name, as the routes of the uses after it carry it; None without one."""
        rebinding = self._rebinding(fn)
        return rebinding[0] if rebinding is not None else None

    def _rebinding(self, fn: FunctionNode) -> tuple[Wrap, cst.CSTNode] | None:
        """``def f(...)`` then ``f = jax.jit(f, ...)`` in the same block: (that layer, its statement).

        Any transform that returns a function is applied this way too
        (``MLP = jax.checkpoint(MLP)``, ``f = jax.vmap(f, in_axes=(0, None))``): a decorator
        written as an assignment, and the layer of every use that sees it.
        """
        if not isinstance(fn, cst.FunctionDef):
            return None
        scope = self.ctx.scope(fn)
        if scope is None:
            return None
        bindings = list(scope.assignments[fn.name.value])
        targets = [a.node for a in bindings if isinstance(a, Assignment) and isinstance(a.node, cst.Name)]
        if len(bindings) != 2 or len(targets) != 1:
            return None
        value = assigned_value(self.ctx, targets[0])
        layer = self._layer_around_name(value) if isinstance(value, cst.Call) else None
        if layer is None or layer[1].value != fn.name.value:
            return None
        statement = self.ctx.statement_of(targets[0])
        if self.ctx.parent(statement) is not self.ctx.parent(fn) or self.ctx.start(statement) < self.ctx.start(fn):
            return None
        return layer[0], statement

    def _layer_around_name(self, value: cst.Call) -> tuple[Wrap, cst.Name] | None:
        """The layer ``jax.jit(f, ...)`` or ``jax.checkpoint(f, ...)`` puts around the name `f`."""
        applied = read_jit_application(self.ctx, value)
        if applied is not None:
            if not isinstance(applied[1], cst.Name):
                return None
            return Wrap(JIT, value, applied[0].call, applied[0]), applied[1]
        qualified = self.ctx.names.qualified_name(value.func)
        first = value.args[0] if value.args else None
        if qualified not in TRANSFORMS or qualified in CALLS_NOW or first is None or first.keyword or first.star:
            return None
        return (Wrap(qualified, value, value), first.value) if isinstance(first.value, cst.Name) else None

    # -- which functions run under which transforms --------------------------

    def handed_to(self, transforms: Iterable[str]) -> frozenset[FunctionNode]:
        """Every function the module hands to one of these transforms, as decorator or argument."""
        names = frozenset(identifiers.names(transforms))
        ctx = self.ctx
        found: set[FunctionNode] = set()
        for call in ctx.calls:
            layer = self._layer(call.func, call)
            if ctx.names.qualified_name(call.func) in names or (layer is not None and layer.name in names):
                for arg in call.args:
                    found |= self.functions_in(arg.value)
        for fn in ctx.nodes_of(cst.FunctionDef):
            if any((layer := self._layer(d.decorator, d)) is not None and layer.name in names for d in fn.decorators):
                found.add(fn)
        return frozenset(found)

    def reverse_mode_root(self, node: cst.CSTNode) -> FunctionNode | None:
        """A function the module differentiates in reverse mode (`REVERSE_MODE`: ``jax.grad``,
        ``vjp``...) whose code may run `node`, the first in source order; None if none."""
        enclosing = set()
        fn = self.ctx.enclosing_function(node)
        while fn is not None:
            enclosing.add(fn)
            fn = self.ctx.enclosing_function(fn)
        return next((root for root, reach in self._reverse_reach if enclosing & reach), None)

    @cached_property
    def _reverse_reach(self) -> list[tuple[FunctionNode, frozenset[FunctionNode]]]:
        roots = sorted(self.handed_to(REVERSE_MODE), key=self.ctx.start)
        return [(root, self.reached_from([root])) for root in roots]

    def functions_in(self, expr: cst.BaseExpression, _depth: int = 0) -> frozenset[FunctionNode]:
        """The module's functions an expression may stand for: ``f``, ``jax.jit(f)``, ``partial(f, 1)``, a lambda,
        an instance of a class of the module (its ``__call__``)."""
        ctx = self.ctx
        if _depth > 8:
            return frozenset()
        if isinstance(expr, cst.Lambda):
            return frozenset({expr})
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr)
            if isinstance(binding, cst.FunctionDef):
                return frozenset({binding})
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            if value is not None:
                return self.functions_in(value, _depth + 1)
            if isinstance(binding, cst.Param):
                return self.passed_functions(binding, _depth + 1) or frozenset()
            return self._rebound_defs(expr)
        if isinstance(expr, cst.Attribute):
            return self._class_members(expr) | self._linen_runs(expr) | self._stored_functions(expr, _depth)
        if isinstance(expr, cst.Call):
            found: set[FunctionNode] = set()
            built = instance_class(ctx, expr)
            if built is not None:
                # `Decoder(...)`: an instance, called through its `__call__` (jax.jit(decoder)).
                found |= set(call_defs(built[0]))
            for arg in expr.args:
                found |= self.functions_in(arg.value, _depth + 1)
            if isinstance(expr.func, cst.Call):
                found |= self.functions_in(expr.func, _depth + 1)
            found |= self.made_by_factory(expr, _depth)
            return frozenset(found)
        return frozenset()

    def passed_functions(self, param: cst.Param, _depth: int = 0) -> frozenset[FunctionNode] | None:
        """The module's functions that the uses of `param`'s function hand it (``solve_ode(...,
        dfx=lorenz)``, then ``dfx(t, x)`` in its body runs `lorenz`; `passed_arguments`). None
        when some argument is no function of the module (an import, a value built at run time):
        what runs there is then not all known."""
        arguments = self.passed_arguments(param, _depth)
        if arguments is None:
            return None
        found: set[FunctionNode] = set()
        for argument in arguments:
            passed = self.functions_in(argument, _depth + 1)
            if not passed:
                return None
            found |= passed
        return frozenset(found)

    def passed_arguments(self, param: cst.Param, _depth: int = 0) -> tuple[cst.BaseExpression, ...] | None:
        """What each use of `param`'s function hands it: the call's argument, or what a
        ``partial`` around the function binds, passed through no layer but a jit that keeps it
        static. None when a use escapes, may be another function's, or leaves the parameter to its
        default. Asked again while answering (a parameter handed on to itself), it answers None."""
        fn = self.ctx.enclosing_function(param)
        if fn is None or param.star or param in self._defaults_asked or _depth > 8:
            return None
        self._defaults_asked.add(param)
        try:
            routes = self.routes(fn)
            if not routes:
                return None
            signature = function_info(self.ctx, fn).signature
            name = param.name.value
            found: list[cst.BaseExpression] = []
            for route in routes:
                if route.escapes or route.uncertain or route.from_call:
                    return None
                argument = route.partial_argument(signature, name)
                if argument is None:
                    if route.call is None or not self._keeps_object(route, signature, name):
                        return None
                    argument = route.argument(signature, name)
                if not isinstance(argument, cst.BaseExpression):
                    return None
                found.append(argument)
            return tuple(found)
        finally:
            self._defaults_asked.discard(param)

    def _stored_functions(self, attr: cst.Attribute, depth: int) -> frozenset[FunctionNode]:
        """``fns.allocate`` where `fns` is an object a function of the module builds and stores
        functions on (``fns.allocate = allocate`` in jax-md's style of ``neighbor_list``), read
        through a name bound once to it or to what a factory returns: the functions stored under
        that attribute (what may run where it is called)."""
        ctx = self.ctx
        holders: list[cst.Name] = []
        receiver = attr.value
        binding = single_binding(ctx, receiver) if isinstance(receiver, cst.Name) else None
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        if isinstance(binding, cst.Name):
            holders.append(binding)
        if isinstance(value, cst.Call):
            factory = plain_def(ctx, value.func)
            for returned in own_returns(factory) if factory is not None else ():
                if isinstance(returned.value, cst.Name):
                    inner = single_binding(ctx, returned.value)
                    if isinstance(inner, cst.Name):
                        holders.append(inner)
        found: set[FunctionNode] = set()
        for holder in holders:
            fn = ctx.enclosing_function(holder)
            for target, stored in self._name_attribute_stores.get(attr.attr.value, ()):
                if single_binding(ctx, target.value) is holder and ctx.enclosing_function(target) is fn:  # type: ignore[arg-type]
                    found |= self.functions_in(stored, depth + 1)
        return frozenset(found)

    @cached_property
    def _name_attribute_stores(self) -> dict[str, list[tuple[cst.Attribute, cst.BaseExpression]]]:
        """Each attribute name -> the ``name.attr = value`` statements of the module (one target,
        stored on a plain name): the stores `_stored_functions` reads, listed in one pass."""
        out: dict[str, list[tuple[cst.Attribute, cst.BaseExpression]]] = {}
        for statement in self.ctx.nodes_of(cst.Assign):
            target = statement.targets[0].target if len(statement.targets) == 1 else None
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                out.setdefault(target.attr.value, []).append((target, statement.value))
        return out

    @cached_property
    def linen_initializers(self) -> frozenset[FunctionNode]:
        """The functions a flax linen Module of this module hands ``self.param(name, init_fn, ...)``:
        flax evaluates each under ``jax.eval_shape`` at every ``apply`` (and under init's trace at
        ``init``), so they always run staged (docs/flax-linen-behaviour.md)."""
        ctx = self.ctx
        found: set[FunctionNode] = set()
        for attribute in ctx.attributes_named("param"):
            call = ctx.parent(attribute)
            if not (isinstance(call, cst.Call) and call.func is attribute and len(call.args) >= 2):
                continue
            if call.args[1].keyword is not None or call.args[1].star:
                continue
            cls = receiver_class(ctx, attribute.value)
            if cls is None or not linen_module(ctx, cls):
                continue
            found |= self.functions_in(call.args[1].value)
        return frozenset(found)

    def _linen_runs(self, attr: cst.Attribute) -> frozenset[FunctionNode]:
        """``model.init`` / ``model.apply`` handed on (``jax.jit(model.init)``), for `model` an instance
        the module surely builds of a flax linen Module class of its own: they run its ``__call__``
        (the method a ``method=`` names is not read here, so its ``__call__`` stands for it)."""
        if attr.attr.value not in LINEN_ENTRIES:
            return frozenset()
        built = instance_class(self.ctx, attr.value)
        if built is None or not linen_module(self.ctx, built[0]):
            return frozenset()
        return frozenset(call_defs(built[0]))

    def made_by_factory(self, call: cst.Call, depth: int = 0) -> frozenset[FunctionNode]:
        """``run = make_run(...)``: the functions an undecorated def (or a staticmethod,
        ``Model.make_run(...)``, a method of an instance whose class is known,
        ``potential.to_reference()``, or the implementation a singledispatch function runs for
        the call's class, `callables.dispatched_def`) of the module returns (``def make_run(...):
        def run(...): ...; return run``), which the call's result is."""
        if isinstance(call.func, cst.Name):
            factory = single_binding(self.ctx, call.func)
        elif isinstance(call.func, cst.Attribute):
            factory = static_method(self.ctx, call.func)
            if factory is None:
                members = self._class_members(call.func)  # timemachine's `potential.to_reference()`
                factory = next(iter(members)) if len(members) == 1 else None
        else:
            factory = None
        if isinstance(factory, cst.FunctionDef) and not runs_as_written(self.ctx, factory):
            factory = dispatched_def(self.ctx, call)
        if not isinstance(factory, cst.FunctionDef):
            return frozenset()
        found: set[FunctionNode] = set()
        for returned in own_returns(factory):
            if returned.value is not None:
                found |= {f for f in self.functions_in(returned.value, depth + 1) if f is not factory}
        return frozenset(found)

    def _class_members(self, attr: cst.Attribute) -> frozenset[FunctionNode]:
        """``Model.f``: the defs named f in the body of the class Model (a class of this module);
        ``self.f`` in a method of Model, and ``m.f`` with ``m = Model(...)``, the same defs
        (`callables.receiver_class`); ``state.size`` with ``state: GameState`` annotated, GameState's."""
        members = class_members(self.ctx, attr)
        if members is None:
            cls = self.instance_class_of(attr.value) or self._annotated_class(attr.value)
            members = members_named(cls, attr.attr.value) if cls is not None else []
        return frozenset(m for m in members if isinstance(m, cst.FunctionDef))

    def instance_class_of(self, receiver: cst.BaseExpression) -> cst.ClassDef | None:
        """The class of this module `receiver` is an instance of: `callables.receiver_class`, or a
        parameter every use of its function passes one instance of (`_passed_class`)."""
        return receiver_class(self.ctx, receiver) or self._passed_class(receiver)

    def _annotated_class(self, receiver: cst.BaseExpression) -> cst.ClassDef | None:
        """``state.size`` with ``state: GameState`` a parameter: the annotation names a class of this
        module, whose members run when read (pgx's properties). Read as what may run, not as proof
        of what the argument holds."""
        binding = single_binding(self.ctx, receiver) if isinstance(receiver, cst.Name) else None
        annotation = binding.annotation.annotation if isinstance(binding, cst.Param) and binding.annotation is not None else None
        cls = single_binding(self.ctx, annotation) if isinstance(annotation, cst.Name) else None
        return cls if isinstance(cls, cst.ClassDef) else None

    def _passed_class(self, receiver: cst.BaseExpression) -> cst.ClassDef | None:
        """``strategy.default_params`` where `strategy` is a parameter that every use of its
        function passes an instance of one class of this module (evosax#2: ``run_es(key,
        CMA_ES(...), 30)`` through a jit making it static). Only plain calls, and jits or
        partials that keep the parameter static: a traced instance would be a pytree's leaves."""
        binding = single_binding(self.ctx, receiver) if isinstance(receiver, cst.Name) else None
        fn = self.ctx.parent(self.ctx.parent(binding)) if isinstance(binding, cst.Param) else None
        if not isinstance(fn, cst.FunctionDef) or binding.star or binding in self._defaults_asked:  # type: ignore[union-attr]
            return None  # (or this parameter is being asked already: a use of fn found through it proves nothing)
        self._defaults_asked.add(binding)  # type: ignore[arg-type]
        try:
            routes = self.routes(fn)
        finally:
            self._defaults_asked.discard(binding)  # type: ignore[arg-type]
        if not routes or len(routes) > 8:
            return None
        signature = Signature.from_cst(fn.params)
        name = binding.name.value  # type: ignore[union-attr]
        found: set[cst.ClassDef] = set()
        for route in routes:
            if route.escapes or route.uncertain:
                return None
            bound = route.partial_argument(signature, name)
            if bound is not None and route.call is not None and any(
                a.star == "**" or (a.keyword is not None and a.keyword.value == name) for a in route.call.args
            ):
                return None  # the call may give the keyword again, which overrides the partial's
            if bound is not None:
                cls = self._argument_class(bound)  # the partial holds the object: no layer sees it
                if cls is None:
                    return None
                found.add(cls)
                continue
            if route.call is None:
                return None
            cls = self._argument_class(route.argument(signature, name))
            if cls is None or not (self._keeps_object(route, signature, name) or self._rebuilt_by_unflatten(cls)):
                return None
            found.add(cls)
        return found.pop() if len(found) == 1 else None

    def _argument_class(self, argument: object) -> cst.ClassDef | None:
        """The class of this module an argument is an instance of: one it builds, or a method's own
        ``self`` handed on (``iterations(self, ...)`` in ott's solvers)."""
        if not isinstance(argument, cst.BaseExpression):
            return None
        built = instance_class(self.ctx, argument)
        return built[0] if built is not None else receiver_class(self.ctx, argument)

    def _rebuilt_by_unflatten(self, cls: cst.ClassDef) -> bool:
        """A class decorated ``@jax.tree_util.register_pytree_node_class`` whose ``tree_unflatten``
        is a classmethod: a traced instance is rebuilt as one of it (ott's solvers, handed to
        ``jax.jit(iterations)(self, ...)``), so its methods are the ones that run."""
        decorated = any(self.ctx.names.qualified_name(d.decorator) == "jax.tree_util.register_pytree_node_class" for d in cls.decorators)
        unflatten = [m for m in members_named(cls, "tree_unflatten") if isinstance(m, cst.FunctionDef)]
        if decorated and len(unflatten) == 1 and any(
            self.ctx.names.qualified_name(d.decorator) == "builtins.classmethod" for d in unflatten[0].decorators
        ):
            return True
        style = pytree_class(self.ctx, cls)  # an equinox Module or a flax struct: its library rebuilds it
        return style is not None and style.style in (EQUINOX, FLAX_STRUCT)

    @staticmethod
    def _keeps_object(route: Route, signature: Signature, name: str) -> bool:
        """Every layer of the route hands `name` on as the object itself."""
        for wrap in route.wraps:
            if wrap.name == JIT and wrap.jit is not None and wrap.jit.spec is not None:
                if name not in wrap.jit.spec.declared_static(signature):
                    return False
            elif wrap.name != PARTIAL:
                return False
        return True

    def _rebound_defs(self, name: cst.Name) -> frozenset[FunctionNode]:
        """The def behind a name rebound by ``f = jax.jit(f)``."""
        scope = self.ctx.scope(name)
        if scope is None:
            return frozenset()
        defs = [a.node for a in scope.assignments[name.value] if isinstance(getattr(a, "node", None), cst.FunctionDef)]
        return frozenset(d for d in defs if self._rebinding(d) is not None)

    def _constructors(self, name: cst.Name) -> tuple[cst.FunctionDef, ...]:
        """``Spec(...)`` of a class of this module: the methods a construction runs, in the caller's
        trace (``__init__``; a dataclass's ``__post_init__``; an equinox Module's ``__check_init__``).
        jit_env#36: a spec whose ``__init__`` validates ``jnp.asarray(num_values)`` with an ``if``,
        built inside a jitted step."""
        parent = self.ctx.parent(name)
        if not (isinstance(parent, cst.Call) and parent.func is name):
            return ()
        cls = single_binding(self.ctx, name)
        if not isinstance(cls, cst.ClassDef) or not isinstance(cls.body, cst.IndentedBlock):
            return ()
        return tuple(s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value in CONSTRUCTORS)

    def reached_from(self, roots: Iterable[FunctionNode]) -> frozenset[FunctionNode]:
        """Functions whose code may run when the roots run: what they name, transitively, and
        everything written inside them (over-approximated: a nested def may never be called)."""
        seen: set[FunctionNode] = set()
        todo = list(roots)
        while todo:
            fn = todo.pop()
            if fn in seen:
                continue
            seen.add(fn)
            # what fn's own code holds; a nested function's code is read when it is popped
            for node in self.ctx.written_in(fn):
                kind = type(node)
                if kind is cst.Name:
                    todo.extend(self.functions_in(node))
                    todo.extend(self._constructors(node))  # type: ignore[arg-type]
                elif kind is cst.Attribute:
                    # `self.block.foo`: a field's class; `Layer(...).place(...)`: the class built there
                    if type(node.value) in _MEMBER_RECEIVERS:  # type: ignore[attr-defined]
                        todo.extend(self._class_members(node))  # type: ignore[arg-type]
                    if type(node.value) is cst.Name and node.attr.value in self._name_attribute_stores:  # type: ignore[attr-defined]
                        todo.extend(self._stored_functions(node, 0))  # type: ignore[arg-type]
                elif kind is cst.FunctionDef or kind is cst.Lambda:
                    todo.append(node)  # type: ignore[arg-type]
                elif kind is cst.Call and type(node.func) is cst.Call:  # type: ignore[attr-defined]
                    # `Block(features=4)(x)`: a flax submodule built and called at once runs its `__call__`
                    todo.extend(self.functions_in(node.func))  # type: ignore[attr-defined]
        return frozenset(seen)


#: The methods that run when a class is called to build an instance.
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__check_init__"})


# -- how a module hands its functions on ---------------------------------------

_DIFFERENTIATED = DIFFERENTIATION
#: Layers that call the function with the caller's own values: concrete ones when called
#: eagerly (docs/jax301-behaviour.md, A). Only the layers around them can trace.
_PASS_THROUGH = frozenset({"jax.custom_jvp", "jax.custom_vjp", "jax.named_call", "jax.lax.associative_scan"})
#: Options with which a transform keeps some arguments out of tracing in ways not modelled here.
_UNMODELLED = ("static_argnums", "static_argnames", "static_broadcasted_argnums", "nondiff_argnums")


@dataclass(frozen=True)
class Wrap:
    """One layer between a function and the code that runs it.

    A transform (``jax.vmap``, ``jax.grad``, ``lax.scan``...), ``jax.jit`` or
    ``functools.partial``, written as a decorator or as a call.
    """

    #: Qualified name: "jax.vmap", "jax.jit", "jax.lax.scan", "functools.partial".
    name: str
    #: The Decorator or Call that applies the layer.
    node: cst.CSTNode = field(repr=False)
    #: The call holding the layer's options (``in_axes``, ``argnums``), the
    #: function's slot first; None when the defaults apply.
    options: cst.Call | None = field(default=None, repr=False)
    #: For jax.jit: what it makes static.
    jit: JitWrapper | None = field(default=None, repr=False)

    def traces(self, ctx: ModuleContext, sig: Signature, param: str) -> bool | None:
        """Whether this layer hands `param` to the function as a tracer; None: cannot tell.

        vmap traces what in_axes maps (an unmapped argument arrives as the
        Python value it was), grad what argnums names, jit what it does not
        make static, a primitive every operand; custom_jvp and friends nothing
        (docs/jax301-behaviour.md, A).
        """
        index = sig.positional_index(param)
        if self.name == PARTIAL:
            return None  # bound arguments shift every position
        if self.name == JIT:
            if self.jit is None or self.jit.spec is None:
                return None
            return param not in self.jit.spec.declared_static(sig)
        if self.name in _PASS_THROUGH or self.name == TREE_MAP:
            return False
        if self.name in ARRAY_TRACING:
            return None  # an array argument is traced, any other value static: the call tells
        if self._option(_UNMODELLED) is not None:
            return None
        if self.name in MAPPING:
            axes = self._read(ctx, "in_axes", 0)
            if axes is NOT_CONSTANT:
                return None
            if isinstance(axes, tuple):
                if index is None:
                    return True  # keyword arguments are always mapped over axis 0
                if index >= len(axes) or not (axes[index] is None or isinstance(axes[index], int)):
                    return None
                axes = axes[index]
            return axes is not None
        if self.name in _DIFFERENTIATED:
            argnums = self._read(ctx, "argnums", 0)
            numbers = tuple(argnums) if isinstance(argnums, (tuple, list)) else (argnums,)
            if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers):
                return None
            return index is not None and index in numbers
        return True

    def traces_array(self, ctx: ModuleContext, sig: Signature, param: str) -> bool:
        """For an `ARRAY_TRACING` layer, whose `traces` cannot tell: does it trace an array a call
        hands `param`? ``eqx.filter_jit`` every one; ``eqx.filter_vmap`` those its ``in_axes``
        maps: by default (``eqx.if_array(0)``) all, else an int (not None) at the parameter's
        position. In_axes it cannot read: not shown."""
        if self.name != FILTER_VMAP or self._option(("in_axes",)) is None:
            return True
        axes = self._read(ctx, "in_axes", 0)
        if isinstance(axes, tuple):
            index = sig.positional_index(param)
            axes = axes[index] if index is not None and index < len(axes) else None
        return isinstance(axes, int) and not isinstance(axes, bool)

    def counts_positions(self, ctx: ModuleContext) -> bool:
        """Which arguments it traces depends on their positions: argnums, or in_axes per argument."""
        if self.name in _DIFFERENTIATED:
            return True
        if self.name in MAPPING:
            axes = self._read(ctx, "in_axes", 0)
            return not (axes is None or (isinstance(axes, int) and not isinstance(axes, bool)))
        return False

    def _option(self, keywords: tuple[str, ...]) -> cst.Arg | None:
        if self.options is None:
            return None
        return next((a for a in self.options.args if a.keyword is not None and a.keyword.value in keywords), None)

    def _read(self, ctx: ModuleContext, keyword: str, default: object) -> object:
        """The option's literal value: by keyword, or positionally right after the function."""
        arg = self._option((keyword,))
        if arg is None and self.options is not None:
            positional = [a for a in self.options.args if a.keyword is None]
            if any(a.star for a in self.options.args):
                return NOT_CONSTANT
            arg = positional[1] if len(positional) > 1 else None
        if arg is None:
            return default
        return constant_value(ctx, arg.value)


def call_defs(cls: cst.ClassDef) -> list[cst.FunctionDef]:
    """The ``def __call__`` statements of the class body: what calling an instance runs."""
    return [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__call__"]


def linen_apply(ctx: ModuleContext, call: cst.Call) -> cst.FunctionDef | None:
    """The ``__call__`` that ``model.apply(variables, ...)`` (or ``init``) runs: `model` an
    instance the module surely builds of its flax linen Module class, and no ``method=``."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in LINEN_ENTRIES:
        return None
    if any(a.keyword is not None and a.keyword.value == "method" for a in call.args):
        return None
    built = instance_class(ctx, func.value)
    if built is None or not linen_module(ctx, built[0]):
        return None
    found = call_defs(built[0])
    return found[0] if len(found) == 1 else None


def train_state_apply(ctx: ModuleContext, call: cst.Call) -> cst.FunctionDef | None:
    """The ``__call__`` that ``state.apply_fn(variables, ...)`` runs: every ``apply_fn=`` keyword
    the module passes (flax's ``TrainState.create(apply_fn=model.apply, ...)``, a subclass's
    too) is the ``apply`` of an instance of one and the same linen Module class of the module.
    None when the module passes none (the state is built elsewhere) or several differ."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "apply_fn":
        return None
    if any(a.keyword is not None and a.keyword.value == "method" for a in call.args):
        return None
    given = [
        arg.value
        for made in ctx.calls
        for arg in made.args
        if arg.keyword is not None and arg.keyword.value == "apply_fn"
    ]
    runs: set[cst.FunctionDef] = set()
    for value in given:
        if not isinstance(value, cst.Attribute) or value.attr.value != "apply":
            return None
        built = instance_class(ctx, value.value)
        found = call_defs(built[0]) if built is not None and linen_module(ctx, built[0]) else []
        if len(found) != 1:
            return None
        runs.add(found[0])
    return runs.pop() if len(runs) == 1 else None


#: The keywords flax's ``Module.apply`` and ``init`` take for themselves.
LINEN_APPLY = Consumed(keywords=frozenset({"rngs", "mutable", "capture_intermediates", "method"}))
#: ``jax.tree_util.tree_map(f, tree, *rest, is_leaf=None)``: `f` is the first positional.
TREE_MAP_CALL = Consumed(leading=1, keywords=frozenset({"is_leaf"}), leaves=True)


@dataclass(frozen=True)
class MethodAccess:
    """What reading a function through one reference does to it (see `TraceIndex._access`)."""

    #: The reference binds the first parameter (``obj.method``): layers put around it see the rest.
    bound: bool
    #: The reference may name another object's method of the same name.
    uncertain: bool


@dataclass(frozen=True)
class Route:
    """How one reference to a function is used: its layers, innermost first, and its end."""

    wraps: tuple[Wrap, ...]
    #: The call that runs the wrapped function with arguments written here:
    #: ``f(x)``, ``jax.vmap(f)(xs)``. None: a primitive runs it, or nothing does.
    call: cst.Call | None = field(default=None, repr=False)
    #: It goes where this module cannot follow (stored, returned, given to unknown code).
    escapes: bool = False
    #: How many of the wraps (the first ones) are put around the function itself
    #: (decorators, ``f = jax.jit(f)``); the others wrap what the reference gives.
    head: int = 0
    #: The reference binds the function's first parameter (a method read from an
    #: instance): wraps after `head`, and the call, never see that parameter.
    bound: bool = False
    #: The reference may not be to this function at all (a method found by name).
    uncertain: bool = False
    #: The reference the route starts from (None: the function is used from elsewhere).
    ref: cst.CSTNode | None = field(default=None, repr=False)
    #: The call's first argument fills the first parameter's slot though the function is a
    #: method: flax's ``model.apply(variables, *args)`` runs ``__call__(self, *args)``. The
    #: positions line up as for a plain call, but the first parameter is no value of the call.
    from_call: bool = False

    #: What of the call the entry takes for itself, not the function's (`Consumed`).
    consumed: Consumed = field(default_factory=lambda: NOTHING_CONSUMED)
    #: The read of a parameter the function was handed to, where the route goes on from (``step_fn``
    #: in ``lax.scan(step_fn, init, xs)`` of ``def scan_via(step_fn, init, xs)``); None when the route
    #: goes through no parameter. Where the route ends it stands for the function, as `ref` does.
    handed: cst.CSTNode | None = field(default=None, repr=False)

    @property
    def last_ref(self) -> cst.CSTNode | None:
        """The expression that reads the function where the route ends: the parameter it was handed
        to, else the reference it starts from."""
        return self.handed if self.handed is not None else self.ref

    @property
    def jitted_call(self) -> bool:
        """A call written here runs the function through a jit (``f(x)`` of a jitted ``f``): where
        a traced argument's failure shows."""
        return self.call is not None and not self.escapes and any(w.name == JIT for w in self.wraps)

    def argument(self, sig: Signature, param: str) -> cst.BaseExpression | object | None:
        """What the route's call hands `param` (`call_argument`: `DEFAULT` when left to its default);
        for the receiver of a bound method, the instance it is read from (``self.helper(...)``,
        ``model.step(...)``). None without a call."""
        if self.call is None:
            return None
        if self.bound and sig.params and sig.params[0].name == param:
            func = self.call.func
            return func.value if isinstance(func, cst.Attribute) else None
        return call_argument(self.call, sig, param, bound=self.bound, consumed=self.consumed)

    def partial_argument(self, sig: Signature, param: str) -> cst.BaseExpression | None:
        """What ``partial(fn, ...)`` written right around the function binds to `param`; None when
        the route's first layer is no such partial, or it leaves `param` open. Whatever layers come
        after (``jax.jit(partial(eye, 3, 4, k))``, ``vmap``), the partial object closes over the value
        it was given: no transform sees it as an argument."""
        first = self.wraps[0] if self.wraps and not self.bound else None
        call = first.options if first is not None and first.name == PARTIAL else None
        if not isinstance(call, cst.Call) or any(a.star for a in call.args):
            return None
        for arg in call.args[1:]:
            if arg.keyword is not None and arg.keyword.value == param:
                return arg.value
        positional = [a.value for a in call.args[1:] if a.keyword is None]
        index = sig.positional_index(param)
        return positional[index] if index is not None and index < len(positional) else None

    def signature_seen(self, index: int, sig: Signature) -> Signature | None:
        """The signature the wrap at `index` (or, with len(wraps), the call) sees; None: cannot tell."""
        if not self.bound or index < self.head:
            return sig
        return sig.without_first()


#: Receivers of a ``Model.f``-shaped read whose class's member may be what runs.
_MEMBER_RECEIVERS = (cst.Name, cst.Attribute, cst.Call)


#: Methods of a jitted function that take its arguments as a call would: ``jax.jit(f).lower(x, 3)``.
STAGING_METHODS = frozenset({"lower", "trace"})


def staged_call(ctx: ModuleContext, expr: cst.CSTNode, wraps: tuple[Wrap, ...]) -> cst.Call | None:
    """``jax.jit(f).lower(args)``: the call that binds the jitted function's arguments."""
    parent = ctx.parent(expr)
    if not (wraps and wraps[-1].name == JIT and isinstance(parent, cst.Attribute) and parent.value is expr):
        return None
    outer = ctx.parent(parent)
    if parent.attr.value in STAGING_METHODS and isinstance(outer, cst.Call) and outer.func is parent:
        return outer
    return None


#: Comparison operators a function cannot take part in (``==``, ``is`` and ``in`` it can).
_ORDERING = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


def _used_as_operand(ctx: ModuleContext, ref: cst.CSTNode) -> bool:
    """`ref` is an operand of arithmetic, a unary operator or an ordering comparison: where a plain
    function raises TypeError. A method found by its name there (`_access`, uncertain) is another
    object's attribute that shares the name; with `fn` decorated by nothing but what the trace index
    reads (no ``property``, whose read would run it), the reference is no use of `fn`."""
    parent = ctx.parent(ref)
    if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
        return True
    if isinstance(parent, cst.ComparisonTarget):
        return isinstance(parent.operator, _ORDERING)
    if isinstance(parent, cst.Comparison) and parent.left is ref:
        return isinstance(parent.comparisons[0].operator, _ORDERING)
    return False


def _tree_map_function(ctx: ModuleContext, arg: cst.Arg) -> bool:
    """`arg` is the function of a ``tree_map`` call (its first positional argument)."""
    call = ctx.parent(arg)
    if not isinstance(call, cst.Call) or ctx.names.qualified_name(call.func) not in TREE_MAPS:
        return False
    positional = [a for a in call.args if a.keyword is None]
    return bool(positional) and positional[0] is arg and not arg.star


def _finds_method(ctx: ModuleContext, cls: cst.ClassDef | None, fn: FunctionNode) -> bool:
    """Does ``instance.name`` on an instance of `cls` find `fn` (the def of that name in the first
    class of the module, `cls` or a base it names, that defines it)?"""
    if cls is None or not isinstance(fn, cst.FunctionDef):
        return False
    seen: set[int] = set()
    todo = [cls]
    while todo:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        defined = [s for s in current.body.body if isinstance(s, cst.FunctionDef) and s.name.value == fn.name.value]
        if defined:
            return defined[-1] is fn
        for base in current.bases:
            parent = single_binding(ctx, base.value) if base.keyword is None and isinstance(base.value, cst.Name) else None
            if not isinstance(parent, cst.ClassDef):
                return False  # a base the module does not define may define the method
            todo.append(parent)
    return False


def _has_static_options(wrap: Wrap) -> bool:
    """A jit given static positions or names."""
    return wrap.jit is None or wrap.jit.spec is None or not wrap.jit.spec.is_empty


def _stored_once(ctx: ModuleContext, expr: cst.CSTNode) -> InstanceAttribute | None:
    """The attribute ``self.name = expr`` stores, when it is one `instance_attributes` follows."""
    parent = ctx.parent(expr)
    if not (isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1):
        return None
    target = parent.targets[0].target
    return stored_attribute(ctx, target) if isinstance(target, cst.Attribute) else None


def _assigned_name(ctx: ModuleContext, expr: cst.CSTNode) -> cst.Name | None:
    """The name in ``name = expr`` (one plain target), else None."""
    parent = ctx.parent(expr)
    if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1:
        target = parent.targets[0].target
        return target if isinstance(target, cst.Name) else None
    if isinstance(parent, cst.AnnAssign) and parent.value is expr and isinstance(parent.target, cst.Name):
        return parent.target
    return None

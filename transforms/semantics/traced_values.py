"""Is a value certainly a tracer where it is used, and why?

`staticness` asks "is this value provably static"; a loop count asks the
opposite: is it provably *not* a concrete Python value when the code runs, so
that ``.item()``, ``int()``, ``range()`` or a scan ``length`` must fail
(jax-behaviour.md 3a, 3e). A value is traced when it comes from

* a parameter some layer the module puts around its function traces: a jit
  that does not make it static, a vmap that maps it, a primitive
  (``lax.scan``...) that passes it as operand (`tracing.Route`,
  `tracing.Wrap.traces`);
* a parameter that a direct call fills with a traced value;
* arithmetic, methods and ``jax.*`` functions applied to a traced value.

A parameter a jit makes static but that receives a tracer (the module vmaps
the function) or an array is *fed*: the call itself fails with
"Non-hashable static arguments" (3a). Anything else is not provably traced,
and rules leave it alone.

Differentiation alone (``grad``, ``jacfwd``, ``hessian``, ``jvp``... outside
any jit or vmap) hands a function tracers that still hold their concrete
values: ``int(x)``, ``range``, a shape and a Python ``if`` all work
(docs/differentiation-behaviour.md). Such a source `keeps_value`: `source`
and `param_source`, the questions of the rules that need a concrete value,
never give one; `tracer_source` does, for the rules that need a hashable one
(a tracer of any kind passed where jit hashes its static arguments fails).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import libcst as cst
from libcst.metadata import GlobalScope

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.array_api import (
    ARRAY_ATTRIBUTES,
    ARRAY_METHODS,
    JAX_ARRAY_MODULES,
    linen_function,
    linen_layer,
    metadata_call,
)
from jaxfix.transforms.semantics.class_hashing import (
    called_def,
    constructions,
    instance_class,
    linen_module,
    namedtuple_fields,
    setup_stores,
)
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    dominating_binding,
    literal_element,
    members_named,
    own_returns,
    reaching_parameter,
    single_binding,
    unpacked_value,
)
from jaxfix.transforms.semantics.custom_vjp import nondiff_parameter
from jaxfix.transforms.semantics.instance_keywords import argument_variants
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.optax_schedules import OPTAX_SCHEDULE
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.pytree_classes import PytreeClass, instance_class_of, pytree_class
from jaxfix.transforms.semantics.reads import first_parameter
from jaxfix.transforms.semantics.tracing import CONSTRUCTORS, Route, TraceIndex, Wrap, linen_apply
from jaxfix.transforms.semantics.vocabulary import (
    ARRAY_TRACING,
    DIFFERENTIATION,
    FILTER_JIT,
    FILTER_VMAP,
    JIT,
    MAPPING,
    PARTIAL,
)

#: Attributes that stay static on a tracer.
METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})
#: Functions that read array metadata: their results are static even for a tracer.
METADATA_CALLS = frozenset({"jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size", "numpy.shape", "numpy.ndim", "numpy.size"})


#: The hooks a dataclass's generated ``__init__`` runs on the instance it has just filled.
_INIT_HOOKS = CONSTRUCTORS - {"__init__"}
#: How many parameters' sources may be in progress one inside another (a chain of calls).
_MAX_OPEN = 24
#: How many (call, frames) readings of helpers' returns one module may make: beyond, unknown.
_MAX_HELPER_READS = 2000


class Taint(enum.Enum):
    TRACED = "traced"
    #: Static on a jit, but handed a tracer or an array: the call fails on hashing.
    FED = "fed"


@dataclass(frozen=True)
class Source:
    """Why a value is traced: the parameter it comes from and how that parameter is entered."""

    taint: Taint
    function: FunctionNode = field(repr=False)
    param: str
    #: For people: "`n` is a parameter of the jitted `run` that is not static there".
    reason: str
    #: The jit that makes the parameter static (FED) or traces it (TRACED through a jit).
    jit: Wrap | None = field(default=None, repr=False)
    #: The layer that hands the parameter a tracer (a vmap, a primitive), when not the jit.
    via: Wrap | None = field(default=None, repr=False)
    #: A ``.item()``/``int()`` on the way that already turned the tracer into a Python
    #: value (it raises there): ``m = n.item()`` then ``range(m)``.
    concretized: cst.Call | None = field(default=None, repr=False)
    #: Where the tracer first enters, when it reaches `param` through calls passing it on.
    root: Source | None = field(default=None, repr=False)
    #: Only differentiation traces it: a tracer, but one whose concrete value Python can read.
    keeps_value: bool = False
    #: The field of a pytree dataclass the value is, as read (``state.count``), or arithmetic on
    #: it, or a parameter a call fills with it: JAX306 declares such a field static where Python
    #: needs its value, so only the rules that use a tracer as data (`value_source`) see it.
    field: cst.Attribute | None = field(default=None, repr=False)

    @property
    def entry(self) -> Source:
        """The source where the tracer enters the program (itself, or its `root`)."""
        return self.root or self


def conversion_operand(ctx: ModuleContext, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """X for ``X.item()``, ``int(X)``, ``operator.index(X)``: the calls that need a concrete value."""
    if not isinstance(expr, cst.Call):
        return None
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value == "item" and not expr.args:
        return func.value
    if len(expr.args) != 1:
        return None
    arg = expr.args[0]
    if arg.keyword is None and not arg.star and ctx.names.qualified_name(func) in ("builtins.int", "operator.index"):
        return arg.value
    return None


def reaches(ctx: ModuleContext, route: Route, sig: Signature, param: str) -> bool:
    """Does a value passed along this route reach `param`?

    A parameter with a default that the call leaves out keeps its default, a
    Python value, whatever the layers around the function trace: jit, vmap and
    grad trace the arguments a call passes, not the defaults (``@jax.jit def
    f(x, n=10)`` called as ``f(x)`` sees ``n == 10``). Without a call to read
    (a primitive runs it, or it is used elsewhere) that cannot be shown.
    """
    declared = sig.param(param)
    if declared is None or not declared.has_default:
        return True
    if route.call is None or route.escapes or any(w.name == PARTIAL for w in route.wraps):
        return False
    answers = argument_variants(ctx, route.call, sig, param, bound=route.bound, consumed=route.consumed)
    return any(isinstance(answer, cst.BaseExpression) for answer in answers)


def function_name(fn: FunctionNode) -> str:
    return fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"


class TracedValues:
    def __init__(self, ctx: ModuleContext, traces: TraceIndex) -> None:
        self.ctx = ctx
        self.traces = traces
        self._params: dict[tuple[FunctionNode, str], Source | None] = {}
        #: `_applied_variables`' answer per linen class.
        self._linen_variables: dict[cst.ClassDef, list[cst.BaseExpression]] = {}
        #: The helper calls being followed into (`_returned_source`): each helper's parameters
        #: stand for what that one call passes them.
        self._frames: dict[FunctionNode, cst.Call] = {}
        #: Names whose bindings `_every_binding_source` is going through: the bindings a read
        #: met on the way must not count (a binding's value reading the name sees the others).
        self._skipped: dict[tuple[int, str], frozenset[cst.CSTNode]] = {}
        #: Parameters being worked out, one inside the other (`_MAX_OPEN` at most).
        self._open = 0
        #: `_returned_source`'s answers, per call, element and frames; each helper's returns.
        self._returned: dict[tuple[cst.Call, tuple[int, int] | None, frozenset, frozenset], Source | None] = {}
        self._returns: dict[cst.FunctionDef, list[cst.Return]] = {}

    # -- expressions ----------------------------------------------------------
    def source(self, expr: cst.BaseExpression) -> Source | None:
        """Why expr is certainly an abstract tracer (no concrete value) where it is written; None
        if that cannot be shown, or if it is a pytree field as read (JAX306's: `Source.field`)."""
        return _abstract(_no_field(self._source(expr)))

    def tracer_source(self, expr: cst.BaseExpression) -> Source | None:
        """Why expr is certainly a tracer where it is written, one that `keeps_value` included
        (a pytree field as read excluded)."""
        return _no_field(self._source(expr))

    def first_value_source(self, operands: Iterable[cst.BaseExpression]) -> tuple[cst.BaseExpression, Source] | None:
        """The first of `operands` that is a tracer (`value_source`) and its source, one that is no
        pytree field as read first: where both are, the other operand is what no static field fixes."""
        found = [(o, s) for o in operands if (s := self.value_source(o)) is not None]
        return next((f for f in found if f[1].field is None), found[0] if found else None)

    def value_source(self, expr: cst.BaseExpression, *, abstract: bool = True) -> Source | None:
        """`source` (or, not `abstract`, `tracer_source`) with the fields of a traced pytree
        dataclass: for the rules that hand the tracer on as data (``np.asarray(state.obs)``,
        ``not state.done`` returned), where no static field is the fix."""
        found = self._source(expr)
        return _abstract(found) if abstract else found

    def _source(self, expr: cst.BaseExpression, _depth: int = 0) -> Source | None:
        if _depth > 16:
            return None
        ctx = self.ctx
        deeper = _depth + 1
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr) or reaching_parameter(ctx, expr) or dominating_binding(ctx, expr)
            if binding is None:
                return self._every_binding_source(expr, deeper)
            return self._binding_source(binding, deeper)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in ARRAY_ATTRIBUTES or self._tuple_field(expr):
                return self._source(expr.value, deeper)
            tree = self._pytree_of(expr.value)
            if tree is None or not _data_field(tree, expr.attr.value):
                if tree is not None and self._data_property(tree, expr.attr.value):
                    return _computed(self._source(expr.value, deeper))  # `state.remaining_timesteps`
                return None  # a field of a pytree may be static (array_members)
            built = self._constructed_field(expr, tree, deeper)
            if built is not None:
                return built
            inner = self._source(expr.value, deeper)
            return replace(inner, field=expr) if inner is not None and inner.field is None else inner
        if isinstance(expr, cst.Subscript):
            if isinstance(expr.value, cst.Attribute) and expr.value.attr.value in METADATA_ATTRIBUTES:
                return None
            indexed = _computed(self._source(expr.value, deeper))
            if indexed is not None or not self.is_array(expr.value):
                return indexed
            # A JAX array indexed by a tracer gives a tracer (a list or tuple would fail at the
            # index itself, a different error: not followed).
            return _first(*(self._source(e.slice.value, deeper) for e in expr.slice if isinstance(e.slice, cst.Index)))
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value == "get" and 1 <= len(expr.args) <= 2:
                # `inputs.get("x", 0.0)` of a traced dict: an item, as `inputs["x"]` is (arrays have no
                # `get`); the screen's twin is `screen_tracing.TracedParams._call`
                item = _computed(self._source(func.value, deeper))
                if item is not None:
                    return item
            return self._call_source(expr, deeper)
        if isinstance(expr, cst.UnaryOperation):
            return self._source(expr.expression, deeper)
        if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
            return _first(self._source(expr.left, deeper), self._source(expr.right, deeper))
        if isinstance(expr, cst.Comparison):
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]
            return _first(*(self._source(p, deeper) for p in parts))
        return None

    def _binding_source(self, binding: cst.CSTNode, depth: int) -> Source | None:
        """The source of what a parameter or an assignment's target binds."""
        ctx = self.ctx
        if isinstance(binding, cst.Param):
            fn = ctx.enclosing_function(binding)
            if fn is None:
                return None
            call = self._frames.get(fn)
            if call is not None:  # a helper followed from one call: what that call passes
                argument = call_argument(call, function_info(ctx, fn).signature, binding.name.value, bound=False, ctx=ctx)
                if not isinstance(argument, cst.BaseExpression):
                    return None
                del self._frames[fn]  # the argument is read in the caller's frame
                try:
                    return self._source(argument, depth)
                finally:
                    self._frames[fn] = call
            return self._param_source_memo(fn, binding.name.value, depth)
        if isinstance(binding, cst.Name):
            value = assigned_value(ctx, binding)
            if value is not None:
                return self._source(value, depth)
            augmented = ctx.parent(binding)
            if isinstance(augmented, cst.AugAssign) and augmented.target is binding:
                return self._source(augmented.value, depth)  # ``total += t``: a tracer from there on
            unpacked = unpacked_value(ctx, binding)
            if unpacked is not None:
                return self._unpacked_source(*unpacked, depth)
            loop = ctx.parent(binding)
            if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding and self.is_array(loop.iter):
                return _computed(self._source(loop.iter, depth))  # each row of a traced array is one too
        return None

    def _unpacked_source(self, whole: cst.BaseExpression, index: int, size: int, depth: int) -> Source | None:
        """One name of ``a, b = whole``: a part of a traced value is traced (a row of a traced
        array, a leaf or subtree of a traced pytree: ``h, c = carry``). Only where every part
        is one: a parameter or a name, an index or a field of one, a jnp/random/lax result; a
        helper of the module answers for the element its returns write at that place."""
        if isinstance(whole, cst.Call):
            qualified = self.ctx.names.qualified_name(whole.func) or ""
            if qualified.startswith(JAX_ARRAY_MODULES) and qualified not in METADATA_CALLS:
                return self._source(whole, depth)
            if called_def(self.ctx, whole.func) is not None:  # `helper(x)`, `Model.helper(x)`
                return self._returned_source(whole, depth, (index, size))
            return None
        if isinstance(whole, cst.Name) and (star := self._star_parameter(whole)) is not None:
            return self._star_element_source(star, index, size, depth)
        if isinstance(whole, (cst.Name, cst.Subscript, cst.Attribute)):
            return self._source(whole, depth)
        return None

    def _star_parameter(self, name: cst.Name) -> cst.Param | None:
        """The ``*args`` parameter `name` is bound to, and only to."""
        binding = single_binding(self.ctx, name)
        fn = self.ctx.enclosing_function(binding) if isinstance(binding, cst.Param) else None
        if isinstance(fn, cst.FunctionDef) and fn.params.star_arg is binding:
            return binding  # type: ignore[return-value]
        return None

    def _star_element_source(self, star: cst.Param, index: int, size: int, depth: int) -> Source | None:
        """``x, = args`` of a ``def f(*args)`` (jaxonnxruntime's ops): the argument a call passes at
        that place among the extra positional ones, when the call passes exactly `size` of them.
        Calls through plain references only; a tracer any of them passes makes it traced, as for
        a parameter (`_param_source`)."""
        ctx = self.ctx
        fn = ctx.enclosing_function(star)
        if not isinstance(fn, cst.FunctionDef):
            return None
        before = len(fn.params.posonly_params) + len(fn.params.params)
        framed = self._frames.get(fn)
        if framed is not None:
            calls = [framed]
        else:
            routes = self.traces.routes(fn)
            if routes is None:
                return None
            calls = [r.call for r in routes if r.call is not None and not r.wraps and not r.escapes and not r.bound]
        for call in calls:
            positional = [a for a in call.args if a.keyword is None]
            if any(a.star for a in call.args) or len(positional) - before != size:
                continue
            argument = positional[before + index].value
            if framed is not None:
                del self._frames[fn]  # the argument is read in the caller's frame
            try:
                inner = self._source(argument, depth + 1)
            finally:
                if framed is not None:
                    self._frames[fn] = framed
            if inner is not None and inner.concretized is None:
                line = ctx.span(call).start.line
                reason = f"`*{star.name.value}` of `{fn.name.value}` holds what the call on line {line} passes, the traced `{ctx.code(argument)}`"
                return Source(Taint.TRACED, fn, star.name.value, reason, root=inner.entry, keeps_value=inner.keeps_value, field=inner.field)
        return None

    def _every_binding_source(self, name: cst.Name, depth: int) -> Source | None:
        """A name bound more than once in its function (``v = p`` then ``if c: v = g(v)``): a
        tracer whichever binding reaches the read, when every binding is a parameter or a plain
        assignment of a tracer. A binding's own value that reads the name sees the others (no
        loop around any of them may carry a binding back to itself; a loop around the read
        alone changes nothing)."""
        ctx = self.ctx
        scope = ctx.scope(name)
        if scope is None or isinstance(scope, GlobalScope):
            return None
        key = (id(scope), name.value)
        skipped = self._skipped.get(key, frozenset())
        nodes = [n for a in scope[name.value] if (n := getattr(a, "node", None)) not in skipped]
        if not nodes:
            return None
        fn = ctx.enclosing_function(name)
        if any(not isinstance(n, cst.Param) and not (isinstance(n, cst.Name) and assigned_value(ctx, n) is not None) for n in nodes):
            return None
        for node in nodes:  # the read itself may be in a loop: it sees one of these either way
            if any(isinstance(a, (cst.For, cst.While, cst.CompFor)) for a in ctx.ancestors_within(node, fn)):
                return None
        found: list[Source | None] = []
        for node in nodes:
            self._skipped[key] = skipped | {node}
            try:
                found.append(self._binding_source(node, depth))
            finally:
                if skipped:
                    self._skipped[key] = skipped
                else:
                    del self._skipped[key]
            if found[-1] is None:
                return None
        return _first(*found)

    def _returned_source(self, call: cst.Call, depth: int, element: tuple[int, int] | None = None) -> Source | None:
        """``helper(x)`` for a plain def of the module: a tracer when each of its returns is one,
        its parameters read as this call passes them (``def center(v): return v - v.mean()``).
        With `element` (its place, the tuple's length): the element every return writes there
        (``a, b = helper(x)`` where each return is ``return u, v``)."""
        ctx = self.ctx
        fn = called_def(ctx, call.func)
        if fn is None or fn in self._frames:
            return None
        if ctx.enclosing_function(fn) is not None and ctx.enclosing_function(fn) in self._frames:
            return None
        # The answer depends on the call, the frames its arguments are read in and the bindings
        # set aside (`_skipped`): remembered per all three, so a helper called from many places
        # is not read again for each way there.
        key = (call, element, frozenset(self._frames.items()), frozenset(self._skipped.items()))
        if key in self._returned:
            return self._returned[key]
        if len(self._returned) >= _MAX_HELPER_READS:
            return None  # a module whose helpers call helpers without end: unknown, as before
        self._returned[key] = None  # in progress: a recursive call proves nothing
        self._returned[key] = found = self._returned_uncached(fn, call, depth, element)
        return found

    def _returned_uncached(
        self, fn: cst.FunctionDef, call: cst.Call, depth: int, element: tuple[int, int] | None
    ) -> Source | None:
        returns = self._returns.get(fn)
        if returns is None:
            returns = self._returns[fn] = own_returns(fn)
        if not returns or any(r.value is None for r in returns):
            return None
        values: list[cst.BaseExpression | None] = [r.value for r in returns]
        if element is not None:
            values = [literal_element(v, *element) for v in values]  # type: ignore[arg-type]
            if any(v is None for v in values):
                return None
        self._frames[fn] = call
        try:
            found = [self._source(v, depth) for v in values]  # type: ignore[arg-type]
        finally:
            del self._frames[fn]
        return _first(*found) if all(f is not None for f in found) else None

    def _call_source(self, call: cst.Call, depth: int) -> Source | None:
        ctx = self.ctx
        operand = conversion_operand(ctx, call)
        if operand is not None:
            inner = self._source(operand, depth)
            if inner is not None and inner.concretized is None:
                return replace(inner, concretized=call)
            return inner
        qualified = ctx.names.qualified_name(call.func)
        if qualified in METADATA_CALLS:
            return None  # ``jnp.shape(x)``, ``jnp.ndim(x)``, ``jnp.size(x)``: Python ints even for a tracer
        if qualified is None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "param":
            found = self._linen_parameter(call, depth)
            if found is not None:
                return found
        if qualified is None and isinstance(call.func, cst.Attribute):
            if _setup_layer(ctx, call.func):  # `self.gate(x)` of `self.gate = nn.Dense(...)` in `setup`
                return _computed(_first(*(self._source(a.value, depth) for a in call.args)))
            if call.func.attr.value not in ARRAY_METHODS:
                # ``Model.helper(x)`` of a staticmethod is read like a plain def; a pytree's own
                # method may return a Python value.
                return self._returned_source(call, depth) if called_def(ctx, call.func) is not None else None
            return _computed(self._source(call.func.value, depth))  # an array method of a tracer gives a tracer
        if qualified is not None and qualified.startswith("jax.") and not qualified.startswith("jax.debug."):
            return _computed(_first(*(self._source(a.value, depth) for a in call.args)))
        layer = ctx.names.qualified_name(call.func.func) if isinstance(call.func, cst.Call) else None
        if (qualified is not None and linen_function(qualified)) or (layer is not None and linen_layer(layer)):
            return _computed(_first(*(self._source(a.value, depth) for a in call.args)))  # ``nn.softmax(x)``, ``nn.Dense(8)(x)``
        if qualified is None and isinstance(call.func, cst.Name):
            return self._returned_source(call, depth)
        return None

    def _linen_parameter(self, call: cst.Call, depth: int) -> Source | None:
        """``self.param("phase", init, shape)`` in a method of a flax linen Module: the value the
        variables given to ``model.apply(variables, ...)`` hold, a tracer where those are one
        (chromatix's SLM phase, optimised in a jitted step)."""
        ctx = self.ctx
        receiver = call.func.value  # type: ignore[attr-defined]
        method = ctx.enclosing_function(call)
        cls = ctx.enclosing_class(method) if isinstance(method, cst.FunctionDef) else None
        if cls is None or not isinstance(receiver, cst.Name) or receiver.value != first_parameter(method) or not linen_module(ctx, cls):  # type: ignore[arg-type]
            return None
        for variables in self._applied_variables(cls):
            found = self._source(variables, depth + 1)
            if found is not None:
                return _computed(found)
        return None

    def _applied_variables(self, cls: cst.ClassDef) -> list[cst.BaseExpression]:
        """The variables each ``model.apply(variables, ...)`` of the module hands the linen class
        (``init`` makes them, concrete: not counted); found once per class."""
        ctx = self.ctx
        if cls not in self._linen_variables:
            found: list[cst.BaseExpression] = []
            for applied in ctx.calls:
                called = linen_apply(ctx, applied)
                if called is None or ctx.enclosing_class(called) is not cls or not applied.args or applied.args[0].keyword is not None:
                    continue
                if isinstance(applied.func, cst.Attribute) and applied.func.attr.value != "apply":
                    continue
                found.append(applied.args[0].value)
            self._linen_variables[cls] = found
        return self._linen_variables[cls]

    # -- parameters -----------------------------------------------------------
    def param_source(self, fn: FunctionNode, param: str) -> Source | None:
        """Why `param` of `fn` is certainly an abstract tracer; None if that cannot be shown (or if
        every call fills it with a pytree field as read: `Source.field`)."""
        return _abstract(_no_field(self._param_source_memo(fn, param, 0)))

    def _param_source_memo(self, fn: FunctionNode, param: str, _depth: int) -> Source | None:
        key = (fn, param)
        if key not in self._params:
            if self._open >= _MAX_OPEN:
                return None  # too long a chain of calls to follow: unknown, and not remembered
            self._params[key] = None  # a recursive call in progress proves nothing
            self._open += 1
            try:
                # Each parameter's answer is remembered, so it is worked out from a fresh depth:
                # one cut short by the depth of the question that led to it would stay wrong.
                self._params[key] = self._param_source(fn, param, 0)
            finally:
                self._open -= 1
        return self._params[key]

    def _param_source(self, fn: FunctionNode, param: str, depth: int) -> Source | None:
        if isinstance(fn, cst.FunctionDef) and nondiff_parameter(self.ctx, fn, param):
            return None  # custom_vjp raises at a call passing it a tracer (JAX407), before any use
        routes = self.traces.routes(fn)
        if routes is None:
            return None
        sig = function_info(self.ctx, fn).signature
        return _first(*(self._route_source(fn, sig, param, route, depth) for route in routes))

    def _route_source(self, fn: FunctionNode, sig: Signature, param: str, route: Route, depth: int) -> Source | None:
        ctx = self.ctx
        if route.from_call and sig.params and sig.params[0].name == param:
            return None  # flax's `apply(variables, ...)`: the variables fill `self`'s slot, not `self`
        if route.uncertain:
            # The reference may be to another class's method, but the function's own
            # jit (a decorator) traces whatever any call passes: only those layers count.
            declared = sig.param(param)
            if route.head == 0 or declared is None or declared.has_default:
                return None
            route = replace(route, wraps=route.wraps[: route.head], call=None, uncertain=False)
        elif not reaches(ctx, route, sig, param):
            return None
        name = function_name(fn)
        static_on: Wrap | None = None
        differentiated: Wrap | None = None
        for index, wrap in enumerate(route.wraps):
            seen = route.signature_seen(index, sig)
            if seen is None:
                return None
            if seen.param(param) is None:
                continue  # the receiver of a bound method: this layer never sees it
            if wrap.name == PARTIAL:
                if _binds_nothing_positional(wrap) and not _binds_keyword(wrap, param):
                    continue  # `partial(f)` or `partial(f, k=...)`: `param` keeps its place for the layers out
                if static_on is None and _left_to_a_plain_jit(wrap, route.wraps[index + 1 :], seen, param):
                    reason = (
                        f"`{param}` is a parameter of `{name}`, which `{shorten(ctx.code(wrap.node), 50)}` leaves "
                        "unbound for the jit around it, and that jit makes nothing static"
                    )
                    return Source(Taint.TRACED, fn, param, reason, route.wraps[index + 1])
                return self._bound_by_partial(fn, param, wrap, route, static_on, depth)
            if wrap.name in ARRAY_TRACING:
                outer = route.wraps[index + 1 :]
                if static_on is not None or (outer and not (wrap.name == FILTER_JIT and _hand_arrays_on(ctx, outer))):
                    return None  # the value it is handed comes through other layers
                if self._array_passed(route, sig, param, depth) and wrap.traces_array(ctx, seen, param):
                    reason = f"`{param}` is a parameter of `{name}`, and {_layer_text(ctx, wrap)} traces the array the call on line {ctx.span(route.call).start.line} passes"  # type: ignore[arg-type]
                    return Source(Taint.TRACED, fn, param, reason, via=wrap)
                continue  # any other value arrives as the call passes it
            traced = wrap.traces(ctx, seen, param)
            if traced is None:
                return None
            if wrap.name == JIT and not traced:
                static_on = wrap
            elif traced:
                if static_on is not None:
                    reason = f"`{param}` is static on the jit of `{name}`, but {_layer_text(ctx, wrap)} passes it a tracer"
                    return Source(Taint.FED, fn, param, reason, static_on, via=wrap)
                if wrap.name == JIT and route.from_call:
                    reason = f"`{param}` is a parameter of `{owner_name(ctx, fn)}`, and the jit of `{ctx.code(route.ref)}` passes it a tracer"  # type: ignore[arg-type]
                    return Source(Taint.TRACED, fn, param, reason, wrap)
                if wrap.name == JIT:
                    reason = f"`{param}` is a parameter of the jitted `{name}` that is not static there"
                    return Source(Taint.TRACED, fn, param, reason, wrap)
                if wrap.name in DIFFERENTIATION:
                    differentiated = differentiated or wrap  # a layer further out may still stage it
                    continue
                reason = f"`{param}` is a parameter of `{name}`, and {_layer_text(ctx, wrap)} passes it a tracer"
                if wrap.name == OPTAX_SCHEDULE:
                    reason = (
                        f"`{param}` is the step count optax hands the schedule `{name}` given to {_layer_text(ctx, wrap)}, "
                        "a tracer where the optimizer's `update` runs under jit, as it does in this module"
                    )
                return Source(Taint.TRACED, fn, param, reason, via=wrap)
        if differentiated is not None:
            reason = f"`{param}` is a parameter of `{name}`, and {_layer_text(ctx, differentiated)} passes it a tracer"
            kept = Source(Taint.TRACED, fn, param, reason, via=differentiated, keeps_value=True)
            if route.call is None or route.escapes or any(w.name not in (JIT, *DIFFERENTIATION) for w in route.wraps):
                return kept  # the tracer it is handed may be abstract too: that cannot be shown
            argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed, leaves=True)
            inner = self._source(argument, depth + 1) if isinstance(argument, cst.BaseExpression) else None
            if inner is not None and not inner.keeps_value and inner.concretized is None:
                reason = f"`{param}` is a parameter of `{name}`, and the call on line {ctx.span(route.call).start.line} passes it the traced `{ctx.code(argument)}`"
                return Source(Taint.TRACED, fn, param, reason, root=inner.entry, field=inner.field)
            return kept
        if route.call is None or route.escapes:
            return None
        # Every layer hands the parameter on as the call passes it: a jit that makes it static,
        # a grad that does not differentiate it, a vmap that does not map it
        # (``jax.value_and_grad(loss)(params, batch)``: `batch` is what the call passes).
        argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed, leaves=True)
        if not isinstance(argument, cst.BaseExpression):
            return None
        line = ctx.span(route.call).start.line
        inner = self._source(argument, depth + 1)
        if static_on is not None and (inner is not None or self.is_array(argument)):
            reason = (
                f"`{param}` is static on the jit of `{name}`, but the call on line {line} passes "
                f"`{ctx.code(argument)}`, an array"
            )
            return Source(Taint.FED, fn, param, reason, static_on, field=inner.field if inner is not None else None)
        if static_on is None and inner is not None and inner.concretized is None:
            reason = f"`{param}` is a parameter of `{name}`, and the call on line {line} passes it the traced `{ctx.code(argument)}`"
            return Source(Taint.TRACED, fn, param, reason, root=inner.entry, keeps_value=inner.keeps_value, field=inner.field)
        return None

    def _array_passed(self, route: Route, sig: Signature, param: str, depth: int) -> bool:
        """The route's call passes `param` an array: a jax.numpy result, or a tracer."""
        if route.call is None or route.escapes:
            return False
        argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed, leaves=True)
        if not isinstance(argument, cst.BaseExpression):
            return False
        return self.is_array(argument) or self._source(argument, depth + 1) is not None

    def _pytree_of(self, expr: cst.BaseExpression) -> PytreeClass | None:
        """The pytree dataclass of this module (`pytree_classes`) `expr` is an instance of: a
        parameter annotated with it or the ``self`` of one, or one every call passes an instance of."""
        cls = instance_class_of(self.ctx, expr) or self.traces.passed_instance_of(expr)
        return pytree_class(self.ctx, cls) if cls is not None else None

    def _constructed_field(self, expr: cst.Attribute, tree: PytreeClass, depth: int) -> Source | None:
        """``self.a2`` in the ``__check_init__`` (or ``__post_init__``) of a pytree dataclass whose
        ``__init__`` is generated: the hook runs inside each construction, on what it is given, so
        the field is traced where a construction of this module gives it a traced value (galax#692:
        an equinox Module built inside a jitted function, its check reading ``self.a1 < self.a2``)."""
        ctx = self.ctx
        fn = ctx.enclosing_function(expr)
        if not isinstance(fn, cst.FunctionDef) or fn.name.value not in _INIT_HOOKS or not isinstance(expr.value, cst.Name):
            return None
        params = fn.params.params
        if not params or params[0].name.value != expr.value.value or members_named(tree.cls, "__init__"):
            return None
        names = [f.name for f in tree.fields]
        position = names.index(expr.attr.value)
        for call in constructions(ctx, tree.cls) or ():
            given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == expr.attr.value), None)
            positional = [a for a in call.args if a.keyword is None]
            if given is None and not any(a.star for a in positional) and position < len(positional):
                given = positional[position].value
            inner = self._source(given, depth + 1) if given is not None else None
            if inner is not None and inner.concretized is None and not inner.keeps_value:
                reason = (
                    f"`{ctx.code(expr)}` is the field `{expr.attr.value}` the construction on line "
                    f"{ctx.span(call).start.line} gives the traced `{ctx.code(given)}`, and `{fn.name.value}` runs inside it"
                )
                return Source(Taint.TRACED, fn, params[0].name.value, reason, root=inner.entry)
        return None

    def _data_property(self, tree: PytreeClass, name: str) -> bool:
        """``state.remaining_timesteps`` where the class's property returns what it computes from one
        of its data fields (``self.log.shape[1] - 1 - self.timestep``, waymax#14): not the field
        itself, a value computed from a leaf. Metadata of a field (``.shape``) does not count."""
        props = [m for m in members_named(tree.cls, name) if isinstance(m, cst.FunctionDef)]
        if not props or not any(self.ctx.names.qualified_name(d.decorator) == "builtins.property" for d in props[0].decorators):
            return False
        returns = own_returns(props[0])
        params = [p.name.value for p in props[0].params.params]
        if len(returns) != 1 or returns[0].value is None or not params:
            return False
        data = {f.name for f in tree.fields if not f.static}
        stack: list[cst.CSTNode] = [returns[0].value]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Attribute) and node.attr.value in METADATA_ATTRIBUTES:
                continue  # `self.log.shape`: static
            if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == params[0] and node.attr.value in data:
                return True
            stack.extend(node.children)
        return False

    def _tuple_field(self, expr: cst.Attribute) -> bool:
        """``config.max_length`` of a NamedTuple parameter (`namedtuple_parameter`): a NamedTuple
        has no static fields, each is a leaf, traced when the tuple is."""
        fields = namedtuple_parameter(self.ctx, self.traces, expr.value)
        return fields is not None and expr.attr.value in fields

    def _bound_by_partial(
        self, fn: FunctionNode, param: str, wrap: Wrap, route: Route, static_on: Wrap | None, depth: int
    ) -> Source | None:
        """``jax.vmap(partial(f, config=config))``: a keyword the partial binds reaches `f` as the
        value the partial was given, traced when that value is traced where the partial is made.
        No layer further out sees the parameter; a call that passes the keyword again overrides it.
        A parameter the partial does not bind by keyword: unknown (positions shift)."""
        call = wrap.node
        if not isinstance(call, cst.Call) or any(a.star for a in call.args):
            return None
        bound = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
        if bound is None:
            return None
        if route.call is not None and any(a.star == "**" or (a.keyword and a.keyword.value == param) for a in route.call.args):
            return None
        inner = self._source(bound, depth + 1)
        if inner is None or inner.concretized is not None:
            return None
        line = self.ctx.span(call).start.line
        name = function_name(fn)
        if static_on is not None:
            reason = f"`{param}` is static on the jit of `{name}`, but the `partial` on line {line} binds it to the traced `{self.ctx.code(bound)}`"
            return Source(Taint.FED, fn, param, reason, static_on)
        reason = f"`{param}` is a parameter of `{name}`, and the `partial` on line {line} binds it to the traced `{self.ctx.code(bound)}`"
        return Source(Taint.TRACED, fn, param, reason, root=inner.entry, keeps_value=inner.keeps_value, field=inner.field)

    def inputs(self, expr: cst.BaseExpression, _depth: int = 0) -> list[Source]:
        """Every traced input `expr` is computed from, where `source` names only the first: the
        parameters (and the tracers they are handed) behind each name it reads, through the
        assignments that bind them. ``0.5 * jnp.sum(deri) + penalty * lam``: ``deri``'s data
        and ``penalty``, so making ``penalty`` static leaves the value traced."""
        if _depth > 12:
            return []
        ctx = self.ctx
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr) or reaching_parameter(ctx, expr) or dominating_binding(ctx, expr)
            if isinstance(binding, cst.Param):
                found = self.source(expr)
                return [found] if found is not None else []
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            if value is None and isinstance(binding, cst.Name):
                value = iterated_or_unpacked(ctx, binding)  # `for x in s`, `u, s, vt = svd(m)`
            return self.inputs(value, _depth + 1) if value is not None else []
        return [s for part in value_operands(expr) for s in self.inputs(part, _depth + 1)]

    def is_array(self, expr: cst.BaseExpression, _depth: int = 0) -> bool:
        """A jax array (never hashable): a ``jax.numpy``/``jax.random``/``jax.lax`` result, or a slice of one."""
        ctx = self.ctx
        if _depth > 8:
            return False
        if isinstance(expr, cst.Call):
            qualified = ctx.names.qualified_name(expr.func) or ""
            return qualified.startswith(JAX_ARRAY_MODULES) and not metadata_call(qualified)  # `jnp.shape(x)`: a tuple
        if isinstance(expr, cst.Subscript):
            return self.is_array(expr.value, _depth + 1)
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr)
            if isinstance(binding, cst.Param):
                return self._passed_arrays(binding, _depth)
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            return value is not None and self.is_array(value, _depth + 1)
        return False

    def _passed_arrays(self, param: cst.Param, depth: int) -> bool:
        """Every use of the parameter's function is a plain call passing it a jax array
        (``_expand_bounds(G, h, lb, ub, n)`` where each caller hands on a module's ``jnp.array``)."""
        ctx = self.ctx
        fn = ctx.parent(ctx.parent(param))
        routes = self.traces.routes(fn) if isinstance(fn, cst.FunctionDef) else None
        if not routes or len(routes) > 8:
            return False
        signature = function_info(ctx, fn).signature  # type: ignore[arg-type]
        for route in routes:
            if route.wraps or route.call is None or route.escapes or route.uncertain:
                return False
            argument = call_argument(route.call, signature, param.name.value, bound=route.bound, consumed=route.consumed)
            if not isinstance(argument, cst.BaseExpression) or not self.is_array(argument, depth + 1):
                return False
        return True


def value_operands(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The expressions `expr`'s value is computed from (not a keyword's name, not a lambda's body)."""
    if isinstance(expr, cst.Attribute):
        return [expr.value]
    if isinstance(expr, cst.Call):
        func = [expr.func.value] if isinstance(expr.func, cst.Attribute) else []
        return [*func, *(a.value for a in expr.args)]
    if isinstance(expr, cst.Subscript):
        parts: list[cst.BaseExpression] = [expr.value]
        for element in expr.slice:
            if isinstance(element.slice, cst.Index):
                parts.append(element.slice.value)
            else:
                parts.extend(x for x in (element.slice.lower, element.slice.upper, element.slice.step) if x is not None)
        return parts
    if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
        return [expr.left, expr.right]
    if isinstance(expr, cst.UnaryOperation):
        return [expr.expression]
    if isinstance(expr, cst.Comparison):
        return [expr.left, *(c.comparator for c in expr.comparisons)]
    if isinstance(expr, cst.IfExp):
        return [expr.test, expr.body, expr.orelse]
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        return [e.value for e in expr.elements]
    if isinstance(expr, cst.Dict):
        return [x for e in expr.elements for x in ((e.key, e.value) if isinstance(e, cst.DictElement) else (e.value,))]
    return []


def owner_name(ctx: ModuleContext, fn: FunctionNode) -> str:
    """``MLP.__call__`` for a method, the plain name otherwise (how messages name a method)."""
    cls = ctx.parent(ctx.parent(fn))
    return f"{cls.name.value}.{function_name(fn)}" if isinstance(cls, cst.ClassDef) else function_name(fn)


def _no_field(source: Source | None) -> Source | None:
    """None for a pytree field as read (`Source.field`): JAX306's where Python needs its value."""
    return source if source is None or source.field is None else None


def iterated_or_unpacked(ctx, binding: cst.Name) -> cst.BaseExpression | None:
    """What a loop variable iterates over, or the whole value a name is unpacked from: the value
    it is computed from, for `inputs`."""
    loop = ctx.parent(binding)
    if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding:
        return loop.iter
    unpacked = unpacked_value(ctx, binding)
    return unpacked[0] if unpacked is not None else None


def _data_field(tree: PytreeClass, name: str) -> bool:
    """``state.count`` where ``count`` is one of the pytree class's fields not declared static: a
    leaf, a tracer when the instance is traced (docs/jax306-behaviour.md, P1)."""
    return any(f.name == name and not f.static for f in tree.fields)


def _setup_layer(ctx: ModuleContext, func: cst.Attribute) -> bool:
    """``self.gate`` in a method of a class whose ``setup`` alone stores ``self.gate = nn.Dense(...)``
    (a flax.linen layer, `array_api.linen_layer`; `class_hashing.setup_stores`): calling it computes
    an array from what it is given, as ``nn.Dense(8)(x)`` does."""
    method = ctx.enclosing_function(func)
    cls = ctx.parent(ctx.parent(method)) if isinstance(method, cst.FunctionDef) else None
    me = method.params.params[0].name.value if isinstance(method, cst.FunctionDef) and method.params.params else None
    if not isinstance(cls, cst.ClassDef) or not isinstance(func.value, cst.Name) or func.value.value != me:
        return False
    value = setup_stores(ctx, cls).get(func.attr.value)
    layer = ctx.names.qualified_name(value.func) if isinstance(value, cst.Call) else None
    return layer is not None and linen_layer(layer)


def _computed(source: Source | None) -> Source | None:
    """What JAX computes from a traced field (an index, a jnp call, an array method) is a tracer
    no static field declaration could make concrete: no longer the field itself."""
    return source if source is None or source.field is None else replace(source, field=None)


def _abstract(source: Source | None) -> Source | None:
    """The source, unless the tracer it describes still holds a concrete value."""
    return None if source is None or source.keeps_value else source


def _first(*sources: Source | None) -> Source | None:
    """Of the operands' sources, one that makes the result abstract if any does; else any tracer.
    One that is no pytree field comes first: ``state.n + k`` with `k` traced stays traced when
    ``n`` is declared static (`Source.field`)."""
    found = sorted((s for s in sources if s is not None), key=lambda s: s.field is not None)
    return next((s for s in found if not s.keeps_value), found[0] if found else None)


def _hand_arrays_on(ctx: ModuleContext, outer: tuple[Wrap, ...]) -> bool:
    """Do these layers, around an ``eqx.filter_jit``, hand it an array where the call passes one
    (mapped or not: ``eqx.filter_vmap(eqx.filter_jit(model), in_axes=(0, None, 0))``, mistral_jax#1)?
    A vmap, an equinox vmap, or a jit with no static options do; anything else is not followed."""
    return all(w.name in (FILTER_VMAP, *MAPPING) or (w.name == JIT and not _has_static(w)) for w in outer)


def _has_static(wrap: Wrap) -> bool:
    options = wrap.options.args if wrap.options is not None else ()
    return any(a.keyword is not None and a.keyword.value in ("static_argnums", "static_argnames", "donate_argnums") for a in options)


def _layer_text(ctx: ModuleContext, wrap: Wrap) -> str:
    """How a message names a layer: its code when short, else the transform."""
    node = wrap.node.decorator if isinstance(wrap.node, cst.Decorator) else wrap.node
    text = ctx.code(node)  # type: ignore[arg-type]
    if isinstance(wrap.node, cst.Call) and "\n" not in text and len(text) <= 60:
        return f"`{text}`"
    return f"`{wrap.name}`"


def namedtuple_parameter(ctx: ModuleContext, traces: TraceIndex, expr: cst.BaseExpression) -> dict[str, cst.BaseExpression | None] | None:
    """The fields, when `expr` is a parameter annotated with a NamedTuple class of this module, or
    one every call of its function passes an instance of the same such class, or a name unpacked
    from such a parameter where every call passes a tuple holding such an instance at that place
    (``_, state = inputs`` of a loop's carry ``(params, LbfgsState(...))``); else None."""
    binding = single_binding(ctx, expr) if isinstance(expr, cst.Name) else None
    element: tuple[int, int] | None = None
    if isinstance(binding, cst.Name) and (unpacked := unpacked_value(ctx, binding)) is not None:
        whole, index, size = unpacked
        if isinstance(whole, cst.Name):
            binding, element = single_binding(ctx, whole), (index, size)
    fn = ctx.enclosing_function(binding) if isinstance(binding, cst.Param) else None
    if fn is None:
        return None
    param = binding.name.value  # type: ignore[union-attr]
    classes: set[cst.ClassDef] = set()
    annotation = binding.annotation.annotation if binding.annotation is not None else None  # type: ignore[union-attr]
    if element is None and isinstance(annotation, cst.Name) and isinstance(found := single_binding(ctx, annotation), cst.ClassDef):
        classes.add(found)
    else:
        sig = function_info(ctx, fn).signature
        routes = traces.routes(fn) or ()
        for route in routes:
            if route.uncertain:
                continue  # a method found by name: perhaps another class's
            if route.call is None and not route.escapes:
                argument = carry_init(ctx, route, sig, param)
            elif route.call is None or route.escapes:
                return None
            else:
                argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed)
            if element is not None and isinstance(argument, cst.BaseExpression):
                argument = literal_element(argument, *element)
            built = instance_class(ctx, argument) if isinstance(argument, cst.BaseExpression) else None
            if built is None:
                return None
            classes.add(built[0])
    return namedtuple_fields(ctx, classes.pop()) if len(classes) == 1 else None


#: Loop primitives whose function is handed the carry: (the function's slot, the carry's
#: position among the function's parameters, the initial carry's slot and keyword).
_CARRIES = {
    "jax.lax.while_loop": ((0, 1), 0, 2, "init_val"),
    "jax.lax.fori_loop": ((2,), 1, 3, "init_val"),
    "jax.lax.scan": ((0,), 0, 1, "init"),
}
#: scan's second parameter is a slice of ``xs`` (the slot and keyword), with ``xs``'s structure.
_SCAN_SLICE = (1, 2, "xs")


def carry_init(ctx: ModuleContext, route: Route, sig: Signature, param: str, *, slices: bool = False) -> cst.BaseExpression | None:
    """The initial carry of the loop primitive that runs the function, when `param` is the
    carry: the carry keeps its type from step to step, so it is an instance of what ``init`` is.
    With `slices`, also scan's ``xs`` for its slice parameter: each slice keeps its structure."""
    if len(route.wraps) != 1 or not isinstance(route.wraps[0].node, cst.Call):
        return None
    wrap = route.wraps[0]
    carried = _CARRIES.get(wrap.name)
    if carried is None:
        return None
    slots, position, init_slot, init_keyword = carried
    call = wrap.node
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args) or not any(
        i < len(positional) and _refers_to(positional[i].value, route.last_ref) for i in slots
    ):
        return None
    index = sig.positional_index(param)
    receiver = 1 if route.bound else 0
    if slices and wrap.name == "jax.lax.scan" and index == _SCAN_SLICE[0] + receiver:
        position, init_slot, init_keyword = _SCAN_SLICE
    if index != position + receiver:
        return None
    if init_slot < len(positional):
        return _handed_in(ctx, positional[init_slot].value)
    given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == init_keyword), None)
    return _handed_in(ctx, given) if given is not None else None


def _handed_in(ctx: ModuleContext, init: cst.BaseExpression) -> cst.BaseExpression:
    """``lax.scan(step_fn, init, xs)`` in a helper whose one call hands `init` its value
    (``scan_via(step, (0.0, [], ()), xs)``): that value, what the carry starts as; else `init`."""
    binding = single_binding(ctx, init) if isinstance(init, cst.Name) else None
    passed = ctx.passed_arguments(binding) if isinstance(binding, cst.Param) else None
    return passed[0] if passed is not None and len(passed) == 1 else init


def _refers_to(expr: cst.BaseExpression, ref: cst.CSTNode | None) -> bool:
    """`expr` is the reference the route starts from, or holds it (``self.cond``)."""
    return ref is not None and (expr is ref or (isinstance(expr, cst.Attribute) and expr.attr is ref))


def _left_to_a_plain_jit(wrap: Wrap, outer: tuple[Wrap, ...], seen: Signature, param: str) -> bool:
    """``jit(partial(generic, likelihood))`` (gwpopulation): the partial, written without ``*``,
    binds leading positions and keywords but not `param`, and the layers out are jits that make
    nothing static, so whatever position `param` lands in there, it is traced."""
    call = wrap.node
    if not isinstance(call, cst.Call) or any(a.star for a in call.args) or _binds_keyword(wrap, param):
        return False
    bound = len([a for a in call.args[1:] if a.keyword is None])
    index = seen.positional_index(param)
    if index is not None and index < bound:
        return False
    return bool(outer) and all(
        w.name == JIT and w.jit is not None and w.jit.spec is not None and w.jit.spec.is_empty for w in outer
    )


def _binds_nothing_positional(wrap: Wrap) -> bool:
    """A ``partial(f, ...)`` layer that binds no positional argument after the function (pgx's
    ``jax.vmap(partial(_legal_promotion))``): the positions the layers outside see are `f`'s own."""
    call = wrap.node
    return isinstance(call, cst.Call) and not any(a.star for a in call.args) and all(a.keyword is not None for a in call.args[1:])


def _binds_keyword(wrap: Wrap, param: str) -> bool:
    call = wrap.node
    return isinstance(call, cst.Call) and any(a.keyword is not None and a.keyword.value == param for a in call.args)

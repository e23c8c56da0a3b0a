"""Would a parameter still work as a tracer? The reads of it that need a concrete value.

Making a static parameter dynamic (JAX403's fix, JAX404's second option)
is right only when nothing in the body needs its concrete value. Measured
(docs/jax4xx-behaviour.md, C2): as a tracer a value still supports
arithmetic, comparisons into ``jnp.where``, jnp/lax functions, indexing and
gathers, ``.shape``/``.ndim``/``.dtype``/``len()``; it fails in a Python
``if``/``while``/``and``/``not``, ``int()``/``float()``/``bool()``,
``.item()``/``.tolist()``, ``range()``, a shape or size, a slice bound,
NumPy's conversion (``np.asarray``), hashing (a dict key, a static parameter
of another jit).

Each read is followed through what keeps it an array (arithmetic, methods,
jnp calls, a name bound once) until it is used. `first_need` gives the first
read that needs it concrete (NEEDS) or that goes where we cannot see (UNKNOWN:
a call of code we cannot follow, an iteration, a closure).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

import libcst as cst

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.array_api import linen_function, linen_layer, metadata_call
from jaxfix.transforms.semantics.array_destinations import MINMAX, minmax_as_array, needless_float, needless_item
from jaxfix.transforms.semantics.callables import plain_def, resolve_callable, unjitted_def
from jaxfix.transforms.semantics.class_hashing import namedtuple_fields, subclass_of
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    dominating_binding,
    members_named,
    reaching_binding,
    single_binding,
)
from jaxfix.transforms.semantics.custom_vjp import defined_function, nondiff_parameter, python_value_needed
from jaxfix.transforms.semantics.jit_signature import Kind, Signature
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, Target, function_info
from jaxfix.transforms.semantics.logical_operators import is_logical, outermost, serves_as_value
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.numpy_twins import twin
from jaxfix.transforms.semantics.optional_defaults import optional_or_default
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, NOTHING_CONSUMED, call_argument
from jaxfix.transforms.semantics.pytree_classes import static_field_read
from jaxfix.transforms.semantics.reads import first_parameter, parameter, parameter_reads, reads
from jaxfix.transforms.semantics.sinks import (
    ARRAY_MODULES,
    AXIS_FIRST_METHODS,
    AXIS_SECOND,
    CONVERSIONS,
    TRACED_BOUND_UNDER_GRAD,
    argnums_argument,
    fori_bound,
    indexed_mapping,
    indexed_sequence,
    init_store,
    linen_switch,
    stored,
    tracer_guard,
)
from jaxfix.transforms.semantics.size_arguments import size_argument
from jaxfix.transforms.semantics.staged import STAGING
from jaxfix.transforms.semantics.static_slots import jitted_call
from jaxfix.transforms.semantics.traced_values import namedtuple_parameter
from jaxfix.transforms.semantics.tracing import LINEN_APPLY, Route, TraceIndex, Wrap, linen_apply, train_state_apply
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, FORI_LOOP, MAPPING, PARTIAL

#: Array attributes that are static even for a tracer.
METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype", "weak_type", "sharding"})
#: Attributes a strict read follows as conversions (any other attribute stops it: a field, a method).
CONVERSION_ATTRIBUTES = frozenset({"item", "tolist", "__index__", "__int__", "__float__", "__bool__"})
_CONCRETE_METHODS = frozenset({"item", "tolist", "tobytes", "__index__", "__int__", "__float__", "__bool__", "__hash__"})
#: Builtins whose result is plain data whatever the argument.
STATIC_BUILTINS = frozenset({"builtins.len", "builtins.isinstance", "builtins.type", "builtins.id"})


#: Keyword arguments of jnp functions and array methods that must be static (measured for ``axis``).
STATIC_JNP_KEYWORDS = frozenset(
    {"axis", "axes", "keepdims", "shape", "newshape", "dtype", "num", "size", "length", "ord", "k", "reps",
     "total_repeat_length", "indices_or_sections", "num_classes", "axis1", "axis2", "kind", "mode"}
)
#: Class decorators that hand the class back as it is (its own ``__init__`` still builds each instance).
_CLASS_KEEPING = frozenset({"jax.tree_util.register_pytree_node_class"})
#: (function, keyword) of `STATIC_JNP_KEYWORDS` that take a tracer all the same: `jnp.eye`'s and
#: `jnp.tri`'s offset ``k`` (docs/jax302-behaviour.md C; `tril`, `triu`, `diag`, `rot90` need it static).
TRACED_KEYWORDS = frozenset({("jax.numpy.eye", "k"), ("jax.numpy.tri", "k")})


class Need(enum.Enum):
    NEEDS = "needs"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Use:
    need: Need
    node: cst.CSTNode
    #: "`int(w[0])` (line 12) needs a concrete value"
    reason: str
    #: The need is a static parameter of another jitted call (JAX404's situation, not a sink of its own).
    static_parameter: bool = False
    #: The need is a jnp function's static option (an axis, ``size=``...), no rule's loop or size.
    static_option: bool = False
    #: The need is calling the value: a Python function fails as an operand, a callable pytree
    #: (``jax.tree_util.Partial``, a module) does not.
    calls: bool = False
    #: The need is in another jitted def the value is passed to, as its traced parameter: (that
    #: def, the parameter). Making the value static here must make that one static too.
    through_jit: tuple[FunctionNode, str] | None = None


def concretized_value(ctx: ModuleContext, node: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression a Use's node needs concrete as a whole: a conversion's argument
    (``float(res)``), an ``.item()``'s array, a Python condition or boolean operation; None for
    a size or an option, where the call's other arguments may be traced without harm."""
    if isinstance(node, cst.Call):
        qualified = ctx.names.qualified_name(node.func) or ""
        if qualified in CONVERSIONS and len(node.args) == 1 and not node.args[0].star:
            return node.args[0].value
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _CONCRETE_METHODS and not qualified:
            return node.func.value
        return None
    if isinstance(node, (cst.BooleanOperation, cst.UnaryOperation, cst.Comparison, cst.Name, cst.Attribute, cst.BinaryOperation)):
        return node
    return None


def _container_or_none(expr: object) -> bool:
    """A dict, list or tuple literal (or comprehension), or None."""
    containers = (cst.Dict, cst.List, cst.Tuple, cst.DictComp, cst.ListComp)
    return isinstance(expr, containers) or (isinstance(expr, cst.Name) and expr.value == "None")


def _truth_test_of(ctx: ModuleContext, read: cst.CSTNode) -> bool:
    """The read itself is tested for truth: ``if v:``, ``not v``, ``v or d``, ``v and d``."""
    parent = ctx.parent(read)
    if isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert)):
        return parent.test is read
    if isinstance(parent, cst.UnaryOperation):
        return isinstance(parent.operator, cst.Not)
    return isinstance(parent, cst.BooleanOperation) and parent.left is read


class ConcreteUses:
    """`strict`: follow the value only where it is surely an array or a number (JAX302 claims a
    failure from what it finds): an attribute other than an array method may be a pytree's static
    field (``config.num_layers``) and ends the search as unknown; ``x is None`` needs nothing; and
    calling the value needs a Python function."""

    def __init__(self, ctx: ModuleContext, *, strict: bool = False, traces: TraceIndex | None = None) -> None:
        self.ctx = ctx
        self._depth = 0
        self.strict = strict
        #: With the module's routes, a strict reading follows a NamedTuple parameter's fields: a
        #: NamedTuple has no static fields, each is the value the tuple was built with.
        self.traces = traces
        #: `_staged`'s functions, found once.
        self._staged_set: frozenset[FunctionNode] | None = None

    def first_need(self, fn: FunctionNode, param: str) -> Use | None:
        """The first read of `param` in `fn` that needs it concrete; else the first we cannot follow."""
        unknown: Use | None = None
        container = self.strict and self._passed_containers(fn, param)
        for read in parameter_reads(self.ctx, fn, param):
            if isinstance(read, cst.Name) and isinstance(reaching_binding(self.ctx, read), cst.Name):
                continue  # ``op_index = jnp.int32(op_index)`` then ``if op_index == 0``: the rebinding is read
            if container and _truth_test_of(self.ctx, read):
                continue  # ``extras or {}`` of a dict every call passes: the dict's truth, no tracer's
            parent = self.ctx.parent(read)
            if self.traces is not None and getattr(parent, "left", None) is read and optional_or_default(self.ctx, self.traces, parent):
                continue  # ``lr or default`` of an optional number: ``is None`` answers it (JAX309)
            use = self._follow(read, fn, 0)
            if use is not None and use.need is Need.NEEDS:
                return use
            unknown = unknown or use
        return unknown

    def _passed_containers(self, fn: FunctionNode, param: str) -> bool:
        """Every call of `fn` passes `param` a dict, list or tuple written there, or None, or leaves
        it to a default that is one: jit hands the function that container (of tracers), whose
        truth Python reads from its length."""
        routes = self.traces.routes(fn) if self.traces is not None else None
        if not routes:
            return False
        sig = function_info(self.ctx, fn).signature
        declared = parameter(fn, param)
        for route in routes:
            if route.call is None or route.escapes:
                return False
            argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed)
            if argument is DEFAULT and declared is not None:
                argument = declared.default
            if not _container_or_none(argument):
                return False
        return True

    def _tuple_field(self, node: cst.CSTNode, attribute: cst.Attribute) -> bool:
        if self.traces is None or not isinstance(node, cst.Name):
            return False
        fields = namedtuple_parameter(self.ctx, self.traces, node)
        return fields is not None and attribute.attr.value in fields

    def need_of(self, node: cst.CSTNode, fn: FunctionNode) -> Use | None:
        """What the value at `node` (read in `fn`, or a closure in it) is first needed as: NEEDS
        a concrete value, UNKNOWN where it goes out of sight, None when nothing needs it."""
        return self._follow(node, fn, 0)

    def _follow(self, node: cst.CSTNode, fn: FunctionNode, depth: int) -> Use | None:
        ctx = self.ctx
        if depth > 12:
            return Use(Need.UNKNOWN, node, "it flows further than we follow")
        inner = ctx.enclosing_function(node)
        if inner is not fn:
            if inner is None or not any(a is fn for a in ctx.ancestors(inner)):
                return Use(Need.UNKNOWN, node, f"a nested function reads it (line {self._line(node)})")
            fn = inner  # a closure reads it: what the closure does with it is a use of it
        while True:
            parent = ctx.parent(node)
            if self.strict and isinstance(parent, cst.Call) and parent.func is node:
                return replace(self._needs(parent, "calls it, so it must be a Python function"), calls=True)
            if isinstance(parent, cst.Attribute) and parent.value is node:
                # a NamedTuple's field first: `coo.shape` of `class COO(NamedTuple): ...; shape:
                # Sequence[int]` is a leaf, traced, not an array's metadata (jax#6455)
                if self.strict and self._tuple_field(node, parent):
                    node = parent
                    continue
                if parent.attr.value in METADATA_ATTRIBUTES:
                    return None
                if self.strict and parent.attr.value not in CONVERSION_ATTRIBUTES:
                    # Not a conversion: an attribute (a pytree's static field?) or an array method,
                    # whose result JAX computes, a tracer under jit even for a static value.
                    return Use(Need.UNKNOWN, parent, f"it is used as `{shorten(ctx.code(parent))}` (line {self._line(node)})")
                outer = ctx.parent(parent)
                if isinstance(outer, cst.Call) and outer.func is parent:
                    if parent.attr.value == "item" and needless_item(ctx, self.traces, outer):
                        node = outer  # nothing needs the Python number: JAX304 drops the conversion
                        continue
                    if parent.attr.value in _CONCRETE_METHODS:
                        return self._needs(outer, "needs a concrete value")
                    node = outer  # a method of an array gives an array
                    continue
                node = parent
                continue
            if isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.Is, cst.IsNot)):
                return None  # `x is None`: identity, a Python bool even for a tracer
            if isinstance(parent, cst.Comparison) and all(
                isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons
            ):
                return None
            if isinstance(parent, (cst.BinaryOperation, cst.Comparison, cst.ComparisonTarget)):
                node = parent
                continue
            if isinstance(parent, cst.UnaryOperation):
                if isinstance(parent.operator, cst.Not):
                    if serves_as_value(ctx, self.traces, parent, lambda e, read=node: e is read):
                        node = outermost(ctx, parent)  # jnp.logical_not takes it as data (JAX309)
                        continue
                    return self._needs(parent, "needs a concrete bool")
                node = parent
                continue
            if isinstance(parent, cst.Subscript) and parent.value is node:
                node = parent
                continue
            if isinstance(parent, cst.Index):
                sequence = indexed_sequence(ctx, parent)
                if sequence is not None:
                    return self._needs(ctx.parent(ctx.parent(parent)), f"indexes {sequence}, which needs a concrete int")
                mapping = indexed_mapping(ctx, parent)
                if mapping is not None:
                    return self._needs(ctx.parent(ctx.parent(parent)), f"is a key of {mapping}, which needs a hashable key")
                indexed = ctx.parent(ctx.parent(parent))
                if isinstance(indexed, cst.Subscript) and static_field_read(ctx, indexed.value):
                    shown = shorten(ctx.code(indexed.value))
                    return self._needs(indexed, f"indexes `{shown}`, a pytree's static field (a Python value), which needs a concrete int")
                return None  # x[w]: a gather takes a tracer
            if isinstance(parent, cst.Slice):
                return self._needs(ctx.parent(ctx.parent(parent)) or parent, "has a slice bound that must be a concrete int")
            if isinstance(parent, cst.Element) and isinstance(ctx.parent(parent), (cst.Tuple, cst.List)):
                node = ctx.parent(parent)  # type: ignore[assignment]
                continue
            if isinstance(parent, cst.IfExp) and parent.test is not node:
                node = parent  # `flux if unconvolved else blur(flux)`: one arm is what the expression gives
                continue
            if isinstance(parent, (cst.ListComp, cst.GeneratorExp)) and parent.elt is node:
                node = parent  # the items a comprehension makes: where it goes, they go
                continue
            if isinstance(parent, cst.DictElement) and parent.value is node:
                node = ctx.parent(parent)  # type: ignore[assignment]  # a dict's value: the dict goes on
                continue
            if isinstance(parent, cst.Arg) and parent.value is node:
                found = self._argument(parent)
                if found is _CONTINUE:
                    node = ctx.parent(parent)  # type: ignore[assignment]
                    continue
                return found  # type: ignore[return-value]
            if isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert)) and parent.test is node:
                return self._needs(parent.test, "is a Python condition, which needs a concrete bool")
            if isinstance(parent, cst.BooleanOperation) and parent.right is node:
                if tracer_guard(parent):
                    return None  # `not isinstance(n, Tracer) and n < 1`: only a concrete value gets here
                node = parent  # `a and b` gives b itself, untested: where the result goes decides
                continue
            if is_logical(parent) and serves_as_value(ctx, self.traces, parent, lambda e, read=node: e is read):  # type: ignore[arg-type]
                node = outermost(ctx, parent)  # type: ignore[arg-type]  # jnp.logical_* takes it as data (JAX309)
                continue
            if isinstance(parent, cst.BooleanOperation):
                return self._needs(parent, "needs a concrete bool")
            if (isinstance(parent, cst.DictElement) and parent.key is node) or isinstance(parent, cst.Set) or (
                isinstance(parent, cst.Element) and isinstance(ctx.parent(parent), cst.Set)
            ):
                return self._needs(parent, "hashes it")
            if isinstance(parent, cst.Assign) and parent.value is node:
                return self._assigned(parent, fn, depth)
            if isinstance(parent, cst.AugAssign) and parent.value is node and isinstance(parent.target, cst.Name):
                return self._accumulated(parent, parent.target, fn, depth)
            if isinstance(parent, (cst.Return, cst.Expr)):
                return None
            if isinstance(parent, cst.For) and parent.iter is node and isinstance(node, (cst.Name, cst.Attribute)):
                return self._iterated(parent, fn, depth)  # the value itself (a name, a field), not something computed from it
            if isinstance(parent, cst.CompFor) and parent.iter is node and isinstance(node, cst.Name):
                return self._iterated(parent, fn, depth)  # `sum(f(**kw) for kw in kwargs)`: each item, as read
            if isinstance(parent, cst.CompFor) and parent.iter is node:
                return Use(Need.UNKNOWN, parent, f"it is iterated over (line {self._line(parent)})")
            shown = ctx.code(parent) if isinstance(parent, cst.BaseExpression) else type(parent).__name__
            return Use(Need.UNKNOWN, parent, f"it is used in `{shorten(shown)}` (line {self._line(node)})")

    def _differentiated_bound(self, call: cst.Call, arg: cst.Arg) -> bool:
        """`arg` is the lower or upper bound of the fori_loop `call`, which code a function handed
        to ``jax.grad`` (or another reverse-mode transform) runs (docs/jax301-behaviour.md)."""
        return self.traces is not None and fori_bound(call, arg) and self.traces.reverse_mode_root(call) is not None

    def _nondiff_slot(self, call: cst.Call, arg: cst.Arg) -> str | None:
        """`arg` fills a ``nondiff_argnums`` slot of a custom_vjp of the module, which takes no
        tracer (docs/jax407-behaviour.md): why it needs a Python value there, else None."""
        ctx = self.ctx
        fn = defined_function(ctx, call.func)
        if fn is None or not fn.decorators:
            return None
        signature = function_info(ctx, fn).signature
        param = next((p.name for p in signature.params if call_argument(call, signature, p.name, bound=False) is arg.value), None)
        if param is None or not nondiff_parameter(ctx, fn, param):
            return None
        declared = next(p for p in (*fn.params.posonly_params, *fn.params.params) if p.name.value == param)
        why = python_value_needed(ctx, declared)
        if why is None:
            return None  # an ordinary argument serves as well: JAX407 moves it to the residuals
        return (
            f"passes it to `{param}` of `{fn.name.value}`, which `jax.custom_vjp` lists in `nondiff_argnums` (no "
            f"tracer there), and which needs it as a Python value ({why})"
        )

    def _argument(self, arg: cst.Arg) -> Use | object | None:
        ctx = self.ctx
        call = ctx.parent(arg)
        assert isinstance(call, cst.Call)
        reason = size_argument(ctx, call, arg)
        if reason is not None:
            kind = "a filter spec" if "filter spec" in reason else "a size"
            return self._needs(call, f"is {kind}: {reason}")
        switch = linen_switch(ctx, call, arg)
        if switch is not None:
            return self._needs(call, f"takes it as a switch: {switch}")
        qualified = ctx.names.qualified_name(call.func) or ""
        if qualified == FORI_LOOP and self._differentiated_bound(call, arg):
            return self._needs(
                call,
                "is a bound of a `lax.fori_loop` the module differentiates in reverse mode, which needs concrete "
                f"bounds ({TRACED_BOUND_UNDER_GRAD})",
            )
        if metadata_call(qualified) is not None:
            return None  # jnp.shape(x): metadata, static even for a tracer
        if qualified in MINMAX:
            if minmax_as_array(ctx, self.traces, call) is not None:
                return _CONTINUE  # JAX304 computes it with jnp.minimum/maximum, which take tracers
            return self._needs(call, f"is compared by `{ctx.code(call.func)}()` with Python's `<`, which needs concrete values")
        if argnums_argument(ctx, call, arg):
            return self._needs(call, f"is `argnums` of `{ctx.code(call.func)}`, which must be Python ints")
        if qualified in CONVERSIONS:
            if needless_float(ctx, self.traces, call):
                return _CONTINUE  # nothing needs the Python float: JAX304 drops the conversion
            return self._needs(call, "needs a concrete value")
        if qualified in STATIC_BUILTINS:
            return None
        if qualified == "builtins.sum" and arg.keyword is None and not arg.star:
            return _CONTINUE  # `sum(items)`: `+` of what it holds, which takes tracers
        # A jitted function of the module first: `Model.f(x, axis=n)` is no array method.
        jitted = jitted_call(ctx, call)
        if jitted is not None:
            slot = next((s for s in jitted.slots if s.expr is arg.value), None)
            if slot is not None and slot.static:
                use = self._needs(call, f"passes it to static parameter `{slot.param}` of the jitted `{jitted.callee_name}`, which hashes it")
                return Use(use.need, use.node, use.reason, static_parameter=True)
            if slot is not None:
                inner = self._in_jitted(jitted.target, slot.param)
                return inner if inner is not None else _CONTINUE
        nondiff = self._nondiff_slot(call, arg)
        if nondiff is not None:
            return self._needs(call, nondiff)
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
        if (qualified.startswith(ARRAY_MODULES) or (not qualified and method)) and arg.keyword is not None:
            if arg.keyword.value in STATIC_JNP_KEYWORDS and (qualified, arg.keyword.value) not in TRACED_KEYWORDS:
                return replace(self._needs(call, f"takes it as `{arg.keyword.value}=`, which must be static"), static_option=True)
        if qualified.startswith("jax.numpy.") and qualified.rsplit(".", 1)[-1] in AXIS_SECOND and arg.keyword is None:
            if [a for a in call.args if a.keyword is None].index(arg) == 1:
                return replace(self._needs(call, "takes it as the axis, which must be static"), static_option=True)
        if not qualified and method in AXIS_FIRST_METHODS and arg.keyword is None and not _indexed_update(call.func):
            return replace(self._needs(call, "takes it as the axis, which must be static"), static_option=True)
        if twin(qualified, call) is not None:
            return _CONTINUE  # JAX310 hands it to the jax.numpy twin, whose result is an array
        if linen_function(qualified) or _linen_layer_input(ctx, call, arg):
            return _CONTINUE  # `nn.relu(x)`, `nn.Dense(4)(x)`: flax computes an array from it
        if qualified.startswith("numpy."):
            return self._needs(call, "converts it with NumPy, which needs a concrete array")
        if qualified.startswith(ARRAY_MODULES):
            if self.strict:  # what JAX computes from it is a tracer under jit, static or not
                return Use(Need.UNKNOWN, call, f"it is passed to `{shorten(ctx.code(call.func))}` (line {self._line(call)}), whose result JAX computes")
            return _CONTINUE
        if qualified == PARTIAL:
            return self._bound_by_partial(call, arg)
        helper = self._helper(call, arg)
        if helper is _MAPPED:
            return None
        if helper is not None:
            return helper
        return Use(Need.UNKNOWN, call, f"it is passed to `{shorten(ctx.code(call.func))}` (line {self._line(call)}), which we cannot see into")

    def _bound_by_partial(self, call: cst.Call, arg: cst.Arg) -> Use | None:
        """``partial(generate_samples, env, params, agent, n_steps)``: the partial holds the value and
        hands it to the def it binds (a plain def of the module) at every call, where no layer around
        the partial traces it (jax-ppo's ``jax.vmap(partial(generate_samples, ...))``): what that
        parameter needs, the value needs. Unknown when the function or the slot cannot be read."""
        ctx = self.ctx
        function = call.args[0] if call.args and call.args[0] is not arg and call.args[0].keyword is None else None
        fn = plain_def(ctx, function.value) if function is not None and not function.star else None
        unknown = Use(Need.UNKNOWN, call, f"it is bound by `{shorten(ctx.code(call))}` (line {self._line(call)}) to a function we cannot see into")
        if fn is None or arg.star or any(a.star for a in call.args) or self._depth > 4:
            return unknown
        signature = function_info(ctx, fn).signature
        if arg.keyword is not None:
            name = arg.keyword.value if signature.param(arg.keyword.value) is not None else None
        else:
            index = [a for a in call.args[1:] if a.keyword is None].index(arg)
            positional = signature.positional
            name = positional[index].name if index < len(positional) else None
        if name is None:
            return unknown
        self._depth += 1
        try:
            use = self.first_need(fn, name)
        finally:
            self._depth -= 1
        if use is not None and use.need is Need.NEEDS:
            return Use(use.need, use.node, f"{use.reason}, in `{function_info(ctx, fn).name}`, which `partial` hands it (line {self._line(call)})")
        return use

    def _unpacked(self, call: cst.Call) -> Use | object | None:
        """``sersic(x, y, **kw)`` of a plain def of the module with no ``**`` parameter: each key
        binds one of its parameters the call leaves open, so what any of those needs, the dict's
        values may need (herculens' lens profiles)."""
        ctx = self.ctx
        fn = single_binding(ctx, call.func) if isinstance(call.func, cst.Name) else None
        if not isinstance(fn, cst.FunctionDef) or fn.decorators or fn.params.star_kwarg is not None or self._depth > 4:
            return None
        info = function_info(ctx, fn)
        if any(a.star == "*" for a in call.args):
            return None
        given = {a.keyword.value for a in call.args if a.keyword is not None}
        positional = len([a for a in call.args if a.keyword is None and not a.star])
        open_params = [p.name for p in info.signature.positional[positional:] if p.name not in given]
        open_params += [p.name for p in info.signature.params if p.kind is Kind.KEYWORD_ONLY and p.name not in given]
        found: Use | None = None
        self._depth += 1
        try:
            for param in open_params:
                use = self.first_need(fn, param)
                if use is not None and use.need is Need.NEEDS:
                    return Use(use.need, use.node, f"{use.reason}, in `{info.name}`, which receives it on line {self._line(call)}")
                found = found or use
        finally:
            self._depth -= 1
        if found is not None:
            return found
        return _CONTINUE if _returns_value(fn) else None

    def _helper(self, call: cst.Call, arg: cst.Arg) -> Use | object | None:
        """A plain def of this module given the value: what its parameter's reads need."""
        ctx = self.ctx
        if self._depth > 4:
            return None
        if arg.star == "**":
            return self._unpacked(call)
        bound = False
        consumed = NOTHING_CONSUMED
        layers: tuple[Wrap, ...] = ()  # transforms between the call and `fn`, which may not hand the value on
        applied = linen_apply(ctx, call) or train_state_apply(ctx, call)
        if applied is not None:
            # `model.apply(variables, x, train)`: the variables fill `self`'s slot of `__call__`.
            fn, consumed = applied, LINEN_APPLY
        elif isinstance(call.func, cst.Name) and (called := self._called_instance(call.func)) is not None:
            fn, bound = called, True  # `model(steps, y)` of a parameter every call hands one class's instance
        elif isinstance(call.func, cst.Name) and (transformed := self._bound_transform(call.func)) is not None:
            passed = self._passed_through(transformed)  # `grad_fn = jax.value_and_grad(loss_fn)`, then `grad_fn(p, t)`
            if passed is None:
                return None
            fn, bound = passed
            layers = (_layer(ctx, transformed),)
        elif isinstance(call.func, cst.Name):
            fn = single_binding(ctx, call.func)
            if isinstance(fn, cst.Name):
                fn = self._made_def(fn)
            if isinstance(fn, cst.ClassDef) and _stores_its_arguments(ctx, fn):
                return _CONTINUE  # `BoundaryConditionState(sst=sst, ...)`: the tuple holds it, read where it goes
            if isinstance(fn, cst.ClassDef):
                # `Problem(cost, tau=tau)` (ott#388): its own `__init__` receives the value
                inits = [d for d in members_named(fn, "__init__") if isinstance(d, cst.FunctionDef)]
                kept = all(ctx.names.qualified_name(d.decorator) in _CLASS_KEEPING for d in fn.decorators)
                fn, bound = (inits[0], True) if len(inits) == 1 and kept else (None, False)
            if not isinstance(fn, cst.FunctionDef):
                return None
            if fn.decorators:
                mapped = self._vmapped_route(fn, call)
                if mapped is None:
                    return None
                layers = mapped.wraps
        elif isinstance(call.func, cst.Attribute):
            # ``self.coords(...)``: a method of this module's class, surely that one, not jitted;
            # ``solver.init_state(...)`` with every call handing `solver` one class's instance.
            found = unjitted_def(ctx, resolve_callable(ctx, call.func) or self._passed_method(call.func))
            if found is None:
                return None
            fn, bound = found
        elif isinstance(call.func, cst.Call):
            passed = self._passed_through(call.func)
            if passed is None:
                return None
            fn, bound = passed
            layers = (_layer(ctx, call.func),)
        else:
            return None
        info = function_info(ctx, fn)
        param = next(
            (p.name for p in info.signature.params if call_argument(call, info.signature, p.name, bound=bound, consumed=consumed) is arg.value),
            None,
        )
        if param is None or (applied is not None and param == info.signature.params[0].name):
            return None
        # a bound method's transform counts its arguments after the receiver (`argnums=0` is `w`
        # of `self.loss(w, ...)`)
        seen_by_call = Signature(info.signature.params[1:]) if bound else info.signature
        handed = [w.traces(ctx, seen_by_call, param) for w in layers]
        if any(t is not False for t in handed):
            # the transform differentiates or maps it: not the value the caller passed. A vmap mapping
            # it hands each example a slice, a tracer whatever the caller passed: no read there sees
            # its value (and what the call returns is mapped too)
            mapped_only = all(t is not None for t in handed) and all(w.name == "jax.vmap" for w, t in zip(layers, handed) if t)
            return _MAPPED if mapped_only else None
        self._depth += 1
        try:
            use = self.first_need(fn, param)
        finally:
            self._depth -= 1
        if use is None:
            # What it returns carries the value on, unless the helper only reads its metadata
            # (``def b(z): return z.shape``: static even for a tracer).
            return _CONTINUE if _returns_value(fn) and not self._metadata_only(fn, param) else None
        return Use(use.need, use.node, f"{use.reason}, in `{info.name}`, which receives it on line {self._line(call)}")

    def _vmapped_route(self, fn: cst.FunctionDef, call: cst.Call) -> Route | None:
        """The route of `call` to `fn` when `fn`'s decorators are only ``jax.vmap`` layers
        (dopamine's ``@functools.partial(jax.vmap, in_axes=(None, 0, 0, 0, None, None))``): a
        parameter none of them maps gets the value the call passes (checked per parameter)."""
        routes = self.traces.routes(fn) if self.traces is not None else None
        route = next((r for r in routes or () if r.call is call and not r.escapes and not r.uncertain), None)
        if route is None or not route.wraps or route.head != len(route.wraps):
            return None
        return route if all(w.name == "jax.vmap" for w in route.wraps) else None

    def _called_instance(self, func: cst.Name) -> cst.FunctionDef | None:
        """The undecorated ``__call__`` that calling `func` runs, where `func` is a parameter every
        call hands an instance of one class of this module (`TraceIndex.instance_class_of`:
        equinox#990's ``model(steps, ytraj_init)`` in a jitted ``rollout(model, steps, ...)``)."""
        if self.traces is None or not isinstance(single_binding(self.ctx, func), cst.Param):
            return None
        cls = self.traces.instance_class_of(func)
        found = [d for d in members_named(cls, "__call__") if isinstance(d, cst.FunctionDef)] if cls is not None else []
        if len(found) != 1 or found[0].decorators or function_info(self.ctx, found[0]).method is not MethodKind.INSTANCE:
            return None
        return found[0]

    def _passed_method(self, func: cst.Attribute) -> Target | None:
        """``solver.init_state`` where `solver` is a parameter every call passes an instance of one
        class of this module (`TraceIndex.instance_class_of`): that class's one method of the name."""
        cls = self.traces.instance_class_of(func.value) if self.traces is not None else None
        members = members_named(cls, func.attr.value) if cls is not None else []
        if len(members) != 1 or not isinstance(members[0], cst.FunctionDef):
            return None
        info = function_info(self.ctx, members[0])
        if info.method is not MethodKind.INSTANCE:
            return None
        return Target(info, info.jit, info.jit_node, implicit_self=True)

    def _bound_transform(self, func: cst.Name) -> cst.Call | None:
        """``grad_fn`` bound once to ``jax.value_and_grad(loss_fn)`` (or another `_passed_through`
        application), in the function that calls it."""
        binding = single_binding(self.ctx, func)
        value = assigned_value(self.ctx, binding) if isinstance(binding, cst.Name) else None
        if not isinstance(value, cst.Call) or self.ctx.enclosing_function(binding) is not self.ctx.enclosing_function(func):
            return None
        qualified = self.ctx.names.qualified_name(value.func) or ""
        return value if qualified in (*DIFFERENTIATION, "jax.vmap") else None

    def _made_def(self, binding: cst.Name) -> FunctionNode | None:
        """``tri = make_tri()``: the one def the factory returns (pytensor's funcified ops, jax#22751)."""
        value = assigned_value(self.ctx, binding)
        if self.traces is None or not isinstance(value, cst.Call):
            return None
        made = self.traces.made_by_factory(value)
        return next(iter(made)) if len(made) == 1 else None

    def _metadata_only(self, fn: FunctionNode, param: str) -> bool:
        """Every read of `param` in `fn` asks for its shape, rank, size or dtype."""
        ctx = self.ctx
        found = False
        for read in parameter_reads(ctx, fn, param):
            found = True
            parent = ctx.parent(read)
            if isinstance(parent, cst.Attribute) and parent.value is read and parent.attr.value in METADATA_ATTRIBUTES:
                continue
            call = ctx.parent(parent) if isinstance(parent, cst.Arg) else None
            if isinstance(call, cst.Call) and (
                metadata_call(ctx.names.qualified_name(call.func) or "") is not None
                or ctx.names.qualified_name(call.func) == "builtins.len"
            ):
                continue
            return False
        return found

    def _in_jitted(self, target, param: str) -> Use | None:
        """A traced parameter of another jitted def of this module that needs the value concrete
        (``fit`` passes ``training`` to the jitted ``train_step``, whose body needs it): the need,
        marked `through_jit`; None when that body does not need it."""
        fn = target.function.node
        if not isinstance(fn, cst.FunctionDef) or self._depth > 4:
            return None
        self._depth += 1
        try:
            use = self.first_need(fn, param)
        finally:
            self._depth -= 1
        if use is None or use.need is not Need.NEEDS or use.static_parameter or use.static_option:
            return None
        reason = f"{use.reason}, in the jitted `{target.function.name}`, which traces its `{param}`"
        return replace(use, reason=reason, through_jit=(fn, param))

    def _passed_through(self, applied: cst.Call) -> tuple[cst.FunctionDef, bool] | None:
        """``jax.value_and_grad(loss)`` / ``jax.vmap(f, in_axes=...)`` of a plain def of this module,
        or of a method read on an instance (``jax.value_and_grad(self.loss)``, brainpy#607): (the
        def, whether the call's arguments come after its receiver). Its parameters the transform
        does not differentiate or map get what the call passes (checked per parameter by
        `Wrap.traces`)."""
        qualified = self.ctx.names.qualified_name(applied.func) or ""
        if qualified not in (*DIFFERENTIATION, "jax.vmap") or not applied.args or applied.args[0].keyword or applied.args[0].star:
            return None
        return unjitted_def(self.ctx, resolve_callable(self.ctx, applied.args[0].value))  # `loss`, `Model.loss`, `self.loss`

    def _assigned(self, assign: cst.Assign, fn: FunctionNode, depth: int) -> Use | None:
        """``m = value``, and ``a, b = value`` (each part of an array, or of what a JAX call
        returns for it, is such a value too): what the names' reads need, the value needs."""
        ctx = self.ctx
        kept_unknown = Use(Need.UNKNOWN, assign, f"it is unpacked or stored (line {self._line(assign)})")
        if len(assign.targets) != 1:
            return kept_unknown
        kept = init_store(ctx, assign) if self._depth <= 4 else None
        if kept is not None:
            return self._field_reads(assign, *kept, depth)
        target = assign.targets[0].target
        names = [target] if isinstance(target, cst.Name) else []
        if isinstance(target, (cst.Tuple, cst.List)):
            names = [e.value for e in target.elements if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)]
            if len(names) != len(target.elements):
                return kept_unknown
        if not names:
            return kept_unknown
        unknown: Use | None = None
        looped = any(isinstance(a, (cst.For, cst.While)) for a in ctx.ancestors_within(assign, fn))
        for name in names:
            for read in reads(ctx, name):
                if not looped and any(a is assign.value for a in ctx.ancestors(read)):
                    continue  # `k, sub = split(k)`: the old `k`, read before this binding exists
                if single_binding(ctx, read) is not name and dominating_binding(ctx, read) is not name:  # type: ignore[arg-type]
                    # the read may see this binding or another: a need there is one this value may meet
                    # (``n = params.steps`` under ``if n is None:``, then ``scan(..., length=n)``); followed
                    # outside loops and near the value only, where no chain of rebindings multiplies the reads
                    use = self._follow(read, fn, depth + 1) if not looped and depth < 2 else None
                    if use is not None and use.need is Need.NEEDS:
                        return use
                    unknown = unknown or Use(Need.UNKNOWN, read, f"`{name.value}` is bound more than once")
                    continue
                use = self._follow(read, fn, depth + 1)
                if use is not None and use.need is Need.NEEDS:
                    return use
                unknown = unknown or use
        return unknown

    def _field_reads(self, assign: cst.Assign, cls: cst.ClassDef, target: cst.Attribute, depth: int) -> Use | None:
        """``self.tau = tau`` in ``__init__`` (ott#388's problem object): what is done with the
        field is what the value needs. Its reads are ``self.tau`` in the class's methods, and
        ``prob.tau`` of an instance of the class (`TraceIndex.instance_class_of`); any other
        ``.tau``, another store, or a subclass: unknown. A method's read counts when the method
        runs: ``__init__`` itself, or a method (a property too) the module reads by name outside
        it (``prob.balanced``); the others may never run on this object."""
        ctx = self.ctx
        field = target.attr.value
        unknown = Use(Need.UNKNOWN, assign, f"it is stored as `{ctx.code(target)}` (line {self._line(assign)}), read where we cannot follow")
        if subclass_of(ctx, cls) is not None:
            return unknown
        reads_of_it: list[cst.Attribute] = []
        for attribute in ctx.attributes_named(field):
            if attribute is target:
                continue
            if stored(ctx, attribute):
                return unknown
            holder = ctx.enclosing_function(attribute)
            receiver = attribute.value
            if isinstance(holder, cst.FunctionDef) and ctx.parent(ctx.parent(holder)) is cls and _receiver_of(holder, receiver):
                reads_of_it.append(attribute)
            elif self.traces is not None and self.traces.instance_class_of(receiver) is cls:
                reads_of_it.append(attribute)
            else:
                return unknown
        found: Use | None = None
        line = self._line(assign)
        for read in reads_of_it:
            method = ctx.enclosing_function(read)
            if not isinstance(method, cst.FunctionDef) or not self._runs(method):
                continue
            where = f"in `{method.name.value}`, which reads the `self.{field}` it is stored in on line {line}"
            self._depth += 1
            try:
                use = self._follow(read, method, depth + 1)
                if use is None and _returns_value(method) and ctx.parent(ctx.parent(method)) is cls:
                    use = self._results(cls, method, depth)  # `return self.tau == 1.0` of a property
                    where = f"`{method.name.value}` returning what it computes from `self.{field}`, stored on line {line}"
            finally:
                self._depth -= 1
            if use is not None and use.need is Need.NEEDS:
                return Use(use.need, use.node, f"{use.reason} ({where})")
            found = found or use
        return found

    def _results(self, cls: cst.ClassDef, method: cst.FunctionDef, depth: int) -> Use | None:
        """Where what `method` returns goes: each ``prob.balanced`` of a property, each
        ``prob.scale(...)`` of a method, on an instance of `cls` (or its ``self``); unknown for a
        read of the name on anything else."""
        ctx = self.ctx
        name = method.name.value
        prop = any(ctx.names.qualified_name(d.decorator) == "builtins.property" for d in method.decorators)
        if method.decorators and not prop:
            return Use(Need.UNKNOWN, method, f"`{name}` is decorated (line {self._line(method)})")
        found: Use | None = None
        for access in ctx.attributes_named(name):
            holder = ctx.enclosing_function(access)
            if holder is method or (holder is not None and not self._staged(holder)):
                continue  # eager code reads it of another object: the value followed is a tracer
            mine = isinstance(holder, cst.FunctionDef) and ctx.parent(ctx.parent(holder)) is cls and _receiver_of(holder, access.value)
            if not mine and (self.traces is None or self.traces.instance_class_of(access.value) is not cls):
                return Use(Need.UNKNOWN, access, f"`{ctx.code(access)}` (line {self._line(access)}) may be another object's")
            result: cst.CSTNode = access
            if not prop:
                call = ctx.parent(access)
                if not (isinstance(call, cst.Call) and call.func is access):
                    return Use(Need.UNKNOWN, access, f"`{name}` is handed on (line {self._line(access)})")
                result = call
            if not isinstance(holder, (cst.FunctionDef, cst.Lambda)):
                return Use(Need.UNKNOWN, access, f"`{ctx.code(access)}` is read outside a function (line {self._line(access)})")
            use = self._follow(result, holder, depth + 1)
            if use is not None and use.need is Need.NEEDS:
                return use
            found = found or use
        return found

    def _runs(self, method: cst.FunctionDef) -> bool:
        """``__init__`` (it runs on the object being built), or a method whose name code that runs
        staged reads outside its own body: a method only eager code reads runs on other objects
        (the value followed is a tracer, which lives only while the program is traced)."""
        name = method.name.value
        if name == "__init__":
            return True
        holders = (self.ctx.enclosing_function(a) for a in self.ctx.attributes_named(name))
        return any(holder is not None and holder is not method and self._staged(holder) for holder in holders)

    def _staged(self, fn: FunctionNode) -> bool:
        """`fn` may run while a transform traces abstract values (`TraceIndex.reached_from` the
        functions the module hands a staging transform, or vmap/pmap); without the module's routes,
        any function."""
        if self.traces is None:
            return True
        if self._staged_set is None:
            self._staged_set = self.traces.reached_from(self.traces.handed_to(STAGING | MAPPING))
        return fn in self._staged_set

    def _accumulated(self, statement: cst.AugAssign, name: cst.Name, fn: FunctionNode, depth: int) -> Use | None:
        """``model += value``: the name holds arithmetic on the value from here on, and on whatever
        else it gathers (a loop's other terms). No read of the name (the reads before it too, as a
        loop may run them after) needing a concrete value: none for the value either. One that does
        is no proof the value alone would serve there (gymnax's ``done += collision`` of several
        traced fields): it is unknown."""
        found: Use | None = None
        for read in reads(self.ctx, name):
            if read is name:
                continue
            use = self._follow(read, fn, depth + 1)
            if use is not None and use.need is Need.NEEDS:
                return Use(Need.UNKNOWN, use.node, f"it is accumulated into `{name.value}` (line {self._line(statement)}), and {use.reason}")
            found = found or use
        return found

    def _iterated(self, loop: cst.For | cst.CompFor, fn: FunctionNode, depth: int) -> Use | None:
        """``for t, h, w in grid:``: each row of an array is an array (a tracer for a tracer), so
        what the loop's names need, the value needs."""
        ctx = self.ctx
        target = loop.target
        names = [target] if isinstance(target, cst.Name) else []
        if isinstance(target, (cst.Tuple, cst.List)):
            names = [e.value for e in target.elements if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)]
            if len(names) != len(target.elements):
                names = []
        unknown = Use(Need.UNKNOWN, loop, f"it is iterated over (line {self._line(loop)})")
        if not names:
            return unknown
        found: Use | None = None
        for name in names:
            for read in reads(ctx, name):
                if single_binding(ctx, read) is not name:  # type: ignore[arg-type]
                    return unknown
                use = self._follow(read, fn, depth + 1)
                if use is not None and use.need is Need.NEEDS:
                    return use
                found = found or use
        return found

    def _needs(self, node: cst.CSTNode, what: str) -> Use:
        shown = self.ctx.code(node) if isinstance(node, cst.BaseExpression) else type(node).__name__
        return Use(Need.NEEDS, node, f"`{shorten(shown)}` (line {self._line(node)}) {what}")

    def _line(self, node: cst.CSTNode) -> int:
        return self.ctx.span(node).start.line


_CONTINUE = object()


def _layer(ctx: ModuleContext, applied: cst.Call) -> Wrap:
    """The transform ``jax.vmap(f, in_axes=...)`` (or ``jax.value_and_grad(loss)``) applies to its def."""
    return Wrap(ctx.names.qualified_name(applied.func) or "", applied, applied)
#: `_helper`'s answer for an argument a vmap maps: no read of the callee sees the caller's value.
_MAPPED = object()


def _stores_its_arguments(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """``class State(typing.NamedTuple)`` of the module with no ``__new__`` of its own: building one
    only stores what it is given, so a value passed to it needs what the tuple's uses need."""
    return namedtuple_fields(ctx, cls) is not None and not members_named(cls, "__new__")

#: The calls whose argument is a loop count: JAX301's (a ``range()`` count, a scan length, an
#: ``arange`` size).
LOOP_COUNT_CALLS = frozenset({"builtins.range", "jax.lax.scan", "jax.numpy.arange"})


def feeds_loop_count(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """`node` is, or is inside, a loop count's call (``range(int(n))``)."""
    return any(
        isinstance(a, cst.Call) and ctx.names.qualified_name(a.func) in LOOP_COUNT_CALLS for a in (node, *ctx.ancestors(node))
    )


def read_as_loop_count(ctx: ModuleContext, fn: FunctionNode, param: str, calls: frozenset[str] = LOOP_COUNT_CALLS) -> bool:
    """Is the parameter read inside a ``range()``, ``lax.scan`` or ``jnp.arange`` call (JAX301's counts)?"""
    for read in parameter_reads(ctx, fn, param):
        for ancestor in ctx.ancestors(read):
            if ancestor is fn:
                break
            if isinstance(ancestor, cst.Call) and ctx.names.qualified_name(ancestor.func) in calls:
                return True
    return False


def _linen_layer_input(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> bool:
    """`arg` is the input of a flax layer built and called at once: ``nn.Dense(4)(x)``."""
    func = call.func
    if not isinstance(func, cst.Call) or not linen_layer(ctx.names.qualified_name(func.func) or ""):
        return False
    positional = [a for a in call.args if a.keyword is None]
    return bool(positional) and positional[0] is arg and not arg.star


def _indexed_update(func: cst.BaseExpression) -> bool:
    """``x.at[i].min(v)``: an indexed update, whose first argument is the values, not an axis."""
    receiver = func.value if isinstance(func, cst.Attribute) else None
    return isinstance(receiver, cst.Subscript) and isinstance(receiver.value, cst.Attribute) and receiver.value.attr.value == "at"


def _returns_value(fn: cst.FunctionDef) -> bool:
    """Does the def return something (which may carry the value on to the caller)?"""
    found: list[bool] = []

    class _Returns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is fn

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Return(self, node: cst.Return) -> None:
            if node.value is not None:
                found.append(True)

    fn.visit(_Returns())
    return bool(found)


def _receiver_of(method: cst.FunctionDef, receiver: cst.BaseExpression) -> bool:
    """`receiver` is the method's first parameter, by name (``self``)."""
    return isinstance(receiver, cst.Name) and receiver.value == first_parameter(method)

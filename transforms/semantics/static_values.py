"""Is a value static (a concrete, hashable Python value) where it is used?

A rewrite that binds a value into a jitted callable is right only when the
value is static at that point (jax-behaviour.md 1i: if it is already a tracer,
every binding form fails with the same message). The verdict is one of:

* STATIC: a literal, a module constant, Python arithmetic on static values,
  array metadata (``x.shape[0]``, ``x.ndim``, ``len(x)``), a static parameter
  of the enclosing jit, a parameter of an eager function, a loop variable
  over a literal sequence, a function or class;
* TRACED: a parameter of an enclosing jitted function that is not static there
  (the JAX102 case), with that function and parameter named;
* UNKNOWN: anything we cannot follow (an attribute, a call's result, a name
  bound twice), with the reason.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.class_hashing import given_to_field, linen_module
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    declared_annotation,
    local_bindings,
    reaching_parameter,
    single_binding,
)
from jaxfix.transforms.semantics.importers import here, used_elsewhere
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT
from jaxfix.transforms.semantics.reads import parameter
from jaxfix.transforms.semantics.tracing import JitEntry, TraceIndex
from jaxfix.transforms.semantics.vocabulary import ARRAY_TRACING, JIT

_METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})
_STATIC_BUILTINS = frozenset({"len", "int", "float", "bool", "abs", "min", "max", "round", "str", "tuple"})


class Kind(enum.Enum):
    STATIC = "static"
    TRACED = "traced"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    reason: str
    #: For TRACED: the jitted function whose non-static parameter the value is.
    function: FunctionNode | None = None
    param: str | None = None
    entry: JitEntry | None = None


def _static(reason: str) -> Verdict:
    return Verdict(Kind.STATIC, reason)


def _unknown(reason: str) -> Verdict:
    return Verdict(Kind.UNKNOWN, reason)


class StaticnessChecker:
    def __init__(self, ctx: ModuleContext, traces: TraceIndex) -> None:
        self.ctx = ctx
        self.traces = traces
        self._passed: dict[tuple[FunctionNode, str], bool] = {}
        #: `_passed_traced`'s answers (None while one is being computed: a recursive call proves nothing).
        self._fed: dict[tuple[FunctionNode, str], Verdict | None] = {}
        self._fields: dict[tuple[cst.ClassDef, str], bool] = {}

    def verdict(self, expr: cst.BaseExpression, _depth: int = 0) -> Verdict:
        if _depth > 12:
            return _unknown("the expression is too deeply nested to follow")
        ctx = self.ctx
        code = ctx.module.code_for_node(expr).strip()
        if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)):
            return _static("a literal")
        if isinstance(expr, cst.Tuple):
            return self._all(
                [e.value for e in expr.elements if isinstance(e, cst.Element)],
                len(expr.elements),
                _depth,
                "a tuple of static values",
            )
        if isinstance(expr, cst.UnaryOperation):
            return self._all([expr.expression], 1, _depth, "arithmetic on static values")
        if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
            return self._all([expr.left, expr.right], 2, _depth, "arithmetic on static values")
        if isinstance(expr, cst.Comparison):
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]
            return self._all(parts, len(parts), _depth, "a comparison of static values")
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in _METADATA_ATTRIBUTES:
                return _static("array metadata (static under tracing)")
            qualified = ctx.names.qualified_name(expr)
            if qualified and qualified.split(".")[0] in ("jax", "numpy", "math"):
                return _static("a library object")
            if self._linen_field(expr):
                return _static(f"`{code}` is a field of a flax linen Module, a Python value")
            stored = read_attribute(ctx, expr)
            if stored is not None and self.verdict(stored.value, _depth + 1).kind is Kind.STATIC:
                return _static(f"`{code}` is set once, in `__init__`, to a static value")
            return _unknown(f"`{code}` is an attribute whose value cannot be followed")
        if isinstance(expr, cst.Subscript):
            if isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
                return _static("array metadata (static under tracing)")
            return _unknown(f"`{code}` is a subscript whose value cannot be followed")
        if isinstance(expr, cst.Call):
            qualified = ctx.names.qualified_name(expr.func) or ""
            name = qualified.removeprefix("builtins.")
            if qualified.startswith("builtins.") and name in _STATIC_BUILTINS:
                if name == "len":
                    return _static("len() of a value (static under tracing)")
                args = [a.value for a in expr.args]
                if any(a.star or a.keyword for a in expr.args):
                    return _unknown(f"`{code}` passes arguments we cannot follow")
                return self._all(args, len(args), _depth, f"{name}() of static values")
            return _unknown(f"`{code}` is the result of a call")
        if isinstance(expr, cst.Name):
            return self._name(expr, code, _depth)
        return _unknown(f"`{code}` cannot be proven static")

    def _all(self, parts: list[cst.BaseExpression], expected: int, depth: int, reason: str) -> Verdict:
        if len(parts) != expected:
            return _unknown("the expression unpacks values we cannot follow")
        for part in parts:
            verdict = self.verdict(part, depth + 1)
            if verdict.kind is not Kind.STATIC:
                return verdict
        return _static(reason)

    def _name(self, name: cst.Name, code: str, depth: int) -> Verdict:
        ctx = self.ctx
        qualified = ctx.names.qualified_name(name)
        if qualified in ("builtins.True", "builtins.False", "builtins.None"):
            return _static("a literal")
        if qualified and qualified.split(".")[0] in ("jax", "numpy", "math"):
            return _static("a library object")
        binding = single_binding(ctx, name) or reaching_parameter(ctx, name)
        if binding is None:
            every = self._every_binding(name, depth)
            if every is not None:
                return every
            return _unknown(f"`{code}` is bound more than once, or not in this module")
        if isinstance(binding, (cst.FunctionDef, cst.ClassDef)):
            return _static("a function or class")
        if isinstance(binding, cst.Param):
            return self._param(binding, code)
        if isinstance(binding, cst.Name):
            value = assigned_value(ctx, binding)
            if value is not None:
                inner = self.verdict(value, depth + 1)
                if inner.kind is Kind.STATIC:
                    return _static(f"`{code}` is bound once to {inner.reason}")
                return inner
            loop = ctx.parent(binding)
            if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding:
                return self._loop_variable(loop, code, depth)
        return _unknown(f"`{code}` is not bound to a value we can follow")

    def _loop_variable(self, loop: cst.For | cst.CompFor, code: str, depth: int) -> Verdict:
        iterable = loop.iter
        if isinstance(iterable, (cst.Tuple, cst.List)):
            items = [e.value for e in iterable.elements if isinstance(e, cst.Element)]
            verdict = self._all(items, len(iterable.elements), depth, "a loop over static values")
        elif isinstance(iterable, cst.Call) and self.ctx.names.qualified_name(iterable.func) == "builtins.range":
            verdict = self._all([a.value for a in iterable.args], len(iterable.args), depth, "a loop over range()")
        else:
            return _unknown(f"`{code}` is a loop variable over values we cannot follow")
        if verdict.kind is Kind.STATIC:
            return _static(f"`{code}` is {verdict.reason}")
        return verdict

    def _param(self, param: cst.Param, code: str) -> Verdict:
        ctx = self.ctx
        fn = ctx.enclosing_function(param)
        if fn is None:
            return _unknown(f"`{code}` is a parameter we cannot place")
        entry = self.traces.jit_entry(fn)
        name = param.name.value
        fname = fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
        if entry is not None:
            spec = entry.wrapper.spec
            if spec is None:
                return _unknown(f"the static arguments of `{fname}`'s jit cannot be read")
            signature = function_info(ctx, fn).signature
            if name in spec.declared_static(signature):
                return _static(f"`{name}` is a static parameter of the jitted `{fname}`")
            return Verdict(
                Kind.TRACED,
                f"`{name}` is a parameter of the jitted `{fname}` that is not static there, "
                "so it is already a tracer",
                fn,
                name,
                entry,
            )
        if self.traces.is_eager(fn):
            return _static(f"`{name}` is a parameter of `{fname}`, which this module never traces")
        if self._passed_static(fn, name):
            return _static(f"`{name}` is a parameter of `{fname}`, and every call of it passes a static value")
        fed = self._passed_traced(fn, name)
        if fed is not None:
            return fed
        return _unknown(f"`{name}` is a parameter of `{fname}`, which may be traced (vmap, grad, ...)")

    def _passed_traced(self, fn: FunctionNode, name: str) -> Verdict | None:
        """Every use of `fn` is a plain call (no layer, nothing escapes) and one passes `name` a
        traced value (``cond_via(grow, widen, narrow, n, x)`` inside a jit where `n` is traced): a
        tracer here too. The verdict names where the tracer comes from when every traced call
        passes one from the same parameter of the same jit (what making it static there would
        change); else it names none."""
        key = (fn, name)
        if key not in self._fed:
            self._fed[key] = None  # in progress
            self._fed[key] = self._fed_verdict(fn, name)
        return self._fed[key]

    def _fed_verdict(self, fn: FunctionNode, name: str) -> Verdict | None:
        routes = self.traces.routes(fn)
        signature = function_info(self.ctx, fn).signature
        declared = parameter(fn, name)
        traced: list[Verdict] = []
        for route in routes or ():
            if route.escapes or route.call is None or route.wraps or route.uncertain:
                return None
            argument = route.argument(signature, name)
            if argument is DEFAULT:
                argument = declared.default if declared is not None else None
            verdict = self.verdict(argument) if isinstance(argument, cst.BaseExpression) else None
            if verdict is not None and verdict.kind is Kind.TRACED:
                traced.append(verdict)
        if not traced:
            return None
        sources = {(id(v.function), v.param, id(v.entry)) for v in traced}
        first = traced[0]
        fname = function_info(self.ctx, fn).name
        reason = f"`{name}` is a parameter of `{fname}`, and a call of it passes a tracer ({first.reason})"
        if len(sources) == 1 and first.function is not None:
            return Verdict(Kind.TRACED, reason, first.function, first.param, first.entry)
        return Verdict(Kind.TRACED, reason)

    def parameter_verdict(self, param: cst.Param) -> Verdict:
        """What a parameter is where its function runs (see `verdict` for a name bound once)."""
        return self._param(param, param.name.value)

    def _passed_static(self, fn: FunctionNode, name: str) -> bool:
        """Every use of `fn` is a plain call (no transform, nothing escapes) passing `name` a static
        value, read where the call is (a helper called from a jitted function with its static
        arguments: phentax's ``self.initial_processing(..., delta_t, T)``), or a jit that declares it
        static (``run = jax.jit(integrate, static_argnames=("times",))`` beside eager calls)."""
        key = (fn, name)
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = False  # in progress: a recursive call proves nothing
        given = self._initializer_arguments(fn, name)
        if given is not None:
            self._passed[key] = all(self.verdict(a).kind is Kind.STATIC for a in given)
            return self._passed[key]
        routes = self.traces.routes(fn)
        signature = function_info(self.ctx, fn).signature
        declared = parameter(fn, name)
        result = bool(routes)
        for route in routes or ():
            if route.wraps and all(w.name == JIT and w.traces(self.ctx, signature, name) is False for w in route.wraps):
                continue  # a jit that makes it static: a Python value, whatever its callers pass
            bound = route.partial_argument(signature, name)
            if bound is not None:
                if self.verdict(bound).kind is Kind.STATIC:
                    continue  # ``jax.jit(partial(eye, 3, 4, k))``: the partial holds the value itself
                result = False
                break
            filtered = bool(route.wraps) and all(w.name in ARRAY_TRACING for w in route.wraps)
            if route.escapes or route.call is None or (route.wraps and not filtered):
                result = False
                break
            argument = route.argument(signature, name)  # the receiver too: `self.helper(...)`
            if argument is DEFAULT:
                argument = declared.default if declared is not None else None
            if not isinstance(argument, cst.BaseExpression) or self.verdict(argument).kind is not Kind.STATIC:
                result = False
                break
            if filtered and not _python_scalar(self.ctx, argument):
                result = False  # `eqx.filter_jit` keeps a Python value static, but traces an array
                break
        self._passed[key] = result
        return result

    def _initializer_arguments(self, fn: FunctionNode, name: str) -> list[cst.BaseExpression] | None:
        """When every use of `fn` hands it to a flax linen module's ``self.param(name, fn, *args)``
        (docs/flax-linen-behaviour.md: flax calls ``fn(rng, *args)``), what each passes parameter
        `name`: one of the ``args`` or its default; None when some use is anything else, or `name`
        is the rng."""
        ctx = self.ctx
        if not isinstance(fn, cst.FunctionDef) or fn not in self.traces.linen_initializers:
            return None
        refs = self.traces.references(fn)
        positional = [p.name for p in function_info(ctx, fn).signature.params]
        if not refs or name not in positional or positional.index(name) == 0:
            return None
        index = positional.index(name)
        declared = parameter(fn, name)
        given: list[cst.BaseExpression] = []
        for ref in refs:
            arg = ctx.parent(ref)
            call = ctx.parent(arg)
            if not (isinstance(arg, cst.Arg) and isinstance(call, cst.Call) and len(call.args) >= 2 and call.args[1] is arg):
                return None
            if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "param"):
                return None
            extra = call.args[2:]
            if any(a.keyword is not None or a.star for a in extra):
                return None
            if index - 1 < len(extra):
                given.append(extra[index - 1].value)
            elif declared is not None and declared.default is not None:
                given.append(declared.default)
            else:
                return None
        return given

    def _linen_field(self, attribute: cst.Attribute) -> bool:
        """``self.n_hadamard`` in a method of a flax linen Module whose body declares the field with a
        Python type (``int``, ``float``, ``bool``, ``str``, a tuple of them): the module is never
        traced, so its fields are the Python values it was built with."""
        receiver = attribute.value
        if not isinstance(receiver, cst.Name):
            return False
        cls = receiver_class(self.ctx, receiver)
        if cls is None or not linen_module(self.ctx, cls):
            return False
        annotation = declared_annotation(cls, attribute.attr.value)
        return (annotation is not None and _python_type(annotation)) or self._built_static(cls, attribute.attr.value)

    def _built_static(self, cls: cst.ClassDef, field: str) -> bool:
        """Every construction of `cls` (all in this module) gives `field` a static value
        (``AutoEncoder(hidden=(16, 4), image_shape=(3, 5))`` at module level)."""
        key = (cls, field)
        if key not in self._fields:
            self._fields[key] = False  # in progress: a module built from its own field proves nothing
            definition = here(self.ctx, cls.name.value)
            given = given_to_field(self.ctx, cls, field)
            self._fields[key] = (
                given is not None
                and not used_elsewhere(self.ctx, definition)
                and all(self.verdict(value).kind is Kind.STATIC for value in given)
            )
        return self._fields[key]

    def _every_binding(self, name: cst.Name, depth: int) -> Verdict | None:
        """A name bound several times in one function: static when every binding is a static
        parameter or an assignment of a static value (`constants.local_bindings`); None otherwise."""
        bindings = local_bindings(self.ctx, name)
        if bindings is None:
            return None
        for binding in bindings:
            verdict = self._param(binding, name.value) if isinstance(binding, cst.Param) else self.verdict(binding, depth + 1)
            if verdict.kind is not Kind.STATIC:
                return None
        return _static(f"`{name.value}` is static at each of its bindings")


_PYTHON_TYPES = frozenset({"int", "float", "bool", "str"})


def _python_scalar(ctx: ModuleContext, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """Surely no array, by its spelling: a number, string, bool or None literal, array metadata
    (``x.shape[0]``, ``len(x)``), Python arithmetic and tuples of these, a name bound once to one.
    (A STATIC verdict alone allows an eager function's parameter, which may hold an array.)"""
    if depth > 8:
        return False
    deeper = depth + 1
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(expr, cst.Tuple):
        return all(isinstance(e, cst.Element) and _python_scalar(ctx, e.value, deeper) for e in expr.elements)
    if isinstance(expr, cst.UnaryOperation):
        return _python_scalar(ctx, expr.expression, deeper)
    if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
        return _python_scalar(ctx, expr.left, deeper) and _python_scalar(ctx, expr.right, deeper)
    if isinstance(expr, cst.Attribute):
        return expr.attr.value in ("ndim", "size")
    if isinstance(expr, cst.Subscript):
        return isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape"
    if isinstance(expr, cst.Call):
        name = (ctx.names.qualified_name(expr.func) or "").removeprefix("builtins.")
        return name in ("len", "int", "float", "bool", "str")
    if isinstance(expr, cst.Name):
        if ctx.names.qualified_name(expr) in ("builtins.True", "builtins.False", "builtins.None"):
            return True
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _python_scalar(ctx, value, deeper)
    return False


def _python_type(annotation: cst.BaseExpression) -> bool:
    """``int``, ``float``, ``bool``, ``str``, or ``tuple``/``Tuple[...]`` of them."""
    if isinstance(annotation, cst.Name):
        return annotation.value in _PYTHON_TYPES
    if isinstance(annotation, cst.Subscript) and isinstance(annotation.value, (cst.Name, cst.Attribute)):
        head = annotation.value.value if isinstance(annotation.value, cst.Name) else annotation.value.attr.value
        if head not in ("tuple", "Tuple"):
            return False
        return all(
            isinstance(e.slice, cst.Index) and (_python_type(e.slice.value) or isinstance(e.slice.value, cst.Ellipsis))
            for e in annotation.slice
        )
    return False

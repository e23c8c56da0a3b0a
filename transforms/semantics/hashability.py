"""What kind of Python value an expression is, as far as hashing is concerned.

JAX201 freezes the containers of a static config; the values inside them (the
leaves) stay as they are, so each leaf must already be hashable. A leaf is

* PLAIN: a number, string, bytes, bool, None, Ellipsis, or arithmetic and
  tuples of those: hashable by value, and data that a deep freeze keeps;
* OBJECT: a function, lambda, class, ``functools.partial`` or a library
  object (``jax.nn.relu``, ``jnp.float32``): hashable, most by identity,
  and not plain data (``frozendict.deepfreeze`` would replace it, see
  docs/frozen-forms.md);
* ARRAY: a ``jnp``/``np``/``jax.random``... call, or a name bound to one:
  never hashable (jax-behaviour.md 2b), so freezing cannot help;
* MUTABLE: a name bound to a dict, list or set built elsewhere;
* UNKNOWN: anything we cannot follow (a parameter, an attribute of a run-time
  object, the result of a call), which may be an array.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.array_api import makes_array, metadata_call
from jaxfix.transforms.semantics.callables import changed_in_place
from jaxfix.transforms.semantics.class_hashing import runs_as_written, static_method
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    class_members,
    every_binding,
    helper_return,
    own_returns,
    single_binding,
    unpacked_from,
    unpacked_value,
    written_out,
)
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import reads


class Kind(enum.Enum):
    PLAIN = "plain"
    OBJECT = "object"
    ARRAY = "array"
    MUTABLE = "mutable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class ValueKind:
    kind: Kind
    #: Why, for messages: "`w` is bound to `jnp.ones(3)`, an array".
    reason: str = ""


#: Names imported from these packages are functions, classes, dtypes or
#: scalar constants: hashable objects, never arrays.
LIBRARY_ROOTS = frozenset(
    {"jax", "numpy", "math", "operator", "functools", "builtins", "flax", "optax", "typing", "enum", "string"}
)

_PLAIN_BUILTINS = frozenset(
    {"int", "float", "complex", "str", "bytes", "bool", "len", "round", "abs", "ord", "chr", "range", "slice"}
)
_PLAIN_NAMES = frozenset({"builtins.True", "builtins.False", "builtins.None", "builtins.Ellipsis"})
ARRAY_METADATA = frozenset({"shape", "ndim", "size"})
_CONTAINER_DISPLAYS = {
    cst.Dict: "a dict",
    cst.DictComp: "a dict",
    cst.List: "a list",
    cst.ListComp: "a list",
    cst.Set: "a set",
    cst.SetComp: "a set",
}

#: Results of tuple-returning JAX calls, by position, as unpacked: ``vals, unravel = ravel_pytree(x)``.
UNPACKED_RESULTS: dict[str, tuple[Kind, ...]] = {
    "jax.flatten_util.ravel_pytree": (Kind.ARRAY, Kind.OBJECT),
    "jax.tree_util.tree_flatten": (Kind.UNKNOWN, Kind.OBJECT),
}


def _code(ctx: ModuleContext, node: cst.CSTNode) -> str:
    text = ctx.module.code_for_node(node).strip()
    return text if len(text) <= 40 else text[:37] + "..."


def _combine(kinds: list[ValueKind], code: str) -> ValueKind:
    """The kind of a value computed from several: an array wins, then anything unknown."""
    for wanted in (Kind.ARRAY, Kind.MUTABLE, Kind.UNKNOWN):
        found = next((k for k in kinds if k.kind is wanted), None)
        if found is not None:
            return found
    if any(k.kind is Kind.OBJECT for k in kinds):
        return ValueKind(Kind.UNKNOWN, f"`{code}` computes with objects jaxfix cannot follow")
    return ValueKind(Kind.PLAIN, "arithmetic on literals")


class ValueClassifier:
    """Classifies leaf expressions of one module (memoised per node).

    `passed`, when given, says what every call passes a parameter
    (`arguments.passed_to`): a parameter is then what its callers give it.
    """

    def __init__(self, ctx: ModuleContext, passed: Callable[[cst.Param], list[cst.BaseExpression] | None] | None = None) -> None:
        self.ctx = ctx
        self.passed = passed
        self._memo: dict[cst.CSTNode, ValueKind] = {}
        #: Bindings being classified now: `x = x + 1` reads its own name.
        self._active: set[int] = set()

    def classify(self, expr: cst.BaseExpression, _depth: int = 0) -> ValueKind:
        if expr not in self._memo:
            self._memo[expr] = self._classify(expr, _depth)
        return self._memo[expr]

    def is_array_call(self, call: cst.Call) -> str | None:
        """The qualified name when `call` calls an array-producing API."""
        qualified = self.ctx.names.qualified_name(call.func) or ""
        return qualified if makes_array(qualified) else None

    def _classify(self, expr: cst.BaseExpression, depth: int) -> ValueKind:
        ctx = self.ctx
        code = _code(ctx, expr)
        if depth > 10:
            return ValueKind(Kind.UNKNOWN, f"`{code}` is too deeply nested to follow")
        if isinstance(
            expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
        ):
            return ValueKind(Kind.PLAIN, "a literal")
        if isinstance(expr, cst.Ellipsis):
            return ValueKind(Kind.PLAIN, "a literal")
        if isinstance(expr, cst.Lambda):
            return ValueKind(Kind.OBJECT, "a lambda")
        if isinstance(expr, cst.Tuple):
            parts = [e.value for e in expr.elements]
            if any(isinstance(e, cst.StarredElement) for e in expr.elements):
                return ValueKind(Kind.UNKNOWN, f"`{code}` unpacks values we cannot follow")
            return self._tuple(parts, depth)
        if type(expr) in _CONTAINER_DISPLAYS:
            return ValueKind(Kind.MUTABLE, f"`{code}`, {_CONTAINER_DISPLAYS[type(expr)]}")
        if isinstance(expr, (cst.UnaryOperation, cst.BinaryOperation, cst.BooleanOperation, cst.Comparison)):
            return self._arithmetic(expr, code, depth)
        if isinstance(expr, cst.IfExp):
            branches = [self.classify(expr.body, depth + 1), self.classify(expr.orelse, depth + 1)]
            if all(b.kind in (Kind.PLAIN, Kind.OBJECT) for b in branches):
                return next((b for b in branches if b.kind is Kind.OBJECT), branches[0])
            return _combine(branches, code)
        if isinstance(expr, cst.Name):
            return self._name(expr, code, depth)
        if isinstance(expr, cst.Attribute):
            return self._attribute(expr, code, depth)
        if isinstance(expr, cst.Subscript):
            base = self.classify(expr.value, depth + 1)
            if base.kind is Kind.ARRAY:
                return ValueKind(Kind.ARRAY, f"`{code}` indexes an array")
            if isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
                return ValueKind(Kind.PLAIN, "array metadata")
            return ValueKind(Kind.UNKNOWN, f"`{code}` is a subscript whose value cannot be followed")
        if isinstance(expr, cst.Call):
            return self._call(expr, code, depth)
        return ValueKind(Kind.UNKNOWN, f"`{code}` cannot be followed")

    def _tuple(self, parts: list[cst.BaseExpression], depth: int) -> ValueKind:
        kinds = [self.classify(p, depth + 1) for p in parts]
        for wanted in (Kind.ARRAY, Kind.MUTABLE, Kind.UNKNOWN):
            found = next((k for k in kinds if k.kind is wanted), None)
            if found is not None:
                return found
        if any(k.kind is Kind.OBJECT for k in kinds):
            return ValueKind(Kind.OBJECT, "a tuple holding functions or objects")
        return ValueKind(Kind.PLAIN, "a tuple of literals")

    def _arithmetic(self, expr: cst.BaseExpression, code: str, depth: int) -> ValueKind:
        if isinstance(expr, cst.UnaryOperation):
            parts = [expr.expression]
        elif isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
            parts = [expr.left, expr.right]
        else:
            assert isinstance(expr, cst.Comparison)
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]
        kinds = [self.classify(p, depth + 1) for p in parts]
        array = next((k for k in kinds if k.kind is Kind.ARRAY), None)
        if array is not None:
            return ValueKind(Kind.ARRAY, f"`{code}` computes with an array ({array.reason})")
        return _combine(kinds, code)

    def _name(self, name: cst.Name, code: str, depth: int) -> ValueKind:
        ctx = self.ctx
        qualified = ctx.names.qualified_name(name)
        if qualified in _PLAIN_NAMES:
            return ValueKind(Kind.PLAIN, "a literal")
        if qualified is not None:
            root = qualified.split(".")[0]
            if root in LIBRARY_ROOTS:
                return ValueKind(Kind.OBJECT, f"`{code}` is a library object")
            return ValueKind(Kind.UNKNOWN, f"`{code}` is imported from `{qualified.rpartition('.')[0] or qualified}`")
        binding = single_binding(ctx, name)
        if binding is None:
            every = self._every_binding(name, code, depth)
            if every is not None:
                return every
            return ValueKind(Kind.UNKNOWN, f"`{code}` is bound more than once, or not in this module")
        if isinstance(binding, (cst.FunctionDef, cst.ClassDef)):
            return ValueKind(Kind.OBJECT, f"`{code}` is a function or class")
        if isinstance(binding, cst.Param):
            passed = self.passed(binding) if self.passed is not None and depth < 6 else None
            if passed:
                kinds = [self.classify(p, depth + 1) for p in passed]
                combined = _combine(kinds, code) if any(k.kind is not Kind.OBJECT for k in kinds) else kinds[0]
                if combined.kind is Kind.PLAIN:
                    return ValueKind(Kind.PLAIN, f"`{code}` is a parameter, and every call passes a plain value")
                if combined.kind is Kind.OBJECT:
                    return ValueKind(Kind.OBJECT, f"`{code}` is a parameter, and every call passes a function or object")
                return ValueKind(combined.kind, f"`{code}` is a parameter, and a call passes it this: {combined.reason}")
            return ValueKind(Kind.UNKNOWN, f"`{code}` is a parameter, which may be an array")
        if isinstance(binding, cst.Name):
            value = assigned_value(ctx, binding)
            if value is not None:
                inner = self.classify(value, depth + 1)
                if inner.kind is Kind.ARRAY:
                    return ValueKind(Kind.ARRAY, f"`{code}` is bound to `{_code(ctx, value)}`, an array")
                if inner.kind is Kind.MUTABLE:
                    what = _CONTAINER_DISPLAYS.get(type(value), "a mutable container")
                    return ValueKind(Kind.MUTABLE, f"`{code}`, {what} built on line {ctx.span(binding).start.line}")
                return inner
            unpacked = self._unpacked(binding)
            if unpacked is not None:
                return unpacked
            loop = ctx.parent(binding)
            if (
                isinstance(loop, (cst.For, cst.CompFor))
                and loop.target is binding
                and isinstance(loop.iter, cst.Call)
                and ctx.names.qualified_name(loop.iter.func) == "builtins.range"
            ):
                return ValueKind(Kind.PLAIN, f"`{code}` is a loop variable over `range()`, a Python int")
            if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding and self._plain_items(loop.iter, depth):
                return ValueKind(Kind.PLAIN, f"`{code}` is a loop variable over plain values written out")
        return ValueKind(Kind.UNKNOWN, f"`{code}` is not bound to a value we can follow")

    def _plain_items(self, iterable: cst.BaseExpression, depth: int) -> bool:
        """Every item of a loop's iterable is plain: the elements of a tuple, list or set display, or
        a dict display's keys, values or items (``for flag in runs.values()``), through a name bound
        once to one that nothing changes, or a parameter every call passes one."""
        method = None
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and not iterable.args:
            method = iterable.func.attr.value
            if method not in ("values", "keys", "items"):
                return False
            iterable = iterable.func.value
        displays = self._displays(iterable, depth)
        if not displays:
            return False
        parts: list[cst.BaseExpression] = []
        for display in displays:
            if isinstance(display, cst.Dict) and all(isinstance(e, cst.DictElement) for e in display.elements):
                entries = [e for e in display.elements if isinstance(e, cst.DictElement)]
                parts += [e.value for e in entries] if method == "values" else [e.key for e in entries]
                parts += [e.value for e in entries] if method == "items" else []
            elif isinstance(display, (cst.Tuple, cst.List, cst.Set)) and method is None and all(
                isinstance(e, cst.Element) for e in display.elements
            ):
                parts += [e.value for e in display.elements]
            else:
                return False
        return bool(parts) and all(self.classify(p, depth + 1).kind is Kind.PLAIN for p in parts)

    def _displays(self, expr: cst.BaseExpression, depth: int) -> list[cst.BaseExpression] | None:
        """The displays `expr` may be: itself, what a name bound once holds (nothing storing an item
        or calling a changing method on it), or what every call passes a parameter."""
        if isinstance(expr, (cst.Tuple, cst.List, cst.Set, cst.Dict)):
            return [expr]
        if not isinstance(expr, cst.Name) or depth > 6:
            return None
        binding = single_binding(self.ctx, expr)
        if isinstance(binding, cst.Param):
            passed = self.passed(binding) if self.passed is not None else None
            found = [self._displays(p, depth + 1) for p in passed or ()]
            return [d for ds in found if ds for d in ds] if passed and all(found) else None
        value = assigned_value(self.ctx, binding) if isinstance(binding, cst.Name) else None
        if value is not None:
            value = written_out(self.ctx, value)  # `RUNS = make_runs()`: a fresh display each call
        if value is None or any(changed_in_place(self.ctx, r) for r in reads(self.ctx, binding)):  # type: ignore[arg-type]
            return None
        return self._displays(value, depth + 1)

    def _every_binding(self, name: cst.Name, code: str, depth: int) -> ValueKind | None:
        """A name bound several times (``operator = lambda v: ...`` then ``operator =
        deflated(operator, ...)`` in a loop): whichever binding reaches the use, it holds what
        they all hold, when each is a def or a plain assignment and they agree on the kind."""
        ctx = self.ctx
        bindings = every_binding(ctx, name)
        if not bindings or any(id(b) in self._active for b in bindings):
            return None
        kinds: list[ValueKind] = []
        self._active.update(id(b) for b in bindings)
        try:
            for binding in bindings:
                if isinstance(binding, (cst.FunctionDef, cst.ClassDef)):
                    kinds.append(ValueKind(Kind.OBJECT, "a function or class"))
                    continue
                value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
                if value is None:
                    return None  # a loop target, an augmented assignment, an import, unpacking
                kinds.append(self.classify(value, depth + 1))
        finally:
            self._active.difference_update(id(b) for b in bindings)
        if all(k.kind is Kind.OBJECT for k in kinds):
            functions = all(any(w in k.reason for w in ("function", "lambda", "partial")) for k in kinds)
            return ValueKind(Kind.OBJECT, f"each binding is a {'function or class' if functions else 'hashable object'}")
        if all(k.kind is Kind.PLAIN for k in kinds):
            return ValueKind(Kind.PLAIN, "each binding is a plain value")
        return None

    def _factory(self, call: cst.Call, code: str) -> ValueKind | None:
        """A call of an undecorated def (or a staticmethod, ``Model.make(...)``) of this module whose
        every return gives a function it defines inside (a def or a lambda): a new function
        object, hashed by identity."""
        ctx = self.ctx
        factory: cst.CSTNode | None = None
        if isinstance(call.func, cst.Name):
            factory = single_binding(ctx, call.func)
        elif isinstance(call.func, cst.Attribute):
            factory = static_method(ctx, call.func)
        if not isinstance(factory, cst.FunctionDef) or not runs_as_written(ctx, factory):
            return None
        returns = own_returns(factory)
        if not returns:
            return None
        for returned in returns:
            value = returned.value
            if isinstance(value, cst.Lambda):
                continue
            inner = single_binding(ctx, value) if isinstance(value, cst.Name) else None
            if not isinstance(inner, cst.FunctionDef) or ctx.enclosing_function(inner) is not factory:
                return None
        return ValueKind(Kind.OBJECT, f"a new function or class from `{factory.name.value}`")

    def _unpacked(self, target: cst.Name) -> ValueKind | None:
        """``a, b = known_call(...)``: the kind of the element bound to `target`."""
        ctx = self.ctx
        whole = unpacked_value(ctx, target)
        if whole is not None and isinstance(whole[0], cst.Attribute) and whole[0].attr.value == "shape":
            # `n, h, w, c = batch.shape`: each is a size, a Python int even of a traced array
            return ValueKind(Kind.PLAIN, f"`{_code(ctx, target)}` is unpacked from `{_code(ctx, whole[0])}`, array metadata")
        found = unpacked_from(ctx, target)
        if found is None:
            return None
        call, index, size = found
        code = _code(ctx, target)
        source = self.is_array_call(call)
        if source is not None:
            return ValueKind(Kind.ARRAY, f"`{code}` is unpacked from `{source}(...)`, which returns arrays")
        kinds = UNPACKED_RESULTS.get(ctx.names.qualified_name(call.func) or "")
        if kinds is None or len(kinds) != size:
            return None
        kind = kinds[index]
        what = {Kind.ARRAY: "an array", Kind.OBJECT: "a function", Kind.UNKNOWN: "values we cannot follow"}[kind]
        return ValueKind(kind, f"`{code}` is unpacked from `{_code(ctx, call.func)}(...)`: {what}")

    def _attribute(self, attr: cst.Attribute, code: str, depth: int) -> ValueKind:
        qualified = self.ctx.names.qualified_name(attr)
        if qualified is not None and qualified.split(".")[0] in LIBRARY_ROOTS:
            return ValueKind(Kind.OBJECT, f"`{code}` is a library object")
        if attr.attr.value in ARRAY_METADATA:
            return ValueKind(Kind.PLAIN, "array metadata")
        if attr.attr.value == "dtype":
            return ValueKind(Kind.OBJECT, "a dtype")
        if _staticmethod_of_class(self.ctx, attr):
            return ValueKind(Kind.OBJECT, f"`{code}` is a function or class")
        base = self.classify(attr.value, depth + 1)
        if base.kind is Kind.ARRAY:
            return ValueKind(Kind.ARRAY, f"`{code}` is an attribute of an array")
        stored = read_attribute(self.ctx, attr)  # `self.n_steps`, set once in `__init__`: what it is given
        if stored is not None:
            given = self.classify(stored.value, depth + 1)
            if given.kind is not Kind.UNKNOWN:
                return ValueKind(given.kind, f"`{code}`, set in `__init__` to {given.reason}")
        return ValueKind(Kind.UNKNOWN, f"`{code}` is an attribute whose value cannot be followed")

    def _call(self, call: cst.Call, code: str, depth: int) -> ValueKind:
        ctx = self.ctx
        source = self.is_array_call(call)
        if source is not None:
            return ValueKind(Kind.ARRAY, f"`{code}` is an array")
        qualified = ctx.names.qualified_name(call.func) or ""
        plain = metadata_call(qualified)
        if plain is not None:
            return ValueKind(Kind.PLAIN, "array metadata") if plain else ValueKind(Kind.OBJECT, "a dtype")
        if qualified == "functools.partial":
            return ValueKind(Kind.OBJECT, "a `functools.partial` object")
        if qualified.startswith("builtins.") and qualified.removeprefix("builtins.") in _PLAIN_BUILTINS:
            return ValueKind(Kind.PLAIN, f"`{qualified.removeprefix('builtins.')}()` of a value")
        if isinstance(call.func, cst.Attribute):
            base = self.classify(call.func.value, depth + 1)
            if base.kind is Kind.ARRAY:
                return ValueKind(Kind.ARRAY, f"`{code}` calls a method of an array")
        factory = self._factory(call, code)
        if factory is not None:
            return factory
        returned = helper_return(ctx, call)
        if returned is not None:  # `params_mask = make_mask()`: what the helper writes out
            inner = self.classify(returned, depth + 1)
            return ValueKind(inner.kind, f"`{code}` returns {inner.reason}" if inner.reason else "")
        return ValueKind(Kind.UNKNOWN, f"`{code}` is the result of a call, which may be an array")


def _staticmethod_of_class(ctx: ModuleContext, attr: cst.Attribute) -> bool:
    """``Model.f`` for a ``@staticmethod`` def of a class this module defines: a plain function."""
    defs = [m for m in class_members(ctx, attr) or () if isinstance(m, cst.FunctionDef)]
    return len(defs) == 1 and function_info(ctx, defs[0]).method is MethodKind.FUNCTION

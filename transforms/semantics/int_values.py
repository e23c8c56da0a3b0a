"""Is an expression a static Python int where it is written, and can we prove it?

JAX402 rewrites ``jnp.minimum(a, b)`` into ``min(a, b)`` only where the two
compute the same value. For Python ints they do (min, max, abs, ``+``, ``-``,
``*``, ``//`` and ``%`` agree with jnp's integer ops; docs/jax4xx-behaviour.md
B3); for floats they need not (jnp computes in float32, Python in float64),
and for a tracer the rewrite cannot help. So each operand gets a kind:

* INT: provably a Python int: an int literal, array metadata (``x.shape[0]``,
  ``x.ndim``, ``x.size``, ``len(x)``, ``jnp.shape(x)[i]``), ``int(...)`` or
  ``round(...)`` of a static value, integer arithmetic and ``min``/``max``/
  ``abs`` of INTs, a name bound once to an INT, a loop variable over
  ``range`` of INTs, or a parameter its jit makes static and every call in
  the module passes an INT;
  (`int_sequence` asks the same of a shape: a tuple or list of INTs, a name
  bound once to one, or a static parameter every call passes one);
* STATIC: static (`staticness` proves it), but whether it is an int is not
  known (a static parameter whose callers cannot all be seen);
* FLOAT: static and possibly a float (a float literal, ``/``);
* UNKNOWN: not provably static.
"""

from __future__ import annotations

import enum
import operator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import (
    NOT_CONSTANT,
    assigned_value,
    binding_value,
    bound_after,
    constant_value,
    helper_return,
    local_bindings,
    reaching_parameter,
    returned_constant,
    single_binding,
    unpacked_value,
)
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.passed_elsewhere import local_routes, passed_elsewhere
from jaxfix.transforms.semantics.reads import parameter
from jaxfix.transforms.semantics.static_values import Kind as Staticness
from jaxfix.transforms.semantics.vocabulary import ARRAY_TRACING, JIT

_INT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)
_METADATA_CALLS = frozenset(
    {"builtins.len", "jax.numpy.size", "jax.numpy.ndim", "numpy.size", "numpy.ndim", "math.prod"}
)
_SHAPE_CALLS = frozenset({"jax.numpy.shape", "numpy.shape"})
_TO_INT = frozenset({"builtins.int", "builtins.round", "math.floor", "math.ceil", "math.trunc", "operator.index"})


class Kind(enum.IntEnum):
    """Ordered from best to worst: combining kinds keeps the worst."""

    INT = 0
    STATIC = 1
    FLOAT = 2
    UNKNOWN = 3


@dataclass(frozen=True)
class Proof:
    kind: Kind
    #: For people: "`n` is a static parameter of `f` that every call passes an int".
    reason: str


def _worst(proofs: list[Proof], reason: str) -> Proof:
    worst = max(proofs, key=lambda p: p.kind)
    return worst if worst.kind is not Kind.INT else Proof(Kind.INT, reason)


class IntStatic:
    """Kinds of expressions in one module (memoised per parameter)."""

    def __init__(self, analysis: Analysis, nested=None) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        #: Called on a call that is not plain Python: the kind a rewrite would give it (JAX402's candidates).
        self.nested = nested
        self._params: dict[tuple[FunctionNode, str, str], Proof] = {}
        #: Locals whose several bindings `_every_binding` is reading (a binding reading the name ends there).
        self._open_names: set[tuple[FunctionNode | None, str]] = set()

    def kind(self, expr: cst.BaseExpression, depth: int = 0) -> Proof:
        if depth > 16:
            return Proof(Kind.UNKNOWN, "the expression is too deep to follow")
        ctx = self.ctx
        code = ctx.code(expr)
        deeper = depth + 1
        if isinstance(expr, cst.Integer):
            return Proof(Kind.INT, "an int literal")
        if isinstance(expr, (cst.Float, cst.Imaginary)):
            return Proof(Kind.FLOAT, "a float literal")
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
            return self.kind(expr.expression, deeper)
        if isinstance(expr, cst.BinaryOperation):
            parts = [self.kind(expr.left, deeper), self.kind(expr.right, deeper)]
            if isinstance(expr.operator, cst.Divide):
                worst = max(parts, key=lambda p: p.kind)
                if worst.kind is Kind.UNKNOWN:
                    return worst
                return Proof(Kind.FLOAT, f"`{code}` is a true division, a float")
            if not isinstance(expr.operator, _INT_OPERATORS):
                worst = max(parts, key=lambda p: p.kind)
                return worst if worst.kind is Kind.UNKNOWN else Proof(Kind.STATIC, "static, of a type not known")
            return _worst(parts, "integer arithmetic on ints")
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
            # `chunk or x.shape[0]`: one side or the other, each an int
            return _worst([self.kind(expr.left, deeper), self.kind(expr.right, deeper)], "either of two ints")
        if isinstance(expr, cst.Attribute) and expr.attr.value in ("ndim", "size") and self._array(expr.value):
            return Proof(Kind.INT, "array metadata")
        if isinstance(expr, cst.Attribute) and (stored := read_attribute(ctx, expr)) is not None:
            inner = self.kind(stored.value, deeper)
            return Proof(inner.kind, f"`{code}` is set once, in `__init__`: {inner.reason}")
        if isinstance(expr, cst.Subscript):
            return self._subscript(expr, code)
        if isinstance(expr, cst.Call):
            return self._call(expr, code, deeper)
        if isinstance(expr, cst.Name):
            return self._name(expr, code, deeper)
        return self._static_only(expr)

    def _array(self, expr: cst.BaseExpression) -> bool:
        """Is the receiver of ``.size``/``.ndim`` an array (a traced value, a jnp result), not any object?"""
        from jaxfix.transforms.semantics.array_values import array_origin

        return self.analysis.traced.source(expr) is not None or array_origin(self.analysis, expr) is not None

    def _static_only(self, expr: cst.BaseExpression) -> Proof:
        verdict = self.analysis.staticness.verdict(expr)
        if verdict.kind is Staticness.STATIC:
            return Proof(Kind.STATIC, verdict.reason)
        return Proof(Kind.UNKNOWN, verdict.reason)

    def _subscript(self, expr: cst.Subscript, code: str) -> Proof:
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return self._static_only(expr)
        value = expr.value
        if isinstance(value, cst.Attribute) and value.attr.value == "shape":
            return Proof(Kind.INT, "array metadata")
        if isinstance(value, cst.Call) and self.ctx.names.qualified_name(value.func) in _SHAPE_CALLS:
            return Proof(Kind.INT, "array metadata")
        if isinstance(value, cst.Call) and self.ctx.names.qualified_name(value.func) == "builtins.range":
            return Proof(Kind.INT, "an item of a range()")  # an int, or IndexError (flowjax's `range(n)[axis]`)
        index = expr.slice[0].slice.value  # type: ignore[union-attr]
        if self.kind(index).kind is Kind.INT and self.int_sequence(value).kind is Kind.INT:
            return Proof(Kind.INT, "an item of a tuple of ints")  # `sizes[-1]`: an int, or IndexError
        return self._static_only(expr)

    def _call(self, call: cst.Call, code: str, depth: int) -> Proof:
        ctx = self.ctx
        qualified = ctx.names.qualified_name(call.func) or ""
        args = [a.value for a in call.args]
        plain = all(a.keyword is None and not a.star for a in call.args)
        if qualified in _METADATA_CALLS and plain:
            return Proof(Kind.INT, "array metadata")
        if qualified in _TO_INT and plain and len(args) == 1:
            inner = self.kind(args[0], depth)
            if inner.kind is Kind.UNKNOWN:
                return inner
            return Proof(Kind.INT, "a static value converted to an int")
        if qualified in ("builtins.min", "builtins.max", "builtins.abs") and plain and args:
            if len(args) == 1 and qualified != "builtins.abs":
                single = args[0]
                if isinstance(single, cst.Attribute) and single.attr.value == "shape":
                    return Proof(Kind.INT, "array metadata")
                return self._static_only(call)
            return _worst([self.kind(a, depth) for a in args], f"{qualified[9:]}() of ints")
        if self.nested is not None:
            found = self.nested(call, depth)
            if found is not None:
                return found
        constant = returned_constant(ctx, call)
        if constant is not None:
            inner = self.kind(constant, depth)
            return Proof(inner.kind, f"`{code}` returns {inner.reason}")
        return self._static_only(call)

    def _name(self, name: cst.Name, code: str, depth: int) -> Proof:
        ctx = self.ctx
        if narrowed_to(ctx, name) == frozenset({"builtins.int"}):
            return Proof(Kind.INT, f"`isinstance({name.value}, int)` holds where it is read")
        binding = single_binding(ctx, name) or reaching_parameter(ctx, name)
        if binding is None:
            every = self._every_binding(name, depth)
            if every is not None:
                return every
        if isinstance(binding, cst.Name):
            value = assigned_value(ctx, binding)
            if value is not None:
                inner = self.kind(value, depth)
                shown = " ".join(ctx.code(value).split())
                return Proof(inner.kind, f"bound once to `{shown}`, {inner.reason}" if inner.kind is Kind.INT else inner.reason)
            if self._unpacked_shape(binding):
                return Proof(Kind.INT, "array metadata")
            loop = ctx.parent(binding)
            if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding:
                iterable = loop.iter
                if isinstance(iterable, cst.Call) and ctx.names.qualified_name(iterable.func) == "builtins.range":
                    # range() gives Python ints or raises (a tracer's `__index__` fails): whatever its
                    # arguments are, every value the loop variable takes is a Python int.
                    return Proof(Kind.INT, "a loop variable over range()")
                if isinstance(iterable, (cst.Tuple, cst.List)) and iterable.elements and all(
                    isinstance(e, cst.Element) for e in iterable.elements
                ):  # `for n in (2, 5):`
                    parts = [self.kind(e.value, depth) for e in iterable.elements]
                    return _worst(parts, "a loop variable over a tuple of ints")
        if isinstance(binding, cst.Param):
            fn = ctx.enclosing_function(binding)
            if fn is not None:
                return self.parameter(fn, binding.name.value, depth)
        return self._static_only(name)

    def _unpacked_shape(self, binding: cst.Name) -> bool:
        """``_, _, df = table.shape`` (or ``= jnp.shape(table)``): each name a shape's int."""
        unpacked = unpacked_value(self.ctx, binding)
        if unpacked is None:
            return False
        value = unpacked[0]
        if isinstance(value, cst.Attribute):
            return value.attr.value == "shape"
        return isinstance(value, cst.Call) and self.ctx.names.qualified_name(value.func) in _SHAPE_CALLS

    def _every_binding(self, name: cst.Name, depth: int) -> Proof | None:
        """A local bound several times (``chunk = chunk or x.shape[0]`` after the parameter): INT
        when each binding gives an int; None when the bindings cannot all be read."""
        return self._bindings_agree(name, depth, "kind", f"`{name.value}` is an int at each of its bindings")

    def int_sequence(self, expr: cst.BaseExpression, depth: int = 0) -> Proof:
        """INT when `expr` is provably a tuple or list of Python ints (a shape ``jnp.array(shape,
        dtype=jnp.int32)`` holds the same ints as), else the kind that stops it."""
        if depth > 16:
            return Proof(Kind.UNKNOWN, "the expression is too deep to follow")
        ctx = self.ctx
        if isinstance(expr, (cst.Tuple, cst.List)):
            if not expr.elements or not all(isinstance(e, cst.Element) for e in expr.elements):
                return self._static_only(expr)
            return _worst([self.kind(e.value, depth + 1) for e in expr.elements], "a tuple of ints")
        if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Slice):
            inner = self.int_sequence(expr.value, depth + 1)  # `sizes[:-1]`: some of the same ints
            return Proof(inner.kind, "a slice of a tuple of ints") if inner.kind is Kind.INT else inner
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            return _worst([self.int_sequence(expr.left, depth + 1), self.int_sequence(expr.right, depth + 1)], "tuples of ints joined")
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
            # `[n] * k`: the list's items repeated (a list times anything but an int raises)
            repeated = expr.left if isinstance(expr.left, (cst.List, cst.Tuple)) else expr.right
            inner = self.int_sequence(repeated, depth + 1)
            return Proof(inner.kind, "a tuple of ints repeated") if inner.kind is Kind.INT else inner
        if isinstance(expr, cst.Name) and single_binding(ctx, expr) is None and narrowed_to(ctx, expr) & _SEQUENCE_CLASSES:
            every = self._every_sequence_binding(expr, depth)
            if every is not None:
                return every
        if isinstance(expr, cst.Attribute) and expr.attr.value == "shape":
            return Proof(Kind.INT, "array metadata")  # as `x.shape[0]` is read
        if isinstance(expr, cst.Call) and ctx.names.qualified_name(expr.func) in _SHAPE_CALLS and len(expr.args) == 1:
            return Proof(Kind.INT, "array metadata")  # `jnp.shape(x)`: `x.shape`, a tuple even of a tracer
        returned = helper_return(ctx, expr) if isinstance(expr, cst.Call) else None
        if returned is not None:  # `make_reps()`, whose one return writes the tuple out
            inner = self.int_sequence(returned, depth + 1)
            return Proof(inner.kind, f"`{ctx.code(expr)}` returns a tuple of ints") if inner.kind is Kind.INT else inner
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr) or reaching_parameter(ctx, expr)
            if isinstance(binding, cst.Name):
                value = assigned_value(ctx, binding)
                if value is not None:
                    inner = self.int_sequence(value, depth + 1)
                    shown = " ".join(ctx.code(value).split())
                    return Proof(inner.kind, f"bound once to `{shown}`, a tuple of ints") if inner.kind is Kind.INT else inner
                loop = ctx.parent(binding)
                if isinstance(loop, (cst.For, cst.CompFor)) and loop.target is binding:
                    items = self._items(loop.iter, depth + 1)  # `for s in shapes[:-1]` of `[b.shape for b in ...]`
                    if items is not None:
                        return items
            if isinstance(binding, cst.Param) and (fn := ctx.enclosing_function(binding)) is not None:
                return self.parameter(fn, binding.name.value, depth, judge="int_sequence")
        return self._static_only(expr)

    def _items(self, iterable: cst.BaseExpression, depth: int) -> Proof | None:
        """INT when every item of `iterable` is a tuple of ints: a list comprehension (of one
        ``for``, no ``if``) whose element is one, a slice of such a list, or a name bound once to
        one; None when that is not what it is."""
        if depth > 16:
            return None
        if isinstance(iterable, cst.Subscript) and len(iterable.slice) == 1 and isinstance(iterable.slice[0].slice, cst.Slice):
            return self._items(iterable.value, depth + 1)
        if isinstance(iterable, cst.Name):
            binding = single_binding(self.ctx, iterable)
            value = assigned_value(self.ctx, binding) if isinstance(binding, cst.Name) else None
            return self._items(value, depth + 1) if value is not None else None
        if isinstance(iterable, cst.ListComp) and counted_comprehension(iterable):
            inner = self.int_sequence(iterable.elt, depth + 1)
            return Proof(inner.kind, "an item of a list of tuples of ints") if inner.kind is Kind.INT else inner
        return None

    def _every_sequence_binding(self, name: cst.Name, depth: int) -> Proof | None:
        """A local bound several times, read where ``isinstance(name, (list, tuple))`` holds
        (ivy#18053's ``num_or_size_splits``): INT when every binding that may reach the read gives a
        tuple of ints, or an int or None (which that test turns away)."""
        reason = f"`{name.value}` is a tuple of ints wherever `isinstance` lets it through"
        return self._bindings_agree(name, depth, "sequence_where_tested", reason, reaching_only=True)

    def _bindings_agree(self, name: cst.Name, depth: int, judge: str, reason: str, *, reaching_only: bool = False) -> Proof | None:
        """INT when every binding of the local `name` (each one that may reach the read, with
        `reaching_only`) is INT to `judge` (a method: `kind`, `sequence_where_tested`), a parameter
        by what its calls pass; None when the bindings cannot all be read."""
        bindings = local_bindings(self.ctx, name)
        key = (self.ctx.enclosing_function(name), name.value)
        if bindings is None or key in self._open_names:
            return None
        if reaching_only:
            bindings = [b for b in bindings if isinstance(b, cst.Param) or not bound_after(self.ctx, b, name)]
        self._open_names.add(key)
        try:
            proofs = [
                self.parameter(b_fn, b.name.value, depth, judge=judge)
                if isinstance(b, cst.Param) and (b_fn := self.ctx.enclosing_function(b)) is not None
                else getattr(self, judge)(b, depth)  # type: ignore[arg-type]
                for b in bindings
            ]
        finally:
            self._open_names.discard(key)
        found = _worst(proofs, reason)
        return found if found.kind is Kind.INT else None

    def sequence_where_tested(self, expr: cst.BaseExpression, depth: int = 0) -> Proof:
        """INT when `expr` is a tuple of ints, or a value an ``isinstance(..., (list, tuple))`` test
        turns away (an int, None): a judge for `parameter` and `_every_sequence_binding`."""
        if isinstance(expr, cst.Name) and expr.value == "None":
            return Proof(Kind.INT, "None, which the test turns away")
        if self.kind(expr, depth + 1).kind is Kind.INT:
            return Proof(Kind.INT, "an int, which the test turns away")
        return self.int_sequence(expr, depth + 1)

    def parameter(self, fn: FunctionNode, param: str, depth: int = 0, judge: str = "kind") -> Proof:
        """The parameter's kind from every call (`judge` names the question: `kind`, an int;
        `int_sequence`, a tuple of ints)."""
        key = (fn, param, judge)
        if key not in self._params:
            self._params[key] = Proof(Kind.UNKNOWN, "a recursive call")
            self._params[key] = self._parameter(fn, param, depth, judge)
        return self._params[key]

    def _parameter(self, fn: FunctionNode, param: str, depth: int, judge: str) -> Proof:
        """A static parameter of a jitted function: INT when every call passes an INT (a tuple of
        them, for `int_sequence`)."""
        ctx = self.ctx
        node = parameter(fn, param)
        static = self._static_only(node.name) if node is not None else Proof(Kind.UNKNOWN, "")
        if static.kind is Kind.UNKNOWN and not (judge != "kind" and self._plain_calls_only(fn)):
            # (a list is no static value to the staticness model, but a plain call hands it on as is)
            return static
        info = function_info(ctx, fn)
        routes = local_routes(self.analysis, fn)
        if routes is None:
            return static
        for route in routes:
            bound = route.partial_argument(info.signature, param)
            if bound is not None:
                if getattr(self, judge)(bound, depth + 1).kind is not Kind.INT:
                    return static
                continue  # ``jax.jit(partial(eye, 3, 4, k))``: the partial holds the value itself
            # A jit that makes it static, or `eqx.filter_jit`, which keeps a Python int static.
            if route.escapes or route.call is None or any(w.name != JIT and w.name not in ARRAY_TRACING for w in route.wraps):
                return static
            argument = call_argument(route.call, info.signature, param, bound=route.bound, consumed=route.consumed)
            if argument is DEFAULT:
                default = node.default if node is not None else None
                if default is None:
                    return static
                argument = default
            if not isinstance(argument, cst.BaseExpression):
                return static
            if getattr(self, judge)(argument, depth + 1).kind is not Kind.INT:
                return static
        elsewhere = self._ints_elsewhere(fn, param, depth, judge)
        if elsewhere is None or not (routes or elsewhere):
            return static  # some call passes what may not be an int, or no call can be seen
        name = info.name
        what = "an int" if judge == "kind" else "a tuple of ints"
        jitted = any(w.name == JIT for r in routes for w in r.wraps) or self.analysis.traces.jit_entry(fn) is not None
        held = "a static parameter of the jitted" if jitted else "a parameter of"
        return Proof(Kind.INT, f"{held} `{name}` that every call passes {what}")

    def _plain_calls_only(self, fn: FunctionNode) -> bool:
        """Every use of `fn` the module makes is a call of it as written, with no layer around it."""
        routes = self.analysis.traces.routes(fn)
        return bool(routes) and all(
            not r.wraps and r.call is not None and not r.escapes and not r.uncertain for r in routes
        )

    def _ints_elsewhere(self, fn: FunctionNode, param: str, depth: int, judge: str) -> int | None:
        """How many calls in the project's other modules pass `param` an int (each read in its own
        module); None when one may not, or when they cannot all be seen."""
        entry = self.analysis.traces.jit_entry(fn)
        node = entry.node if entry is not None else self._filter_jit_decorator(fn)
        if node is None and not (isinstance(fn, cst.FunctionDef) and _called_as_written(self.ctx, fn)):
            return 0 if self.ctx.repo is None else None
        elsewhere = passed_elsewhere(self.ctx, fn, node, param)  # node None: a def called as written
        if isinstance(elsewhere, str):
            return None
        node = parameter(fn, param)
        for other in elsewhere:
            argument = other.argument
            if argument is DEFAULT:
                if node is None or node.default is None or getattr(self, judge)(node.default, depth + 1).kind is not Kind.INT:
                    return None
                continue
            if not isinstance(argument, cst.BaseExpression) or other.analysis is None:
                return None
            if getattr(IntStatic(other.analysis), judge)(argument, depth + 1).kind is not Kind.INT:  # type: ignore[arg-type]
                return None
        return len(elsewhere)

    def _filter_jit_decorator(self, fn: FunctionNode) -> cst.Decorator | None:
        """``@eqx.filter_jit`` on fn: other modules call it by its own name, as a jitted def."""
        for route in self.analysis.traces.routes(fn) or ():
            if route.head and route.wraps[0].name in ARRAY_TRACING and isinstance(route.wraps[0].node, cst.Decorator):
                return route.wraps[0].node
        return None


#: Python's integer operators, by libcst operator: what `int_value` computes.
INT_ARITHMETIC = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv,
    cst.Modulo: operator.mod,
    cst.Power: operator.pow,
}


#: What ``isinstance(x, (list, tuple))`` lets through: a sequence `int_sequence` may read.
_SEQUENCE_CLASSES = frozenset({"builtins.list", "builtins.tuple"})


def narrowed_to(ctx, name: cst.Name) -> frozenset[str]:
    """The builtin classes an enclosing ``if isinstance(name, C):`` (or ``elif``, or a test that is
    ``isinstance(...) and ...``) says the value read here is one of, the read in that ``if``'s body
    and no binding of the name between the test and the read; empty when none says so."""
    child: cst.CSTNode = name
    for ancestor in ctx.ancestors(name):
        if isinstance(ancestor, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return frozenset()
        inside_body = isinstance(ancestor, cst.If) and child is ancestor.body
        child = ancestor
        if not inside_body:
            continue
        test = ancestor.test
        while isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            test = test.left
        if not (isinstance(test, cst.Call) and ctx.names.qualified_name(test.func) == "builtins.isinstance"):
            continue
        if len(test.args) != 2 or not isinstance(test.args[0].value, cst.Name) or test.args[0].value.value != name.value:
            continue
        statements = [ctx.statement_of(b) for b in local_bindings(ctx, name) or [] if not isinstance(b, cst.Param)]
        if any(ctx.start(ancestor.body) <= ctx.start(s) and ctx.end(s) <= ctx.start(name) for s in statements):
            return frozenset()  # bound again inside the body, before this read
        classinfo = test.args[1].value
        classes = [e.value for e in classinfo.elements] if isinstance(classinfo, cst.Tuple) else [classinfo]
        names = frozenset(ctx.names.qualified_name(c) or "" for c in classes)
        return names if all(n.startswith("builtins.") for n in names) else frozenset()
    return frozenset()


def _called_as_written(ctx, fn: cst.FunctionDef) -> bool:
    """Undecorated, or a static or class method: a call passes its arguments to the body."""
    return all(ctx.names.qualified_name(d.decorator) in _METHOD_KINDS for d in fn.decorators)


_METHOD_KINDS = frozenset({"builtins.staticmethod", "builtins.classmethod"})


def int_value(analysis: Analysis, expr: cst.BaseExpression, _depth: int = 0) -> int | None:
    """The Python int an expression always is: literals, constants, and arithmetic on them."""
    ctx = analysis.ctx
    if _depth > 12:
        return None
    if isinstance(expr, cst.BinaryOperation) and type(expr.operator) in INT_ARITHMETIC:
        left, right = int_value(analysis, expr.left, _depth + 1), int_value(analysis, expr.right, _depth + 1)
        if left is None or right is None or (right == 0 and isinstance(expr.operator, (cst.FloorDivide, cst.Modulo))):
            return None
        if isinstance(expr.operator, cst.Power) and (right < 0 or right > 64):
            return None
        return INT_ARITHMETIC[type(expr.operator)](left, right)
    bound = binding_value(ctx, expr) if isinstance(expr, cst.Name) else None
    if bound is not None:
        return int_value(analysis, bound, _depth + 1)
    value = constant_value(ctx, expr)
    if value is NOT_CONSTANT or isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def counted_comprehension(node: cst.CSTNode) -> bool:
    """``[b.shape[0] for b in biases]`` (flax#648): one ``for``, no ``if``. How many times it runs is
    Python's to know even over a tracer (its leading dimension), so its value is static when its
    element is."""
    return isinstance(node, (cst.ListComp, cst.GeneratorExp)) and node.for_in.inner_for_in is None and not node.for_in.ifs

"""Is an argument a hashable Python value that jit can take as static, and what kind?

Making a parameter static is right only where every call passes something
jit can hash and that means the same at every call (docs/jax302-behaviour.md):

* NUMBER: an int, float, bool, string, None or a tuple of those (a literal,
  a constant, Python arithmetic on them): hashed by value; each distinct
  value compiles once;
* CALLABLE: a function, lambda, class or ``functools.partial``: hashed by
  identity, and not an array jit could trace;
* LIBRARY: a name from a library (``jnp.pi``, ``jax.nn.relu``,
  ``jnp.float32``): hashable, but a number or a function, we cannot tell;
* OBJECT: an instance of a class of this module that Python hashes, by
  identity (no ``__eq__``) or by value (a frozen dataclass, its own
  ``__hash__``), built by a call this module makes;
* STATIC: already static where it is written (a static parameter of the
  enclosing jit), so jit hashes it there already.

Anything else is not proven: an array (never hashable), a non-frozen
dataclass or a class with ``__eq__`` and no ``__hash__`` (both unhashable),
a value we cannot follow. `python_value` answers with the kind, or with why not.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

import libcst as cst

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.arguments import passed_to
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.class_hashing import (
    class_hashing,
    instance_class,
    linen_module,
    namedtuple_fields,
    plain_class,
    unhashable_why,
)
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.field_values import field_values
from jaxfix.transforms.semantics.hashability import Kind as Hashing
from jaxfix.transforms.semantics.hashability import ValueClassifier
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.int_values import int_value
from jaxfix.transforms.semantics.pytree_classes import instance_class_of, pytree_class
from jaxfix.transforms.semantics.static_values import Kind as Staticness
from jaxfix.transforms.semantics.vocabulary import example_optimizer


class ValueKind(enum.Enum):
    NUMBER = "number"
    CALLABLE = "callable"
    LIBRARY = "library"
    OBJECT = "object"
    STATIC = "static"


@dataclass(frozen=True)
class PythonValue:
    kind: ValueKind
    #: For messages: "8", "`dfx_rate_cell`, a function", "`model`, a `NerfModel` (hashed by identity)".
    text: str
    #: An OBJECT whose class may be a pytree or array-like (a base class, a decorator, a
    #: registration, ``__jax_array__``): jit may trace it, so its type alone shows no failure.
    may_trace: bool = False


@dataclass(frozen=True)
class NotStatic:
    #: Why the value is not proven a hashable Python value: "`xs` is an array (...)".
    reason: str
    #: It is certainly an array or an unhashable object (not merely unknown).
    certain: bool = False


def python_value(analysis: Analysis, expr: cst.BaseExpression, _depth: int = 0) -> PythonValue | NotStatic:
    """What `expr` is, as a value jit could take as static (see the module docstring)."""
    ctx = analysis.ctx
    code = shorten(ctx.code(expr), 50)
    number = int_value(analysis, expr)
    if number is not None:
        return PythonValue(ValueKind.NUMBER, f"`{code}`" if code != str(number) else code)
    array = array_origin(analysis, expr)
    if array is not None:
        return NotStatic(f"`{code}` is an array ({array})", certain=True)
    instance = _instance(analysis, expr, code)
    if instance is not None:
        return instance
    through = (
        _through_callers(analysis, expr, code, _depth)
        or _through_init(analysis, expr, code, _depth)
        or _static_field(analysis, expr, code, _depth)
    )
    if through is not None:
        return through
    kind = _classifier(analysis).classify(expr)
    if kind.kind is Hashing.PLAIN:
        return PythonValue(ValueKind.NUMBER, f"`{code}`")
    if kind.kind is Hashing.OBJECT:
        words = _object_words(kind.reason)
        library = words == "a library object"
        return PythonValue(ValueKind.LIBRARY if library else ValueKind.CALLABLE, f"`{code}`, {words}")
    verdict = analysis.staticness.verdict(expr)
    if verdict.kind is Staticness.STATIC and "static parameter" in verdict.reason:
        return PythonValue(ValueKind.STATIC, f"`{code}` ({verdict.reason})")
    return NotStatic(kind.reason or f"`{code}` cannot be followed", certain=kind.kind in (Hashing.ARRAY, Hashing.MUTABLE))


def is_string(analysis: Analysis, expr: cst.BaseExpression, _depth: int = 0) -> bool:
    """`expr` is surely a Python str: a string literal, or a parameter every call passes one
    (a default where a call leaves it out), or ``self.f`` set once in ``__init__`` to one."""
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return not (isinstance(expr, cst.SimpleString) and expr.prefix.lower().startswith("b"))
    if _depth > 3:
        return False
    if isinstance(expr, cst.Name):
        binding = single_binding(analysis.ctx, expr)
        passed = passed_to(analysis, binding) if isinstance(binding, cst.Param) else None
        return bool(passed) and all(is_string(analysis, p, _depth + 1) for p in passed)  # type: ignore[union-attr]
    if isinstance(expr, cst.Attribute):
        attribute = read_attribute(analysis.ctx, expr)
        return attribute is not None and is_string(analysis, attribute.value, _depth + 1)
    return False


def _through_callers(analysis: Analysis, expr: cst.BaseExpression, code: str, depth: int) -> PythonValue | NotStatic | None:
    """A parameter of a function only ever called plainly: what every call passes it."""
    if not isinstance(expr, cst.Name) or depth > 3:
        return None
    binding = single_binding(analysis.ctx, expr)
    if not isinstance(binding, cst.Param):
        return None
    passed = passed_to(analysis, binding)
    if passed is None:
        return None
    values = [python_value(analysis, p, depth + 1) for p in passed]
    refused = next((v for v in values if isinstance(v, NotStatic)), None)
    if refused is not None:
        return NotStatic(f"`{code}` is a parameter, and a call passes it this: {refused.reason}", refused.certain)
    kinds = {v.kind for v in values}  # type: ignore[union-attr]
    kind = kinds.pop() if len(kinds) == 1 else ValueKind.STATIC
    shown = ", ".join(v.text for v in values[:2]) + (", ..." if len(values) > 2 else "")  # type: ignore[union-attr]
    return PythonValue(kind, f"`{code}` (every call passes {shown})", any(v.may_trace for v in values))  # type: ignore[union-attr]


def _through_init(analysis: Analysis, expr: cst.BaseExpression, code: str, depth: int) -> PythonValue | NotStatic | None:
    """``self.num_actions``, set once in ``__init__`` (`instance_attributes`): what ``__init__`` gives it."""
    if not isinstance(expr, cst.Attribute) or depth > 3:
        return None
    attribute = read_attribute(analysis.ctx, expr)
    if attribute is None:
        return None
    value = python_value(analysis, attribute.value, depth + 1)
    line = analysis.ctx.span(attribute.store).start.line
    if isinstance(value, NotStatic):
        return NotStatic(f"`{code}` is set on line {line}: {value.reason}", value.certain)
    return replace(value, text=f"`{code}` (set on line {line} to {value.text})")


def _static_field(analysis: Analysis, expr: cst.BaseExpression, code: str, depth: int) -> PythonValue | NotStatic | None:
    """``self.inductive_depth``, a field a pytree class declares static (``eqx.field(static=True)``):
    under any transform it is what the module gives it (`field_values`: its default, what each
    construction passes, or what the class's own ``__init__`` stores), never a tracer."""
    if not isinstance(expr, cst.Attribute) or depth > 3:
        return None
    ctx = analysis.ctx
    cls = instance_class_of(ctx, expr.value)
    tree = pytree_class(ctx, cls) if cls is not None else None
    field = tree.field(expr.attr.value) if tree is not None else None
    if tree is None or field is None or not field.static:
        return None
    values = field_values(ctx, tree, field)
    missing = values.elsewhere or values.unseen
    if missing is not None or not values.given:
        return NotStatic(f"`{code}` is a static field, but {missing or 'nothing is seen to give it a value'}")
    found: list[PythonValue] = []
    for given in values.given:
        value = python_value(analysis, given.value, depth + 1)
        if isinstance(value, NotStatic):
            return NotStatic(f"`{code}` is a static field given `{shorten(ctx.code(given.value), 40)}` ({given.described}): {value.reason}", value.certain)
        found.append(value)
    kinds = {v.kind for v in found}
    kind = kinds.pop() if len(kinds) == 1 else ValueKind.STATIC
    return PythonValue(kind, f"`{code}` (a static field given {', '.join(v.text for v in found)})")


def _classifier(analysis: Analysis) -> ValueClassifier:
    found = analysis.memo.get("value_classifier")
    if found is None:
        found = analysis.memo["value_classifier"] = ValueClassifier(analysis.ctx, lambda p: passed_to(analysis, p))
    return found  # type: ignore[return-value]


def _object_words(reason: str) -> str:
    if "function or class" in reason:
        return "a function or class"
    if "lambda" in reason:
        return "a lambda"
    if "partial" in reason:
        return "a `functools.partial`"
    return "a library object" if "library" in reason else "a hashable object"


def _instance(analysis: Analysis, expr: cst.BaseExpression, code: str) -> PythonValue | NotStatic | None:
    """``Model(3)``, or a name bound once to it, for a class this module defines; None: not one."""
    ctx = analysis.ctx
    found = instance_class(ctx, expr)
    if found is None:
        return None
    cls, _ = found
    hashed = class_hashing(ctx, cls)
    name = cls.name.value
    if hashed is None:
        return NotStatic(f"`{code}` is a `{name}`, which Python cannot hash ({unhashable_why(cls)})", certain=True)
    if hashed == "":
        return NotStatic(f"`{code}` is a `{name}`, whose hashing cannot be seen (a base class or decorator we do not know)")
    if namedtuple_fields(ctx, cls) is not None:
        return _namedtuple(analysis, cls, found[1], code)
    if linen_module(ctx, cls):
        return _linen_module(analysis, cls, found[1], code)
    return PythonValue(ValueKind.OBJECT, f"`{code}`, a `{name}` ({hashed})", may_trace=not plain_class(ctx, cls))


def _linen_module(analysis: Analysis, cls: cst.ClassDef, call: cst.Call, code: str) -> PythonValue | NotStatic:
    """A flax linen Module hashes its fields: each value the construction gives must hash, and so
    must every default written in the class body. jit cannot trace one (a leaf, no pytree)."""
    name = cls.name.value
    if any(a.star for a in call.args):
        return NotStatic(f"`{code}` is a `{name}` built from values jaxfix cannot list")
    defaults = [
        small.value
        for line in cls.body.body
        if isinstance(line, cst.SimpleStatementLine)
        for small in line.body
        if isinstance(small, cst.AnnAssign) and small.value is not None
    ]
    for value in [*(a.value for a in call.args), *defaults]:
        found = python_value(analysis, value)
        if isinstance(found, NotStatic):
            return NotStatic(f"`{code}` is a `{name}` whose field {found.reason}", certain=found.certain)
    return PythonValue(ValueKind.OBJECT, f"`{code}`, a `{name}` (a flax linen Module of hashable fields)", may_trace=False)


def _namedtuple(analysis: Analysis, cls: cst.ClassDef, call: cst.Call, code: str) -> PythonValue | NotStatic:
    """A NamedTuple hashes when every field does: each value the call gives, and every default
    written in the class (checked whether or not this call leaves it out). One whose every field
    is a function is a pytree of function leaves, which jit cannot trace."""
    name = cls.name.value
    given: list[PythonValue | NotStatic] = []
    for arg in call.args:
        if arg.star == "*" and isinstance(arg.value, cst.Call) and example_optimizer(analysis.ctx.names.qualified_name(arg.value.func) or ""):
            given.extend([PythonValue(ValueKind.CALLABLE, f"a function `{analysis.ctx.code(arg.value)}` returns")] * 3)
        elif arg.star:
            return NotStatic(f"`{code}` is a `{name}` built from values jaxfix cannot list")
        else:
            given.append(python_value(analysis, arg.value))
    defaults = [d for d in (namedtuple_fields(analysis.ctx, cls) or {}).values() if d is not None]
    for found in [*given, *(python_value(analysis, d) for d in defaults)]:
        if isinstance(found, NotStatic):
            return NotStatic(f"`{code}` is a `{name}` whose field {found.reason}", certain=found.certain)
    if given and all(isinstance(g, PythonValue) and g.kind is ValueKind.CALLABLE for g in given) and not defaults:
        return PythonValue(ValueKind.OBJECT, f"`{code}`, a `{name}` of functions (a pytree whose leaves jit cannot trace)")
    return PythonValue(ValueKind.OBJECT, f"`{code}`, a `{name}` (a NamedTuple of hashable values)", may_trace=True)





"""JAX202 for a class with its own ``tree_flatten``: an array in the aux_data it returns.

aux_data is the static part of a custom pytree, as a static field is of a
pytree dataclass: jit keeps it in the tree's structure and compares it with
``==`` to find its compiled code, so the second call with an equal instance
fails when it holds an array (docs/jax306-behaviour.md, "A class with its own
tree_flatten"; jax#19547). The class is registered with
``@register_pytree_node_class`` (``tree_flatten`` is the method) or
``register_pytree_node(Cls, Cls.flatten, ...)`` (or a function of the module,
``register_pytree_node(Cls, flatten, unflatten)``, jax#14718); the one return is
``(children, aux_data)``, aux_data written there or bound once in the method.
An attribute it reads, ``self.x``, is set in ``__init__`` from a parameter
(``self.x = x``) or is a dataclass's field, and a construction the module writes
passes an array of two elements or more for it (a raw ``PRNGKey`` is one).

Moved among the children where the two functions are written plainly enough
to prove the edit (`aux_to_children`), always as an unsafe fix: what the
class's other code does with the value (a shape it reads, a hash, a vmap over
instances) decides whether it may be a traced leaf. Otherwise reported.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.rules.jax202_array_in_static_field.aux_to_children import aux_into_children
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.class_hashing import init_fields
from jaxfix.transforms.semantics.constants import assigned_value, own_returns, single_binding
from jaxfix.transforms.semantics.custom_pytrees import flatten_method
from jaxfix.transforms.semantics.instance_attributes import constructed_value, receiver_reads
from jaxfix.transforms.semantics.pytree_classes import method_named


def aux_data_findings(analysis: Analysis) -> Iterator[Finding]:
    ctx = analysis.ctx
    for cls in ctx.nodes_of(cst.ClassDef):
        flatten = flatten_method(ctx, cls)
        made = _built(ctx, cls) if flatten is not None else []
        if not made:
            continue
        for read in _aux_attributes(analysis, flatten):  # type: ignore[arg-type]
            for call in made:
                given = _given(ctx, cls, call, read.attr.value)
                origin = array_origin(analysis, given) if given is not None else None
                if origin is None or not _several_elements(ctx, given):  # type: ignore[arg-type]
                    continue  # a scalar or one-element array compares to one bool: it runs
                line = ctx.span(call).start.line
                head = (
                    f"`{ctx.code(read)}` goes into the aux_data `{flatten.name.value}` returns, but "  # type: ignore[union-attr]
                    f"`{shorten(ctx.code(call), 60)}` (line {line}) gives it `{shorten(ctx.code(given), 40)}` ({origin}): "  # type: ignore[arg-type]
                    "jit compares aux_data with `==` to find its compiled code, and an array gives no single bool "
                    "(the second call fails)"
                )
                moved = aux_into_children(ctx, cls, flatten, read)  # type: ignore[arg-type]
                if not isinstance(moved, str):
                    yield ctx.finding(
                        "JAX202",
                        read,
                        f"{head}; it moves among the children, where the unflatten reads it back",
                        moved,
                        Applicability.UNSAFE,
                        description=f"move `{ctx.code(read)}` into the children",
                        notes=(
                            "unsafe: the value becomes a leaf, traced under jit like the others (code needing it as a "
                            "Python value fails), and every tree function sees it: a `vmap` over instances maps it too",
                        ),
                    )
                    break
                yield ctx.finding(
                    "JAX202",
                    read,
                    f"{head}; not rewritten: {moved}",
                    notes=(
                        "option: return it among the children (and read it back from them when unflattening): "
                        "a leaf, traced like the others",
                        "option: keep a hashable form in aux_data (a tuple of Python numbers) when the code needs it static",
                    ),
                )
                break


#: Array constructors whose first argument is the shape, and those that copy a display.
_SHAPED = frozenset({"jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.empty", "jax.numpy.full", "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full"})
_DISPLAYS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray"})
_RANGES = frozenset({"jax.numpy.arange", "numpy.arange"})
_RAW_KEYS = frozenset({"jax.random.PRNGKey"})


def _several_elements(ctx, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """An array surely of two elements or more, by its spelling (a display of two, ``arange(4)``,
    ``zeros((2, 3))``), or a name bound once to one. Only such an array fails the comparison:
    a scalar or one-element array gives one bool, and so does the same object (the table)."""
    if isinstance(expr, cst.Name) and depth < 4:
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _several_elements(ctx, value, depth + 1)
    if not isinstance(expr, cst.Call) or not expr.args or expr.args[0].keyword is not None:
        return False
    qualified = ctx.names.qualified_name(expr.func) or ""
    first = expr.args[0].value
    if qualified in _RAW_KEYS:
        return True  # a raw key: two uint32 (a typed `jax.random.key` is a scalar)
    if qualified in _DISPLAYS:
        return isinstance(first, (cst.List, cst.Tuple)) and len(first.elements) >= 2
    if qualified in _RANGES:
        return len(expr.args) == 1 and isinstance(first, cst.Integer) and first.evaluated_value >= 2
    if qualified in _SHAPED:
        sizes = [e.value for e in first.elements] if isinstance(first, (cst.Tuple, cst.List)) else [first]
        if not sizes or not all(isinstance(v, cst.Integer) for v in sizes):
            return False
        total = 1
        for v in sizes:
            total *= v.evaluated_value  # type: ignore[union-attr]
        return total >= 2
    return False


def _given(ctx, cls: cst.ClassDef, call: cst.Call, attribute: str) -> cst.BaseExpression | None:
    """What the construction `call` stores as ``self.<attribute>``: through the ``__init__`` the
    class writes, or the one a dataclass is given (by keyword, or by position among its fields)."""
    init = method_named(cls, "__init__")
    if init is not None:
        return constructed_value(ctx, init, call, attribute)
    fields = init_fields(ctx, cls)
    if fields is None or attribute not in fields or any(a.star for a in call.args):
        return None
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == attribute:
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    index = list(fields).index(attribute)
    return positional[index].value if index < len(positional) else None


def _built(ctx, cls: cst.ClassDef) -> list[cst.Call]:
    """The ``Cls(...)`` calls among the class name's references (a report needs only those seen)."""
    scope = ctx.scope(cls)
    out: list[cst.Call] = []
    for assignment in scope.assignments[cls.name.value] if scope is not None else ():
        for access in getattr(assignment, "references", ()):
            parent = ctx.parent(access.node)
            if isinstance(parent, cst.Call) and parent.func is access.node:
                out.append(parent)
    return sorted(out, key=ctx.start)


def _aux_attributes(analysis: Analysis, flatten: cst.FunctionDef) -> list[cst.Attribute]:
    """``self.x`` reads in the aux_data the method's one return gives."""
    ctx = analysis.ctx
    returns = own_returns(flatten)
    if len(returns) != 1 or not isinstance(returns[0].value, cst.Tuple):
        return []
    elements = returns[0].value.elements
    if len(elements) != 2 or not isinstance(elements[1], cst.Element):
        return []
    aux = elements[1].value
    if isinstance(aux, cst.Name):
        binding = single_binding(ctx, aux)
        aux = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None  # type: ignore[assignment]
    return receiver_reads(flatten, aux) if aux is not None else []

"""JAX203 unhashable-callable: a callable that cannot hash, given to a JAX function that hashes it.

The callables: an equinox module holding an array, or its method read from an
instance; an instance of a class of the program that Python cannot hash (a
dataclass with ``eq`` and not frozen, a class with ``__eq__`` and no
``__hash__``) called through ``__call__``.

``lax.scan``, ``fori_loop``, ``while_loop``, ``cond``, ``switch``, ``jax.jit`` and
``jax.checkpoint`` hash their function to cache its trace. ``cell.step`` of an
equinox module is an ``equinox.BoundMethod``, a module whose hash covers the
instance's fields, and a module given itself (``jax.jit(model)``) hashes its
fields too, so an array field fails: ``TypeError: unhashable type``
(docs/jax203-behaviour.md). A lambda calling the method is an ordinary function
and computes the same; the fix writes one, with the method's own parameter
names when they are plain positional ones that the receiver does not use.

Shown only where the module is proven to hold an array: a field that is not
static and is annotated as an array (``jax.Array``, ``jnp.ndarray``, a
jaxtyping annotation) or as an equinox layer (``eqx.nn.Linear`` holds its
weights), or is given an array by ``__init__`` or a construction.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_annotation, array_origin
from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.class_hashing import class_hashing, instance_class, unhashable_why
from jaxfix.transforms.semantics.constants import binding_value, returned_element, single_binding
from jaxfix.transforms.semantics.field_values import given_by
from jaxfix.transforms.semantics.purity import name_chain
from jaxfix.transforms.semantics.pytree_classes import (
    EQUINOX,
    PytreeClass,
    init_stores,
    instance_class_of,
    method_named,
    pytree_class,
)
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.vocabulary import CALLABLE_SLOTS, TRANSFORM_SLOT

CODE = "JAX203"
EQUINOX_PARTIAL = "equinox.Partial"
TREE_PARTIAL = "jax.tree_util.Partial"

#: The JAX functions that hash a function they are given, and where they take it (probed).
HASHED_FUNCTIONS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    **{name: CALLABLE_SLOTS[name] for name in (
        "jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.cond", "jax.lax.switch"
    )},
    **{name: TRANSFORM_SLOT for name in ("jax.jit", "jax.checkpoint", "jax.remat")},
}
#: Arguments that are the same value when evaluated again.
_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)
#: Annotation heads of an equinox layer: each holds arrays (its weights).
_LAYERS = "equinox.nn."
#: Equinox layers that hold no array.
_NO_ARRAYS = frozenset({"Lambda", "Identity", "Dropout", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d",
                        "AvgPool2d", "AvgPool3d", "Pool", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
                        "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
                        "StateIndex", "Sequential"})


def _layer_value(ctx, name: cst.Name) -> cst.BaseExpression | None:
    """What `name` was built by: its one assignment's value, or the element a helper returns
    (``f1, f2, f3 = make_heads()``, haliax#46), followed to that name's own assignment."""
    value = binding_value(ctx, name) or returned_element(ctx, name)
    if isinstance(value, cst.Name) and value is not name:
        return binding_value(ctx, value) or value
    return value


class CallablesHashed:
    """One module's JAX203 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        ctx = self.ctx
        for call in ctx.calls:
            qualified = ctx.names.qualified_name(call.func) or ""
            where = HASHED_FUNCTIONS.get(qualified)
            if where is None:
                continue
            for expr in _function_arguments(ctx, call, *where):
                finding = self._hashed(call, qualified, expr)
                if finding is not None:
                    yield finding

    def _hashed(self, call: cst.Call, qualified: str, expr: cst.BaseExpression) -> Finding | None:
        """`expr` is a method read from an instance (``cell.step``), or the instance itself
        (``jax.jit(model)``), of an equinox module proven to hold an array; or an instance of a
        class Python cannot hash, given as the function."""
        ctx = self.ctx
        short = qualified.replace("jax.lax.", "lax.")
        partial = self._equinox_partial(expr)
        if partial is not None:
            return self._partial_finding(call, expr, short, partial)
        if not (name_chain(expr) or (isinstance(expr, cst.Attribute) and self._plain_construction(expr.value))):
            return None
        spelled = ctx.code(expr)
        if isinstance(expr, cst.Attribute):
            found = self._method(expr)
            if found is not None:
                cls_name, method, array = found
                what = f"`{spelled}` is a method of `{cls_name}`, an equinox module, read from an instance"
                covers = f"its hash covers the instance, whose field `{array}` holds an array"
                return self._finding(call, expr, short, what, covers, method)
        found_instance = self._instance(expr)
        if found_instance is None:
            return None
        what_instance, call_method, holds = found_instance
        covers = f"its hash covers {holds}" if holds is not None else None
        return self._finding(call, expr, short, f"`{spelled}` is {what_instance}", covers, call_method)

    def _equinox_partial(self, expr: cst.BaseExpression) -> cst.Call | None:
        """``eqx.Partial(f, ...)`` written here, or bound once to the name given: an equinox module
        whose ``keywords`` field is a dict, so its hash fails, with keywords or without
        (docs/jax203-behaviour.md, "eqx.Partial")."""
        value = binding_value(self.ctx, expr) if isinstance(expr, cst.Name) else expr
        if isinstance(value, cst.Call) and self.ctx.names.qualified_name(value.func) == EQUINOX_PARTIAL:
            return value
        return None

    def _partial_finding(self, call: cst.Call, expr: cst.BaseExpression, short: str, built: cst.Call) -> Finding:
        """``jax.tree_util.Partial`` binds the same arguments, calls the function the same way, and
        hashes (by identity, as ``functools.partial`` does): the construction switches to it where
        every use of the value is a call or a hashing function's slot."""
        ctx = self.ctx
        head = (
            f"`{ctx.code(expr)}` is an `eqx.Partial`, an equinox module whose `keywords` field is a dict: "
            f"`{short}` hashes it (\"unhashable type: 'dict'\")"
        )
        doubt = self._partial_doubt(expr)
        spelled = planner(self.analysis).spell(TREE_PARTIAL, built) if doubt is None else None
        if spelled is None:
            why = doubt or "`jax.tree_util.Partial` cannot be spelled here"
            return ctx.finding(
                CODE,
                expr,
                f"{head}; not rewritten: {why}",
                notes=("option: bind the arguments with `jax.tree_util.Partial`, which hashes, or call through a lambda",),
            )
        edits = (ctx.replace(built.func, spelled.text),) + ((spelled.edit,) if spelled.edit is not None else ())
        return ctx.finding(
            CODE,
            expr,
            f"{head}; `{spelled.text}` binds the same arguments and hashes",
            edits,
            description=f"build it with `{spelled.text}`",
        )

    def _partial_doubt(self, expr: cst.BaseExpression) -> str | None:
        """Why switching the construction might change another use: a read of the name that is
        neither a call nor a hashing function's function slot."""
        ctx = self.ctx
        if not isinstance(expr, cst.Name):
            return None
        binding = single_binding(ctx, expr)
        for read in reads(ctx, binding) if isinstance(binding, cst.Name) else ():
            parent = ctx.parent(read)
            if isinstance(parent, cst.Call) and parent.func is read:
                continue
            call = ctx.parent(parent) if isinstance(parent, cst.Arg) else None
            if isinstance(call, cst.Call) and any(e is read for e in self._slots(call)):
                continue
            line = ctx.span(read).start.line
            return f"`{expr.value}` is also used on line {line}, where an equinox module may be expected"
        return None

    def _slots(self, call: cst.Call) -> list[cst.BaseExpression]:
        where = HASHED_FUNCTIONS.get(self.ctx.names.qualified_name(call.func) or "")
        return list(_function_arguments(self.ctx, call, *where)) if where is not None else []

    def _plain_construction(self, expr: cst.BaseExpression) -> bool:
        """``SomeClass(some_array)``: an equinox module of this module built by the generated
        ``__init__`` from names and literals; built again inside the lambda, it is an equal module."""
        if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Name):
            return False
        cls = single_binding(self.ctx, expr.func)
        tree = pytree_class(self.ctx, cls) if isinstance(cls, cst.ClassDef) else None
        if tree is None or tree.style is not EQUINOX:
            return False
        if any(method_named(tree.cls, hook) for hook in ("__init__", "__post_init__", "__check_init__", "__new__")):
            return False
        return all(not a.star and name_chain(a.value) or isinstance(a.value, _LITERALS) for a in expr.args)

    def _method(self, expr: cst.Attribute) -> tuple[str, cst.FunctionDef, str] | None:
        cls = receiver_class(self.ctx, expr.value)
        tree = pytree_class(self.ctx, cls) if cls is not None else None
        if tree is None or tree.style is not EQUINOX:
            return None
        method = method_named(tree.cls, expr.attr.value)
        if method is None or _not_instance_method(self.ctx, method):
            return None
        array = self._array_field(tree, _construction(self.ctx, expr.value))
        return (tree.cls.name.value, method, array) if array is not None else None

    def _instance(self, expr: cst.BaseExpression) -> tuple[str, cst.FunctionDef | None, str | None] | None:
        """An instance of an equinox module class of the module with ``__call__``, one built by an
        equinox layer (``eqx.nn.Linear(...)``, whose weights are arrays), or one of a class of the
        module Python cannot hash (`class_hashing`); with what it is, its ``__call__`` (None: not
        read), and what its hash covers (None: it has none)."""
        ctx = self.ctx
        cls = instance_class_of(ctx, expr)
        tree = pytree_class(ctx, cls) if cls is not None else None
        if tree is not None and tree.style is EQUINOX:
            method = method_named(tree.cls, "__call__")
            array = self._array_field(tree, _construction(ctx, expr))
            if method is None or array is None:
                return None
            return f"an instance of `{tree.cls.name.value}`, an equinox module", method, f"its field `{array}`, which holds an array"
        if cls is not None and tree is None and class_hashing(ctx, cls) is None:
            method = method_named(cls, "__call__")
            if method is None:
                return None
            return f"an instance of `{cls.name.value}`, {unhashable_why(cls)}", method, None
        value = _layer_value(ctx, expr) if isinstance(expr, cst.Name) else None
        layer = ctx.names.qualified_name(value.func) or "" if isinstance(value, cst.Call) else ""
        last = layer.rpartition(".")[2]
        if layer.startswith(_LAYERS) and last[:1].isupper() and last not in _NO_ARRAYS:
            return f"an `{ctx.code(value.func)}` layer, an equinox module", None, "its weights, which are arrays"  # type: ignore[union-attr]
        return None

    def _finding(
        self, call: cst.Call, expr: cst.BaseExpression, short: str, what: str, covers: str | None, method: cst.FunctionDef | None
    ) -> Finding:
        ctx = self.ctx
        taken = _names_in(expr)
        params = _parameters(method, taken) if method is not None else "*args, **kwargs"
        head = f"{what}: `{short}` hashes it{f', and {covers}' if covers else ''} (\"unhashable type\")"
        text = f"lambda {params}: {ctx.code(expr)}({params})"
        return ctx.finding(
            CODE,
            expr,
            f"{head}; a lambda that calls it is an ordinary function: `{shorten(text, 80)}`",
            (ctx.replace(expr, text),),
            description=f"call `{ctx.code(expr)}` from a lambda",
        )

    def _array_field(self, tree: PytreeClass, built: cst.Call | None = None) -> str | None:
        """A field of the class that is not static and holds an array: by its annotation (an
        array, not an ``ArrayLike`` that a Python number also is; an equinox layer), or by what
        the construction `built`, ``__init__`` or the default gives it (an array, a tracer)."""
        ctx = self.ctx
        for field in tree.fields:
            if field.static:
                continue
            annotation = field.statement.annotation.annotation
            head = annotation.value if isinstance(annotation, cst.Subscript) else annotation
            named = ctx.names.qualified_name(head) or ""
            layer = named.startswith(_LAYERS) and named.rpartition(".")[2] not in _NO_ARRAYS
            if (array_annotation(named) and not named.endswith("ArrayLike")) or layer:
                return field.name
            values = [s.value for s in init_stores(ctx, tree, field) or ()]
            given = given_by(built, tree, field) if built is not None else None
            if isinstance(given, cst.BaseExpression):
                values.append(given)
            elif field.default is not None:
                values.append(field.default)
            if any(array_origin(self.analysis, v) or self.analysis.traced.source(v) for v in values):
                return field.name
        return None


def _construction(ctx, receiver: cst.BaseExpression) -> cst.Call | None:
    """The one call that built the instance, where the module shows it (``cell = Cell(w)``)."""
    built = instance_class(ctx, receiver)
    return built[1] if built is not None else None


def _not_instance_method(ctx, method: cst.FunctionDef) -> bool:
    """A staticmethod, classmethod or property: read from an instance, no bound method of it
    (any other decorator, ``eqx.filter_jit`` say, still gives one)."""
    kinds = {"builtins.staticmethod", "builtins.classmethod", "builtins.property", "functools.cached_property"}
    return any(ctx.names.qualified_name(d.decorator) in kinds for d in method.decorators)


def _function_arguments(
    ctx, call: cst.Call, positions: tuple[int, ...], keywords: tuple[str, ...]
) -> Iterator[cst.BaseExpression]:
    """The arguments in function slots; a branch list's elements for `switch` (written at the call,
    or bound once to a name)."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    chosen = [positional[i].value for i in positions if i < len(positional)]
    chosen += [a.value for a in call.args if a.keyword is not None and a.keyword.value in keywords]
    for expr in chosen:
        if isinstance(expr, cst.Name):
            table = binding_value(ctx, expr)  # ``branches = [a.f, b.f]`` then ``lax.switch(i, branches, x)``
            if isinstance(table, (cst.List, cst.Tuple)):
                expr = table
        if isinstance(expr, (cst.List, cst.Tuple)):
            yield from (e.value for e in expr.elements if isinstance(e, cst.Element))
        else:
            yield expr


def _names_in(expr: cst.BaseExpression) -> set[str]:
    """Every name the expression reads: a lambda parameter must hide none of them."""
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False  # `.attr` is no name read

    expr.visit(Names())
    return found


def _parameters(method: cst.FunctionDef, taken: set[str]) -> str:
    """The method's positional parameters after the receiver, when they are plain and none would
    hide a name the receiver is read through; else ``*args, **kwargs``."""
    params = method.params
    plain = [*params.posonly_params, *params.params][1:]
    simple = (
        not isinstance(params.star_arg, cst.Param)
        and params.star_kwarg is None
        and not params.kwonly_params
        and all(p.default is None for p in plain)
        and not any(p.name.value in taken for p in plain)
    )
    if not simple:
        return "*args, **kwargs"
    return ", ".join(p.name.value for p in plain)


class UnhashableCallable203(Rule):
    """A callable that cannot hash (an equinox module holding an array or its method, an
    instance of an unhashable class), given to a JAX function that hashes it.

    ``lax.scan``, ``fori_loop``, ``while_loop``, ``cond``, ``switch``,
    ``jax.jit`` and ``jax.checkpoint`` hash the function they are given. An
    equinox module's method read from an instance is itself a module whose
    hash covers the instance's fields (equinox#558)::

        class RecurrentCell(eqx.Module):
            w: Array

            def update(self, state, input):
                return state, input * self.w

        lax.scan(cell.update, start_state, inputs)
        # TypeError: unhashable type: 'jaxlib._jax.ArrayImpl'

    A lambda calling the method is an ordinary function, hashed by identity,
    and computes the same::

        lax.scan(lambda state, input: cell.update(state, input), start_state, inputs)

    The same holds for the module itself as the function (``jax.jit(model)``,
    ``lax.scan(cell, ...)`` with ``__call__``, an ``eqx.nn.Linear``), and for an
    instance of a class Python cannot hash (``@dataclass`` without
    ``frozen=True`` sets ``__hash__ = None``; jax#17197): ``jax.jit(a)`` fails with
    ``TypeError: unhashable type: 'A'``. The lambda leaves the class as it is,
    where ``eq=False`` would change how its instances compare.

    ``eqx.Partial(f, rate=0.5)`` is an equinox module too, whose ``keywords``
    field is a dict: every hashing function fails on it (equinox#1150). It is
    built with ``jax.tree_util.Partial``, which binds and calls the same way and
    hashes by identity, where every other use of it is a call or such a slot.

    Valid: a method of a module whose fields are all static or Python values;
    a method of a dataclass, flax struct or NamedTuple (a Python bound method
    hashes by the instance's identity); ``vmap``, ``grad``, ``lax.map`` and
    ``eqx.filter_jit``, which do not hash it.
    """

    code = CODE
    name = "unhashable-callable"
    summary = "a callable that cannot hash (an equinox module holding an array, an unhashable dataclass) is given to scan/cond/jit: call it from a lambda"
    required = (("equinox", "class "), ("scan", "fori_loop", "while_loop", "cond", "switch", "jit", "checkpoint", "remat"))

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The whole module when it has a call of a hashing function (the class may be anywhere)."""
        names = {"scan", "fori_loop", "while_loop", "cond", "switch", "jit", "checkpoint", "remat"}
        called = any(
            isinstance(c.func, (ast.Name, ast.Attribute)) and (c.func.id if isinstance(c.func, ast.Name) else c.func.attr) in names
            for c in facts.calls
        )
        return [facts.tree] if called else []

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return CallablesHashed(analysis).findings()


__all__ = ["HASHED_FUNCTIONS", "UnhashableCallable203"]

"""JAX403 for an object jit hashes whose own ``__hash__`` hashes an array attribute.

A static argument is hashed to key jit's cache. An object of a class with its own ``__hash__``
(``hash((self.x, self.mul))``) is hashable only while every attribute that hash reads is: a
construction that gives ``self.x`` an array makes the call fail, "Non-hashable static arguments
are not supported ... unhashable type: 'jaxlib._jax.ArrayImpl'" (jax#39858: a method jitted with
``static_argnums=0`` hashes ``self``). A class with its own ``__hash__`` is reported, never
rewritten: the ways out are a redesign (register the class as a pytree, the array a child and the
rest aux data, and jit without ``static_argnums``; or keep a hashable form of the array), and which
one the class's other code allows is for a person. An instance of a pytree class already (a
registered or ``flax.struct`` dataclass, an ``equinox.Module``) whose arrays sit in data fields
needs no redesign: it leaves the static arguments and traces (tinygp#57's kernel), where nothing
needs it concrete.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.traced_parameter import entered_jit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import methods
from jaxfix.transforms.semantics.field_values import given_by
from jaxfix.transforms.semantics.instance_attributes import constructed_value, receiver_reads
from jaxfix.transforms.semantics.int_values import IntStatic
from jaxfix.transforms.semantics.int_values import Kind as IntKind
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.pytree_classes import EQUINOX, init_stores, method_named, pytree_class
from jaxfix.transforms.semantics.static_instances import StaticInstance, static_instances
from jaxfix.transforms.semantics.tracing import JitEntry
from jaxfix.transforms.semantics.vocabulary import FILTER_JIT, JIT


def seeds(facts: Facts) -> list[ast.AST]:
    """The module, when a class of it may hash its own fields or define ``__hash__`` (its
    constructions and the jitted calls may be anywhere): over-approximated by spelling."""
    words = ("__hash__", "Module", "struct", "dataclass")
    return [facts.tree] if any(w in facts.text for w in words) else []


def hashed_array_findings(analysis: Analysis) -> Iterator[Finding]:
    ctx = analysis.ctx
    seen: set[int] = set()
    for found_instance in static_instances(analysis):
        cls, made, given = found_instance.cls, found_instance.made, found_instance.given
        if id(made) in seen:
            continue
        found = _hashed_array(analysis, cls, made)
        if found is None:
            continue
        seen.add(id(made))
        hashed, value, origin = found
        head = (
            f"`{found_instance.param}` is static on the jit of `{found_instance.function.name.value}`, so jit hashes "
            f"`{ctx.code(given)}`, a `{cls.name.value}`, {hashed}; `{shorten(ctx.code(made), 60)}` "
            f"(line {ctx.span(made).start.line}) gives it `{shorten(ctx.code(value), 40)}` ({origin}), and no "
            f"{'array' if origin not in _CONTAINERS else 'list'} is hashable"
        )
        traced = _made_traced(analysis, found_instance, head) or _filter_jitted(analysis, found_instance, head)
        if traced is not None:
            yield traced
            continue
        yield ctx.finding(
            "JAX403",
            found_instance.call,
            f"{head}; not rewritten: the class must change",
            notes=(
                f"option: register `{cls.name.value}` as a pytree (the array a child, the rest aux data) and jit "
                "without the static argument: the array is then traced",
                "option: keep a hashable form where the hash reads it (a tuple of Python numbers), when the code "
                "needs it static",
            ),
        )


#: `_unhashable`'s containers, as the message names them.
_CONTAINERS = frozenset({"a list of arrays"})


def _filter_jitted(analysis: Analysis, found: StaticInstance, head: str) -> Finding | None:
    """An ``equinox.Module`` method jitted with its receiver static, ``@partial(jax.jit,
    static_argnums=0)`` (equinox#1131): jit hashes the module and fails, and plain ``jax.jit`` would
    trace every leaf, Python ints too. Equinox's ``filter_jit`` traces the arrays and keeps every
    other leaf static: the decorator becomes ``eqx.filter_jit`` when the receiver is the one static
    argument and the jit has no other option, and no field that may hold an array (or a list, dict
    or set) is read where the methods need a concrete value (a field whose every value is a Python
    int, bool or string stays static, so it may be)."""
    ctx = analysis.ctx
    tree = pytree_class(ctx, found.cls)
    fn = found.function
    info = function_info(ctx, fn)
    if tree is None or tree.style is not EQUINOX or info.method is not MethodKind.INSTANCE:
        return None
    if not info.signature.params or info.signature.params[0].name != found.param:
        return None
    entry = entered_jit(analysis, fn) or _class_body_jit(analysis, fn)
    if entry is None or entry.wrapper.spec is None or entry.wrapper.spec.declared_static(info.signature) != {found.param}:
        return None
    written = _written_jit(entry.node)
    if written is None:
        return None
    options = [a for node in _calls_in(written[0]) for a in node.args if a.keyword is not None]
    if any(a.keyword.value not in ("static_argnums", "static_argnames") for a in options):  # type: ignore[union-attr]
        return None
    ints = IntStatic(analysis)
    uses = ConcreteUses(ctx)
    unseen: list[str] = []
    for field in tree.fields:
        values = _field_givens(ctx, tree, field, found.made)
        if values and all(_python_scalar(ints, v) for v in values):
            continue  # stays a static Python value under filter_jit
        for method in methods(found.cls):
            for read in receiver_reads(method, method.body):
                if read.attr.value != field.name or isinstance(ctx.parent(read), cst.AssignTarget):
                    continue
                need = uses.need_of(read, method)
                if need is not None and need.need is Need.NEEDS:
                    return None  # traced under filter_jit, where it is needed concrete
                if need is not None and not unseen:
                    unseen.append(f"unsafe: `{ctx.code(read)}`, traced under `filter_jit`, {need.reason}; if that needs it concrete, it fails there")
    spelled = planner(analysis).spell(FILTER_JIT, fn)
    if spelled is None:
        return None
    target, wrapped = written
    edits = [ctx.replace(target, spelled.text if wrapped is None else f"{spelled.text}({ctx.code(wrapped)})")]
    if spelled.edit is not None:
        edits.append(spelled.edit)
    return ctx.finding(
        "JAX403",
        found.call,
        f"{head}; `{found.cls.name.value}` is an equinox module, so `{info.name}` is jitted with `{spelled.text}`, "
        "which traces its arrays and keeps every other leaf (its Python ints) static",
        tuple(edits),
        Applicability.UNSAFE if unseen else Applicability.SAFE,
        description=f"`{spelled.text}` instead of `{shorten(ctx.code(target), 50)}`",
        notes=(*unseen, "a Python number a call passes becomes static under `filter_jit`: each distinct value compiles once"),
    )


def _class_body_jit(analysis: Analysis, fn: cst.FunctionDef) -> JitEntry | None:
    """``__call__ = jax.jit(__call__, static_argnums=0)`` in the class body: the one jit every way
    into the method goes through, its calls bound (``model(x)``), which `entered_jit` leaves out."""
    ctx = analysis.ctx
    routes = analysis.traces.routes(fn) or ()
    jits = {id(w.node): w for r in routes for w in r.wraps if w.name == JIT}
    if len(jits) != 1 or any(r.escapes or r.uncertain for r in routes):
        return None
    (wrap,) = jits.values()
    if wrap.jit is None or not isinstance(wrap.node, cst.Call) or ctx.enclosing_class(wrap.node) is not ctx.enclosing_class(fn):
        return None
    return JitEntry(wrap.jit, wrap.node)


def _written_jit(node: cst.CSTNode) -> tuple[cst.BaseExpression, cst.BaseExpression | None] | None:
    """(what to replace, the function it wraps): a decorator's expression (None: the decorator
    wraps the def below it), or ``jax.jit(encode, static_argnums=0)`` /
    ``partial(jax.jit, static_argnums=0)(encode)`` and the one function it is given."""
    if isinstance(node, cst.Decorator):
        return node.decorator, None
    if not isinstance(node, cst.Call):
        return None
    positional = [a for a in node.args if a.keyword is None and not a.star]
    if len(positional) != 1 or any(a.star for a in node.args):
        return None
    return node, positional[0].value


def _calls_in(expr: cst.BaseExpression) -> list[cst.Call]:
    """``partial(jax.jit, k=v)(f)``: the call and the calls it calls, where options are written."""
    found: list[cst.Call] = []
    while isinstance(expr, cst.Call):
        found.append(expr)
        expr = expr.func
    return found


def _python_scalar(ints: IntStatic, value: cst.BaseExpression) -> bool:
    """A Python int (`IntStatic`), or a bool or string literal: a leaf filter_jit keeps static."""
    if isinstance(value, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(value, cst.Name) and value.value in ("True", "False", "None"):
        return True
    return ints.kind(value).kind is IntKind.INT


def _made_traced(analysis: Analysis, found: StaticInstance, head: str) -> Finding | None:
    """A pytree class's instance (an ``equinox.Module``, a ``flax.struct`` or registered dataclass)
    whose array is a data field traces as it is: its arrays become tracers, its static fields stay
    Python values. The parameter leaves the static arguments (`StaticEditor.drop`) when its class
    is such a pytree, every array it is given sits in a data field, nothing in the function needs
    it concrete (`ConcreteUses`: a use we cannot follow makes the fix unsafe), and, for a method,
    the receiver is traced already or static (a plain object there would fail to trace)."""
    ctx = analysis.ctx
    tree = pytree_class(ctx, found.cls)
    if tree is None or method_named(found.cls, "__hash__") is not None:
        return None
    for field in tree.fields:
        value = given_by(found.made, tree, field)
        if isinstance(value, cst.BaseExpression) and array_origin(analysis, value) is not None and field.static:
            return None  # an array in a static field stays hashed: JAX202's, the class must change
    fn = found.function
    entry = entered_jit(analysis, fn)
    if entry is None or entry.wrapper.spec is None or entry.wrapper.call is None:
        return None
    info = function_info(ctx, fn)
    if info.method is MethodKind.INSTANCE and info.signature.params:
        receiver = info.signature.params[0].name
        owner = ctx.parent(ctx.parent(fn))
        static = receiver in entry.wrapper.spec.declared_static(info.signature)
        if not static and not (isinstance(owner, cst.ClassDef) and pytree_class(ctx, owner) is not None):
            return None  # jax#17158: the receiver would be traced too, and may be no pytree
    elif info.method is MethodKind.CLASS:
        return None
    use = ConcreteUses(ctx).first_need(fn, found.param)
    if use is not None and use.need is Need.NEEDS:
        return None
    edit = StaticEditor(ctx).drop(entry.wrapper, entry.node, info.signature, found.param)
    if isinstance(edit, str):
        return None
    notes = [f"`{found.cls.name.value}` is a pytree: its arrays are traced, its static fields stay Python values"]
    if use is not None:
        notes.insert(0, f"unsafe: {use.reason}; if it needs `{found.param}` concrete, the traced value fails there")
    return ctx.finding(
        "JAX403",
        found.call,
        f"{head}; the class is a pytree and nothing in `{info.name}` needs `{found.param}` concrete, so it becomes a "
        "regular (traced) argument",
        edit.edits,
        Applicability.UNSAFE if use is not None else Applicability.SAFE,
        description=f"make `{found.param}` a traced argument of `{info.name}`",
        notes=tuple(notes),
    )


def _field_givens(ctx, tree, field, made: cst.Call) -> list[cst.BaseExpression]:
    """What the construction `made` gives `field`: its argument for it, or, where an equinox
    module's own ``__init__`` sets it, each value a ``self.<field> = ...`` there stores."""
    stores = init_stores(ctx, tree, field)
    if stores is not None:
        init = method_named(tree.cls, "__init__")
        # `self.policy_arr = policy_arr`: what this construction passes the parameter (pymdp#346)
        passed = constructed_value(ctx, init, made, field.name) if init is not None else None
        return [passed if passed is not None else store.value for store in stores]
    if method_named(tree.cls, "__init__") is not None:
        return []  # its own `__init__` takes other parameters: no argument is the field
    value = given_by(made, tree, field)
    return [value] if isinstance(value, cst.BaseExpression) else []


def _unhashable(analysis: Analysis, value: cst.BaseExpression) -> str | None:
    """Why `value` hashes to an error: an array, or a list of arrays written out (MLP's
    ``[jnp.zeros(m) for m in sizes[1:]]``, equinox#1131: a tuple of them would not hash either).
    A list of Python values is JAX201's, which freezes it."""
    items: list[cst.BaseExpression] = []
    if isinstance(value, cst.ListComp):
        items = [value.elt]
    elif isinstance(value, cst.List):
        items = [e.value for e in value.elements if isinstance(e, cst.Element)]
    if items:
        return "a list of arrays" if all(array_origin(analysis, item) is not None for item in items) else None
    return array_origin(analysis, value)


def _hashed_array(analysis: Analysis, cls: cst.ClassDef, made: cst.Call) -> tuple[str, cst.BaseExpression, str] | None:
    """(what the hash reads, said for the message; the value the construction gives it; why it is
    an array): a read in the class's own ``__hash__``, or a field of a pytree dataclass (hashed
    field by field: equinox, flax.struct, a frozen registered dataclass)."""
    ctx = analysis.ctx
    tree = pytree_class(ctx, cls)
    if tree is not None and method_named(cls, "__hash__") is None:
        for field in tree.fields:
            for value in _field_givens(ctx, tree, field, made):
                origin = _unhashable(analysis, value)
                if origin is not None:
                    return f"{tree.style.described}, which hashes its field `{field.name}`", value, origin
        return None
    hashing = method_named(cls, "__hash__")
    init = method_named(cls, "__init__")
    if hashing is None or init is None:
        return None
    for read in receiver_reads(hashing, hashing.body):
        value = constructed_value(ctx, init, made, read.attr.value)
        origin = array_origin(analysis, value) if value is not None else None
        if origin is not None:
            return f"whose `__hash__` hashes `{ctx.code(read)}`", value, origin  # type: ignore[return-value]
    return None

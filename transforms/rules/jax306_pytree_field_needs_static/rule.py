"""JAX306 pytree-field-needs-static: a traced field of a pytree dataclass is read where Python needs a concrete value.

A config written as a pytree dataclass (registered with
``jax.tree_util.register_dataclass``, a ``flax.struct`` dataclass, an
``equinox.Module``: `pytree_classes`) travels through jit, vmap and the lax
primitives as a pytree: every field not declared static is a leaf, and so a
tracer inside (docs/jax306-behaviour.md, P1, P4). A count or flag kept there
(``max_iters: int = 20``) then fails where Python needs its value: a shape, a
``range``, a Python ``if``. The fix is the one each library documents: declare
the field static (``dataclasses.field(default=20, metadata=dict(static=True))``,
``struct.field(default=20, pytree_node=False)``, ``eqx.field(default=20,
static=True)``), which makes it part of the tree's structure: hashed, compared,
and handed to the code as the Python value it is (P2).

Only a parameter whose value is a tracer here counts (`traced_values`: a jit,
vmap or primitive hands it one, directly or through ``partial``), or ``self``
in a method of a class whose instances a traced value may hold nested
(`pytree_values`: a scan carry built as ``State(actor)`` with ``actor =
make_actor()`` holding ``[Layer(w, Dropout(...))]``), when traced code may
run that method (what it names, and ``__call__`` once it calls an object);
and only a read of a field that some place needs concrete (`concrete_uses`,
into helpers too). The fix is applied when it changes nothing else:

* every value the field can hold is a hashable Python value: its default, and
  what every ``Model(...)`` of the module passes for it (`python_values`), or,
  for an equinox module with its own ``__init__``, what each ``self.f = ...``
  statement of that ``__init__`` gives it (a parameter: what every construction
  passes); the class is built nowhere else (no other module, no ``replace``);
* nothing else assigns the field, and no ``eqx.tree_at`` replaces it (a static
  field is no leaf, P4);
* the declaration is ``name: type = value``, or a field call the fix can extend
  (the library's own without its static keyword or a ``converter``, or
  ``dataclasses.field`` without ``metadata``).

A field that only ever holds a str (``method: str`` given ``"cubic"``) fails
sooner, on any instance a trace takes: jit, vmap and the primitives reject a
str leaf before the code runs (TypeError, interpax#77), read there or not (a
sensor's ``name`` that only labels it, chex#64); the same declaration fixes
it, under the same conditions.

Otherwise the finding is a report with the reason. Tree operations
(``tree_map``, ``tree_leaves``) no longer visit a static field: the message
says so, since a program that mapped over a count would see it unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.field_lists import move_field
from jaxfix.transforms.edits.imports import builtin_spelling, planner
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.select_with_where import gradient_caveat, select_where_written
from jaxfix.transforms.rules.jax306_pytree_field_needs_static.custom_flatten import ChildFields
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_api import ARRAY_ATTRIBUTES, ARRAY_METHODS
from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.concrete_uses import METADATA_ATTRIBUTES, ConcreteUses, Need, Use
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.field_values import FieldValues, field_values
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.python_values import NotStatic, ValueKind, is_string, python_value
from jaxfix.transforms.semantics.pytree_classes import (
    FIELD,
    PytreeClass,
    PytreeField,
    instance_class_of,
    method_named,
    pytree_class,
    static_argument,
)
from jaxfix.transforms.semantics.pytree_values import TracedInstances
from jaxfix.transforms.semantics.size_arguments import size_argument
from jaxfix.transforms.semantics.traced_values import Taint

CODE = "JAX306"
TREE_AT = "equinox.tree_at"


class PytreeFields306:
    """One module's JAX306 findings: per field, the first read that needs it concrete."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = ConcreteUses(self.ctx, traces=analysis.traces)  # routes: where a returned value goes
        self.instances = TracedInstances(analysis)
        self._reach: dict[FunctionNode, frozenset[FunctionNode]] = {}
        self._callers: frozenset[FunctionNode] | None = None

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for cls in self.ctx.nodes_of(cst.ClassDef):
            tree = pytree_class(self.ctx, cls)
            if tree is None:
                continue
            for field in tree.fields:
                if field.static or _module_class(self.ctx, field):
                    continue
                found = self._first_need(tree, field, container=_container(field)) or self._string_leaf(tree, field)
                if found is not None:
                    out.append(self._finding(tree, field, *found))
        out.extend(ChildFields(self.analysis, self.uses).findings())
        return out

    def _string_leaf(self, tree: PytreeClass, field: PytreeField) -> tuple[cst.Attribute, str, Use] | None:
        """A field that only ever holds a str, read on a traced instance: jit, vmap and the lax
        primitives take every leaf as an array and reject a str before the code runs (TypeError:
        not a valid JAX type; interpax#77). Declared static, it travels in the tree's structure."""
        values = field_values(self.ctx, tree, field)
        if not values.given or values.unseen is not None:
            return None
        if not all(is_string(self.analysis, given.value) for given in values.given) or values.elsewhere is not None:
            return None
        reason = "a str is no JAX type, so the trace rejects the instance before any code runs (TypeError)"
        for read, _, why in self._traced_reads(tree, field):
            return read, why, Use(Need.NEEDS, read, reason)
        # Never read where traced (a sensor's `name` only labels it): handing the instance to a trace fails alike.
        for fn, param in self.instances.receivers(tree.cls):
            source = self.analysis.traced.param_source(fn, param)
            target = field.statement.target
            if source is not None and isinstance(target, cst.Name):
                return target, source.reason, Use(Need.NEEDS, target, reason)  # type: ignore[return-value]
        return None

    def _first_need(
        self, tree: PytreeClass, field: PytreeField, container: bool = False
    ) -> tuple[cst.Attribute, str, Use] | None:
        """The first read of `field` on a traced instance that needs it concrete. A `container`
        field counts only where the read itself is a size (``jnp.zeros(grid.shape)``): its elements
        are traced leaves there, while ``if cfg.ids:`` or ``len(cfg.ids)`` reads the Python tuple."""
        for read, fn, why in self._traced_reads(tree, field):
            if _read_as_object(self.ctx, read):
                continue
            use = self.uses.need_of(read, fn)
            if use is not None and use.need is Need.NEEDS and (not container or _read_as_size(self.ctx, read, use)):
                return read, why, use
        return None

    def _traced_reads(self, tree: PytreeClass, field: PytreeField) -> Iterator[tuple[cst.Attribute, FunctionNode, str]]:
        """(the read, its function, why the instance is traced) for each ``p.field`` read of a
        parameter holding an instance of the class that a trace hands over (`_traced`)."""
        for read in self.ctx.attributes_named(field.name):
            if isinstance(read.value, cst.Attribute):
                nested = self._nested_read(tree, read.value)
                if nested is not None:
                    yield read, *nested
                continue
            if not isinstance(read.value, cst.Name):
                continue
            param = single_binding(self.ctx, read.value)
            fn = self.ctx.enclosing_function(param) if isinstance(param, cst.Param) else None
            if fn is None:
                continue
            shown = instance_class_of(self.ctx, read.value) or self.instances.instance_of(fn, read.value.value)
            if shown is None and tree.cls in self.instances.classes_of(fn, read.value.value):
                shown = tree.cls  # one of several classes the calls hand it: this one's field is read too
            why = self._traced(tree.cls, fn, read.value) if shown is tree.cls else None
            if why is not None:
                yield read, fn, why

    def _nested_read(self, tree: PytreeClass, holder: cst.Attribute) -> tuple[FunctionNode, str] | None:
        """``parameters.surface_flux`` holding an instance of `tree`'s class (jax-gcm's nested
        parameters): a chain of data fields from a parameter a trace hands an instance, each field
        annotated with the next pytree class of the module, the last `tree`'s. (Its function, why
        the root is traced.)"""
        ctx = self.ctx
        chain: list[str] = []
        root: cst.BaseExpression = holder
        while isinstance(root, cst.Attribute):
            chain.insert(0, root.attr.value)
            root = root.value
        if not isinstance(root, cst.Name) or len(chain) > 4:
            return None
        param = single_binding(ctx, root)
        fn = ctx.enclosing_function(param) if isinstance(param, cst.Param) else None
        cls = instance_class_of(ctx, root) if fn is not None else None
        if fn is None or cls is None:
            return None
        outer = cls
        for name in chain:
            current = pytree_class(ctx, cls)
            field = current.field(name) if current is not None else None
            if field is None or field.static:
                return None
            annotation = field.statement.annotation.annotation
            inner = single_binding(ctx, annotation) if isinstance(annotation, cst.Name) else None
            if not isinstance(inner, cst.ClassDef):
                return None
            cls = inner
        if cls is not tree.cls:
            return None
        why = self._traced(outer, fn, root)
        return (fn, why) if why is not None else None

    def _traced(self, cls: cst.ClassDef, fn: FunctionNode, instance: cst.Name) -> str | None:
        """Why `param` of `fn` holds a traced instance: a trace hands it one; or it is the receiver
        of ``__call__`` (or of a method traced code reaches) of a class whose instances a traced
        value may hold, nested in another (`pytree_values`); None when neither is shown."""
        source = self.analysis.traced.param_source(fn, instance.value)
        if source is not None and source.taint is Taint.TRACED and not source.keeps_value:
            return source.reason
        if receiver_class(self.ctx, instance) is None:
            return None  # not `self`: an annotated parameter no trace is shown to hand an instance
        holder = self.instances.holder(cls)
        if holder is None:
            return None
        outer, outer_param = holder
        if fn not in self._reached(outer):
            return None
        outer_source = self.analysis.traced.param_source(outer, outer_param)
        name = function_info(self.ctx, outer).name
        how = f": {outer_source.reason}" if outer_source is not None else ""
        return f"a `{cls.name.value}` may be built into `{outer_param}` of `{name}`, which is traced{how}"

    def _reached(self, outer: FunctionNode) -> frozenset[FunctionNode]:
        """What may run while `outer` is traced: what it names (`TraceIndex.reached_from`), and the
        ``__call__`` of each class a traced value may hold, once reached code calls an object
        (``layer(x)``, ``self.dropout(x)``): a module calling its sub-modules."""
        found = self._reach.get(outer)
        if found is None:
            traces = self.analysis.traces
            reached = traces.reached_from([outer])
            calls = [m for c in self.instances.classes() if (m := method_named(c, "__call__")) is not None]
            if self._callers is None:
                self._callers = _object_callers(self.ctx)
            if not reached & self._callers:
                found = reached
            else:
                found = reached | traces.reached_from(calls)
            self._reach[outer] = found
        return found

    def _finding(self, tree: PytreeClass, field: PytreeField, read: cst.Attribute, why: str, use: Use) -> Finding:
        name = tree.cls.name.value
        head = (
            f"`{self.ctx.code(read)}` is a field of `{name}`, {tree.style.described}, so it is traced "
            f"({why}); {use.reason}"
        )
        plan = self._plan(tree, field)
        if isinstance(plan, str):
            static = tree.style.keyword_text("dict")
            spelled = planner(self.analysis).spell(tree.style.field_function, field.statement)
            function = spelled.text if spelled is not None and spelled.edit is None else tree.style.field_function
            where = (
                f"move `{field.name}` into `meta_fields` where `{name}` is registered" if tree.lists is not None
                else f"declare it static where `{name}` is defined: `{field.name}: ... = {function}(..., {static})`"
            )
            notes: tuple[str, ...] = (
                where,
                "or pass the value as a static argument of its own",
            )
            if not tree.style.declares_static:
                notes = (
                    "option: register the class with the field among its `meta_fields` "
                    "(`jax.tree_util.register_dataclass(..., meta_fields=[...])`) if it holds a hashable Python value",
                    "or pass the value as a static argument of its own",
                )
            if "is an array" in plan:  # no static declaration can hash an array: the test must take it as data
                selected = self._selected(read)
                if selected is not None:
                    return selected(head, plan)
                notes = (
                    f"option: keep a Python value in `{field.name}` instead (an array cannot be static), then {where}",
                    "option: keep the array and compute with it as data (`jnp.where(...)` for a value, "
                    "`lax.cond(...)` for a branch)",
                )
            return self.ctx.finding(CODE, read, f"{head}; not rewritten: {plan}", notes=notes)
        edits, declaration = plan
        message = f"{head}; declare the field static: `{declaration}`"
        notes = (
            f"a static field is part of the tree's structure: each value compiles once, and tree operations "
            f"(`tree_map`, `tree_leaves`) no longer visit `{field.name}`",
        )
        return self.ctx.finding(
            CODE, read, message, edits, Applicability.SAFE, description="declare the field static", notes=notes
        )

    def _selected(self, read: cst.Attribute):
        """Where the array field is the test of an ``if`` (jax-gcm's ``if
        parameters.surface_flux.fhum0 > 0.0:`` choosing how to update two arrays), the ``if``
        selected with ``jnp.where`` (`select_with_where`, with its proofs): a finding maker, or None
        when the read is no ``if``'s test or the selection is not proven."""
        ctx = self.ctx
        branch = next((a for a in ctx.ancestors(read) if isinstance(a, (cst.If, cst.IfExp))), None)
        if branch is None or not any(n is read for n in ctx.descendants(branch.test, cst.Attribute)):
            return None
        selected = select_where_written(self.analysis, branch)
        if isinstance(selected, str):
            return None
        edits, text = selected
        caveat = gradient_caveat(self.analysis, branch)

        def finding(head: str, plan: str) -> Finding:
            return ctx.finding(
                CODE,
                read,
                f"{head}; it cannot be declared static ({plan}), so the `if` takes it as data: "
                f"`{shorten(text, 80)}`",
                edits,
                Applicability.UNSAFE if caveat else Applicability.SAFE,
                description=f"select with `{shorten(text, 80)}`",
                notes=("both arms are evaluated; the values of the one not selected are discarded", *((caveat,) if caveat else ())),
            )

        return finding

    # -- the fix ---------------------------------------------------------------------
    def _plan(self, tree: PytreeClass, field: PytreeField) -> tuple[tuple[Edit, ...], str] | str:
        """The edits that declare the field static, and the declaration as it will read; or why not."""
        if not tree.style.declares_static:
            return "the class's decorator registers every field as data, so no declaration of the field makes it static"
        values = field_values(self.ctx, tree, field)
        why = (
            self._values_unproven(values)
            or (self._assigned(field) if not values.set_in_init else None)
            or self._replaced_by_path(tree, field)
        )
        if why is not None:
            return why
        if tree.lists is not None:
            return move_field(self.ctx, tree.lists, field.name, to_meta=True)
        style, at = tree.style, field.statement
        dict_name = builtin_spelling(self.analysis, "dict", at)
        if dict_name is None and style.static_keyword is None:
            return "`dict` is shadowed where the field is declared"
        dict_text = dict_name.text if dict_name is not None else "dict"
        call = field.field_call
        if call is not None:
            if any(a.star for a in call.args):
                return f"`{shorten(self.ctx.code(call))}` passes arguments jaxfix cannot list"
            called = self.ctx.names.qualified_name(call.func)
            if called == style.field_function and style.static_keyword is not None:
                if _keyword_given(call, "converter"):
                    return "its `converter` decides what the field holds, which jaxfix does not follow"
                given = static_argument(call, style)
                if given is not None:
                    return f"its `{style.static_keyword}` is given `{self.ctx.code(given)}`, which jaxfix does not change"
                added = style.keyword_text(dict_text)
            elif called == FIELD:
                if _keyword_given(call, "metadata"):
                    return "its `dataclasses.field(...)` already has a `metadata` jaxfix would have to merge"
                added = style.metadata_text(dict_text)
            else:
                return f"it is declared by `{self.ctx.code(call.func)}`, which jaxfix does not rewrite"
            inner = ", ".join(self.ctx.code(a).rstrip(", ") for a in call.args)
            value = f"{self.ctx.code(call.func)}({inner}{', ' if inner else ''}{added})"
            return (self.ctx.replace(call, value),), f"{field.name}: ... = {value}"
        spelled = planner(self.analysis).spell(style.field_function, at)
        if spelled is None:
            return f"`{style.field_function}` cannot be spelled where the field is declared"
        default = f"default={self.ctx.code(field.default)}, " if field.default is not None else ""
        value = f"{spelled.text}({default}{style.keyword_text(dict_text)})"
        if at.value is None:
            edit = Edit(self.ctx.end(at.annotation), self.ctx.end(at.annotation), f" = {value}")
        else:
            edit = self.ctx.replace(at.value, value)
        edits = (edit,) if spelled.edit is None else (edit, spelled.edit)
        return edits, f"{field.name}: ... = {value}"

    def _replaced_by_path(self, tree: PytreeClass, field: PytreeField) -> str | None:
        """``equinox.tree_at(lambda m: m.steps, ...)`` replaces a leaf; a static field is none."""
        for call in self.ctx.calls_of(TREE_AT):
            if not call.args:
                continue
            where = call.args[0].value
            reads = [n for n in self.ctx.attributes_named(field.name) if any(a is where for a in self.ctx.ancestors(n))]
            if reads or not isinstance(where, cst.Lambda):
                return (
                    f"`{shorten(self.ctx.code(call))}` (line {self.ctx.span(call).start.line}) may replace it as a "
                    f"leaf, which a static field is not"
                )
        return None

    def _values_unproven(self, values: FieldValues) -> str | None:
        """Why some value the field may hold is not a proven hashable Python value (None: all are)."""
        if values.elsewhere is not None:
            return values.elsewhere
        for given in values.given:
            why = self._unhashable(given.value)
            if why is None:
                continue
            if given.site is given.value or isinstance(given.site, cst.AnnAssign):
                return f"its default {why}"
            if isinstance(given.site, cst.Assign):
                return f"{given.described} sets it to `{shorten(self.ctx.code(given.value))}`, which {why}"
            return f"{given.described} gives it a value that {why}"
        return values.unseen

    def _unhashable(self, expr: cst.BaseExpression) -> str | None:
        value = python_value(self.analysis, expr)
        if isinstance(value, NotStatic):
            return f"is not shown to be a Python value: {value.reason}"
        if value.kind is not ValueKind.NUMBER:
            return "is not a number, string or bool"
        return None

    def _assigned(self, field: PytreeField) -> str | None:
        for node in self.ctx.attributes_named(field.name):
            parent = self.ctx.parent(node)
            if isinstance(parent, (cst.AssignTarget, cst.Del)) or (
                isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is node
            ):
                return f"line {self.ctx.span(node).start.line} assigns `{self.ctx.code(node)}`"
        return None


#: Annotations of a field that holds a container: its leaves are traced, the container is not, and
#: ``if cfg.ids:`` or ``len(cfg.ids)`` reads the container (flax's gemma sampler: `forbidden_token_ids:
#: Sequence[int] | None`, tested with ``if``).
_CONTAINERS = frozenset({
    "Sequence", "MutableSequence", "Tuple", "tuple", "List", "list", "Dict", "dict", "Mapping", "MutableMapping",
    "Iterable", "Collection", "Set", "set", "FrozenSet", "frozenset",
})


def _container(field: PytreeField) -> bool:
    """The field is annotated as a container (or one or None), or its default is a container or None."""
    if _annotation_names(field.statement.annotation.annotation) & _CONTAINERS:
        return True
    default = field.default
    return isinstance(default, (cst.Tuple, cst.List, cst.Dict, cst.Set)) or (
        isinstance(default, cst.Name) and default.value == "None"
    )


def _read_as_size(ctx, read: cst.Attribute, use: Use) -> bool:
    """The read is itself the size argument the need names (``jnp.zeros(grid.shape)``)."""
    arg = ctx.parent(read)
    call = ctx.parent(arg) if isinstance(arg, cst.Arg) else None
    return isinstance(call, cst.Call) and call is use.node and size_argument(ctx, call, arg) is not None


def _module_class(ctx, field: PytreeField) -> bool:
    """The field is annotated with a class of this module (``model: WorldModel``): a nested object
    whose own fields jit treats as that class says, not a leaf."""
    annotation = field.statement.annotation.annotation
    return isinstance(annotation, cst.Name) and isinstance(single_binding(ctx, annotation), cst.ClassDef)


def _read_as_object(ctx, read: cst.Attribute) -> bool:
    """``self.model.action_dim``: the field's value is read for an attribute no array has, so it is
    an object (a nested pytree), not a leaf; its own field is what the read reaches."""
    parent = ctx.parent(read)
    if not (isinstance(parent, cst.Attribute) and parent.value is read):
        return False
    name = parent.attr.value
    return name not in ARRAY_METHODS and name not in ARRAY_ATTRIBUTES and name not in METADATA_ATTRIBUTES and name != "at"


def _annotation_names(annotation: cst.BaseExpression) -> set[str]:
    """Every name an annotation spells (``Sequence[int] | None``: Sequence, int, None)."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            found.add(node.attr.value)

    annotation.visit(_Names())
    return found


def _keyword_given(call: cst.Call, name: str) -> bool:
    return any(a.keyword is not None and a.keyword.value == name for a in call.args)


def _object_callers(ctx) -> frozenset[FunctionNode]:
    """The functions that call something that is no def of the module nor a library function: a
    parameter, a loop variable, an attribute of ``self`` (``layer(x)``, ``self.dropout(x)``)."""
    found: set[FunctionNode] = set()
    for call in ctx.calls:
        func = call.func
        root = func.value if isinstance(func, cst.Attribute) else func
        if not isinstance(root, cst.Name) or ctx.names.qualified_name(func) is not None:
            continue  # not a plain name's call, or a library function
        fn = ctx.enclosing_function(call)
        if fn is not None and not isinstance(single_binding(ctx, root), (cst.FunctionDef, cst.ClassDef)):
            found.add(fn)
    return frozenset(found)


class PytreeFieldNeedsStatic306(Rule):
    """A field of a pytree dataclass is traced, and read where Python needs its value.

    ``jax.tree_util.register_dataclass``, ``flax.struct.dataclass`` and
    ``equinox.Module`` make every field of the class a leaf of the pytree
    unless it is declared static. Passed to a jitted
    function, vmapped, or carried through ``lax.scan``, each leaf arrives as a
    tracer, so a count or flag kept in the config fails where Python needs it::

        @jax.tree_util.register_dataclass
        @dataclasses.dataclass
        class Params:
            weight: float = 1.0
            max_iters: int = 20        # a leaf: traced under jit

        @jax.jit
        def solve(x, params: Params):
            history = jnp.zeros((params.max_iters,))   # TypeError: Shapes must be
            ...                                       # 1D sequences of concrete values

    The fix declares the field static, so jit hashes it with the tree's
    structure and the code reads the Python value::

            max_iters: int = dataclasses.field(default=20, metadata=dict(static=True))

    in each library's own spelling: ``struct.field(default=20,
    pytree_node=False)`` in a flax struct, ``eqx.field(default=20,
    static=True)`` in an equinox module.

    The same holds for a module nested in a traced value: an actor carried
    through ``lax.scan`` whose layers hold a ``Dropout`` with an
    ``inference`` flag tested by ``if self.inference:``.

    It is applied when every value the field can hold is a hashable Python
    value (its default, and what each ``Params(...)`` of the module passes),
    nothing assigns it, and no other module builds the class; otherwise the
    finding says why and names the options. Each distinct value compiles once;
    tree operations (``tree_map``) no longer visit the field.

    A class with its own ``tree_flatten`` (``@register_pytree_node_class``)
    says the same with the two values it returns: a count among the children
    (``return [self.epsilon, self.rank], dict(...)``) is a leaf, traced. It
    moves into the aux_data, the static part, with the unflatten reading it
    back from there (`custom_flatten`), under the same conditions.
    """

    code = CODE
    name = "pytree-field-needs-static"
    summary = "a traced field of a pytree class (register_dataclass, flax.struct, equinox, its own tree_flatten) is read where Python needs its value"
    required = (("register_dataclass", "struct", "PyTreeNode", "equinox", "register_pytree_node"),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The whole module, when it registers a dataclass (the reads may be anywhere)."""
        return [facts.tree]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return PytreeFields306(analysis).findings()

"""JAX306 pytree-field-needs-static: a traced field of a registered dataclass is read where Python needs a concrete value.

A config written as a dataclass registered with
``jax.tree_util.register_dataclass`` travels through jit, vmap and the lax
primitives as a pytree: every field not declared static is a leaf, and so a
tracer inside (docs/jax306-behaviour.md, P1). A count or flag kept there
(``max_iters: int = 20``) then fails where Python needs its value: a shape, a
``range``, a Python ``if``. The fix the JAX documentation gives is to declare
the field static, ``dataclasses.field(default=20, metadata=dict(static=True))``,
which makes it part of the tree's structure: hashed, compared, and handed to
the code as the Python value it is (P2).

Only a parameter whose value is a tracer here counts (`traced_values`: a jit,
vmap or primitive hands it one, directly or through ``partial``), or ``self``
in a method of a class whose instances a traced value may hold nested
(`pytree_values`: a scan carry built as ``State(actor)`` with ``actor =
make_actor()`` holding ``[Layer(w, Dropout(...))]``), when traced code may
run that method (what it names, and ``__call__`` once it calls an object);
and only a read of a field that some place needs concrete (`concrete_uses`,
into helpers too). The fix is applied when it changes nothing else:

* every value the field can hold is a hashable Python value: its default, and
  what every ``Model(...)`` of the module passes for it (`python_values`);
  the class is built nowhere else (no other module, no ``replace``);
* nothing assigns the field;
* the declaration is ``name: type = value`` or ``dataclasses.field(...)``
  without ``metadata``.

Otherwise the finding is a report with the reason. Tree operations
(``tree_map``, ``tree_leaves``) no longer visit a static field: the message
says so, since a program that mapped over a count would see it unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import builtin_spelling, planner
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.class_hashing import constructions
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need, Use
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.importers import here, uses_elsewhere
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.python_values import NotStatic, ValueKind, python_value
from jaxfix.transforms.semantics.pytree_classes import PytreeClass, PytreeField, instance_class_of, pytree_class
from jaxfix.transforms.semantics.pytree_values import TracedInstances
from jaxfix.transforms.semantics.traced_values import Taint

CODE = "JAX306"


class PytreeFields306:
    """One module's JAX306 findings: per field, the first read that needs it concrete."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = ConcreteUses(self.ctx)
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
                if field.static:
                    continue
                found = self._first_need(tree, field)
                if found is not None:
                    out.append(self._finding(tree, field, *found))
        return out

    def _first_need(self, tree: PytreeClass, field: PytreeField) -> tuple[cst.Attribute, str, Use] | None:
        for read in self.ctx.attributes_named(field.name):
            if not isinstance(read.value, cst.Name) or instance_class_of(self.ctx, read.value) is not tree.cls:
                continue
            param = single_binding(self.ctx, read.value)
            fn = self.ctx.enclosing_function(param) if isinstance(param, cst.Param) else None
            if fn is None:
                continue
            why = self._traced(tree.cls, fn, read.value)
            if why is None:
                continue
            use = self.uses.need_of(read, fn)
            if use is not None and use.need is Need.NEEDS:
                return read, why, use
        return None

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
            calls = [m for c in self.instances.classes() if (m := _method(c, "__call__")) is not None]
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
            f"`{self.ctx.code(read)}` is a field of `{name}`, a dataclass registered as a pytree, so it is traced "
            f"({why}); {use.reason}"
        )
        plan = self._plan(tree, field)
        if isinstance(plan, str):
            notes = (
                f"declare it static where `{name}` is defined: "
                f"`{field.name}: ... = dataclasses.field(..., metadata=dict(static=True))`",
                "or pass the value as a static argument of its own",
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

    # -- the fix ---------------------------------------------------------------------
    def _plan(self, tree: PytreeClass, field: PytreeField) -> tuple[tuple[Edit, ...], str] | str:
        """The edits that declare the field static, and the declaration as it will read; or why not."""
        why = self._values_unproven(tree, field) or self._assigned(field)
        if why is not None:
            return why
        at = field.statement
        if field.field_call is not None:
            call = field.field_call
            if any(a.keyword is not None and a.keyword.value == "metadata" for a in call.args) or any(a.star for a in call.args):
                return "its `dataclasses.field(...)` already has a `metadata` jaxfix would have to merge"
            dict_name = builtin_spelling(self.analysis, "dict", at)
            if dict_name is None:
                return "`dict` is shadowed where the field is declared"
            inner = ", ".join(self.ctx.code(a).rstrip(", ") for a in call.args)
            separator = ", " if inner else ""
            value = f"{self.ctx.code(call.func)}({inner}{separator}metadata={dict_name.text}(static=True))"
            return (self.ctx.replace(call, value),), f"{field.name}: ... = {value}"
        spelled = planner(self.analysis).spell("dataclasses.field", at)
        dict_name = builtin_spelling(self.analysis, "dict", at)
        if spelled is None or dict_name is None:
            return "`dataclasses.field` or `dict` cannot be spelled where the field is declared"
        default = f"default={self.ctx.code(field.default)}, " if field.default is not None else ""
        value = f"{spelled.text}({default}metadata={dict_name.text}(static=True))"
        if at.value is None:
            edit = Edit(self.ctx.end(at.annotation), self.ctx.end(at.annotation), f" = {value}")
        else:
            edit = self.ctx.replace(at.value, value)
        edits = (edit,) if spelled.edit is None else (edit, spelled.edit)
        return edits, f"{field.name}: ... = {value}"

    def _values_unproven(self, tree: PytreeClass, field: PytreeField) -> str | None:
        """Why some value the field may hold is not a proven hashable Python value (None: all are)."""
        ctx = self.ctx
        name = tree.cls.name.value
        definition = here(ctx, name)
        if definition is not None and any(True for _ in uses_elsewhere(ctx, definition)):
            return f"another module uses `{name}`, and what it builds is not checked"
        if field.default is not None and (why := self._unhashable(field.default)) is not None:
            return f"its default {why}"
        built = constructions(ctx, tree.cls)
        if built is None:
            return f"`{name}` is used where jaxfix cannot see every instance it builds"
        position = next(i for i, f in enumerate(tree.fields) if f is field)
        for call in built:
            if any(a.star for a in call.args):
                return f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) passes fields jaxfix cannot list"
            given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == field.name), None)
            positional = [a for a in call.args if a.keyword is None]
            if given is None and position < len(positional):
                given = positional[position].value
            if given is None:
                continue  # the default
            why = self._unhashable(given)
            if why is not None:
                return f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) gives it a value that {why}"
        for replaced in ctx.attributes_named("replace"):
            call = ctx.parent(replaced)
            if isinstance(call, cst.Call) and any(a.keyword is not None and a.keyword.value == field.name for a in call.args):
                return f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) builds one by `replace`"
        return None

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


def _method(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)


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
    """A field of a dataclass registered as a pytree is traced, and read where Python needs its value.

    ``jax.tree_util.register_dataclass`` makes every field of the dataclass a
    leaf of the pytree unless it is declared static. Passed to a jitted
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

    The same holds for a module nested in a traced value: an actor carried
    through ``lax.scan`` whose layers hold a ``Dropout`` with an
    ``inference`` flag tested by ``if self.inference:``.

    It is applied when every value the field can hold is a hashable Python
    value (its default, and what each ``Params(...)`` of the module passes),
    nothing assigns it, and no other module builds the class; otherwise the
    finding says why and names the options. Each distinct value compiles once;
    tree operations (``tree_map``) no longer visit the field.
    """

    code = CODE
    name = "pytree-field-needs-static"
    summary = "a traced field of a registered dataclass is read where Python needs its value"
    required = (("register_dataclass",),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The whole module, when it registers a dataclass (the reads may be anywhere)."""
        return [facts.tree]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return PytreeFields306(analysis).findings()

"""JAX302 for ``self``: ``@jax.jit`` on a method traces the instance, which jit cannot.

``@jit def f(self, x)``, called as ``a.f(5)``, hands ``self`` to jit as an argument: "Error
interpreting argument to <function A1.f> as an abstract array" (jax#5595). The maintainers'
fix, the FAQ's first strategy for methods, makes it static: ``@partial(jit, static_argnums=0)``.
jit then hashes the instance and keys its cache on it, so a compiled call is reused for as long
as the instance lives, whatever happens to it since. The fix is proven only where that cannot
change a result:

* the class is surely not a pytree (`class_hashing.plain_class`: a pytree ``self`` is traced
  fine, and a static one would stop being traced) and hashes by identity (no ``__eq__``, no
  dataclass): each instance has its own compiles;
* what the method reads of ``self``, and what the methods it calls on ``self`` read, cannot change
  after ``__init__``: each ``self.name`` is a method of the class, or an attribute set once in
  ``__init__`` and seen everywhere it is read (`instance_attributes`), which nothing mutates in
  place (``self.layers.append(...)``, ``self.cache[k] = v``);
* every call is through the one jit being edited (`static_parameter.through_one_jit`).

Else the finding reports, with the FAQ's other options.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.static_parameter import array_in_static_slot, static_edit, through_one_jit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import class_hashing, plain_class
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.tracing import Route
from jaxfix.transforms.semantics.vocabulary import JIT, MUTATING_METHODS


def seeds(facts: Facts) -> list[ast.AST]:
    """For a class with no base and a method whose decorator mentions ``jit`` (or a class-body
    ``f = jit(f)``): every method, every
    mention of the class, and every ``.name`` of an attribute its methods store, so that what the
    proof reads (`instance_attributes`) is all in the slice the analysis sees."""
    out: list[ast.AST] = []
    for node in facts.nodes:
        if not (isinstance(node, ast.ClassDef) and not node.bases):
            continue
        methods = [item for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))]
        jitted_in_body = any(isinstance(i, ast.Assign) and "jit" in ast.unparse(i.value) for i in node.body)
        if not jitted_in_body and not any(
            m.args.args and any("jit" in ast.unparse(d) for d in m.decorator_list) for m in methods
        ):
            continue
        stored = {
            target.attr
            for m in methods
            for inner in ast.walk(m)
            if isinstance(inner, ast.Assign)
            for target in inner.targets
            if isinstance(target, ast.Attribute)
        }
        out.extend(methods)
        out.extend(
            n
            for n in facts.nodes
            if (isinstance(n, ast.Name) and n.id == node.name) or (isinstance(n, ast.Attribute) and n.attr in stored)
        )
    return out


def findings(analysis: Analysis) -> list[Finding]:
    out: list[Finding] = []
    for method in analysis.ctx.nodes_of(cst.FunctionDef):
        found = traced_self(analysis, method)
        if found is not None:
            out.append(_finding(analysis, found))
    return out


def _finding(analysis: Analysis, found: TracedSelf) -> Finding:
    ctx = analysis.ctx
    method, cls = found.method.name.value, found.cls.name.value
    me = found.method.params.params[0].name.value
    line = ctx.span(found.call).start.line
    head = (
        f"`{me}` is a parameter of the jitted method `{method}` that is not static there, but the call on line "
        f"{line} passes it an instance of `{cls}`, which jit cannot trace as an array "
        '("Error interpreting argument ... as an abstract array")'
    )
    if isinstance(found.plan, SelfPlan):
        notes = [f"jit keys its cache on the instance (`{cls}` hashes by identity): each instance compiles once"]
        if found.plan.added:
            notes.append(f"adds `{found.plan.added}`")
        return ctx.finding(
            "JAX302",
            found.call,
            f"{head}; `{cls}` is a plain class and nothing `{method}` reads of `{me}` changes after `__init__`, "
            f"so `{me}` becomes static: `{found.plan.jit_text}`",
            found.plan.edits,
            Applicability.SAFE,
            description=f"make `{me}` static on the jit of `{method}`",
            notes=tuple(notes),
        )
    options = (
        f"option: make `{me}` static (`static_argnums=0`) once nothing the method reads of it changes after the "
        "first call: jit would keep the compile made with the old values",
        f"option: jit a function of the values it needs instead, or make `{cls}` a pytree "
        "(`jax.tree_util.register_pytree_node_class`) so that its arrays are traced",
    )
    return ctx.finding("JAX302", found.call, f"{head}; not rewritten: {found.plan}", notes=options)


@dataclass(frozen=True)
class SelfPlan:
    """``self`` made static: the edits, and the jit as it reads after them."""

    edits: tuple
    jit_text: str
    added: str | None


@dataclass(frozen=True)
class TracedSelf:
    """A jitted method whose ``self`` jit traces, shown by a call through an instance."""

    method: cst.FunctionDef
    cls: cst.ClassDef
    call: cst.Call
    plan: SelfPlan | str


def traced_self(analysis: Analysis, method: cst.FunctionDef) -> TracedSelf | None:
    """The finding's facts when `method` is jitted with ``self`` traced and a call shows it.

    The jit is one put around the method itself (a decorator, or ``f = jit(f)`` in the class
    body), so its positions count ``self``; the call reads the method from an instance."""
    ctx = analysis.ctx
    info = function_info(ctx, method)
    if info.method is not MethodKind.INSTANCE or not info.signature.params:
        return None
    first = info.signature.params[0].name
    shown: Route | None = None
    for route in analysis.traces.routes(method) or ():
        own = [w for w in route.wraps[: route.head] if w.name == JIT]
        if route.call is None or not route.bound or route.uncertain or not own:
            continue
        if any(w.jit is None or w.jit.spec is None or first in w.jit.spec.declared_static(info.signature) for w in own):
            return None  # already static, or static arguments we cannot read
        shown = shown or route
    if shown is None or array_in_static_slot(analysis, shown, info.signature):
        return None  # an array in a slot static already: the jit's positions are JAX403's finding
    cls = ctx.parent(ctx.parent(method))
    if not isinstance(cls, cst.ClassDef) or not plain_class(ctx, cls) or cls.decorators:
        return None  # a dataclass or a registered pytree may be traced, or need JAX201 first
    return TracedSelf(method, cls, shown.call, _plan(analysis, method, cls))  # type: ignore[arg-type]


def _plan(analysis: Analysis, method: cst.FunctionDef, cls: cst.ClassDef) -> SelfPlan | str:
    ctx = analysis.ctx
    if class_hashing(ctx, cls) != "hashed by identity":
        return f"`{cls.name.value}` does not hash by identity, so equal instances would share a compile"
    changing = _changing_read(analysis, cls, method, set())
    if changing is not None:
        return changing
    entry = through_one_jit(analysis, method, lambda route: None)
    if isinstance(entry, str):
        return entry
    jit, elsewhere = entry
    if elsewhere:
        return "other modules call it, and their instances are not followed"
    edit = static_edit(analysis, method, jit, ("self",))
    if isinstance(edit, str):
        return edit
    edits, text, added = edit
    return SelfPlan(edits, text, added)


def _changing_read(analysis: Analysis, cls: cst.ClassDef, method: cst.FunctionDef, seen: set[str]) -> str | None:
    """Why something the method reads of ``self`` may change after ``__init__``; None when nothing can."""
    ctx = analysis.ctx
    seen.add(method.name.value)
    positional = [*method.params.posonly_params, *method.params.params]
    if not positional:
        return "it takes no `self`"
    me = positional[0].name.value
    methods = {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}  # type: ignore[union-attr]
    for node in _attributes_in(method):
        if not (isinstance(node.value, cst.Name) and node.value.value == me):
            continue
        name = node.attr.value
        line = ctx.span(node).start.line
        if name in methods:
            called = methods[name]
            if function_info(ctx, called).method is not MethodKind.INSTANCE or called.decorators:
                return f"`{me}.{name}` (line {line}) is not a plain method"
            if name not in seen:
                found = _changing_read(analysis, cls, called, seen)
                if found is not None:
                    return found
            continue
        attribute = read_attribute(ctx, node)
        if attribute is None:
            return (
                f"`{me}.{name}` (line {line}) may change after `__init__`, and a static `{me}` would keep "
                "the compile made with its old value"
            )
        mutated = next((r for r in attribute.reads if _mutated_in_place(ctx, r)), None)
        if mutated is not None:
            return f"`{ctx.code(ctx.parent(mutated)).strip()}` (line {ctx.span(mutated).start.line}) changes `{me}.{name}` in place"
    return None


def _attributes_in(function: cst.FunctionDef) -> list[cst.Attribute]:
    """Every ``x.name`` written in the function, nested functions included."""
    found: list[cst.Attribute] = []

    class Visitor(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            found.append(node)

    function.body.visit(Visitor())
    return found


def _mutated_in_place(ctx, read: cst.Attribute) -> bool:
    parent = ctx.parent(read)
    if isinstance(parent, cst.Attribute) and parent.value is read and parent.attr.value in MUTATING_METHODS:
        return True
    if isinstance(parent, cst.Subscript) and parent.value is read:
        holder = ctx.parent(parent)
        return isinstance(holder, (cst.AssignTarget, cst.Del, cst.AugAssign))
    return isinstance(parent, cst.AugAssign) and parent.target is read

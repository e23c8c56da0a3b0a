"""JAX201 for an nnx GraphDef handed to a static parameter while its module keeps a list.

``graphdef, state = nnx.split(metrics)`` then ``jax.jit(f, static_argnames=("graphdef",))``:
jit hashes the GraphDef, which holds every attribute of the module that is no nnx data, as it is.
A plain list there (``self._metric_names = []`` filled by ``append`` in ``__init__``: flax's own
``MultiMetric`` before flax#5492) makes it unhashable: "Non-hashable static arguments are not
supported ... unhashable type: 'list'" (docs/flax-nnx-behaviour.md; ``nnx.jit`` splits the module
itself and does not hash the list). The attribute then holds a tuple:

* a list display stored once and never changed becomes a tuple display;
* a list ``__init__`` fills (``append``, ``extend``, ``insert``) is frozen right after the last
  statement of ``__init__`` that fills it: ``self.names = tuple(self.names)``.

Proven where the module shows every use: the class derives from an nnx class and is subclassed
nowhere here (nor used by another module), ``__init__`` is the only method that stores or fills the
attribute, every other ``self.<name>`` reads it as a tuple reads alike (index, iterate, ``len``,
``in``), and nothing stored in it is nnx data (a module, a variable: JAX204's).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.rules.jax201_unhashable_static_arg.instance_fields import class_shared, tuple_read
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import instance_class
from jaxfix.transforms.semantics.constants import single_binding, unpacked_from
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import method_named
from jaxfix.transforms.semantics.reads import first_parameter
from jaxfix.transforms.semantics.static_slots import jitted_call

_SPLIT = "flax.nnx.split"
#: List methods that fill a list in place (what `__init__` may do before the freeze).
_FILLING = frozenset({"append", "extend", "insert"})


def seeds(facts: Facts) -> list[ast.AST]:
    """The module, when it splits an nnx module (the GraphDef may reach a static parameter anywhere)."""
    return [facts.tree] if "split" in facts.text and "nnx" in facts.text else []


def graphdef_list_findings(analysis: Analysis) -> Iterator[Finding]:
    ctx = analysis.ctx
    seen: set[int] = set()
    for call in ctx.calls:
        jitted = jitted_call(ctx, call)
        for slot in jitted.static_slots if jitted is not None else ():
            split = _split_of(ctx, slot.expr)
            if split is None:
                continue
            cls = _nnx_class(ctx, split)
            init = method_named(cls, "__init__") if cls is not None else None
            if cls is None or init is None:
                continue
            for target, value in _list_stores(ctx, init):
                if id(target) in seen:
                    continue
                seen.add(id(target))
                yield _finding(ctx, call, slot.param, jitted.callee_name, cls, init, target, value)  # type: ignore[union-attr]


def _split_of(ctx: ModuleContext, expr: cst.BaseExpression) -> cst.Call | None:
    """``nnx.split(m)`` whose first part `expr` is (``graphdef, state = nnx.split(m)``)."""
    if not isinstance(expr, cst.Name):
        return None
    binding = single_binding(ctx, expr)
    unpacked = unpacked_from(ctx, binding) if isinstance(binding, cst.Name) else None
    if unpacked is None:
        return None
    value, index, _ = unpacked
    if index != 0 or not isinstance(value, cst.Call) or ctx.names.qualified_name(value.func) != _SPLIT or not value.args:
        return None
    return value


def _nnx_class(ctx: ModuleContext, split: cst.Call) -> cst.ClassDef | None:
    """The class of this module the split module is an instance of, when it derives from nnx's."""
    built = instance_class(ctx, split.args[0].value)
    if built is None:
        return None
    cls = built[0]
    bases = [ctx.names.qualified_name(b.value) or "" for b in cls.bases if b.keyword is None]
    return cls if bases and all(b.startswith("flax.nnx.") for b in bases) else None


def _list_stores(ctx: ModuleContext, init: cst.FunctionDef) -> list[tuple[cst.Attribute, cst.List]]:
    """``self.f = [...]`` statements of ``__init__``'s own body."""
    receiver = first_parameter(init)
    found: list[tuple[cst.Attribute, cst.List]] = []
    for line in init.body.body if isinstance(init.body, cst.IndentedBlock) else ():
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)):
            continue
        assign = line.body[0]
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == receiver):
            continue
        if isinstance(assign.value, cst.List):
            found.append((target, assign.value))
        elif _frozen(ctx, assign.value):
            # `self.names = tuple(self.names)` after the list is filled: a tuple from here on
            found = [(t, v) for t, v in found if t.attr.value != target.attr.value]
    return found


def _frozen(ctx: ModuleContext, value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Call) and ctx.names.qualified_name(value.func) == "builtins.tuple"


def _finding(
    ctx: ModuleContext, call: cst.Call, param: str, callee: str, cls: cst.ClassDef, init: cst.FunctionDef,
    target: cst.Attribute, value: cst.List,
) -> Finding:
    name = target.attr.value
    head = (
        f"`{param}` is static on the jit of `{callee}`, so jit hashes the nnx GraphDef the call on line "
        f"{ctx.span(call).start.line} passes, which holds `{cls.name.value}`'s attribute `{name}` as it is; "
        f"`__init__` stores a list there (line {ctx.span(value).start.line}), which Python cannot hash"
    )
    edits = _as_tuple(ctx, cls, init, target, value)
    if isinstance(edits, str):
        return ctx.finding("JAX201", value, f"{head}; not rewritten: {edits}",
                           notes=("option: keep a tuple in the attribute, which indexes, iterates and measures as the list does",))
    return ctx.finding(
        "JAX201",
        value,
        f"{head}; so the attribute holds a tuple, which every read uses as it used the list",
        edits,
        description=f"keep `{name}` as a tuple",
    )


def _as_tuple(
    ctx: ModuleContext, cls: cst.ClassDef, init: cst.FunctionDef, target: cst.Attribute, value: cst.List
) -> tuple[Edit, ...] | str:
    """The edits keeping a tuple in the attribute; else why the module does not show every use."""
    problem = class_shared(ctx, cls)
    if problem is not None:
        return problem
    name = target.attr.value
    receiver = target.value.value  # type: ignore[attr-defined]
    last_fill: cst.CSTNode | None = None
    for node in ctx.attributes_named(name):
        if node is target:
            continue
        method = ctx.enclosing_function(node)
        owner = ctx.parent(ctx.parent(method)) if isinstance(method, cst.FunctionDef) else None
        if owner is not cls or not (isinstance(node.value, cst.Name) and node.value.value == first_parameter(method)):
            return f"`{shorten(ctx.code(node), 40)}` (line {ctx.span(node).start.line}) reads `{name}` outside the methods of `{cls.name.value}`"
        parent = ctx.parent(node)
        outer = ctx.parent(parent)
        if isinstance(parent, cst.Attribute) and parent.attr.value in _FILLING and isinstance(outer, cst.Call) and outer.func is parent:
            if method is not init:
                return f"`{shorten(ctx.code(outer), 40)}` (line {ctx.span(outer).start.line}) fills the list outside `__init__`"
            if any(_nnx_data(ctx, a.value) for a in outer.args):
                return "it holds nnx data (JAX204's: that must be marked as data, not frozen)"
            statement = _init_statement(ctx, init, outer)
            if statement is None:
                return f"the list is filled on line {ctx.span(outer).start.line} outside a statement of `__init__`'s own body"
            if last_fill is None or ctx.start(statement) > ctx.start(last_fill):
                last_fill = statement
            continue
        if method is init and ctx.start(node) < ctx.start(target):
            return f"`{name}` is read in `__init__` before the list is stored"
        read = tuple_read(ctx, node)
        if read is not None:
            return read
        if method is init and last_fill is not None:
            continue  # a read while filling (checked above as a tuple would be read): it sees the list
    if any(_nnx_data(ctx, e.value) for e in value.elements if isinstance(e, cst.Element)):
        return "it holds nnx data (JAX204's: that must be marked as data, not frozen)"
    if last_fill is None:
        if any(not isinstance(e, cst.Element) for e in value.elements):
            return "the list is built with `*`"
        elements = [ctx.code(e.value) for e in value.elements]  # type: ignore[union-attr]
        text = f"({elements[0]},)" if len(elements) == 1 else f"({', '.join(elements)})"
        return (ctx.replace(value, text),)
    reads_after = [
        n for n in ctx.attributes_named(name)
        if ctx.enclosing_function(n) is init and ctx.start(n) > ctx.end(last_fill) and n is not target
    ]
    if reads_after:
        return f"`__init__` reads `{name}` after filling it (line {ctx.span(reads_after[0]).start.line})"
    indent = _indent_of(ctx, last_fill)
    return (_insert_after(ctx, last_fill, f"\n{indent}{receiver}.{name} = tuple({receiver}.{name})"),)


def _init_statement(ctx: ModuleContext, init: cst.FunctionDef, node: cst.CSTNode) -> cst.CSTNode | None:
    """The statement of ``__init__``'s own body that holds `node`."""
    body = init.body
    for ancestor in (node, *ctx.ancestors(node)):
        if ctx.parent(ancestor) is body:
            return ancestor
    return None


def _nnx_data(ctx: ModuleContext, value: cst.BaseExpression) -> bool:
    """A call of a capitalised flax.nnx name (a module, a variable, ``Rngs``): nnx data."""
    if not isinstance(value, cst.Call):
        return False
    qualified = ctx.names.qualified_name(value.func) or ""
    return qualified.startswith("flax.nnx.") and qualified.rsplit(".", 1)[-1][:1].isupper()


def _indent_of(ctx: ModuleContext, statement: cst.CSTNode) -> str:
    line = ctx.text[: ctx.start(statement)].rsplit("\n", 1)[-1]
    return line[: len(line) - len(line.lstrip())]


def _insert_after(ctx: ModuleContext, statement: cst.CSTNode, text: str) -> Edit:
    """`text` at the end of `statement`'s last line (before its line break)."""
    end = ctx.end(statement)
    while end > 0 and ctx.text[end - 1] in "\r\n":
        end -= 1
    return Edit(end, end, text)

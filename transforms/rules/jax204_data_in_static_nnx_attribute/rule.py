"""JAX204: an nnx Module keeps modules (or other nnx data) in a plain list, tuple or dict attribute.

Since Flax 0.12 an nnx ``Module`` is a pytree whose attributes are static
unless they hold data, and a plain ``list``, ``tuple`` or ``dict`` is a
static container: one holding a Module, a Variable or ``Rngs`` fails when
the instance is built ("Found data on value of type list assigned to static
attribute", or "Found unexpected data ... in static attribute" when the
data is appended after the assignment; jasmine#228).
docs/flax-nnx-behaviour.md has the measured table.

The fix marks the container as data where it is assigned:
``self.blocks = nnx.data([])``. ``nnx.data`` hands the container back as it
is (a list stays a list, appends and all), so every other use is unchanged;
``nnx.List`` (the error's other option) is no ``list`` and has no ``+``.
The fix is unsafe: before Flax 0.12 such a list was data already, the
program ran, and ``nnx.data`` may not exist there.

Only what the class shows is data: a call of a capitalised ``flax.nnx``
name (``nnx.Linear(...)``, ``nnx.Rngs(...)``) or of an nnx Module class of
this module, written in the display or comprehension assigned, or appended,
inserted, extended or stored by key into the attribute afterwards, in a
method of the class. An attribute the class annotates itself
(``blocks: nnx.Data[list]``), or a class declared ``pytree=False``, is left
alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import methods, single_binding
from jaxfix.transforms.semantics.module import ModuleContext

CODE = "JAX204"
NNX_BASES = frozenset({"flax.nnx.Module", "flax.nnx.module.Module", "flax.nnx.Pytree", "flax.nnx.Object"})
_EMPTY_MAKERS = frozenset({"builtins.list", "builtins.dict", "builtins.tuple"})
_ADDING_METHODS = frozenset({"append", "insert", "extend", "setdefault", "update"})


class NnxAttributes:
    """One module's JAX204 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self._nnx_memo: dict[cst.ClassDef, bool] = {}

    def findings(self) -> Iterator[Finding]:
        for cls in self.ctx.nodes_of(cst.ClassDef):
            if not self._nnx(cls) or any(a.keyword is not None and a.keyword.value == "pytree" for a in cls.bases):
                continue
            annotated = _annotated_names(cls)
            for method in methods(cls):
                receiver = _receiver(method)
                if receiver is None:
                    continue
                for assign, attr in _stores(method, receiver):
                    if attr in annotated or not self._plain(assign.value):
                        continue  # `nnx.List() if hasattr(nnx, "List") else []` (ott): not surely a plain container
                    data = self._data_in(assign.value) or self._data_added(cls, attr)
                    if data is not None:
                        yield self._finding(cls, assign, attr, data)

    def _nnx(self, cls: cst.ClassDef, depth: int = 0) -> bool:
        """`cls` derives from nnx's Module (or Pytree): directly, or through classes of this module."""
        if cls not in self._nnx_memo:
            self._nnx_memo[cls] = False
            found = False
            for base in cls.bases:
                if base.keyword is not None:
                    continue
                if (self.ctx.names.qualified_name(base.value) or "") in NNX_BASES:
                    found = True
                elif isinstance(base.value, cst.Name) and depth < 8:
                    bound = single_binding(self.ctx, base.value)
                    found = isinstance(bound, cst.ClassDef) and self._nnx(bound, depth + 1)
                if found:
                    break
            self._nnx_memo[cls] = found
        return self._nnx_memo[cls]

    def _plain(self, value: cst.BaseExpression) -> bool:
        """A plain list, tuple, dict or set: a display, a comprehension, or ``list(...)`` and kin
        (``nnx.data(...)``, ``nnx.List(...)``, a conditional expression are not)."""
        if isinstance(value, (cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            return not isinstance(value, cst.GeneratorExp)  # a bare generator is no container
        return isinstance(value, cst.Call) and (self.ctx.names.qualified_name(value.func) or "") in _EMPTY_MAKERS

    def _data(self, expr: cst.BaseExpression) -> cst.Call | None:
        """`expr` is surely nnx data: ``nnx.Linear(...)``, or an instance of an nnx class of this module."""
        if not isinstance(expr, cst.Call):
            return None
        qualified = self.ctx.names.qualified_name(expr.func) or ""
        module, _, name = qualified.rpartition(".")
        if module == "flax.nnx" and name[:1].isupper():
            return expr
        if isinstance(expr.func, cst.Name):
            bound = single_binding(self.ctx, expr.func)
            if isinstance(bound, cst.ClassDef) and self._nnx(bound):
                return expr
        return None

    def _data_in(self, value: cst.BaseExpression) -> cst.Call | None:
        """Data written inside the container assigned: a display's element, a comprehension's item."""
        if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
            return next((d for e in value.elements if not isinstance(e, cst.StarredElement) and (d := self._data(e.value))), None)
        if isinstance(value, cst.Dict):
            return next((d for e in value.elements if isinstance(e, cst.DictElement) and (d := self._data(e.value))), None)
        if isinstance(value, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self._data(value.elt)  # a generator only inside `tuple(...)`
        if isinstance(value, cst.DictComp):
            return self._data(value.value)
        if isinstance(value, cst.Call) and (self.ctx.names.qualified_name(value.func) or "") in _EMPTY_MAKERS:
            if len(value.args) == 1 and not value.args[0].keyword and not value.args[0].star:
                return self._data_in(value.args[0].value)
        return None

    def _data_added(self, cls: cst.ClassDef, attr: str) -> cst.Call | None:
        """Data a method of the class puts into ``self.<attr>`` later: ``.append(Block(...))``,
        ``self.<attr>[k] = nnx.Linear(...)``."""
        for method in methods(cls):
            receiver = _receiver(method)
            if receiver is None:
                continue
            for node in _walk(method.body):
                if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _ADDING_METHODS:
                    if _is_self_attr(node.func.value, receiver, attr):
                        for arg in node.args:
                            found = self._data(arg.value) or self._data_in(arg.value)
                            if found is not None:
                                return found
                elif isinstance(node, cst.Assign):
                    for target in node.targets:
                        if isinstance(target.target, cst.Subscript) and _is_self_attr(target.target.value, receiver, attr):
                            found = self._data(node.value)
                            if found is not None:
                                return found
        return None

    def _finding(self, cls: cst.ClassDef, assign: cst.Assign, attr: str, data: cst.Call) -> Finding:
        ctx = self.ctx
        value = assign.value
        kind = _container(ctx, value)
        line = ctx.span(data).start.line
        head = (
            f"`self.{attr}` of the nnx Module `{cls.name.value}` is a plain {kind} holding "
            f"`{shorten(ctx.code(data), 50)}` (line {line}), nnx data: since Flax 0.12 a plain {kind} is a static "
            "attribute, and a static attribute may hold no data (ValueError when the instance is built)"
        )
        spelled = planner(self.analysis).spell("flax.nnx.data", assign)
        if spelled is None:
            return ctx.finding(CODE, value, f"{head}; not rewritten: no name for `flax.nnx.data` is free here")
        text = f"{spelled.text}({ctx.code(value)})"
        edits = [ctx.replace(value, text)]
        if spelled.edit is not None:
            edits.append(spelled.edit)
        return ctx.finding(
            CODE,
            value,
            f"{head}; `{spelled.text}(...)` marks it as data and hands the {kind} back as it is",
            tuple(edits),
            Applicability.UNSAFE,
            description=f"mark `self.{attr}` as data: `{shorten(text, 60)}`",
            notes=(
                "unsafe: before Flax 0.12 such a container was data already and the program ran, and `nnx.data` "
                "may not exist there",
                f"`nnx.List`/`nnx.Dict` also hold data, but are no `list`/`dict`",
            ),
        )


def _container(ctx: ModuleContext, value: cst.BaseExpression) -> str:
    if isinstance(value, (cst.Dict, cst.DictComp)):
        return "dict"
    if isinstance(value, (cst.Tuple, cst.GeneratorExp)):
        return "tuple"
    if isinstance(value, cst.Call):
        return (ctx.names.qualified_name(value.func) or "builtins.list").rpartition(".")[2]
    return "set" if isinstance(value, (cst.Set, cst.SetComp)) else "list"


def _receiver(method: cst.FunctionDef) -> str | None:
    """The name of an instance method's first parameter (``self``); None for static and class methods."""
    if any(isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod") for d in method.decorators):
        return None
    params = method.params.params or method.params.posonly_params
    return params[0].name.value if params else None


def _is_self_attr(expr: cst.BaseExpression, receiver: str, attr: str) -> bool:
    return (
        isinstance(expr, cst.Attribute)
        and expr.attr.value == attr
        and isinstance(expr.value, cst.Name)
        and expr.value.value == receiver
    )


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under `node`, not entering nested defs and classes (their `self` is another)."""
    stack = list(node.children)
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend(current.children)


def _stores(method: cst.FunctionDef, receiver: str) -> Iterator[tuple[cst.Assign, str]]:
    """``self.<attr> = value`` statements of the method (one target)."""
    for node in _walk(method.body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            target = node.targets[0].target
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == receiver:
                yield node, target.attr.value


def _annotated_names(cls: cst.ClassDef) -> frozenset[str]:
    """Names the class body annotates (``blocks: nnx.Data[list]``): the class says what they are."""
    out: set[str] = set()
    for line in cls.body.body:
        if isinstance(line, cst.SimpleStatementLine):
            out.update(s.target.value for s in line.body if isinstance(s, cst.AnnAssign) and isinstance(s.target, cst.Name))
    return frozenset(out)


class DataInStaticNnxAttribute204(Rule):
    """An nnx Module keeps modules in a plain list, tuple or dict attribute, static since Flax 0.12.

    Since Flax 0.12 a plain container attribute of an nnx Module is static,
    and a static attribute may not hold data (Modules, Variables, Rngs)::

        class STTransformer(nnx.Module):
            def __init__(self, num_blocks, rngs):
                self.blocks = []
                for _ in range(num_blocks):
                    self.blocks.append(STBlock(rngs=rngs))
        # ValueError: Found unexpected data on value of type <class 'list'> in static
        # attribute 'blocks' of Pytree type ... This is an error starting from Flax version 0.12.0.

    ``nnx.data`` marks the container as data, and hands it back unchanged::

                self.blocks = nnx.data([])

    Unsafe: before Flax 0.12 the program ran as written. Valid: a list of
    Python numbers (static, as it should be), ``nnx.List``/``nnx.Dict``, an
    attribute the class annotates, a class declared ``pytree=False``.
    """

    code = CODE
    name = "data-in-static-nnx-attribute"
    summary = "an nnx Module keeps modules in a plain list, tuple or dict attribute (static since Flax 0.12): mark it nnx.data"
    required = (("nnx",), ("Module", "Pytree", "Object"))
    fix_class = Applicability.UNSAFE

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The classes of the module (their bases decide)."""
        return [node for node in facts.nodes if isinstance(node, ast.ClassDef) and node.bases]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return NnxAttributes(analysis).findings()

"""Where a value given to a static parameter was built.

Followed back from the argument of the call, through names bound once
(``cfg = CONFIG``, ``CONFIG = {...}``), to one of:

* LITERAL: a container written out in this module (`literal_config`), that
  freezing would change or that holds an array;
* RUNTIME: a container built at run time, with the evidence that it is one:
  loaded by ``json``/``yaml``/``tomllib``, ``vars(args)``, ``dict(...)`` of
  other values, a comprehension, ``sorted(...)``, a function of this module
  whose every ``return`` writes one out;
* ARRAY: an array (a ``jnp``/``np`` call, or a name bound to one);
* NAMESPACE: ``parser.parse_args()``, an ``argparse.Namespace``;
* INSTANCE: an instance of a class this module defines that Python cannot
  hash (a plain ``@dataclass``, a class with ``__eq__`` and no ``__hash__``);
* REBOUND: a name bound more than once where one binding builds a container
  (or changes it by augmented assignment);
* NONE: hashable already, or nothing says it is not (a parameter, an
  unknown call): no finding, since there is no evidence.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment

from jaxfix.transforms.semantics.class_hashing import class_hashing, instance_class, unhashable_why
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.hashability import Kind, ValueClassifier
from jaxfix.transforms.semantics.literals import Container, LiteralReader
from jaxfix.transforms.semantics.module import ModuleContext

#: Loaders whose result is plain data (dicts, lists, strings, numbers): a deep freeze is exact.
PLAIN_LOADERS = {
    "json.load": "",
    "json.loads": "",
    "yaml.safe_load": "",
    "tomllib.load": "dict",
    "tomllib.loads": "dict",
    "toml.load": "dict",
    "toml.loads": "dict",
}
#: Builders of a container from values we do not see.
_RUNTIME_BUILDERS = {"builtins.dict": "dict", "builtins.list": "list", "builtins.set": "set", "builtins.sorted": "list"}
_COMPREHENSIONS = {cst.ListComp: "list", cst.SetComp: "set", cst.DictComp: "dict"}


class OriginKind(enum.Enum):
    LITERAL = "literal"
    RUNTIME = "runtime"
    ARRAY = "array"
    NAMESPACE = "namespace"
    INSTANCE = "instance"
    REBOUND = "rebound"
    NONE = "none"


@dataclass(frozen=True)
class Origin:
    kind: OriginKind
    #: The literal container, the run-time expression, or the array expression.
    node: cst.BaseExpression | None = None
    #: The names followed from the call to the origin, nearest the call first.
    names: tuple[cst.Name, ...] = ()
    #: Why, for messages: "loaded by `json.loads`", "bound to `jnp.ones(3)`".
    reason: str = ""
    #: RUNTIME: "dict", "list", "set", or "" when the loader may give either.
    container: str = ""
    #: RUNTIME: its contents are plain data, so a deep freeze changes nothing else.
    plain: bool = False
    #: LITERAL: the tree read from the source.
    tree: Container | None = None
    #: INSTANCE: the class.
    cls: cst.ClassDef | None = None

    @property
    def binding(self) -> cst.Name | None:
        """The name the origin is bound to (the last one followed)."""
        return self.names[-1] if self.names else None


NONE = Origin(OriginKind.NONE)


class OriginTracer:
    """`passed`, when given, says what every call passes a parameter (`arguments.passed_to`): a
    parameter of a function called once is followed to what that call passes (a wrapper that
    forwards its argument to the jitted function)."""

    def __init__(
        self,
        ctx: ModuleContext,
        values: ValueClassifier,
        literals: LiteralReader,
        passed: Callable[[cst.Param], list[cst.BaseExpression] | None] | None = None,
    ) -> None:
        self.ctx = ctx
        self.values = values
        self.literals = literals
        self.passed = passed

    def trace(self, expr: cst.BaseExpression, names: tuple[cst.Name, ...] = ()) -> Origin:
        if len(names) > 4:
            return NONE
        tree = self.literals.read(expr)
        if tree is not None:
            bad_leaf = any(leaf.value.kind in (Kind.ARRAY, Kind.MUTABLE) for leaf in tree.leaves())
            if tree.needs_freezing or bad_leaf:
                return Origin(OriginKind.LITERAL, expr, names, tree=tree)
            return NONE
        if isinstance(expr, cst.Name):
            return self._name(expr, names)
        if type(expr) in _COMPREHENSIONS:
            return Origin(OriginKind.RUNTIME, expr, names, "built by a comprehension", _COMPREHENSIONS[type(expr)])
        if isinstance(expr, cst.Call):
            return self._call(expr, names)
        value = self.values.classify(expr)
        if value.kind is Kind.ARRAY:
            return Origin(OriginKind.ARRAY, expr, names, value.reason)
        return NONE

    def _name(self, name: cst.Name, names: tuple[cst.Name, ...]) -> Origin:
        binding = single_binding(self.ctx, name)
        if binding is None:
            return self._rebound(name, names)
        if isinstance(binding, cst.Param) and self.passed is not None:
            passed = self.passed(binding)
            if passed is not None and len(passed) == 1 and passed[0] is not binding.default:
                return self.trace(passed[0], (*names, binding.name))
            return NONE
        if not isinstance(binding, cst.Name):
            return NONE
        value = assigned_value(self.ctx, binding)
        if value is None:
            kind = self.values.classify(name)
            return Origin(OriginKind.ARRAY, name, (*names, binding), kind.reason) if kind.kind is Kind.ARRAY else NONE
        return self.trace(value, (*names, binding))

    def _rebound(self, name: cst.Name, names: tuple[cst.Name, ...]) -> Origin:
        """Bound several times: worth a report only if some binding builds a container."""
        scope = self.ctx.scope(name)
        if scope is None:
            return NONE
        # In source order: a scope's bindings are a set, and the message names the first container.
        assignments = sorted((a for a in scope[name.value] if isinstance(a, Assignment)), key=lambda a: self.ctx.start(a.node))
        literals = [
            tree
            for a in assignments
            if isinstance(a.node, cst.Name)
            and (value := assigned_value(self.ctx, a.node)) is not None
            and (tree := self.literals.read(value)) is not None
            and tree.needs_freezing
        ]
        if not literals:
            return NONE
        container = literals[0].kind
        for assignment in assignments:
            parent = self.ctx.parent(assignment.node)
            if isinstance(parent, cst.AugAssign):
                line = self.ctx.span(parent).start.line
                reason = f"it is changed after it is built: `{self.ctx.code(parent).strip()}` changes it in place (line {line})"
                return Origin(OriginKind.REBOUND, name, names, reason, container)
        lines = ", ".join(str(n) for n in sorted({self.ctx.span(a.node).start.line for a in assignments}))
        return Origin(
            OriginKind.REBOUND, name, names, f"`{name.value}` is bound more than once (lines {lines})", container
        )

    def _call(self, call: cst.Call, names: tuple[cst.Name, ...]) -> Origin:
        ctx = self.ctx
        qualified = ctx.names.qualified_name(call.func) or ""
        if self.values.is_array_call(call):
            return Origin(OriginKind.ARRAY, call, names, f"`{ctx.code(call.func)}(...)` returns an array")
        if qualified in PLAIN_LOADERS:
            return Origin(
                OriginKind.RUNTIME,
                call,
                names,
                f"loaded by `{ctx.code(call.func)}`",
                PLAIN_LOADERS[qualified],
                plain=True,
            )
        if qualified == "builtins.vars":
            return Origin(OriginKind.RUNTIME, call, names, "a dict from `vars(...)`", "dict", plain=True)
        if qualified in _RUNTIME_BUILDERS:
            return Origin(
                OriginKind.RUNTIME,
                call,
                names,
                f"built by `{ctx.code(call.func)}(...)` at run time",
                _RUNTIME_BUILDERS[qualified],
            )
        if qualified in ("copy.copy", "copy.deepcopy") and len(call.args) == 1 and not call.args[0].star:
            inner = self.trace(call.args[0].value, names)
            if inner.kind in (OriginKind.LITERAL, OriginKind.RUNTIME):
                container = inner.tree.kind if inner.tree is not None else inner.container
                return Origin(OriginKind.RUNTIME, call, names, f"a copy made by `{ctx.code(call.func)}`", container)
            return NONE
        if self._parse_args(call):
            return Origin(OriginKind.NAMESPACE, call, names, "an `argparse.Namespace` from `parse_args()`")
        instance = instance_class(ctx, call)
        if instance is not None:
            cls = instance[0]
            if class_hashing(ctx, cls) is None:
                why = unhashable_why(cls)
                return Origin(OriginKind.INSTANCE, call, names, f"a `{cls.name.value}`, {why}", cls=cls)
            return NONE
        return self._returned(call, names)

    def _parse_args(self, call: cst.Call) -> bool:
        func = call.func
        if not (
            isinstance(func, cst.Attribute) and func.attr.value == "parse_args" and isinstance(func.value, cst.Name)
        ):
            return False
        value = assigned_value(self.ctx, b) if isinstance(b := single_binding(self.ctx, func.value), cst.Name) else None
        return isinstance(value, cst.Call) and self.ctx.names.qualified_name(value.func) == "argparse.ArgumentParser"

    def _returned(self, call: cst.Call, names: tuple[cst.Name, ...]) -> Origin:
        """A call of a plain function of this module whose every return writes out a container."""
        if not isinstance(call.func, cst.Name):
            return NONE
        function = single_binding(self.ctx, call.func)
        if not isinstance(function, cst.FunctionDef) or function.decorators:
            return NONE
        returns = _returns(function)
        if not returns or any(r.value is None for r in returns):
            return NONE
        trees = [self.literals.read(r.value) for r in returns]  # type: ignore[arg-type]
        if any(t is None or t.kind not in ("dict", "list", "set") for t in trees):
            return NONE
        leaves = [leaf for t in trees for leaf in t.leaves()]  # type: ignore[union-attr]
        array = next((leaf for leaf in leaves if leaf.value.kind is Kind.ARRAY), None)
        if array is not None:
            return Origin(
                OriginKind.ARRAY,
                call,
                names,
                f"`{call.func.value}()` returns a container holding an array: {array.value.reason}",
            )
        kinds = {t.kind for t in trees}  # type: ignore[union-attr]
        plain = all(leaf.value.kind is Kind.PLAIN for leaf in leaves)
        return Origin(
            OriginKind.RUNTIME,
            call,
            names,
            f"returned by `{call.func.value}()`",
            kinds.pop() if len(kinds) == 1 else "",
            plain,
        )


def _returns(function: cst.FunctionDef) -> list[cst.Return]:
    """The return statements of `function` itself (not of functions nested in it)."""
    found: list[cst.Return] = []

    class Visitor(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

    function.visit(Visitor())
    return found

"""Where a value given to a static parameter was built.

Followed back from the argument of the call, through names bound once
(``cfg = CONFIG``, ``CONFIG = {...}``) and attributes set once in ``__init__``
(``self.config``, `instance_attributes`), to one of:

* LITERAL: a container written out in this module (`literal_config`), that
  freezing would change or that holds an array;
* RUNTIME: a container built at run time, with the evidence that it is one:
  loaded by ``json``/``yaml``/``tomllib``, ``vars(args)``, ``dict(...)`` of
  other values, a comprehension, ``sorted(...)``, a function of this module
  whose every ``return`` writes one out;
* ARRAY: an array (a ``jnp``/``np`` call, or a name bound to one), or a tree
  whose every leaf is one (``tree_map(np.asarray, batch)``);
* NAMESPACE: ``parser.parse_args()``, ``argparse.Namespace(...)``, ``types.SimpleNamespace(...)``;
* INSTANCE: an instance of a class this module defines that Python cannot
  hash (a plain ``@dataclass``, a class with ``__eq__`` and no ``__hash__``);
  an instance of a frozen dataclass hashes its fields, so a container written
  out as one of them is that field's LITERAL, with the `holder` named;
* REBOUND: a name bound more than once where one binding builds a container
  (or changes it by augmented assignment);
* NONE: hashable already, or nothing says it is not (a parameter, an
  unknown call): no finding, since there is no evidence.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace

import libcst as cst
from libcst.metadata import Assignment

from jaxfix.transforms.semantics.callables import plain_def, resolve_callable
from jaxfix.transforms.semantics.class_hashing import (
    class_hashing,
    hashed_fields,
    instance_class,
    unhashable_why,
)
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    dominating_binding,
    every_binding,
    literal_element,
    own_returns,
    parameterless_module_def,
    reaching_binding,
    single_binding,
    unpacked_from,
    written_out,
)
from jaxfix.transforms.semantics.hashability import Kind, ValueClassifier
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.literals import Container, Leaf, LiteralReader
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.namespace_types import NAMESPACES
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.vocabulary import ARRAY_CONVERTERS, LIBRARY_LINEN_MODULES, TREE_MAPS

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
    #: RUNTIME: "dict", "list", "set", or "" when the loader may give either; ARRAY: "tree" for a
    #: tree whose every leaf is an array.
    container: str = ""
    #: RUNTIME: its contents are plain data, so a deep freeze changes nothing else.
    plain: bool = False
    #: RUNTIME: built from literals holding no container, only plain data (``{"rows": 10}``
    #: returned by a helper): a shallow freeze makes it hashable and leaves every part as it was.
    flat: bool = False
    #: LITERAL: the tree read from the source.
    tree: Container | None = None
    #: INSTANCE: the class.
    cls: cst.ClassDef | None = None
    #: LITERAL given to a library's class (`LIBRARY_LINEN_MODULES`), whose reads of it are not seen.
    library: bool = False
    #: LITERAL written as a field of a frozen dataclass: "a `Config` whose field `sizes` is";
    #: ARRAY held by one: "a `Config` whose field `w` is an array".
    holder: str = ""

    @property
    def binding(self) -> cst.Name | None:
        """The name the origin is bound to (the last one followed)."""
        return self.names[-1] if self.names else None


NONE = Origin(OriginKind.NONE)


def _flat(tree: Container) -> bool:
    """Every entry of the container is a leaf: it holds no container of its own."""
    return all(isinstance(child, Leaf) for _, child in tree.entries)


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
        if isinstance(expr, cst.Attribute):
            attribute = read_attribute(self.ctx, expr)
            if attribute is not None and not isinstance(attribute.value, cst.Attribute):
                # Followed from where `__init__` builds it, so every read of it is checked.
                return self.trace(attribute.value)
        value = self.values.classify(expr)
        if value.kind is Kind.ARRAY:
            return Origin(OriginKind.ARRAY, expr, names, value.reason)
        return NONE

    def _name(self, name: cst.Name, names: tuple[cst.Name, ...]) -> Origin:
        binding = single_binding(self.ctx, name) or self._reaching(name)
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
        if value is None and (returned := self._returned_element(binding)) is not None:
            return self._unpacked(name, binding, *returned, names)
        if value is None:
            kind = self.values.classify(name)
            return Origin(OriginKind.ARRAY, name, (*names, binding), kind.reason) if kind.kind is Kind.ARRAY else NONE
        return self.trace(value, (*names, binding))

    def _returned_element(self, binding: cst.Name) -> tuple[cst.Call, cst.BaseExpression] | None:
        """``a, b = helper(...)``: (the call, the element of the tuple the helper's one ``return``
        writes out at the name's place) (`constants.returned_element`, static methods too:
        ``Model.init(...)``)."""
        found = unpacked_from(self.ctx, binding)
        helper = self._plain_function(found[0].func) if found is not None else None
        returns = own_returns(helper) if helper is not None else []
        if found is None or len(returns) != 1 or returns[0].value is None:
            return None
        element = literal_element(returns[0].value, found[1], found[2])
        return (found[0], element) if element is not None else None

    def _unpacked(
        self, name: cst.Name, binding: cst.Name, call: cst.Call, element: cst.BaseExpression, names: tuple[cst.Name, ...]
    ) -> Origin:
        """``params, memory = init_strategy(...)`` (evosax): what the helper returns in that place.
        The container is built in the helper, for every caller: freezing it there would change
        what the others get, so a literal is said to be built at run time (`returned by ...`),
        kept as a literal only to report an array it holds."""
        inner = self.trace(element, (*names, binding))
        if inner.kind is not OriginKind.LITERAL or inner.tree is None:
            return inner if inner.kind in (OriginKind.ARRAY, OriginKind.RUNTIME, OriginKind.NAMESPACE) else NONE
        if any(leaf.value.kind is Kind.ARRAY for leaf in inner.tree.leaves()):
            return inner
        plain = all(leaf.value.kind is Kind.PLAIN for leaf in inner.tree.leaves())
        return Origin(
            OriginKind.RUNTIME, name, (*names, binding), f"returned by `{self.ctx.code(call.func)}()`", inner.tree.kind, plain,
            flat=plain and _flat(inner.tree),
        )

    def _reaching(self, name: cst.Name) -> cst.CSTNode | None:
        """The binding a read sees in straight-line code (`reaching_binding`), when no binding of
        the name is an augmented assignment (which changes the container in place)."""
        binding = reaching_binding(self.ctx, name)
        if not isinstance(binding, cst.Name):
            return None
        for other in every_binding(self.ctx, name) or ():
            if isinstance(self.ctx.parent(other), cst.AugAssign):
                return None
        return binding

    def _rebound(self, name: cst.Name, names: tuple[cst.Name, ...]) -> Origin:
        """Bound several times: worth a report only if some binding builds a container."""
        scope = self.ctx.scope(name)
        if scope is None:
            return NONE
        last = dominating_binding(self.ctx, name)
        value = assigned_value(self.ctx, last) if last is not None else None
        if isinstance(value, cst.Call) and (namespace := self._call(value, (*names, last))).kind is OriginKind.NAMESPACE:
            return namespace  # `args = dict(...)` then `args = Namespace(**args)`: the last one reaches the use
        # In source order: a scope's bindings are a set, and the message names the first container.
        assignments = sorted((a for a in scope[name.value] if isinstance(a, Assignment)), key=lambda a: self.ctx.start(a.node))
        literals = [
            tree
            for a in assignments
            if isinstance(a.node, cst.Name)
            and (value := assigned_value(self.ctx, a.node)) is not None
            and (tree := self.literals.read(written_out(self.ctx, value))) is not None
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
        if self._maps_to_arrays(call):
            return Origin(
                OriginKind.ARRAY,
                call,
                names,
                f"`{ctx.code(call.func)}({ctx.code(call.args[0].value)}, ...)` makes every leaf an array",
                container="tree",
            )
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
        if qualified in NAMESPACES:
            return Origin(OriginKind.NAMESPACE, call, names, NAMESPACES[qualified])
        instance = instance_class(ctx, call)
        if instance is not None:
            cls, built = instance  # `built` is `Model(...)` itself, here or in the helper returning it
            if class_hashing(ctx, cls) is None:
                why = unhashable_why(cls)
                return Origin(OriginKind.INSTANCE, call, names, f"a `{cls.name.value}`, {why}", cls=cls)
            return self._field(built, cls)
        if qualified in LIBRARY_LINEN_MODULES:
            return self._library_field(call, qualified.rpartition(".")[2])
        return self._returned(call, names)

    def _library_field(self, call: cst.Call, name: str) -> Origin:
        """A flax linen Module of the library built with a container literal (``nnx.bridge.ToLinen(...,
        kwargs={...})``): linen hashes a module by its fields, and fails on that one ("Failed to hash
        Flax Module"). The one literal argument is the origin; what the library does with it is not
        seen."""
        found = [(a, self.trace(a.value)) for a in call.args if not a.star]
        literals = [(a, o) for a, o in found if o.kind is OriginKind.LITERAL]
        if len(literals) != 1 or any(a.star for a in call.args):
            return NONE
        arg, origin = literals[0]
        field = arg.keyword.value if arg.keyword is not None else f"#{call.args.index(arg)}"
        return replace(origin, holder=f"a `{name}` (a flax linen Module) whose field `{field}` is", library=True)

    def _field(self, call: cst.Call, cls: cst.ClassDef) -> Origin:
        """An instance of a frozen dataclass hashes each field: one written out as a container
        that cannot hash is the origin (followed on its own, from the constructor's argument),
        when every other field, given or left to its default, is surely hashable."""
        fields = hashed_fields(self.ctx, cls)
        if fields is None or any(arg.star for arg in call.args):
            return NONE
        names = list(fields)
        given: dict[str, cst.BaseExpression] = {}
        for position, arg in enumerate(call.args):
            field = arg.keyword.value if arg.keyword is not None else (names[position] if position < len(names) else None)
            if field not in fields or field in given:
                return NONE
            given[field] = arg.value
        found: list[tuple[str, Origin]] = []
        for field, default in fields.items():
            value = given.get(field, default)
            if value is None:
                return NONE  # a required field left out: the call fails before any hashing
            origin = self.trace(value) if field in given else NONE
            holder = f"a `{cls.name.value}` whose field `{field}` is"
            kind = self.values.classify(value)
            if origin.kind is OriginKind.ARRAY or kind.kind is Kind.ARRAY:
                # No freeze helps an array: a report, whatever the other fields hold.
                reason = origin.reason if origin.kind is OriginKind.ARRAY else kind.reason
                return Origin(OriginKind.ARRAY, value, reason=reason, holder=f"{holder} an array")
            if origin.kind is OriginKind.LITERAL:
                found.append((field, origin))
            elif kind.kind not in (Kind.PLAIN, Kind.OBJECT):
                return NONE  # it may not hash either, and freezing the one field would not be enough
        if len(found) != 1:
            return NONE  # one fix per finding: several unhashable fields are left for now
        field, origin = found[0]
        return replace(origin, holder=f"a `{cls.name.value}` whose field `{field}` is")

    def _maps_to_arrays(self, call: cst.Call) -> bool:
        """``tree_map(np.asarray, batch)``: a tree (a dict, a list) whose every leaf the mapped
        array constructor makes an array; no freeze makes it hashable."""
        first = call.args[0] if call.args else None
        if first is None or first.keyword is not None or first.star or len(call.args) < 2:
            return False
        names = self.ctx.names
        return names.qualified_name(call.func) in TREE_MAPS and names.qualified_name(first.value) in ARRAY_CONVERTERS

    def _parse_args(self, call: cst.Call) -> bool:
        func = call.func
        if not (
            isinstance(func, cst.Attribute) and func.attr.value == "parse_args" and isinstance(func.value, cst.Name)
        ):
            return False
        value = assigned_value(self.ctx, b) if isinstance(b := single_binding(self.ctx, func.value), cst.Name) else None
        return isinstance(value, cst.Call) and self.ctx.names.qualified_name(value.func) == "argparse.ArgumentParser"

    def _plain_function(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        """The undecorated def a name calls, the static method ``Model.f`` calls, or the
        undecorated method ``self.f`` (an instance's) calls."""
        found = plain_def(self.ctx, func)
        if found is not None or not isinstance(func, cst.Attribute):
            return found
        target = resolve_callable(self.ctx, func)
        node = target.function.node if target is not None and target.jit is None and target.implicit_self else None
        return node if isinstance(node, cst.FunctionDef) and not node.decorators else None

    def _only_call(self, function: cst.FunctionDef, call: cst.Call) -> bool:
        """`call` is the one use of `function`, a module-level def of no parameters that no other
        module imports: what it returns goes nowhere else."""
        from jaxfix.transforms.semantics.importers import here, used_elsewhere  # (importers reads analyses)

        if not parameterless_module_def(self.ctx, function) or reads(self.ctx, function.name) != [call.func]:
            return False
        return not used_elsewhere(self.ctx, here(self.ctx, function.name.value))

    def _returned(self, call: cst.Call, names: tuple[cst.Name, ...]) -> Origin:
        """A call of a plain function of this module whose every return writes out a container."""
        function = self._plain_function(call.func)
        if function is None:
            return NONE
        returns = own_returns(function)
        if not returns or any(r.value is None for r in returns):
            return NONE
        if len(returns) == 1 and isinstance(returns[0].value, cst.Call):
            # A helper that builds the config: `return Config(sizes={...})`, hashable or not.
            returned = returns[0].value
            instance = instance_class(self.ctx, returned)
            if instance is not None:
                return self._call(returned, names)
            if self._parse_args(returned) or self.ctx.names.qualified_name(returned.func) in NAMESPACES:
                return self._call(returned, names)  # `return argparse.Namespace(**options)`
            if self._maps_to_arrays(returned):
                return self._call(returned, names)  # `return jax.tree_util.tree_map(np.asarray, item)`
        if len(returns) == 1 and isinstance(returns[0].value, cst.Name):
            # `model_kwargs = dict(...)` ... `return model_kwargs`: where the returned name was built.
            inner = self.trace(returns[0].value, names)
            kept = (OriginKind.LITERAL, OriginKind.RUNTIME, OriginKind.ARRAY, OriginKind.NAMESPACE)
            return inner if inner.kind in kept else NONE
        if len(returns) == 1 and self._only_call(function, call):
            # `CONFIG = make_config()`, the helper's one call: the display it returns is built for
            # this caller alone, so it is frozen where it is written, as a module-level literal is
            inner = self.trace(returns[0].value, names)  # type: ignore[arg-type]
            if inner.kind is OriginKind.LITERAL:
                return inner
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
                f"`{self.ctx.code(call.func)}()` returns a container holding an array: {array.value.reason}",
            )
        kinds = {t.kind for t in trees}  # type: ignore[union-attr]
        plain = all(leaf.value.kind is Kind.PLAIN for leaf in leaves)
        return Origin(
            OriginKind.RUNTIME,
            call,
            names,
            f"returned by `{self.ctx.code(call.func)}()`",
            kinds.pop() if len(kinds) == 1 else "",
            plain,
            flat=plain and all(_flat(t) for t in trees),  # type: ignore[arg-type]
        )

"""Does any code that sees a frozen value notice that it was frozen?

Starting from a name (a config's binding, or a jitted function's static
parameter), follow every use of the value and of the parts that freezing
changes (`shapes`). A use is fine when it reads and cannot tell a dict from
a frozen mapping or a list from a tuple: ``config["lr"]``, ``config.get(k)``,
iteration, ``len``, ``in``, truth tests, ``**config``, building a new list or
dict from it. The value is followed into assignments (``layers =
config["layers"]``), loops, and calls of functions of this module, static
parameters of jitted functions included. Anything else is a problem:

* mutated: item assignment, ``del``, augmented assignment, ``update``,
  ``append``, ``pop`` and the other mutating methods;
* handed to code we cannot see (another module's function, a traced
  parameter), which may need it mutable;
* type-sensitive: a comparison, ``isinstance``, ``print``, an f-string;
  these would run and silently see something else, the worst outcome
  (except ``isinstance(seq, int)`` of a list against classes no list or tuple
  is: False both ways, and the body of such an ``if`` never sees the value);
* anything else we cannot follow.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment, ClassScope, GlobalScope

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.rules.jax201_unhashable_static_arg.freeze_shapes import (
    LEAF,
    MAYBE,
    METHOD,
    NAMESPACE,
    Shape,
    copied_mapping,
    instance,
    items_view,
    new_sequence,
    view,
)
from jaxfix.transforms.semantics.call_binding import bind_arguments
from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.class_hashing import hashed_fields, instance_class, subclass_of
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value, reaching_binding
from jaxfix.transforms.semantics.hashability import Kind, ValueClassifier
from jaxfix.transforms.semantics.instance_attributes import receiver_reads, stored_attribute
from jaxfix.transforms.semantics.literals import UNKNOWN_KEY
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.pmap_statics import broadcast_slot
from jaxfix.transforms.semantics.static_values import Kind as Static
from jaxfix.transforms.semantics.static_values import StaticnessChecker
from jaxfix.transforms.semantics.vocabulary import MUTATING_METHODS, PARTIAL

#: Builtins that read their argument without caring whether it is frozen: the result is a plain value.
_READERS = frozenset({"len", "bool"})
#: Builtins that read the elements in any order: fine when the elements themselves do not change.
_ORDER_FREE_READERS = frozenset({"any", "all", "min", "max", "sorted", "set", "frozenset"})
#: Builtins that read the elements in order (a float sum rounds by order).
_ELEMENT_READERS = frozenset({"sum"})
#: Builtins that build a new container from the elements, in order.
_REBUILDERS = frozenset({"list", "tuple", "reversed", "iter", "enumerate", "dict"})
#: Builtins whose result shows the type or the repr.
_TYPE_SENSITIVE = frozenset(
    {"isinstance", "type", "repr", "str", "print", "format", "id", "hash", "vars", "issubclass", "ascii"}
)
#: Builtin classes no list and no tuple is an instance of: ``isinstance(seq, int)`` gives False
#: before and after a list is frozen into a tuple.
_UNRELATED_TO_SEQUENCES = frozenset(
    {"int", "float", "complex", "bool", "str", "bytes", "bytearray", "dict", "set", "frozenset", "slice", "range", "type"}
)
#: Modules whose functions read a sequence as data (values, a shape, axes) and return arrays: a tuple
#: reads as the list did. Not jax.lax or jax.tree_util: those keep a pytree's container type.
_SEQUENCE_READERS = ("jax.numpy.", "numpy.", "jax.random.", "jax.nn.", "jax.scipy.", "jax.image.")
#: Array methods that take a shape, axes or indices as a sequence: a tuple reads as the list did.
#: Ways a method reads an instance's fields without naming them as ``self.<field>``.
_WHOLESALE_READS = ("getattr(", "vars(", "__dict__", "asdict(", "astuple(", "fields(", "replace(")
_ARRAY_METHODS = frozenset(
    {
        "reshape",
        "transpose",
        "broadcast_to",
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "std",
        "var",
        "any",
        "all",
        "squeeze",
        "take",
    }
)

_MAX_CALL_DEPTH = 6


class Problem(enum.Enum):
    MUTATED = "mutated"
    ESCAPES = "escapes"
    TYPE_SENSITIVE = "type-sensitive"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Use:
    """A use that would notice the freeze."""

    problem: Problem
    node: cst.CSTNode
    what: str  # "`CONFIG['lr'] = 0.2` assigns an item"
    #: The call, in the scope the value was followed from, through which the value got there.
    via: cst.Call | None = None
    #: In another module of the project: `what` says where, `node` is this module's name it imports.
    elsewhere: bool = False


class UseChecker:
    """Follows one frozen value through a module; collects the uses that would notice."""

    def __init__(self, ctx: ModuleContext, values: ValueClassifier, staticness: StaticnessChecker) -> None:
        self.ctx = ctx
        self.values = values
        self.staticness = staticness
        self.problems: list[Use] = []
        self._seen: set[tuple[cst.CSTNode, Shape]] = set()
        self._via: list[cst.Call] = []

    # -- entry points ---------------------------------------------------------
    def follow_binding(self, target: cst.CSTNode, shape: Shape, depth: int = 0) -> None:
        """Every use of the name bound at `target` (a Name target or a Param)."""
        if (target, shape) in self._seen:
            return
        self._seen.add((target, shape))
        name = target.name.value if isinstance(target, cst.Param) else target.value  # type: ignore[attr-defined]
        scope = self.ctx.scope(target)
        if scope is None:
            self._problem(Problem.UNKNOWN, target, f"`{name}` is bound where jaxfix cannot see its uses")
            return
        for assignment in scope.assignments[name]:
            if isinstance(assignment, Assignment) and assignment.node is target:
                # libcst lists every read of the name for each of its bindings: a read shown to see
                # another binding (``options = Options(**options)`` then ``options.cdtype``) is not this value's
                references = [
                    a for a in assignment.references
                    if not isinstance(a.node, cst.Name) or reaching_binding(self.ctx, a.node) in (None, target)
                ]
                reads = {access.node for access in references}
                for access in references:
                    if not self._tested_away(access.node, reads, shape):
                        self.follow(access.node, shape, depth)  # type: ignore[arg-type]
                if isinstance(scope, GlobalScope):
                    self.follow_importers(target, name, shape, depth)
                return
        self._problem(Problem.UNKNOWN, target, f"the uses of `{name}` cannot be found")

    def follow_importers(self, target: cst.CSTNode, name: str, shape: Shape, depth: int) -> None:
        """A module-level name: other modules of the project may import it and use
        the value too; each is followed with its own analysis, reported at `target`."""
        from jaxfix.transforms.semantics.importers import here, uses_elsewhere

        definition = here(self.ctx, name)
        if definition is None:
            return
        if depth >= _MAX_CALL_DEPTH:
            self._problem(Problem.UNKNOWN, target, f"`{name}` is imported along a chain too long to follow")
            return
        for uses in uses_elsewhere(self.ctx, definition):
            if uses.hidden:
                self._problem(Problem.UNKNOWN, target, uses.hidden)
                continue
            other = uses.analysis
            inner = UseChecker(other.ctx, ValueClassifier(other.ctx), other.staticness)  # type: ignore[union-attr]
            for node in uses.nodes:
                inner.follow(node, shape, depth + 1)
            for use in inner.problems:
                what = f"in `{uses.module.name}` (line {uses.line(use.node)}), {use.what}"
                self.problems.append(Use(use.problem, target, what, elsewhere=True))

    def follow(self, expr: cst.CSTNode, shape: Shape, depth: int = 0) -> None:
        """Check the context that uses `expr`, whose value has `shape`."""
        if not shape.changed:
            return
        parent = self.ctx.parent(expr)
        if parent is None:
            return
        if shape.kind == "maybe":
            self._maybe(parent, expr, depth)
            return
        if shape.kind == "namespace":
            self._namespace(parent, expr, depth)
            return
        handler = getattr(self, f"_in_{type(parent).__name__}", None)
        if handler is None:
            self._problem(Problem.UNKNOWN, parent, f"`{self._code(parent)}` uses it in a way jaxfix cannot follow")
            return
        handler(parent, expr, shape, depth)

    # -- contexts -----------------------------------------------------------------
    def _in_Subscript(self, node: cst.Subscript, expr, shape: Shape, depth: int) -> None:
        if node.value is not expr:
            self._problem(Problem.UNKNOWN, node, f"`{self._code(node)}` uses it as an index")
            return
        if self._stored(node):
            if not shape.fresh:
                self._problem(Problem.MUTATED, node, f"`{self._statement(node)}` changes an item")
            return
        self.follow(node, self._subscripted(node, shape), depth)

    def _subscripted(self, node: cst.Subscript, shape: Shape) -> Shape:
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = constant_value(self.ctx, node.slice[0].slice.value)
            return shape.child(UNKNOWN_KEY if key is NOT_CONSTANT else key)
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice) and shape.kind == "sequence":
            return shape
        return shape.child()

    def _in_Attribute(self, node: cst.Attribute, expr, shape: Shape, depth: int) -> None:
        if shape.kind == "instance":
            self._instance_attribute(node, shape, depth)
            return
        method = node.attr.value
        if method in MUTATING_METHODS:
            if not shape.fresh:
                self._problem(Problem.MUTATED, node, f"`{self._statement(node)}` mutates it")
            return
        call = self.ctx.parent(node)
        if not (isinstance(call, cst.Call) and call.func is node):
            self._problem(
                Problem.TYPE_SENSITIVE, node, f"`{self._code(node)}` reads an attribute that differs once frozen"
            )
            return
        if method == "get" and call.args and not call.args[0].star:
            key = constant_value(self.ctx, call.args[0].value)
            self.follow(call, shape.child(UNKNOWN_KEY if key is NOT_CONSTANT else key), depth)
        elif method == "keys":
            self.follow(call, view(LEAF, shape.reordered), depth)
        elif method == "values":
            self.follow(call, view(shape.child(), shape.reordered), depth)
        elif method == "items":
            self.follow(call, items_view(shape.child(), shape.reordered), depth)
        elif method in ("count", "index") and not shape.elements_changed():
            return
        else:
            self._problem(Problem.TYPE_SENSITIVE, call, f"`{self._code(call)}` calls a method that differs once frozen")

    def _instance_attribute(self, node: cst.Attribute, shape: Shape, depth: int) -> None:
        """``cfg.sizes`` is the frozen field; ``cfg.scale`` the object it was; ``cfg.method()`` reads
        ``self`` where it is not followed."""
        part = dict(shape.entries).get(node.attr.value, LEAF)
        if self._stored(node):
            self._problem(Problem.MUTATED, node, f"`{self._statement(node)}` assigns an attribute")
        elif part is METHOD:
            self._problem(Problem.UNKNOWN, node, f"`{self._code(node)}` is a method, which may read the frozen field")
        else:
            self.follow(node, part, depth)

    def _in_Arg(self, node: cst.Arg, expr, shape: Shape, depth: int) -> None:
        call = self.ctx.parent(node)
        if not isinstance(call, cst.Call):
            self._problem(Problem.UNKNOWN, node, f"`{self._code(node)}` passes it where jaxfix cannot follow")
            return
        if node.star and shape.reordered:
            self._reordered(call)
            return
        if node.star:
            parts = shape.element() if node.star == "*" else shape.child()
            if parts.changed and parts.kind != "maybe":  # run-time parts are passed on, as unpacked
                self._problem(Problem.ESCAPES, call, f"`{self._code(call)}` unpacks parts that change when frozen")
            return
        qualified = self.ctx.names.qualified_name(call.func) or ""
        builtin = qualified.removeprefix("builtins.") if qualified.startswith("builtins.") else None
        if builtin == "isinstance" and self._same_instance_test(call, node, shape):
            return
        if builtin in _TYPE_SENSITIVE:
            self._problem(
                Problem.TYPE_SENSITIVE, call, f"`{self._code(call)}` would show its frozen type or repr instead"
            )
        elif builtin in _READERS:
            return
        elif builtin in _ORDER_FREE_READERS:
            if shape.element().changed:
                self._problem(
                    Problem.TYPE_SENSITIVE, call, f"`{self._code(call)}` compares parts that change when frozen"
                )
        elif shape.reordered and builtin in (_ELEMENT_READERS | _REBUILDERS):
            self._reordered(call)
        elif builtin in _ELEMENT_READERS:
            if shape.element().changed:
                self._problem(
                    Problem.TYPE_SENSITIVE, call, f"`{self._code(call)}` computes with parts that change when frozen"
                )
        elif builtin == "reversed" and shape.kind != "sequence":
            self._problem(
                Problem.TYPE_SENSITIVE,
                call,
                f"`{self._code(call)}` needs a sequence, and not every frozen mapping is reversible",
            )
        elif builtin == "zip" and node.keyword is None and not shape.reordered:
            # an iterator of tuples, the value's elements at its place in each: read in the same order
            place = next(n for n, a in enumerate(call.args) if a is node)
            element = shape.element()
            pair = Shape("pair", element.changed, tuple((n, element if n == place else LEAF) for n in range(len(call.args))))
            self.follow(call, view(pair), depth)
        elif builtin == "dict" and call.args[0] is node and node.keyword is None:
            self.follow(call, copied_mapping(shape), depth)
        elif builtin in _REBUILDERS and call.args[0] is node and node.keyword is None:
            element = shape.element()
            if builtin == "enumerate":
                element = Shape("pair", element.changed, ((0, LEAF), (1, element)))
            self.follow(call, new_sequence(element), depth)
        elif shape.kind == "sequence" and (qualified.startswith(_SEQUENCE_READERS) or self._array_method(call)):
            return  # array APIs read a tuple as they read a list (a shape, axes, values)
        elif (held := self._held_as_field(call, node, shape)) is not None:
            self.follow(call, held, depth)
        else:
            self._into_callee(call, node, shape, depth)

    def _tested_away(self, read: cst.CSTNode, reads: set, shape: Shape) -> bool:
        """`read` sits in the body of ``if isinstance(name, int):`` that tests a read of the same
        binding against classes no list or tuple is (`_same_instance_test`): the value followed
        never runs there (``pad_width = [(pad_width, pad_width)] * x.ndim`` reads an int)."""
        for ancestor in self.ctx.ancestors(read):
            if isinstance(ancestor, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                return False
            test = ancestor.test if isinstance(ancestor, cst.If) else None
            if not (isinstance(test, cst.Call) and test.args and test.args[0].value in reads):
                continue
            inside = any(a is ancestor.body for a in self.ctx.ancestors(read))  # type: ignore[union-attr]
            if inside and self.ctx.names.qualified_name(test.func) == "builtins.isinstance":
                return self._same_instance_test(test, test.args[0], shape)
        return False

    def _same_instance_test(self, call: cst.Call, arg: cst.Arg, shape: Shape) -> bool:
        """``isinstance(pad_width, int)`` on a list that becomes a tuple: False before and after.
        Only for a sequence (a list's frozen form is a tuple, always) tested against builtin
        classes that are neither a list nor a tuple nor their bases; a mapping's frozen form
        depends on the library chosen, so its tests stay problems."""
        if shape.kind != "sequence" or len(call.args) != 2 or call.args[0] is not arg or arg.keyword is not None:
            return False
        classinfo = call.args[1].value
        classes = [e.value for e in classinfo.elements] if isinstance(classinfo, cst.Tuple) else [classinfo]
        return bool(classes) and all(
            (self.ctx.names.qualified_name(c) or "").removeprefix("builtins.") in _UNRELATED_TO_SEQUENCES
            and (self.ctx.names.qualified_name(c) or "").startswith("builtins.")
            for c in classes
        )

    def _held_as_field(self, call: cst.Call, arg: cst.Arg, shape: Shape) -> Shape | None:
        """``Config(sizes=value)`` of a frozen dataclass of this module stores the value as a
        field (`class_hashing.hashed_fields`): the instance is followed, its field with `shape`."""
        found = instance_class(self.ctx, call)
        if found is None or any(a.star for a in call.args):
            return None
        cls = found[0]
        fields = hashed_fields(self.ctx, cls)
        if fields is None:
            return None
        position = call.args.index(arg)
        names = list(fields)
        field = arg.keyword.value if arg.keyword is not None else (names[position] if position < len(names) else None)
        if field not in fields:
            return None
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        if self._read_in_class(cls, body, field, shape):
            return instance(field, shape, frozenset())  # its methods' reads are followed: calling them is fine
        methods = frozenset(line.name.value for line in body if isinstance(line, cst.FunctionDef))
        return instance(field, shape, methods)

    def _read_in_class(self, cls: cst.ClassDef, body, field: str, shape: Shape) -> bool:
        """Follow every ``self.<field>`` the class's own methods read, with the field's `shape`
        (flax's ``model.apply`` runs them all). Only where those reads are all there is: no subclass
        here, and no method reads the instance's fields by name or wholesale (``getattr``,
        ``vars``, ``__dict__``, ``dataclasses.asdict``)."""
        ctx = self.ctx
        if subclass_of(ctx, cls) is not None:
            return False
        if any(word in ctx.code(cls) for word in _WHOLESALE_READS):
            return False
        for method in body:
            if not isinstance(method, cst.FunctionDef) or any(
                ctx.names.qualified_name(d.decorator) in ("builtins.staticmethod", "builtins.classmethod")
                for d in method.decorators
            ):
                continue
            for read in receiver_reads(method, method.body):
                if read.attr.value == field:
                    # one call deep at most from here: a method handing the field to a helper that
                    # builds the class again must not loop; further calls are reported as unknown
                    self.follow(read, shape, _MAX_CALL_DEPTH - 1)
        return True

    def _array_method(self, call: cst.Call) -> bool:
        """``x.reshape(shape)`` and kin, where ``x`` is an array or a traced parameter."""
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _ARRAY_METHODS:
            return False
        if self.values.classify(func.value).kind is Kind.ARRAY:
            return True
        return self.staticness.verdict(func.value).kind is Static.TRACED

    def _into_callee(self, call: cst.Call, arg: cst.Arg, shape: Shape, depth: int) -> None:
        slots = bind_arguments(self.ctx, call)
        slot = slots.get(arg) if slots is not None else broadcast_slot(self.ctx, call, arg)
        callee = self._code(call.func)
        if slot is None or slot.caught_by_star:
            self._problem(Problem.ESCAPES, call, f"`{self._code(call)}` hands it to code jaxfix cannot see into")
            return
        if slot.jitted and not slot.static:
            self._problem(
                Problem.ESCAPES,
                call,
                f"`{self._code(call)}` passes it to `{slot.param}`, a traced parameter of `{callee}`",
            )
            return
        if depth >= _MAX_CALL_DEPTH:
            self._problem(Problem.UNKNOWN, call, f"`{self._code(call)}` passes it through too many calls to follow")
            return
        if slot.target.function.node is None:
            self.follow_elsewhere(slot, shape, call, depth + 1)
            return
        param = find_param(slot.target.function.node, slot.param)
        if param is None:
            self._problem(Problem.UNKNOWN, call, f"`{self._code(call)}`: parameter `{slot.param}` not found")
            return
        self._follow_into(call, param, shape, depth)

    def _follow_into(self, call: cst.Call, param: cst.Param, shape: Shape, depth: int) -> None:
        """The value handed by `call` to `param`: its uses there, reported through `call`."""
        self._via.append(call)
        try:
            self.follow_binding(param, shape, depth + 1)
        finally:
            self._via.pop()

    def _in_Comparison(self, node: cst.Comparison, expr, shape: Shape, depth: int) -> None:
        if not shape.changed:
            return  # `params["steps"] > t`: a part freezing leaves as it was
        for target in node.comparisons:
            membership = target.comparator is expr and isinstance(target.operator, (cst.In, cst.NotIn))
            if membership and (shape.kind == "mapping" or not shape.element().changed):
                return  # key membership, or elements that compare as before
            if isinstance(target.operator, (cst.Is, cst.IsNot)):
                other = node.left if target.comparator is expr else target.comparator
                if isinstance(other, cst.Name) and other.value == "None":
                    return
        self._problem(
            Problem.TYPE_SENSITIVE,
            node,
            f"`{self._code(node)}` compares it, and a frozen value compares differently: a tuple never equals a list",
        )

    def _in_ComparisonTarget(self, node: cst.ComparisonTarget, expr, shape: Shape, depth: int) -> None:
        self._in_Comparison(self.ctx.parent(node), expr, shape, depth)  # type: ignore[arg-type]

    def _in_For(self, node: cst.For, expr, shape: Shape, depth: int) -> None:
        if node.iter is not expr:
            self._problem(Problem.UNKNOWN, node, "a loop uses it in a way jaxfix cannot follow")
            return
        if shape.reordered:
            self._reordered(node, f"for {self._code(node.target)} in {self._code(node.iter)}")
            return
        self._bind_target(node.target, shape.element(), depth)

    def _in_CompFor(self, node: cst.CompFor, expr, shape: Shape, depth: int) -> None:
        self._in_For(node, expr, shape, depth)  # type: ignore[arg-type]

    def _bind_target(self, target: cst.BaseExpression, shape: Shape, depth: int) -> None:
        """The value is bound to `target`: a name, or a tuple or list of names it is unpacked into."""
        if not shape.changed:
            return
        if isinstance(target, cst.Name) and isinstance(self.ctx.scope(target), ClassScope):
            self._problem(
                Problem.ESCAPES,
                target,
                f"`{target.value} = ...` makes it a class attribute, read as an attribute jaxfix does not follow",
            )
            return
        if isinstance(target, cst.Name):
            self.follow_binding(target, shape, depth)
            return
        if isinstance(target, (cst.Tuple, cst.List)) and all(
            isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements
        ):
            for i, element in enumerate(target.elements):
                part = shape.child(i) if shape.kind in ("sequence", "pair") else shape.element()
                self._bind_target(element.value, part, depth)
            return
        attribute = stored_attribute(self.ctx, target) if isinstance(target, cst.Attribute) else None
        if attribute is not None:
            for read in attribute.reads:  # `self.config = {...}` in `__init__`: every `self.config`
                self.follow(read, shape, depth)
            return
        self._problem(Problem.UNKNOWN, target, f"`{self._code(target)} = ...` stores it where jaxfix cannot follow")

    def _in_Assign(self, node: cst.Assign, expr, shape: Shape, depth: int) -> None:
        if node.value is not expr:
            self._problem(Problem.UNKNOWN, node, f"`{self._statement(node)}` uses it in a way jaxfix cannot follow")
            return
        for target in node.targets:
            self._bind_target(target.target, shape, depth)

    def _in_AnnAssign(self, node: cst.AnnAssign, expr, shape: Shape, depth: int) -> None:
        if node.value is expr:
            self._bind_target(node.target, shape, depth)
        else:
            self._problem(Problem.UNKNOWN, node, "an annotation uses it")

    def _in_NamedExpr(self, node: cst.NamedExpr, expr, shape: Shape, depth: int) -> None:
        self._bind_target(node.target, shape, depth)
        self.follow(node, shape, depth)

    def _in_AugAssign(self, node: cst.AugAssign, expr, shape: Shape, depth: int) -> None:
        if node.target is expr and shape.fresh:
            return
        verb = "changes it in place" if node.target is expr else "combines it into another value"
        self._problem(Problem.MUTATED, node, f"`{self._statement(node)}` {verb}")

    def _in_Del(self, node: cst.Del, expr, shape: Shape, depth: int) -> None:
        return  # `del name` drops the binding, not the value

    def _in_If(self, node: cst.If, expr, shape: Shape, depth: int) -> None:
        self._truth_test(node, expr, node.test)

    def _in_While(self, node: cst.While, expr, shape: Shape, depth: int) -> None:
        self._truth_test(node, expr, node.test)

    def _in_Assert(self, node: cst.Assert, expr, shape: Shape, depth: int) -> None:
        self._truth_test(node, expr, node.test)

    def _in_IfExp(self, node: cst.IfExp, expr, shape: Shape, depth: int) -> None:
        if node.test is expr:
            return
        self.follow(node, shape, depth)  # the value may be the result

    def _in_BooleanOperation(self, node: cst.BooleanOperation, expr, shape: Shape, depth: int) -> None:
        self.follow(node, shape, depth)  # `config or {}` may be config itself

    def _in_UnaryOperation(self, node: cst.UnaryOperation, expr, shape: Shape, depth: int) -> None:
        if isinstance(node.operator, cst.Not):
            return
        self._problem(Problem.UNKNOWN, node, f"`{self._code(node)}` computes with it")

    def _in_Expr(self, node: cst.Expr, expr, shape: Shape, depth: int) -> None:
        return  # a bare expression statement: evaluated, then dropped

    def _in_DictElement(self, node, expr, shape: Shape, depth: int) -> None:
        self._problem(Problem.ESCAPES, node, f"`{self._code(node)}` stores it in another container")

    def _in_StarredDictElement(self, node: cst.StarredDictElement, expr, shape: Shape, depth: int) -> None:
        if shape.reordered:
            self._reordered(node)
        elif shape.child().changed:
            self._problem(Problem.ESCAPES, node, f"`{self._code(node)}` copies parts that change when frozen")

    def _in_StarredElement(self, node: cst.StarredElement, expr, shape: Shape, depth: int) -> None:
        if shape.reordered:
            self._reordered(node)
        elif shape.element().changed:
            self._problem(Problem.ESCAPES, node, f"`{self._code(node)}` copies parts that change when frozen")

    def _in_Element(self, node, expr, shape: Shape, depth: int) -> None:
        self._problem(Problem.ESCAPES, node, f"`{self._code(self.ctx.parent(node))}` stores it in another container")

    def _in_FormattedStringExpression(self, node, expr, shape: Shape, depth: int) -> None:
        self._problem(Problem.TYPE_SENSITIVE, node, f"`{self._code(node)}` formats its repr, which differs once frozen")

    def _in_Return(self, node, expr, shape: Shape, depth: int) -> None:
        """A helper that builds and returns the value: followed into every call of it, when each
        use of the helper's name is a call in this module."""
        calls = self._calls_of_enclosing(node) if depth < _MAX_CALL_DEPTH else None
        if calls is None:
            self._problem(
                Problem.ESCAPES, node, f"`{self._statement(node)}` hands it back to callers jaxfix does not follow"
            )
            return
        for call in calls:
            self.follow(call, shape, depth + 1)

    def _calls_of_enclosing(self, node: cst.CSTNode) -> list[cst.Call] | None:
        """Every call of the plain function around `node`; None when one use is not a call, or
        the function may be called from where we do not look (a method, a decorated def, an
        import by another module)."""
        function = self.ctx.parent(node)
        while function is not None and not isinstance(function, (cst.FunctionDef, cst.Lambda)):
            function = self.ctx.parent(function)
        if not isinstance(function, cst.FunctionDef):
            return None
        cls = self.ctx.parent(self.ctx.parent(function))
        if isinstance(cls, cst.ClassDef):
            return self._static_method_calls(cls, function)
        if function.decorators:
            return None
        scope = self.ctx.scope(function)
        if scope is None:
            return None
        name = function.name.value
        if isinstance(scope, GlobalScope):
            from jaxfix.transforms.semantics.importers import here, used_elsewhere

            definition = here(self.ctx, name)
            if used_elsewhere(self.ctx, definition):
                return None
        calls: list[cst.Call] = []
        for assignment in scope.assignments[name]:
            if not (isinstance(assignment, Assignment) and assignment.node is function):
                return None  # the name is bound again
            for access in assignment.references:
                call = self.ctx.parent(access.node)
                if not (isinstance(call, cst.Call) and call.func is access.node):
                    return None
                calls.append(call)
        return calls

    def _static_method_calls(self, cls: cst.ClassDef, function: cst.FunctionDef) -> list[cst.Call] | None:
        """Every ``Model.f(...)`` of a ``@staticmethod`` of a module-level class; None when ``f`` is
        read any other way (``self.f``, ``Model.f`` passed on) or another module may import it."""
        decorators = [self.ctx.names.qualified_name(d.decorator) for d in function.decorators]
        if decorators != ["builtins.staticmethod"] or not isinstance(self.ctx.scope(cls), GlobalScope):
            return None
        from jaxfix.transforms.semantics.importers import here, used_elsewhere

        definition = here(self.ctx, cls.name.value)
        if used_elsewhere(self.ctx, definition):
            return None
        name = function.name.value
        calls: list[cst.Call] = []
        for node in self.ctx.attributes_named(name):
            call = self.ctx.parent(node)
            if not (isinstance(node.value, cst.Name) and node.value.value == cls.name.value):
                return None
            if not (isinstance(call, cst.Call) and call.func is node):
                return None
            calls.append(call)
        return calls

    def _in_Call(self, node: cst.Call, expr, shape: Shape, depth: int) -> None:
        self._problem(Problem.UNKNOWN, node, f"`{self._code(node)}` calls it")

    def _in_BinaryOperation(self, node, expr, shape: Shape, depth: int) -> None:
        self._problem(
            Problem.TYPE_SENSITIVE,
            node,
            f"`{self._code(node)}` computes with it, and `+`, `*`, `|` give another type once frozen",
        )

    def _maybe(self, parent: cst.CSTNode, expr: cst.CSTNode, depth: int) -> None:
        """A part of a run-time value that may have changed: only the uses that would silently differ.

        Passing it on or computing with it is allowed (a number is the same number;
        a tuple where a list was fails loudly in most arithmetic); comparing it,
        asking its type, printing it or changing it in place is not.
        """
        if isinstance(parent, cst.Subscript) and parent.value is expr:
            if self._stored(parent):
                self._problem(Problem.MUTATED, parent, f"`{self._statement(parent)}` changes an item")
            else:
                self.follow(parent, MAYBE, depth)
        elif isinstance(parent, cst.Attribute) and parent.value is expr:
            if parent.attr.value in MUTATING_METHODS:
                self._problem(Problem.MUTATED, parent, f"`{self._statement(parent)}` mutates it")
            elif parent.attr.value in ("get", "values") and isinstance(call := self.ctx.parent(parent), cst.Call):
                self.follow(call, MAYBE if parent.attr.value == "get" else view(MAYBE), depth)
        elif isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
            self._in_Comparison(
                parent if isinstance(parent, cst.Comparison) else self.ctx.parent(parent), expr, MAYBE, depth
            )  # type: ignore[arg-type]
        elif isinstance(parent, cst.Arg) and isinstance(call := self.ctx.parent(parent), cst.Call):
            qualified = self.ctx.names.qualified_name(call.func) or ""
            if qualified.removeprefix("builtins.") in _TYPE_SENSITIVE and qualified.startswith("builtins."):
                self._problem(
                    Problem.TYPE_SENSITIVE, call, f"`{self._code(call)}` would show its frozen type or repr instead"
                )
        elif isinstance(parent, cst.FormattedStringExpression):
            self._in_FormattedStringExpression(parent, expr, MAYBE, depth)
        elif isinstance(parent, cst.AugAssign) and parent.target is expr:
            self._in_AugAssign(parent, expr, MAYBE, depth)
        elif isinstance(parent, (cst.Assign, cst.AnnAssign, cst.NamedExpr, cst.For, cst.CompFor)):
            handler = getattr(self, f"_in_{type(parent).__name__}")
            handler(parent, expr, MAYBE, depth)

    def _namespace(self, parent: cst.CSTNode, expr: cst.CSTNode, depth: int) -> None:
        """An ``argparse.Namespace`` handed over as a namedtuple of the same fields.

        Reading a public field (``opts.its``, ``getattr(opts, "its")``) gives the very same
        object; passing it on is followed (a call of this module, a ``partial``, a name).
        Anything else may tell the two apart and is a problem: assigning a field, ``vars``,
        ``opts.__dict__``, iterating, comparing, printing.
        """
        if isinstance(parent, cst.Attribute) and parent.value is expr:
            if self._stored(parent):
                self._problem(Problem.MUTATED, parent, f"`{self._statement(parent)}` assigns an attribute")
            elif parent.attr.value.startswith("_"):
                self._problem(
                    Problem.TYPE_SENSITIVE, parent, f"`{self._code(parent)}` reads an attribute a namedtuple does not share"
                )
            return
        if isinstance(parent, cst.Comparison) and all(
            isinstance(t.operator, (cst.Is, cst.IsNot)) and isinstance(t.comparator, cst.Name) and t.comparator.value == "None"
            for t in parent.comparisons
        ):
            return
        if isinstance(parent, cst.Arg) and isinstance(call := self.ctx.parent(parent), cst.Call) and not parent.star:
            qualified = self.ctx.names.qualified_name(call.func) or ""
            if qualified in ("builtins.getattr", "builtins.hasattr") and call.args[0] is parent and self._public_name(call):
                return
            if qualified == PARTIAL and call.args[0] is not parent:
                self._into_partial(call, parent, depth)
            elif qualified.startswith("builtins."):
                self._problem(Problem.TYPE_SENSITIVE, call, f"`{self._code(call)}` may tell a namedtuple from a namespace")
            else:
                self._into_callee(call, parent, NAMESPACE, depth)
            return
        if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.NamedExpr, cst.Return, cst.Expr, cst.Del)):
            getattr(self, f"_in_{type(parent).__name__}")(parent, expr, NAMESPACE, depth)
        elif isinstance(parent, cst.IfExp) and parent.test is not expr:
            self.follow(parent, NAMESPACE, depth)
        else:
            self._problem(Problem.UNKNOWN, parent, f"`{self._code(parent)}` uses it in a way jaxfix cannot follow")

    def _public_name(self, call: cst.Call) -> bool:
        """``getattr(opts, "its"[, default])``: a constant name of a public field."""
        if len(call.args) < 2 or call.args[1].star or call.args[1].keyword is not None:
            return False
        name = constant_value(self.ctx, call.args[1].value)
        return isinstance(name, str) and not name.startswith("_")

    def _into_partial(self, call: cst.Call, arg: cst.Arg, depth: int) -> None:
        """``partial(step, opts=opts)``: followed into the parameter of ``step`` it binds."""
        target = resolve_callable(self.ctx, call.args[0].value)
        node = target.function.node if target is not None else None
        param: cst.Param | None = None
        if node is not None and not any(a.star for a in call.args):
            if arg.keyword is not None:
                param = find_param(node, arg.keyword.value)
            else:
                index = call.args.index(arg) - 1 + (1 if target.implicit_self else 0)  # type: ignore[union-attr]
                positional = [*node.params.posonly_params, *node.params.params]
                param = positional[index] if index < len(positional) else None
        if param is None or depth >= _MAX_CALL_DEPTH:
            self._problem(Problem.ESCAPES, call, f"`{self._code(call)}` hands it to code jaxfix cannot see into")
            return
        self._follow_into(call, param, NAMESPACE, depth)

    # -- helpers ------------------------------------------------------------------
    def _reordered(self, node: cst.CSTNode, text: str | None = None) -> None:
        self._problem(
            Problem.TYPE_SENSITIVE,
            node,
            f"`{text or self._code(node)}` reads it in order, and FrozenConfigDict iterates its keys sorted, not as written",
        )

    def _truth_test(self, node, expr, test) -> None:
        if test is not expr:
            self._problem(Problem.UNKNOWN, node, "it is used in a way jaxfix cannot follow")

    def _stored(self, node: cst.CSTNode) -> bool:
        """`node` is written to: assigned, deleted, augmented, a loop or with target."""
        child, parent = node, self.ctx.parent(node)
        while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            child, parent = parent, self.ctx.parent(parent)
        if isinstance(parent, (cst.AssignTarget, cst.Del)):
            return True
        if isinstance(parent, (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)):
            return parent.target is child
        return isinstance(parent, cst.AsName)

    def follow_parameter(self, slot, shape: Shape, at: cst.CSTNode) -> None:
        """Every use of the value inside the callee, through the parameter it lands in."""
        if slot.target.function.node is None:
            self.follow_elsewhere(slot, shape, at, 0)
            return
        param = find_param(slot.target.function.node, slot.param)
        if param is None:
            self._problem(Problem.UNKNOWN, at, f"parameter `{slot.param}` of `{slot.target.function.name}` not found")
            return
        self.follow_binding(param, shape)

    def follow_elsewhere(self, slot, shape: Shape, at: cst.CSTNode, depth: int) -> None:
        """The callee is a function of another module of the project: follow the value
        there, with that module's own analysis, and report what it finds here, at `at`."""
        function = slot.target.function
        repo = self.ctx.repo
        remote = repo.analysis(function.defined_in, self.ctx.options) if repo is not None else None
        where = getattr(function.defined_in, "name", "another module")
        node = _top_level_def(remote.ctx.module, function.node_name or function.name) if remote is not None else None
        param = find_param(node, slot.param) if node is not None else None
        if param is None:
            self._problem(Problem.UNKNOWN, at, f"`{function.name}` is defined in `{where}`, which cannot be read here")
            return
        inner = UseChecker(remote.ctx, ValueClassifier(remote.ctx), remote.staticness)
        inner.follow_binding(param, shape, depth)
        for use in inner.problems:
            line = remote.ctx.span(use.node).start.line
            self._problem(use.problem, at, f"in `{function.name}` (`{where}`, line {line}), {use.what}")

    def _problem(self, problem: Problem, node: cst.CSTNode, what: str) -> None:
        self.problems.append(Use(problem, node, what, self._via[0] if self._via else None))

    def _code(self, node: cst.CSTNode) -> str:
        return shorten(self.ctx.module.code_for_node(node))

    def _statement(self, node: cst.CSTNode) -> str:
        statement = self.ctx.statement_of(node)
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            return self._code(statement.body[0])
        return self._code(node)


def _top_level_def(module: cst.Module, name: str) -> cst.FunctionDef | None:
    return next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)


def find_param(function: FunctionNode, name: str) -> cst.Param | None:
    """The parameter of `function` called `name`."""
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for extra in (params.star_arg, params.star_kwarg):
        if isinstance(extra, cst.Param):
            every.append(extra)
    return next((p for p in every if p.name.value == name), None)

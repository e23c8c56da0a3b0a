"""JAX201's last strategy: a dict or list of numbers and arrays stops being static.

(So does a tree whose every leaf is an array, ``tree_map(np.asarray, batch)``:
ipagnn's dataset example, google-research#1025.)

Freezing keeps the value static; where the freeze is not proven (the dict is
handed to code we cannot see, it holds an array), the value may still be
plain data: a pytree whose leaves are numbers and arrays, which jit traces as
any argument (jax#4143: a dict of float parameters marked static "because it
does not change"). Traced, it compiles once per structure, not once per value,
and the body computes the same as long as nothing in it needs a leaf concrete.
The obligations are `repairs.traced_parameter`'s: one written jit, every call
through it passing such data, no read that needs the value concrete.

Only keys that are strings (jit sorts a dict's keys to flatten it), only
leaves that are ints (that fit an int32), floats, bools, complex numbers, None
or arrays: a string leaf is no JAX type, and a set is no pytree. A traced dict
comes back with its keys sorted, so a dict written in another order is only
made traced when the body reads it key by key (``config["lr"]``).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.repairs.traced_parameter import Judged, calls_through, doubts_elsewhere, entered_jit
from jaxfix.transforms.rules.jax201_unhashable_static_arg.uses import Use
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.call_binding import ArgumentSlot
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import constant_value
from jaxfix.transforms.semantics.container_origin import OriginKind, OriginTracer
from jaxfix.transforms.semantics.hashability import Kind
from jaxfix.transforms.semantics.jit_wrappers import MethodKind
from jaxfix.transforms.semantics.literals import Container, Leaf
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import parameter_reads

_NUMBERS = (int, float, complex)  # bool is an int


def pytree_of_data(ctx: ModuleContext, tree: Container) -> bool:
    """A dict with string keys or a list (nested any deep), every leaf a number, None or an array."""
    if tree.kind == "dict":
        if not all(isinstance(key, str) for key, _ in tree.entries):
            return False
    elif tree.kind not in ("list", "tuple"):
        return False
    for _, child in tree.entries:
        if isinstance(child, Container):
            if not pytree_of_data(ctx, child):
                return False
        elif not _data_leaf(ctx, child):
            return False
    return True


def _data_leaf(ctx: ModuleContext, leaf: Leaf) -> bool:
    if leaf.value.kind is Kind.ARRAY:
        return True
    if leaf.value.kind is not Kind.PLAIN:
        return False
    value = constant_value(ctx, leaf.node)
    if isinstance(value, int) and not -(2**31) <= value < 2**31:
        return False  # traced, a Python int becomes an int32
    return value is None or isinstance(value, _NUMBERS)


def _out_of_sight(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """A call of code jaxfix cannot see into (not a builtin such as ``sum``)."""
    if not isinstance(node, cst.Call):
        return False
    return not (ctx.names.qualified_name(node.func) or "").startswith("builtins.")


def _holds_ints(ctx: ModuleContext, tree: Container) -> bool:
    """Does the container hold a Python int or bool anywhere? Handed to code we cannot see (a
    module's constructor, ``**kwargs``), such a value is most often a size, a count or a flag,
    which a tracer breaks (long-range-arena#7: ``vocab_size`` of a flax module)."""
    for _, child in tree.entries:
        if isinstance(child, Container):
            if _holds_ints(ctx, child):
                return True
        elif isinstance(constant_value(ctx, child.node), int):
            return True
    return False


def _keys_in_order(tree: Container) -> bool:
    """Every dict in it is written with its keys sorted: jit flattens a dict in sorted key order
    and rebuilds it so, and a traced dict iterates in that order."""
    for container in tree.containers():
        keys = [key for key, _ in container.entries] if container.kind == "dict" else []
        if keys != sorted(keys):  # type: ignore[type-var]
            return False
    return True


def _read_by_key(ctx: ModuleContext, fn, param: str) -> str | None:
    """Why a read of `param` may see the order of its keys; None when each is ``param["key"]``."""
    for read in parameter_reads(ctx, fn, param):
        parent = ctx.parent(read)
        if (
            isinstance(parent, cst.Subscript)
            and parent.value is read
            and len(parent.slice) == 1
            and isinstance(parent.slice[0].slice, cst.Index)
            and isinstance(constant_value(ctx, parent.slice[0].slice.value), str)
        ):
            continue
        return f"`{ctx.code(parent) if isinstance(parent, cst.BaseExpression) else param}` may read its keys in order"
    return None


def _after_every_call(ctx: ModuleContext, node: cst.CSTNode, calls: tuple[cst.Call, ...]) -> bool:
    """Module-level code that runs once, top to bottom: `node` in a statement after every call's."""
    if not calls or ctx.enclosing_function(node) is not None:
        return False
    if any(ctx.enclosing_function(call) is not None for call in calls):
        return False
    position = _top_statement(ctx, node)
    return position is not None and all(
        (other := _top_statement(ctx, call)) is not None and other < position for call in calls
    )


def _top_statement(ctx: ModuleContext, node: cst.CSTNode) -> int | None:
    """The index of the module's top-level statement that holds `node`."""
    for ancestor in (node, *ctx.ancestors(node)):
        if ctx.parent(ancestor) is ctx.module:
            return next(i for i, statement in enumerate(ctx.module.body) if statement is ancestor)
    return None


class TracedConfig:
    """Plans the drop for JAX201's slots; `tracer` reads what each call passes."""

    def __init__(self, analysis: Analysis, tracer: OriginTracer) -> None:
        self.analysis = analysis
        self.tracer = tracer

    def plan(
        self, slot: ArgumentSlot, tree: Container | None, changes: list[Use]
    ) -> tuple[str, tuple, bool, tuple[str, ...]] | None:
        """(the message's ending, the edits, whether unsafe, notes), or None when not proven.

        `tree`: the container as written; None for a tree ``tree_map(np.asarray, ...)`` made, whose
        every leaf is an array and whose dicts JAX rebuilt with their keys sorted.
        `changes`: the uses that may change the value after it is built (a mutation, code we cannot
        see); one that may run before a call through the jit leaves the contents unknown there."""
        ctx = self.analysis.ctx
        info = slot.target.function
        fn = info.node
        if fn is None or slot.caught_by_star or info.method is not MethodKind.FUNCTION:
            return None  # a method's argnums count its receiver: JAX403 explains that trap
        if tree is not None and not pytree_of_data(ctx, tree):
            return None
        if tree is not None and not _keys_in_order(tree) and _read_by_key(ctx, fn, slot.param) is not None:
            return None  # traced, the dict's keys come back sorted: an ordered read would change
        entry = entered_jit(self.analysis, fn)
        if entry is None or entry.node is not slot.target.jit_node:
            return None
        param = slot.param
        use = ConcreteUses(ctx).first_need(fn, param)
        if use is not None and use.need is Need.NEEDS:
            return None
        if use is not None and _out_of_sight(ctx, use.node) and tree is not None and _holds_ints(ctx, tree):
            return None  # an int or a bool handed to code out of sight is most often a size or a flag
        edit = StaticEditor(ctx).drop(entry.wrapper, entry.node, info.signature, param)
        if isinstance(edit, str):
            return None
        calls = calls_through(self.analysis, fn, entry, param, self._judge)
        fails = f"if it needs `{param}` concrete, the traced value fails there"
        unsure = [f"{use.reason}; {fails}"] if use is not None else []
        unsure.extend(
            f"{change.what} (line {ctx.span(change.node).start.line}), which may run before a call, and what it puts in the value "
            "is not read: a string or a set inside does not trace"
            for change in changes
            if not _after_every_call(ctx, change.node, calls.calls)
        )
        unsure.extend(f"{doubt}; {fails}" for doubt in calls.doubts)
        unsure.extend(f"{doubt}; {fails}" for doubt in doubts_elsewhere(self.analysis, fn, entry, param, self._judge))
        held = "numbers and arrays" if tree is not None else "arrays"
        ending = (
            f"it holds only {held}, data jit traces, and nothing in `{info.name}` needs `{param}` "
            f"concrete, so {'with --unsafe-fixes ' if unsure else ''}`{param}` becomes a regular (traced) argument"
        )
        notes = ["a traced argument compiles once per structure, shape and dtype, not once per value"]
        if unsure:
            notes.insert(0, f"unsafe: {unsure[0]}")
        return ending, tuple(edit.edits), bool(unsure), tuple(notes)

    def _judge(self, analysis: Analysis, argument: cst.BaseExpression) -> Judged:
        """What a call through the jit passes: data (evidence), a number, or something to doubt."""
        if analysis is self.analysis:
            origin = self.tracer.trace(argument)
            if origin.kind is OriginKind.LITERAL and origin.tree is not None and pytree_of_data(analysis.ctx, origin.tree):
                return Judged(evidence="numbers and arrays")
            if origin.kind is OriginKind.ARRAY and origin.container == "tree":
                return Judged(evidence=origin.reason)
        found = array_origin(analysis, argument)
        if found is not None:
            return Judged(evidence=found)
        value = constant_value(analysis.ctx, argument)
        if value is None or isinstance(value, _NUMBERS):
            return Judged()
        return Judged(doubt="which may not be numbers and arrays")

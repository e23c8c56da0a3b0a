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
from jaxfix.transforms.semantics.call_binding import ArgumentSlot, bind_arguments
from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import constant_value, single_binding
from jaxfix.transforms.semantics.container_origin import OriginKind, OriginTracer
from jaxfix.transforms.semantics.hashability import Kind
from jaxfix.transforms.semantics.jit_wrappers import MethodKind
from jaxfix.transforms.semantics.literals import Container, Leaf
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import parameter_reads
from jaxfix.transforms.semantics.reads import reads as reads_of

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


def floats_only(ctx: ModuleContext, tree: Container) -> bool:
    """A pytree of data whose every leaf is a Python float: parameters of a model, not sizes, counts
    or flags (an int, a bool, None or a string could be any of those)."""
    leaves = list(tree.leaves())
    return bool(leaves) and pytree_of_data(ctx, tree) and all(
        type(constant_value(ctx, leaf.node)) is float for leaf in leaves
    )


def _data_leaf(ctx: ModuleContext, leaf: Leaf) -> bool:
    if leaf.value.kind is Kind.ARRAY:
        return True
    if leaf.value.kind is not Kind.PLAIN:
        return False
    value = constant_value(ctx, leaf.node)
    if isinstance(value, int) and not -(2**31) <= value < 2**31:
        return False  # traced, a Python int becomes an int32
    return value is None or isinstance(value, _NUMBERS)


def _lost_sight(ctx: ModuleContext, node: cst.CSTNode, param: str) -> bool:
    """A call of code jaxfix cannot see into (not a builtin such as ``sum``), or a read of the
    parameter where it may also be bound to something else (array-api-extra#114: ``pad_width = [(pad_width, pad_width)] * x.ndim``
    in one branch, then ``zip(x.shape, pad_width)`` building a shape)."""
    if isinstance(node, cst.Name):
        return node.value == param and single_binding(ctx, node) is None
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


def _decorated_jit(slot: ArgumentSlot) -> bool:
    """The jit is a decorator of the method's def (``@partial(jax.jit, static_argnums=(0, 3))``): its
    argnums count ``self``, as the signature the drop edits does."""
    return isinstance(slot.target.jit_node, cst.Decorator)


def _keys_in_order(tree: Container) -> bool:
    """Every dict in it is written with its keys sorted: jit flattens a dict in sorted key order
    and rebuilds it so, and a traced dict iterates in that order."""
    for container in tree.containers():
        keys = [key for key, _ in container.entries] if container.kind == "dict" else []
        if keys != sorted(keys):  # type: ignore[type-var]
            return False
    return True


def _read_by_key(ctx: ModuleContext, fn, param: str, tree: Container, depth: int = 0) -> str | None:
    """Why a read of `param` (holding `tree`) may see the order of a dict's keys; None when every dict
    is read key by key: ``param["key"]``, ``**param`` into a def of the module that takes no
    ``**kwargs`` (keywords bind by name), a list's items by ``for x in param`` or ``param[0]``, each
    such item read so in turn, and the value handed whole to a def of the module that reads it so
    (herculens: ``self.lens_surface_brightness(kwargs_lens_light)`` then ``sersic(x, y, **kw)``)."""
    return _order_free(ctx, parameter_reads(ctx, fn, param), tree, depth)


def _order_free(ctx: ModuleContext, reads: list[cst.CSTNode], tree: Container, depth: int) -> str | None:
    """`_read_by_key` for each of `reads` (each holding `tree`)."""
    if depth > 4:
        return "it goes further than is followed"
    child = _only_child(tree)  # what an item of a list holds: a dict, read in turn
    for read in reads:
        parent = ctx.parent(read)
        shown = f"`{ctx.code(parent) if isinstance(parent, cst.BaseExpression) else ctx.code(read)}` may read its keys in order"
        found: str | None = shown
        if isinstance(parent, cst.Subscript) and parent.value is read and len(parent.slice) == 1 and isinstance(parent.slice[0].slice, cst.Index):
            key = constant_value(ctx, parent.slice[0].slice.value)
            if tree.kind == "dict" and isinstance(key, str):
                found = None
            elif isinstance(key, int) and child is not None:
                found = _order_free(ctx, [parent], child, depth)  # `param[0]`: one item
        elif isinstance(parent, cst.Arg) and parent.value is read:
            found = _order_free_argument(ctx, parent, tree, depth)
        elif isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is read and isinstance(parent.target, cst.Name) and child is not None:
            found = _order_free(ctx, [r for r in reads_of(ctx, parent.target) if r is not parent.target], child, depth + 1)
        if found is not None:
            return found
    return None


def _only_child(tree: Container) -> Container | None:
    """The one shape every item of a list or tuple has (a dict each), or None."""
    children = [child for _, child in tree.entries]
    if tree.kind not in ("list", "tuple") or not children or not all(isinstance(c, Container) and c.kind == "dict" for c in children):
        return None
    return children[0]  # type: ignore[return-value]


def _order_free_argument(ctx: ModuleContext, arg: cst.Arg, tree: Container, depth: int) -> str | None:
    """`arg` hands the value (or unpacks it with ``**``) to a call."""
    call = ctx.parent(arg)
    shown = f"`{ctx.code(call)}` may read its keys in order"
    if not isinstance(call, cst.Call):
        return shown
    if arg.star == "**":
        target = resolve_callable(ctx, call.func)
        fn = target.function.node if target is not None else None
        if tree.kind != "dict" or not isinstance(fn, cst.FunctionDef) or fn.params.star_kwarg is not None:
            return shown
        return None  # keywords bind by name
    slot = (bind_arguments(ctx, call) or {}).get(arg)
    if arg.star or slot is None or slot.caught_by_star or slot.target.function.node is None or slot.jitted:
        return shown
    return _read_by_key(ctx, slot.target.function.node, slot.param, tree, depth + 1)


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
        if fn is None or slot.caught_by_star or info.method is MethodKind.CLASS:
            return None
        if info.method is MethodKind.INSTANCE and not _decorated_jit(slot):
            return None  # `jax.jit(obj.m, ...)`: its argnums skip the receiver, a trap JAX403 explains
        if tree is not None and not pytree_of_data(ctx, tree):
            return None
        if tree is not None and not _keys_in_order(tree) and _read_by_key(ctx, fn, slot.param, tree) is not None:
            return None  # traced, the dict's keys come back sorted: an ordered read would change
        entry = entered_jit(self.analysis, fn)
        if entry is None or entry.node is not slot.target.jit_node:
            return None
        param = slot.param
        use = ConcreteUses(ctx).first_need(fn, param)
        if use is not None and use.need is Need.NEEDS:
            return None
        if use is not None and tree is not None and _holds_ints(ctx, tree) and _lost_sight(ctx, use.node, param):
            # an int or a bool is most often a size or a flag: where jaxfix loses it (code out of sight,
            # a name bound again: pad_width's `(lo, hi)` pairs made a shape), it stays static
            return None
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

"""Places that need a concrete Python value, and how a value travels to them.

Under jit a traced value fails at these places (docs/jax4xx-behaviour.md,
B2): a shape or size argument (``jnp.zeros``, ``jnp.arange``, ``linspace``'s
``num``, ``reshape``, ``jax.random.*``'s ``shape``, ``one_hot``'s
``num_classes``, ``lax.scan``'s ``length``), ``range()``, a slice bound,
``int()``/``float()``/``bool()``, a Python ``if``/``while``/``assert``, and a
static parameter of a jitted call (it must be hashed).

`follow` climbs from an expression through what keeps its value flowing
(arithmetic, comparisons, tuples and lists, a name bound once and read in the
same function) to the first such place, and says where the value goes that a
rewrite into a Python value could change: a method or attribute, a call to code
we cannot see, a ``return``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import libcst as cst
from libcst.metadata import GlobalScope

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.call_binding import bind_arguments
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.class_hashing import constructed_field, own_field_reads
from jaxfix.transforms.semantics.constants import (
    binding_value,
    local_bindings,
    members_named,
    reaching_binding,
    single_binding,
    written_out,
)
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.logical_operators import is_logical, outermost, serves_as_value
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.reads import first_parameter, parameter, reads
from jaxfix.transforms.semantics.returned_values import result_calls
from jaxfix.transforms.semantics.sequence_positions import (
    UNKNOWN,
    Place,
    concatenated,
    element_place,
    indexed,
    sliced,
    unpacked,
)
from jaxfix.transforms.semantics.size_arguments import size_need
from jaxfix.transforms.semantics.static_slots import jitted_call
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, FORI_LOOP

#: Reductions whose second positional argument is the axis.
AXIS_SECOND = frozenset(
    {"sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "any", "all", "cumsum", "cumprod",
     "median", "nansum", "nanmean", "nanmax", "nanmin", "squeeze", "expand_dims", "flip", "sort", "argsort",
     "concatenate", "stack", "diff"}
)  # not take (indices) nor roll (shift): both are traced happily

#: Array methods whose first positional argument is the axis.
AXIS_FIRST_METHODS = frozenset(
    {"sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "any", "all", "cumsum", "cumprod",
     "squeeze", "sort", "argsort"}
)


CONVERSIONS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.complex", "operator.index"})
#: JAX's own check that a value is concrete, and the position of the value: it raises
#: ConcretizationTypeError for a tracer (dynamiqs' ``concrete_or_error(None, x, ...)``).
CONCRETE_CHECKS = {"jax._src.core.concrete_or_error": 1, "jax.core.concrete_or_error": 1}
#: Builtins that compare their positional arguments with Python's ``<``: a tracer there raises
#: TracerBoolConversionError (evosax#2's ``min(1 + c_1 / c_mu, ...)`` under a jit).
COMPARING = frozenset({"builtins.min", "builtins.max", "builtins.sorted"})
#: Calls that take the value as an operand and give an array: nothing downstream can tell a Python int from an array.
ARRAY_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.ops.")


def python_sequence(ctx: ModuleContext, expr: cst.BaseExpression) -> str | None:
    """What `expr` is when it is surely a Python list or tuple, which a tracer cannot index
    (``TABLE[i]``: ``__index__`` needs a concrete int): a display, a comprehension, or a name
    bound once to one ("the list `TABLE`"); None otherwise (an array takes a traced index)."""
    if isinstance(expr, (cst.List, cst.ListComp)):
        return "a Python list"
    if isinstance(expr, cst.Tuple):
        return "a Python tuple"
    if isinstance(expr, cst.Name):
        value = _display_bound(ctx, expr)
        if isinstance(value, (cst.List, cst.ListComp)):
            return f"the list `{expr.value}`"
        if isinstance(value, cst.Tuple):
            return f"the tuple `{expr.value}`"
    return None


def python_mapping(ctx: ModuleContext, expr: cst.BaseExpression) -> str | None:
    """What `expr` is when it is surely a Python dict, whose key must hash (a tracer does not:
    ``TypeError: unhashable type: 'DynamicJaxprTracer'``): a display, a comprehension, or a name
    bound once to one ("the dict `values`"); None otherwise."""
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return "a Python dict"
    if isinstance(expr, cst.Name) and isinstance(_display_bound(ctx, expr), (cst.Dict, cst.DictComp)):
        return f"the dict `{expr.value}`"
    return None


def _display_bound(ctx: ModuleContext, name: cst.Name) -> cst.BaseExpression | None:
    """The value of the one assignment that reaches `name`; for ``TABLE = make_table()``, the
    display the helper returns (`constants.helper_return`): a fresh list each call, a list still."""
    value = binding_value(ctx, name)
    return written_out(ctx, value) if value is not None else None


def indexed_mapping(ctx: ModuleContext, index: cst.Index) -> str | None:
    """``table[k]`` with `index` the ``k``: what ``table`` is when it is surely a Python dict."""
    indexed = _indexed(ctx, index)
    return python_mapping(ctx, indexed) if indexed is not None else None


def indexed_sequence(ctx: ModuleContext, index: cst.Index) -> str | None:
    """``seq[i]`` with `index` the ``i``: what ``seq`` is when it is surely a Python sequence."""
    indexed = _indexed(ctx, index)
    return python_sequence(ctx, indexed) if indexed is not None else None


def _indexed(ctx: ModuleContext, index: cst.Index) -> cst.BaseExpression | None:
    """``x`` of ``x[i]`` with `index` the ``i``, its one subscript; None otherwise."""
    element = ctx.parent(index)
    subscript = ctx.parent(element) if isinstance(element, cst.SubscriptElement) else None
    return subscript.value if isinstance(subscript, cst.Subscript) and len(subscript.slice) == 1 else None


@dataclass(frozen=True)
class Sink:
    node: cst.CSTNode
    #: "`jnp.arange` needs a concrete size"
    reason: str
    #: The place is a jnp function's axis (`axis_argument`), which takes only a static int.
    axis: bool = False
    #: The place is a shape (`jnp.zeros`'s, `reshape`'s): a tuple of ints there is the same shape
    #: as an array holding them.
    shape: bool = False
    #: The place is a static parameter of a jitted call (`node`): that parameter's name.
    static_parameter: str | None = None
    #: The value reaches the place as what a helper returns, at one of its calls.
    returned: bool = False
    #: The place is a differentiation's ``argnums``: which arguments it differentiates.
    argnums: bool = False


@dataclass(frozen=True)
class Flow:
    """Where a value goes: the places needing it concrete, and a use a Python value could change."""

    sinks: tuple[Sink, ...] = ()
    #: "it is used as `m.astype(int)` (line 9)"; None when every use is plain.
    blocked: str | None = None


def _runs_after(ctx: ModuleContext, assign: cst.Assign, use: cst.CSTNode) -> bool:
    """May `use` see what `assign` binds? When it is written after it in the function (or a loop
    around the assignment may come back to it), and no other assignment of the name written in the
    same block between the two rebinds it on every path (``k = a`` ``k = f(k)`` then a loop reading
    ``k``: the loop sees the second)."""
    fn = ctx.enclosing_function(assign)
    if ctx.enclosing_function(use) is not fn:
        return True
    if any(isinstance(a, (cst.For, cst.While)) for a in ctx.ancestors_within(assign, fn)):
        return True
    if ctx.start(use) < ctx.end(assign):
        return False
    statement = ctx.statement_of(assign)
    block = ctx.parent(statement)
    body = list(getattr(block, "body", ()))
    later = next((a for a in (use, *ctx.ancestors(use)) if ctx.parent(a) is block), None)
    if later is None or statement not in body or later not in body:
        return True  # the use is outside the assignment's block (after an `if` that binds, say)
    names = {t.target.value for t in assign.targets if isinstance(t.target, cst.Name)}
    between = body[body.index(statement) + 1 : body.index(later)]
    return not any(_assigns(line, names) for line in between)


def _assigns(line: cst.CSTNode, names: set[str]) -> bool:
    """A simple statement line that assigns one of `names` as a plain target."""
    if not isinstance(line, cst.SimpleStatementLine):
        return False
    return any(
        isinstance(small, (cst.Assign, cst.AnnAssign))
        and any(isinstance(t, cst.Name) and t.value in names for t in _plain_targets(small))
        for small in line.body
    )


def _plain_targets(small: cst.BaseSmallStatement) -> list[cst.BaseExpression]:
    if isinstance(small, cst.Assign):
        return [t.target for t in small.targets]
    return [small.target]  # type: ignore[attr-defined]


def init_field(ctx: ModuleContext, assign: cst.Assign) -> tuple[str, list[cst.Attribute]] | None:
    """``self.split_idxs = value``, a statement of ``__init__``'s own body and the one store of
    the field: (the field, every ``self.<field>`` the class's methods read), where those are all
    its reads (`own_field_reads`: no subclass, no ``.field`` of anything else); else None."""
    kept = init_store(ctx, assign)
    if kept is None:
        return None
    cls, target = kept
    found = own_field_reads(ctx, cls, target.attr.value)
    if found is None:
        return None
    stores = [a for a in found if stored(ctx, a)]
    if stores != [target]:
        return None
    return target.attr.value, [a for a in found if a is not target]


def init_store(ctx: ModuleContext, assign: cst.Assign) -> tuple[cst.ClassDef, cst.Attribute] | None:
    """(the class, the target) of ``self.<field> = value``, a statement of its ``__init__``'s own
    body (``self`` the first parameter), not under an ``if`` or in a loop; else None."""
    if len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    init = ctx.enclosing_function(assign)
    if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and isinstance(init, cst.FunctionDef)):
        return None
    if init.name.value != "__init__" or first_parameter(init) != target.value.value:
        return None
    if ctx.parent(ctx.parent(ctx.statement_of(assign))) is not init:
        return None  # under an `if`, in a loop: it may not run, or run again
    body = ctx.parent(init)
    cls = ctx.parent(body)
    return (cls, target) if isinstance(cls, cst.ClassDef) else None


def stored(ctx: ModuleContext, attribute: cst.Attribute) -> bool:
    """`attribute` is written to (assigned, augmented, deleted, unpacked into), not read."""
    node: cst.CSTNode = attribute
    parent = ctx.parent(node)
    while isinstance(parent, (cst.Element, cst.Tuple, cst.List, cst.StarredElement)):
        node, parent = parent, ctx.parent(parent)  # `self.a, self.b = ...`: a target inside a display
    if isinstance(parent, (cst.AugAssign, cst.AnnAssign)):
        return parent.target is node
    if isinstance(parent, (cst.For, cst.CompFor)):
        return parent.target is node
    return isinstance(parent, (cst.AssignTarget, cst.Del))


def _same_name_only(ctx: ModuleContext, target: cst.Name) -> bool:
    """Every binding of the name in its function is a parameter or a plain assignment
    (`constants.local_bindings`): a read seeing several of them sees one of these values."""
    return local_bindings(ctx, target) is not None


def _accumulated_only(ctx: ModuleContext, target: cst.Name, assign: cst.Assign) -> bool:
    """Every other binding of the name in its function is ``name op= value`` (``total_variance +=
    selection_variance``): each read sees this binding's value, or arithmetic on it."""
    scope = ctx.scope(target)
    if scope is None:
        return False
    for assignment in scope.assignments[target.value]:
        node = getattr(assignment, "node", None)
        if node is target:
            continue
        if not (isinstance(node, cst.Name) and isinstance(ctx.parent(node), cst.AugAssign)):
            return False
    return ctx.parent(ctx.parent(target)) is assign


def tracer_guard(operation: cst.BooleanOperation) -> bool:
    """``not_jax_tracer(i) and ...`` (numpyro), ``is_concrete(x) and ...``, ``not isinstance(x,
    Tracer) and ...``: an ``and`` whose left side asks whether a value is a tracer, so that its
    right side only runs on concrete values."""
    if not isinstance(operation.operator, cst.And):
        return False
    left = operation.left
    negated = isinstance(left, cst.UnaryOperation) and isinstance(left.operator, cst.Not)
    test = left.expression if negated else left  # type: ignore[attr-defined]
    if not isinstance(test, cst.Call):
        return False
    func = test.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if name == "isinstance" and len(test.args) == 2:
        kind = test.args[1].value
        shown = kind.attr.value if isinstance(kind, cst.Attribute) else kind.value if isinstance(kind, cst.Name) else ""
        return negated and "Tracer" in shown
    return "tracer" in name.lower() or "concrete" in name.lower()


#: flax.linen layers whose switch is tested with a Python ``if``: the layer, then (keyword, its
#: position in the constructor, its position in ``__call__``) (docs/flax-linen-behaviour.md).
LINEN_SWITCHES = {
    "flax.linen.Dropout": ("deterministic", 2, 1),
    "flax.linen.stochastic.Dropout": ("deterministic", 2, 1),
    "flax.linen.BatchNorm": ("use_running_average", 0, 1),
    "flax.linen.normalization.BatchNorm": ("use_running_average", 0, 1),
}


def linen_switch(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> str | None:
    """`arg` is the switch of a flax Dropout or BatchNorm (built, ``nn.Dropout(0.1,
    deterministic=d)``, or called, ``nn.Dropout(0.1)(x, d)``), which flax tests with ``if``:
    what the message says; else None."""
    if arg.star:
        return None
    built = ctx.names.qualified_name(call.func)
    called = ctx.names.qualified_name(call.func.func) if isinstance(call.func, cst.Call) else _bound_layer(ctx, call.func)
    layer = built if built in LINEN_SWITCHES else called if called in LINEN_SWITCHES else None
    if layer is None:
        return None
    keyword, at_build, at_call = LINEN_SWITCHES[layer]
    if arg.keyword is not None:
        matches = arg.keyword.value == keyword
    else:
        positional = [a for a in call.args if a.keyword is None]
        position = at_build if layer == built else at_call
        matches = not any(a.star for a in call.args) and positional.index(arg) == position
    short = layer.rsplit(".", 1)[-1]
    return f"flax's `{short}` tests `{keyword}` with a Python `if`, which needs a concrete bool" if matches else None


def _bound_layer(ctx: ModuleContext, func: cst.BaseExpression) -> str | None:
    """The switched layer a name is bound to, built once: ``drop = nn.Dropout(rate)``, or one arm of
    ``drop = nn.Dropout(rate) if rate else lambda x, _: x`` (openpi#987: where the Dropout arm runs,
    its `if` tests what the call passes)."""
    made = binding_value(ctx, func) if isinstance(func, cst.Name) else None
    arms = [made.body, made.orelse] if isinstance(made, cst.IfExp) else [made]
    for arm in arms:
        if isinstance(arm, cst.Call) and (layer := ctx.names.qualified_name(arm.func)) in LINEN_SWITCHES:
            return layer
    return None


def argument_sink(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> Sink | None:
    """Where `call` needs `arg` concrete: a size, shape or count, a conversion (``int(n)``), or a
    flax layer's switch (`linen_switch`)."""
    need = size_need(ctx, call, arg)
    if need is not None:
        return Sink(call, need[1], shape=need[0] == "shape")
    reason = linen_switch(ctx, call, arg)
    if reason is not None:
        return Sink(call, reason)
    if axis_argument(ctx, call, arg):
        return Sink(call, f"`{ctx.code(call.func)}` takes it as the axis, which must be a static int", axis=True)
    qualified = ctx.names.qualified_name(call.func)
    if qualified in CONVERSIONS:
        return Sink(call, f"`{ctx.code(call.func)}()` needs a concrete value")
    if argnums_argument(ctx, call, arg):
        return Sink(call, f"`{ctx.code(call.func)}` takes it as `argnums`, which must be Python ints", argnums=True)
    if qualified in CONCRETE_CHECKS and _at_position(call, arg, CONCRETE_CHECKS[qualified]):
        return Sink(call, f"`{ctx.code(call.func)}` raises unless its value is concrete")
    if numpy_function(qualified) and not arg.star:
        # `np.array(k, dtype)` (jax's sparse eye): NumPy converts a tracer with `__array__`, which
        # raises TracerArrayConversionError.
        return Sink(call, f"NumPy's `{ctx.code(call.func)}` needs a concrete value")
    if qualified in COMPARING and arg.keyword is None and not arg.star:
        return Sink(call, f"`{ctx.code(call.func)}()` compares its arguments with Python's `<`, which needs concrete values")
    return None


def needed_values(ctx: ModuleContext, sink: Sink) -> tuple[cst.BaseExpression, ...]:
    """The values `sink`'s place takes concrete: a call's arguments it needs so (a shape, a
    conversion's operand), a slice's bounds, a test."""
    node = sink.node
    if isinstance(node, cst.Call):
        return tuple(a.value for a in node.args if argument_sink(ctx, node, a) is not None)
    if isinstance(node, cst.Slice):
        return tuple(b for b in (node.lower, node.upper, node.step) if b is not None)
    if isinstance(node, (cst.If, cst.While, cst.IfExp, cst.Assert)):
        return (node.test,)
    if isinstance(node, cst.Subscript):
        return tuple(e.slice.value for e in node.slice if isinstance(e.slice, cst.Index))
    if isinstance(node, cst.BooleanOperation):
        return (node.left, node.right)
    if isinstance(node, cst.UnaryOperation):
        return (node.expression,)
    return (node,) if isinstance(node, cst.BaseExpression) else ()


def argnums_argument(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> bool:
    """`arg` is a differentiation's ``argnums`` (``grad(f, i)``): which arguments it differentiates
    is decided when the function is built, from Python ints (docs/differentiation-behaviour.md)."""
    if ctx.names.qualified_name(call.func) not in DIFFERENTIATION:
        return False
    return arg.keyword.value == "argnums" if arg.keyword is not None else _at_position(call, arg, 1)


def _at_position(call: cst.Call, arg: cst.Arg, position: int) -> bool:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return not arg.star and arg.keyword is None and position < len(positional) and positional[position] is arg


def numpy_function(qualified: str | None) -> bool:
    """A function of NumPy itself (``numpy.array``, ``numpy.sqrt``), not of a submodule JAX mirrors
    lazily (``numpy.random`` takes no array to convert either way, and stays out)."""
    return qualified is not None and qualified.startswith("numpy.") and qualified.count(".") == 1


def axis_argument(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> bool:
    """`arg` is the axis of a jax.numpy reduction or shape function (`AXIS_SECOND`): its second
    positional argument, or ``axis=``/``axes=``; jit needs it static (jax#12331: ``jnp.squeeze(x,
    jnp.array(1))`` fails under jit)."""
    qualified = ctx.names.qualified_name(call.func) or ""
    if not qualified.startswith("jax.numpy.") or qualified.rsplit(".", 1)[-1] not in AXIS_SECOND or arg.star:
        return False
    if arg.keyword is not None:
        return arg.keyword.value in ("axis", "axes")
    positional = [a for a in call.args if a.keyword is None]
    return len(positional) > 1 and positional[1] is arg and not any(a.star for a in call.args)


def index_sink(ctx: ModuleContext, index: cst.Index) -> Sink | None:
    """``seq[i]`` with `index` the ``i``, when ``seq`` is surely a Python sequence: it needs ``i`` concrete;
    ``table[k]`` of a Python dict: it needs ``k`` hashable, which a tracer (or a tuple of them) is not."""
    sequence = indexed_sequence(ctx, index)
    if sequence is not None:
        return Sink(ctx.parent(ctx.parent(index)), f"{sequence} needs a concrete int as its index")  # type: ignore[arg-type]
    mapping = indexed_mapping(ctx, index)
    if mapping is not None:
        return Sink(ctx.parent(ctx.parent(index)), f"{mapping} needs a hashable key, which a tracer is not")  # type: ignore[arg-type]
    return None


def _over_arange(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """`node` is ``jnp.arange(...)``, or a slice of it."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return isinstance(node, cst.Call) and ctx.names.qualified_name(node.func) == "jax.numpy.arange"


#: Array methods that hand out the values as Python ones: a tracer raises ConcretizationTypeError.
CONVERTING_METHODS = frozenset({"item", "tolist"})
#: An array's sizes: Python ints whatever holds the values (a tracer, a jax or a NumPy array).
_SIZES = frozenset({"shape", "ndim", "size"})
#: Array methods whose result holds the receiver's values, each as it was or converted: a tracer's is
#: a tracer (pgx's ``jnp.sqrt(n).astype(jnp.int32).item()``). A reduction is a value of its own.
ARRAY_KEEPING_METHODS = frozenset({"astype", "reshape", "ravel", "flatten", "squeeze", "transpose", "round", "clip", "copy"})
#: Reductions whose result a repair computes exactly alike in NumPy and at trace time (a bool, or
#: one of the values, in its dtype): of a tracer, a tracer (jit_env#36's ``(n > 0).all()`` in an
#: ``if``). ``sum``/``mean`` are left out: NumPy's accumulate in other dtypes than jnp's.
EXACT_REDUCTIONS = frozenset({"all", "any", "max", "min"})


def exact_reduction(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x`` of ``x.all()``, ``x.max()``: one of `EXACT_REDUCTIONS` called with no argument."""
    func = expr.func if isinstance(expr, cst.Call) and not expr.args else None
    return func.value if isinstance(func, cst.Attribute) and func.attr.value in EXACT_REDUCTIONS else None

#: Builtins whose result only describes a value; passed straight to ``print`` it is only shown.
_DESCRIBES = frozenset({"builtins.type", "builtins.repr", "builtins.str"})


#: What reverse-mode differentiation does with a traced bound of a fori_loop (docs/jax301-behaviour.md).
TRACED_BOUND_UNDER_GRAD = (
    "a traced one makes it a while_loop: `Reverse-mode differentiation does not work for "
    "lax.while_loop or lax.fori_loop with dynamic start/stop values`"
)


def fori_bound(call: cst.Call, arg: cst.Arg) -> bool:
    """`arg` is the lower or upper bound of the ``lax.fori_loop`` `call` (by position or keyword)."""
    if arg.star:
        return False
    if arg.keyword is not None:
        return arg.keyword.value in ("lower", "upper")
    return not any(a.star for a in call.args) and [a for a in call.args if a.keyword is None].index(arg) < 2


class Follower:
    """Follows a value to where it is used. `through_indexing`: ``v[0]`` of an array is an array
    too, so a question about an array (JAX304's: is this tracer needed concrete?) follows the
    element; a question about a value that is to become a Python int (JAX402's) stops there.
    `reverse_mode`: the function a reverse-mode transform differentiates that runs a node, if one
    (`TraceIndex.reverse_mode_root`): a bound of a fori_loop there needs a concrete value.
    `staged`: whether a function (None: the module's top level) runs under a trace; given, a value
    a helper returns is followed to its calls, a call in code that runs eagerly getting a concrete
    value that needs nothing (what it is used for may still block a repair). `jax_operand`: for a
    question about the value's type (would a NumPy array serve as well?), an operand that makes
    an operation's result a jax array whatever the value is: the value is not followed past it."""

    def __init__(
        self,
        ctx: ModuleContext,
        *,
        through_indexing: bool = False,
        reverse_mode: Callable[[cst.CSTNode], object | None] | None = None,
        staged: Callable[[FunctionNode | None], bool] | None = None,
        jax_operand: Callable[[cst.BaseExpression], bool] | None = None,
    ) -> None:
        self.ctx = ctx
        self.through_indexing = through_indexing
        self.reverse_mode = reverse_mode
        self.staged = staged
        self.jax_operand = jax_operand
        #: The other operands `jax_operand` stopped at: each must not be made of the value itself.
        self.stopped: list[cst.BaseExpression] = []
        self._bindings_seen: dict[tuple[cst.Name, Place | None], Flow] = {}
        #: The ids of every node this follower was asked to follow: the reads a value went through.
        self.passed: set[int] = set()

    def follow(self, expr: cst.CSTNode, depth: int = 0, held: Place | None = None) -> Flow:
        """Where `expr`'s value goes; `held`: `expr` is a Python tuple or list holding the value
        there (``(n,)``, ``widths + (n,)``), and what reads it back may be the value."""
        ctx = self.ctx
        self.passed.add(id(expr))
        if depth > 12:
            return Flow(blocked="it flows further than we follow")
        node = expr
        while True:
            parent = ctx.parent(node)
            line = ctx.span(node).start.line
            if isinstance(parent, cst.Comparison) and any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons):
                return Flow()  # `v is not None` (a comparator climbs here through its target): identity
            if held is not None and isinstance(parent, cst.BinaryOperation):
                held = concatenated(held, parent, node)  # type: ignore[arg-type]
                node = parent
                continue
            if self.jax_operand is not None and isinstance(parent, cst.BinaryOperation):
                other = parent.right if parent.left is node else parent.left
                if self.jax_operand(other):
                    # `bins / (max_value - min_value)`: a jax array whatever the value is, with the same
                    # values (a question about the value's type, NumPy's twin's, stops here)
                    self.stopped.append(other)
                    return Flow()
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget)):
                node = parent
                continue
            if isinstance(parent, (cst.ListComp, cst.GeneratorExp)) and parent.elt is node:
                held = UNKNOWN  # `[series[s] for s in starts]`: a list of such values
                node = parent
                continue
            if isinstance(parent, cst.Element) and isinstance(ctx.parent(parent), (cst.Tuple, cst.List)):
                sequence = ctx.parent(parent)
                held = element_place(sequence, parent) if held is None else UNKNOWN  # type: ignore[arg-type]
                node = sequence  # type: ignore[assignment]
                continue
            if held is not None and isinstance(parent, cst.Subscript) and parent.value is node and len(parent.slice) == 1:
                part = parent.slice[0].slice
                if isinstance(part, cst.Slice):
                    held = sliced(held, part)
                    if held is None:
                        return Flow()  # `widths[:-1]` leaves the value out
                else:
                    if indexed(held, part.value) is False:  # type: ignore[union-attr]
                        return Flow()  # another element
                    held = None
                node = parent
                continue
            if held is not None and isinstance(parent, cst.For) and parent.iter is node:
                return self._loop_target(parent, line, depth)
            if self.through_indexing and isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
                if _over_arange(ctx, node):
                    return Flow()  # `for i in jnp.arange(3)`: JAX402's (static ints) or JAX301's (a traced count)
                return self._loop_target(parent, line, depth)  # `for i in ix`: each row of an array is one too
            if isinstance(parent, cst.Arg) and parent.value is node:
                return self._argument(parent, line, depth, held)
            if isinstance(parent, cst.Slice):
                return Flow((Sink(parent, "a slice bound must be a concrete int"),))
            if isinstance(parent, cst.Index):
                sink = index_sink(ctx, parent)
                if sink is not None:
                    return Flow((sink,))
                subscript = ctx.parent(ctx.parent(parent))
                if self.through_indexing and isinstance(subscript, cst.Subscript):
                    node = subscript  # sizes[i]: what an array gives at a traced index is traced too
                    continue
                return Flow()  # x[m]: integer indexing of an array takes a tracer too
            if self.through_indexing and isinstance(parent, cst.Subscript) and parent.value is node:
                node = parent
                continue
            if isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert)) and parent.test is node:
                statement = "`assert`" if isinstance(parent, cst.Assert) else "`while`" if isinstance(parent, cst.While) else "`if`"
                return Flow((Sink(parent, f"a Python {statement} needs a concrete value"),))
            if isinstance(parent, cst.BooleanOperation) and parent.right is node and tracer_guard(parent):
                return Flow()  # `not_jax_tracer(i) and i in range(n)`: the right side runs only for a concrete value
            if isinstance(parent, cst.BooleanOperation) and parent.right is node:
                node = parent  # `a or b` gives b itself, untested: where the result goes decides
                continue
            if is_logical(parent) and serves_as_value(ctx, None, parent, lambda e, read=node: e is read):  # type: ignore[arg-type]
                node = outermost(ctx, parent)  # type: ignore[arg-type]  # jnp.logical_* takes it as data (JAX309)
                continue
            if is_logical(parent):
                return Flow((Sink(parent, "a Python boolean operator needs a concrete value"),))
            if isinstance(parent, cst.Assign) and parent.value is node:
                return self._name(parent, line, depth, held)
            if isinstance(parent, cst.Expr):
                return Flow()
            shown = ctx.code(parent) if isinstance(parent, cst.BaseExpression) else type(parent).__name__
            if isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is node:
                outer = ctx.parent(parent)
                called = isinstance(outer, cst.Call) and outer.func is parent
                shown = ctx.code(outer) if called else ctx.code(parent)
                blocked = f"it is used as `{shorten(shown)}` (line {line}), which a Python int does not support"
                if self.through_indexing and not called and isinstance(parent, cst.Attribute) and parent.attr.value in _SIZES:
                    return Flow()  # `bins.shape[0]`: static for a tracer and a NumPy array alike (not the dtype)
                if (
                    self.through_indexing and called and isinstance(parent, cst.Attribute)
                    and parent.attr.value in ARRAY_KEEPING_METHODS | EXACT_REDUCTIONS
                ):
                    node = outer  # type: ignore[assignment]  # `.astype(jnp.int32)`, `.all()`: an array still
                    continue
                if called and isinstance(parent, cst.Attribute) and parent.attr.value in CONVERTING_METHODS:
                    # `tsave.tolist()` (dynamiqs#1015): an array's values as Python ones, which a tracer has not
                    sink = Sink(outer, f"`.{parent.attr.value}()` needs a concrete value")  # type: ignore[arg-type]
                    return Flow((sink,), blocked)
                return Flow(blocked=blocked)
            if isinstance(parent, cst.Return):
                return self._returned(parent, line, depth, held)
            return Flow(blocked=f"it is used in `{shorten(shown)}` (line {line})")

    def _returned(self, ret: cst.Return, line: int, depth: int, held: Place | None) -> Flow:
        """The value a helper returns goes where each of its calls' results goes, when the module
        shows every call (`returned_values.result_calls`)."""
        fn = self.ctx.enclosing_function(ret)
        if self.staged is None:
            calls: list[cst.Call] | str = "its callers are not followed here"
        else:
            calls = result_calls(self.ctx, fn) if isinstance(fn, cst.FunctionDef) else "a lambda returns it"
        if isinstance(calls, str):
            return Flow(blocked=f"it is returned (line {line}), and the caller may need an array: {calls}")
        sinks: list[Sink] = []
        blocked: str | None = None
        for call in calls:
            flow = self.follow(call, depth + 1, held)
            blocked = blocked or flow.blocked
            if self.staged(self.ctx.enclosing_function(call)):
                sinks.extend(replace(s, returned=True) for s in flow.sinks)  # run eagerly, a call gets a concrete value
        return Flow(tuple(sinks), blocked)

    def _argument(self, arg: cst.Arg, line: int, depth: int, held: Place | None) -> Flow:
        ctx = self.ctx
        call = ctx.parent(arg)
        assert isinstance(call, cst.Call)
        sink = argument_sink(ctx, call, arg)
        if sink is not None:
            return Flow((sink,))
        qualified = ctx.names.qualified_name(call.func) or ""
        if qualified == FORI_LOOP and self.reverse_mode is not None and fori_bound(call, arg) and self.reverse_mode(call) is not None:
            return Flow((Sink(call, f"`lax.fori_loop` needs concrete bounds where the module differentiates it in reverse mode ({TRACED_BOUND_UNDER_GRAD})"),))
        field = constructed_field(ctx, call, arg)
        if field is not None:
            return self._field(*field, line, depth, held)
        jitted = jitted_call(ctx, call)
        if jitted is not None:
            slot = next((s for s in jitted.slots if s.expr is arg.value), None)
            if slot is not None and slot.static:
                reason = f"static parameter `{slot.param}` of the jitted `{jitted.callee_name}` must hash it"
                return Flow((Sink(call, reason, static_parameter=slot.param),))
            if slot is not None:
                return Flow()
        if qualified.startswith(ARRAY_MODULES) or self._displayed(call, qualified):
            return Flow()
        if qualified in ("builtins.tuple", "builtins.list") and len(call.args) == 1 and isinstance(ctx.parent(call), cst.Index):
            # `table[tuple(lo)]`: a tuple of the tracer's elements, as unhashable as the tracer
            sink = index_sink(ctx, ctx.parent(call))  # type: ignore[arg-type]
            if sink is not None and sink.reason.endswith("which a tracer is not"):
                return Flow((sink,))
        if qualified == "builtins.sum" and len(call.args) == 1 and arg.keyword is None and not arg.star:
            return self.follow(call, depth + 1, held)  # `sum(variances)`: `+` of its items, as traced as they are
        if self._holds_its_argument(call, arg, qualified):
            # `tuple(b)`, `tuple(map(tuple, a))`, `Pair(a, b)` of a namedtuple: a tuple holding the
            # value's parts (numpyro#1212), as unhashable as they are
            return self.follow(call, depth + 1, UNKNOWN)
        helper = self._helper_parameter(call, arg)
        if helper is not None:
            return self._joined(helper, depth, held)
        return Flow(blocked=f"it is passed to `{shorten(ctx.code(call.func))}` (line {line}), which we cannot see into")

    def _holds_its_argument(self, call: cst.Call, arg: cst.Arg, qualified: str) -> bool:
        """Is the call's result a tuple or list whose items are the argument's parts: ``tuple(x)``,
        ``list(x)``, ``map(tuple, x)`` (an iterator of such rows), or a namedtuple built by
        ``collections.namedtuple`` with the argument as a field?"""
        if arg.star or (arg.keyword is not None and qualified in ("builtins.tuple", "builtins.list", "builtins.map")):
            return False  # (a namedtuple's field may be given by keyword)
        if qualified in ("builtins.tuple", "builtins.list"):
            return len(call.args) == 1
        if qualified == "builtins.map":
            first = call.args[0].value if len(call.args) == 2 else None
            return arg is call.args[1] and self.ctx.names.qualified_name(first) in ("builtins.tuple", "builtins.list")
        made = binding_value(self.ctx, call.func) if isinstance(call.func, cst.Name) else None
        return isinstance(made, cst.Call) and self.ctx.names.qualified_name(made.func) == "collections.namedtuple"

    def _helper_parameter(self, call: cst.Call, arg: cst.Arg) -> list[cst.CSTNode] | None:
        """`arg` handed to a def of the module that runs as written (``_const(idx, k)``): the reads
        of the parameter it binds, inside the def, where the value goes on; None when the callee or
        the binding cannot be seen, or a read may see another value (the parameter rebound)."""
        ctx = self.ctx
        helper = plain_def(ctx, call.func)
        if arg.star or any(a.star for a in call.args):
            return None
        if helper is None:
            return self._init_parameter(call, arg)
        slots = bind_arguments(ctx, call)
        slot = slots.get(arg) if slots is not None else None
        param = parameter(helper, slot.param) if slot is not None and slot.target.function.node is helper else None
        if param is None:
            return None
        uses = reads(ctx, param.name)
        if any(reaching_binding(ctx, u) is not param for u in uses):  # type: ignore[arg-type]
            return None
        return uses

    def _init_parameter(self, call: cst.Call, arg: cst.Arg) -> list[cst.CSTNode] | None:
        """`arg` of ``Discretizer(min_value=..., bins=bins)``, a class of the module with an
        undecorated ``__init__`` of its own (and no ``__new__``, no class decorator): the reads of
        the parameter it binds there (``self._bins = bins``), where the value goes on."""
        ctx = self.ctx
        cls = single_binding(ctx, call.func) if isinstance(call.func, cst.Name) else None
        if not isinstance(cls, cst.ClassDef) or cls.decorators or members_named(cls, "__new__"):
            return None
        inits = [m for m in members_named(cls, "__init__") if isinstance(m, cst.FunctionDef)]
        if len(inits) != 1 or inits[0].decorators:
            return None
        init = inits[0]
        signature = function_info(ctx, init).signature
        name = next((p.name for p in signature.params if call_argument(call, signature, p.name, bound=True) is arg.value), None)
        param = parameter(init, name) if name is not None else None
        if param is None:
            return None
        uses = reads(ctx, param.name)
        if any(reaching_binding(ctx, u) is not param for u in uses):  # type: ignore[arg-type]
            return None
        return uses

    def _displayed(self, call: cst.Call, qualified: str) -> bool:
        """Only shown, never computed with: ``print(n)``, ``print(type(n))``, ``print(repr(n))``.

        A fix that makes the value a Python int changes what such a line prints (``5`` for a
        tracer's repr), which is the fix's point, and nothing the program computes.
        """
        if qualified == "builtins.print":
            return True
        if qualified not in _DESCRIBES:
            return False
        outer = self.ctx.parent(call)
        holder = self.ctx.parent(outer) if isinstance(outer, cst.Arg) else None
        return isinstance(holder, cst.Call) and self.ctx.names.qualified_name(holder.func) == "builtins.print"

    def _field(self, cls: cst.ClassDef, field: str, line: int, depth: int, held: Place | None) -> Flow:
        """The value fills `field` of a `cls` built here (``MLP(widths + (n,))``, flax#1516): it goes
        where the class's own methods read ``self.<field>``."""
        uses = own_field_reads(self.ctx, cls, field)
        if uses is None:
            return Flow(blocked=f"it is stored in `{cls.name.value}.{field}` (line {line}), which is read where we cannot follow")
        return self._joined(uses, depth, held)

    def _loop_target(self, loop: cst.For | cst.CompFor, line: int, depth: int) -> Flow:
        """``for feat in widths:`` over a tuple holding the value: the loop variable may be it."""
        if not isinstance(loop.target, cst.Name):
            return Flow(blocked=f"a loop unpacks it (line {line})")
        uses = [u for u in reads(self.ctx, loop.target) if single_binding(self.ctx, u) is loop.target]  # type: ignore[arg-type]
        return self._joined(uses, depth, None)

    def _joined(self, uses: list, depth: int, held: Place | None) -> Flow:
        sinks: list[Sink] = []
        blocked: str | None = None
        for use in uses:
            flow = self.follow(use, depth + 1, held)
            blocked = blocked or flow.blocked
            sinks.extend(flow.sinks)
        return Flow(tuple(sinks), blocked)

    def _name(self, assign: cst.Assign, line: int, depth: int, held: Place | None) -> Flow:
        field = init_field(self.ctx, assign)
        if field is not None and held is None:
            return self._joined(field[1], depth, None)
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if held is not None and isinstance(target, (cst.Tuple, cst.List)):
            # `north_west, south_east = _view_extremes(...)` of a returned `(north_west, south_east)`
            index = unpacked(held, target)
            name = target.elements[index].value if index is not None else None
            if isinstance(name, cst.Name):
                return self._bound(assign, name, depth, None)
        targets = self._targets(assign, held)
        if targets is None:
            return Flow(blocked=f"it is unpacked or stored (line {line})")
        sinks: list[Sink] = []
        blocked: str | None = None
        for target in targets:
            flow = self._bound(assign, target, depth, held)
            blocked = blocked or flow.blocked
            sinks.extend(flow.sinks)
        return Flow(tuple(sinks), blocked)

    def _targets(self, assign: cst.Assign, held: Place | None) -> list[cst.Name] | None:
        """The names the value is bound to: the one target, or, following through indexing, each
        name of ``u, s, vt = jnp.linalg.svd(m)`` (every part of a traced value is traced)."""
        if len(assign.targets) != 1:
            return None
        target = assign.targets[0].target
        if isinstance(target, cst.Name):
            return [target]
        if not self.through_indexing or held is not None or not isinstance(target, (cst.Tuple, cst.List)):
            return None
        names = [e.value for e in target.elements if isinstance(e, cst.Element)]
        if len(names) != len(target.elements) or not all(isinstance(n, cst.Name) for n in names):
            return None
        return names  # type: ignore[return-value]

    def _outer_constant(self, assign: cst.Assign, target: cst.Name) -> bool:
        """``IDX = jnp.cumsum(...)`` as a statement of the module, or of a function's own body
        read by the functions nested in it, the name's one binding in its scope (a ``global`` or
        ``nonlocal`` rebinding is a second one) and, at module level, imported by no other module of
        the project: every function reading it reads this value (flowjax#132's constant, read by a
        jitted function)."""
        ctx = self.ctx
        statement = ctx.statement_of(assign)
        holder = ctx.parent(statement)
        fn = ctx.enclosing_function(assign)
        if holder is not ctx.module and not (fn is not None and ctx.parent(holder) is fn):
            return False  # inside an `if`, a loop, a `try`: it may not run, or run again
        scope = ctx.scope(target)
        if scope is None or len(scope.assignments[target.value]) != 1:
            return False
        if isinstance(scope, GlobalScope) and ctx.repo is not None:
            from jaxfix.transforms.semantics.importers import here, used_elsewhere

            definition = here(ctx, target.value)
            if definition is None or used_elsewhere(ctx, definition):
                return False
        return True

    def _bound(self, assign: cst.Assign, target: cst.Name, depth: int, held: Place | None) -> Flow:
        """Where the value bound to `target` goes; each binding is followed once per follower (a
        loop rebinding ``x = x - f(x)`` reaches the same bindings again and again)."""
        key = (target, held)
        if key not in self._bindings_seen:
            self._bindings_seen[key] = Flow()  # in progress: coming round again adds nothing
            self._bindings_seen[key] = self._bound_uses(assign, target, depth, held)
        return self._bindings_seen[key]

    def _bound_uses(self, assign: cst.Assign, target: cst.Name, depth: int, held: Place | None) -> Flow:
        ctx = self.ctx
        uses = reads(ctx, target)
        sinks: list[Sink] = []
        blocked: str | None = None
        for use in uses:
            reaching = reaching_binding(ctx, use)  # type: ignore[arg-type]
            if reaching is None and not _runs_after(ctx, assign, use):
                continue  # read before this binding exists, and no loop comes round to it
            accumulated = _accumulated_only(ctx, target, assign)
            if accumulated and isinstance(ctx.parent(use), cst.AugAssign) and ctx.parent(use).target is use:  # type: ignore[union-attr]
                continue  # `total_variance += v`: the value, plus more, stays in the name: its reads are followed
            if reaching is None and not (_same_name_only(ctx, target) or accumulated):
                blocked = blocked or f"`{target.value}` is bound more than once"
                continue
            if reaching is not target and reaching is not None:
                continue  # another binding's value is read there
            # (reaching None: this binding's value or another's; where it goes must take this one)
            if ctx.enclosing_function(use) is not ctx.enclosing_function(assign) and not self._outer_constant(assign, target):
                blocked = blocked or f"`{target.value}` is read in another function (line {ctx.span(use).start.line})"
                continue
            flow = self.follow(use, depth + 1, held)
            blocked = blocked or flow.blocked
            sinks.extend(flow.sinks)
        return Flow(tuple(sinks), blocked)



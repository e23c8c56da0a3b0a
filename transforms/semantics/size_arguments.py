"""Which arguments of JAX's functions are sizes: values a function needs concrete.

``jnp.zeros(n)``, ``lax.scan(..., length=n)``, ``jax.random.normal(key, shape)`` and
``gmres(..., restart=n)`` build arrays of a size, or run a Python loop, from the argument:
under a trace it must be a Python value (a tracer fails: ConcretizationTypeError,
TracerIntegerConversionError). ``jnp.unique(x)`` and kin size their result by the values of
their data unless a bound (``size=``) is given. The tables name each such argument by
qualified name, position and keyword; `size_argument` reads a call against them (through
``functools.partial(f, ...)`` too). `sinks` builds its places that need a concrete value on
them; `array_destinations` asks them where an array would not serve.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.vocabulary import PARTIAL

ALL = "*"

#: qualified name -> (what it needs, positions, keywords) of the arguments that must be concrete.
SIZE_ARGUMENTS: dict[str, tuple[str, tuple[int, ...] | str, tuple[str, ...]]] = {
    "builtins.range": ("count", ALL, ()),
    "jax.numpy.arange": ("size", ALL, ("start", "stop", "step")),
    "jax.numpy.linspace": ("count", (2,), ("num",)),
    "jax.numpy.logspace": ("count", (2,), ("num",)),
    "jax.numpy.geomspace": ("count", (2,), ("num",)),
    "jax.numpy.zeros": ("shape", (0,), ("shape",)),
    "jax.numpy.ones": ("shape", (0,), ("shape",)),
    "jax.numpy.empty": ("shape", (0,), ("shape",)),
    "jax.numpy.full": ("shape", (0,), ("shape",)),
    "jax.numpy.eye": ("shape", (0, 1), ("N", "M")),
    "jax.numpy.identity": ("shape", (0,), ("n",)),
    "jax.numpy.tri": ("shape", (0, 1), ("N", "M")),
    "jax.numpy.reshape": ("shape", (1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ("shape", (1,), ("shape",)),
    "jax.numpy.tile": ("shape", (1,), ("reps",)),
    "jax.numpy.split": ("size", (1,), ("indices_or_sections",)),
    "jax.numpy.array_split": ("size", (1,), ("indices_or_sections",)),
    "jax.nn.one_hot": ("size", (1,), ("num_classes",)),
    "jax.lax.scan": ("length", (3,), ("length",)),
    "jax.lax.dynamic_slice": ("shape", (2,), ("slice_sizes",)),
    "jax.lax.dynamic_slice_in_dim": ("size", (2,), ("slice_size",)),
    "jax.random.normal": ("shape", (1,), ("shape",)),
    "jax.random.uniform": ("shape", (1,), ("shape",)),
    "jax.random.randint": ("shape", (1,), ("shape",)),
    "jax.random.bernoulli": ("shape", (2,), ("shape",)),
    "jax.random.choice": ("shape", (2,), ("shape",)),
    "jax.random.truncated_normal": ("shape", (3,), ("shape",)),
    "jax.random.categorical": ("shape", (3,), ("shape",)),
    "jax.random.gumbel": ("shape", (1,), ("shape",)),
    "jax.random.exponential": ("shape", (1,), ("shape",)),
    "jax.random.laplace": ("shape", (1,), ("shape",)),
    "jax.random.logistic": ("shape", (1,), ("shape",)),
    "jax.random.cauchy": ("shape", (1,), ("shape",)),
    "jax.random.rademacher": ("shape", (1,), ("shape",)),
    "jax.random.bits": ("shape", (1,), ("shape",)),
    "jax.random.split": ("count", (1,), ("num",)),
    "jax.random.poisson": ("shape", (2,), ("shape",)),
    "jax.random.gamma": ("shape", (2,), ("shape",)),
    "jax.random.beta": ("shape", (3,), ("shape",)),
    "jax.random.dirichlet": ("shape", (2,), ("shape",)),
    "jax.random.multivariate_normal": ("shape", (3,), ("shape",)),
    "jax.lax.full": ("shape", (0,), ("shape",)),
    "jax.lax.iota": ("size", (1,), ("size",)),
    "jax.lax.broadcast": ("shape", (1,), ("sizes",)),
    "jax.lax.broadcast_in_dim": ("shape", (1,), ("shape",)),
    "jax.lax.reshape": ("shape", (1,), ("new_sizes",)),
    "jax.lax.slice": ("bound", (1, 2, 3), ("start_indices", "limit_indices", "strides")),
    "jax.lax.top_k": ("count", (1,), ("k",)),
    "jax.numpy.zeros_like": ("shape", (), ("shape",)),
    "jax.numpy.ones_like": ("shape", (), ("shape",)),
    "jax.numpy.full_like": ("shape", (), ("shape",)),
    "jax.numpy.empty_like": ("shape", (), ("shape",)),
    "jax.numpy.resize": ("shape", (1,), ("new_shape",)),
    # `repeats` works traced once `total_repeat_length` is given (`size_argument` says so).
    "jax.numpy.repeat": ("count", (1,), ("repeats", "total_repeat_length")),
    "jax.numpy.pad": ("size", (1,), ("pad_width",)),
    "jax.numpy.triu": ("offset", (1,), ("k",)),
    "jax.numpy.tril": ("offset", (1,), ("k",)),
    "jax.numpy.diag": ("offset", (1,), ("k",)),
    "jax.numpy.unique": ("size", (), ("size",)),
    "jax.numpy.nonzero": ("size", (), ("size",)),
    "jax.numpy.where": ("size", (), ("size",)),
    "jax.numpy.argwhere": ("size", (), ("size",)),
    "jax.numpy.flatnonzero": ("size", (), ("size",)),
    "jax.numpy.compress": ("size", (), ("size",)),
    "jax.numpy.extract": ("size", (), ("size",)),
    "jax.numpy.bincount": ("length", (), ("length",)),
    # even a concrete jax array fails there under a trace (docs/jax302-behaviour.md, G; waymax#37)
    "jax.numpy.ravel_multi_index": ("shape", (1,), ("dims",)),
    # static parameters of the library's own inner jits: a traced one fails to hash there
    # ("Non-hashable static arguments are not supported"; docs/jax302-behaviour.md, B, added
    # 2026-12-07 from jax#4723's `jnp.linalg.matrix_power(F, n)`).
    "jax.numpy.linalg.matrix_power": ("exponent", (1,), ("n",)),
    # `restart = min(restart, size)` in Python: a traced one fails to convert (maxiter is traced
    # fine; docs/jax302-behaviour.md, I, netket#637)
    "jax.scipy.sparse.linalg.gmres": ("count", (), ("restart",)),
    "jax.lax.integer_pow": ("exponent", (1,), ("y",)),
    "jax.numpy.diff": ("count", (1,), ("n",)),
    "jax.numpy.round": ("count", (1,), ("decimals",)),
    "jax.numpy.around": ("count", (1,), ("decimals",)),
    "jax.numpy.polyfit": ("degree", (2,), ("deg",)),
    "jax.numpy.diagonal": ("offset", (1,), ("offset",)),
    "jax.numpy.rot90": ("count", (1,), ("k",)),
    "jax.numpy.vander": ("size", (1,), ("N",)),
    "jax.numpy.partition": ("index", (1,), ("kth",)),
    "jax.numpy.argpartition": ("index", (1,), ("kth",)),
    # equinox's filters take Python bools (or callables) for every leaf: a traced mask raises
    # "filter_spec leaf values cannot be traced arrays" (equinox#1036).
    "equinox.partition": ("filter spec", (1,), ("filter_spec",)),
    "equinox.filter": ("filter spec", (1,), ("filter_spec",)),
    "jax.numpy.fft.fft": ("size", (1,), ("n",)),
    "jax.numpy.fft.ifft": ("size", (1,), ("n",)),
    "jax.numpy.fft.rfft": ("size", (1,), ("n",)),
    "jax.numpy.fft.irfft": ("size", (1,), ("n",)),
    "jax.lax.conv": ("stride", (2,), ("window_strides",)),
    "jax.lax.conv_general_dilated": ("stride", (2, 4, 5), ("window_strides", "lhs_dilation", "rhs_dilation")),
    "jax.lax.conv_with_general_padding": ("stride", (2, 4, 5), ("window_strides", "lhs_dilation", "rhs_dilation")),
    "jax.lax.reduce_window": ("window", (3, 4), ("window_dimensions", "window_strides")),
    "jax.ops.segment_sum": ("count", (2,), ("num_segments",)),
    "jax.ops.segment_max": ("count", (2,), ("num_segments",)),
    "jax.ops.segment_min": ("count", (2,), ("num_segments",)),
    "jax.ops.segment_prod": ("count", (2,), ("num_segments",)),
    # flax.linen layers build their parameters' shapes from these (docs/flax-linen-behaviour.md).
    **{
        f"flax.linen.{layer}": entry
        for layer, entry in {
            "Dense": ("size", (0,), ("features",)),
            "DenseGeneral": ("size", (0,), ("features",)),
            "Conv": ("size", (0, 1), ("features", "kernel_size")),
            "ConvTranspose": ("size", (0, 1), ("features", "kernel_size")),
            "ConvLocal": ("size", (0, 1), ("features", "kernel_size")),
            "Embed": ("size", (0, 1), ("num_embeddings", "features")),
            "GroupNorm": ("count", (0,), ("num_groups", "group_size")),
            "MultiHeadDotProductAttention": ("count", (0,), ("num_heads", "qkv_features", "out_features")),
            "SelfAttention": ("count", (0,), ("num_heads", "qkv_features", "out_features")),
            "LSTMCell": ("size", (0,), ("features",)),
            "OptimizedLSTMCell": ("size", (0,), ("features",)),
            "GRUCell": ("size", (0,), ("features",)),
            "SimpleCell": ("size", (0,), ("features",)),
        }.items()
    },
}
#: Functions whose result's shape depends on the values of their first argument: without ``size=``
#: they need those values concrete (ConcretizationTypeError under a trace; ``jnp.where`` with the
#: condition alone).
#: jax.ops's segment reductions: left out, their count is computed from the ids.
SEGMENT_REDUCTIONS = frozenset(f"jax.ops.segment_{name}" for name in ("sum", "prod", "max", "min"))
VALUE_SIZED: dict[str, tuple[int, str, int | None]] = {
    **{
        f"jax.numpy.{name}": (0, "size", None)
        for name in ("unique", "unique_values", "unique_counts", "unique_inverse", "unique_all", "nonzero",
                     "flatnonzero", "argwhere", "where", "compress", "extract")
    },
    # `num_segments = np.max(segment_ids) + 1` when left out (docs/jax302-behaviour.md, E)
    **{name: (1, "num_segments", 2) for name in SEGMENT_REDUCTIONS},
    # strips the coefficients' leading zeros, as many as the values have, unless `strip_zeros=False`
    # (its roots then hold NaN for them; jax's docs: needed under jit; tinygp#89)
    "jax.numpy.roots": (0, "strip_zeros", None),
}
#: Value-shaped calls whose keyword fixes the result's size by a flag, not a count.
SIZE_FLAGS = {"jax.numpy.roots": ("strip_zeros", "False")}
VALUE_SHAPED = frozenset(VALUE_SIZED)


def size_argument(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> str | None:
    """What `call` needs `arg` concrete for ("`jnp.zeros` needs a concrete shape"), or None."""
    need = size_need(ctx, call, arg)
    return need[1] if need is not None else None


def size_need(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> tuple[str, str] | None:
    """(what kind of size `call` takes `arg` as: "shape", "size", "count"..., and the reason in
    words), or None when it takes it as data."""
    what = _size_kind(ctx, call, arg)
    return (what, _size_reason(ctx, call, what)) if what is not None else None


#: `_size_kind` for a `VALUE_SHAPED` call's argument: the values themselves size the result.
_VALUES = "values"


def _size_reason(ctx: ModuleContext, call: cst.Call, what: str) -> str:
    bound = ctx.names.qualified_name(call.func) == PARTIAL and call.args
    func = ctx.code(call.args[0].value if bound else call.func)
    if what == _VALUES:
        keyword = size_keyword(ctx.names.qualified_name(call.func) or "")
        return f"`{func}` needs concrete values: the shape of its result depends on them (or a static `{keyword}=`)"
    return f"`{func}` needs a concrete {what}"


def size_keyword(qualified: str) -> str:
    """The keyword that bounds a `VALUE_SHAPED` function's result (``size``, ``num_segments``)."""
    return VALUE_SIZED[qualified][1] if qualified in VALUE_SIZED else "size"


def sized_values(ctx: ModuleContext, call: cst.Call) -> cst.BaseExpression | None:
    """The argument whose values size a `VALUE_SHAPED` call's result, when no bound is given."""
    qualified = ctx.names.qualified_name(call.func) or ""
    position = VALUE_SIZED[qualified][0] if qualified in VALUE_SIZED else 0
    positional = [a for a in call.args if a.keyword is None and not a.star]
    arg = positional[position] if position < len(positional) else None
    return arg.value if arg is not None and _sized_by_values(call, arg, qualified) else None


def _size_kind(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> str | None:
    """What kind of size `call` takes `arg` as: "shape", "size", "count" (`SIZE_ARGUMENTS`),
    `_VALUES`; None when it takes it as data."""
    qualified = ctx.names.qualified_name(call.func)
    if qualified is None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "reshape":
        return "shape" if arg.keyword is None or arg.keyword.value in ("shape", "newshape") else None
    if qualified is None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "repeat":
        # `ids.repeat(counts)` is `jnp.repeat(ids, counts)` (ott#114); its counts come first
        if _repeats_with_total(call, arg) or arg.keyword is not None and arg.keyword.value != "repeats":
            return None
        return "count" if arg.keyword is not None or [a for a in call.args if a.keyword is None].index(arg) == 0 else None
    if qualified in VALUE_SHAPED and _sized_by_values(call, arg, qualified):
        return _VALUES
    if qualified == PARTIAL:
        return _bound_size_kind(ctx, call, arg)
    entry = SIZE_ARGUMENTS.get(qualified or "")
    if entry is None:
        return None
    if qualified == "jax.numpy.repeat" and _repeats_with_total(call, arg):
        return None
    what, positions, keywords = entry
    if arg.keyword is not None:
        return what if arg.keyword.value in keywords else None
    index = [a for a in call.args if a.keyword is None].index(arg)
    return what if positions == ALL or index in positions else None


def _bound_size_kind(ctx: ModuleContext, call: cst.Call, arg: cst.Arg) -> str | None:
    """``partial(gmres, restart=self.restart)``: what the function the partial binds (one of
    `SIZE_ARGUMENTS`) takes `arg` as, which every call of the partial hands it (netket#637's
    solver config). Its positions count after the function."""
    function = call.args[0] if call.args and call.args[0] is not arg and call.args[0].keyword is None else None
    inner = ctx.names.qualified_name(function.value) if function is not None and not function.star else None
    entry = SIZE_ARGUMENTS.get(inner or "")
    if entry is None or inner == "jax.numpy.repeat" or any(a.star for a in call.args):
        return None
    what, positions, keywords = entry
    if arg.keyword is not None:
        return what if arg.keyword.value in keywords else None
    index = [a for a in call.args if a.keyword is None].index(arg) - 1
    return what if positions == ALL or index in positions else None


def _repeats_with_total(call: cst.Call, arg: cst.Arg) -> bool:
    """``jnp.repeat(x, r, total_repeat_length=n)``: `arg` is `r`, which the given total lets be traced."""
    total = any(a.keyword is not None and a.keyword.value == "total_repeat_length" for a in call.args)
    return total and not (arg.keyword is not None and arg.keyword.value == "total_repeat_length")


def value_shaped_call(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """A call of a `VALUE_SHAPED` function that leaves its bound out (the place a sink of that kind
    names; ``segment_sum(x, ids, n)`` needs `n` as a size, like any other)."""
    return isinstance(node, cst.Call) and ctx.names.qualified_name(node.func) in VALUE_SHAPED and sized_values(ctx, node) is not None


def _sized_by_values(call: cst.Call, arg: cst.Arg, qualified: str) -> bool:
    """`arg` is the argument whose values size a `VALUE_SHAPED` call given no bound (``size=``,
    ``num_segments``, by keyword or at its position), and of ``where``, its only one."""
    position, keyword, bound_at = VALUE_SIZED[qualified]
    if any(a.keyword is not None and a.keyword.value == keyword for a in call.args) or any(a.star for a in call.args):
        return False
    positional = [a for a in call.args if a.keyword is None]
    if bound_at is not None and len(positional) > bound_at:
        return False
    if len(positional) > 1 and isinstance(call.func, (cst.Name, cst.Attribute)) and _last_name(call.func) == "where":
        return False
    return len(positional) > position and positional[position] is arg


def _last_name(func: cst.BaseExpression) -> str:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value  # type: ignore[attr-defined]

"""Is a value certainly an array (never hashable), and why: for every rule that must not hash one.

JAX403 reports an array in a static slot; JAX401, JAX402 and JAX404 must
know an argument is an array before they advise making it static. One
answer for all of them: a call of a jax.numpy/jax.random/jax.lax/jax.nn
function (not the metadata and dtype ones, docs/jax4xx-behaviour.md C), a
NumPy array constructor, what a jitted, mapped or differentiated function
returns, a plain def of the module whose every return is one, a slice of or
arithmetic on an array, or a name bound once to one (or last bound to one
in straight-line code).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.semantics.array_api import METADATA_CALLS, metadata_call
from jaxfix.transforms.semantics.callables import receiver_class
from jaxfix.transforms.semantics.class_hashing import runs_as_written, static_method
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    binding_value,
    dominating_binding,
    first_run_binding,
    own_returns,
    single_binding,
    unpacked_from,
)
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.object_classes import instance_classes, stored_in_init
from jaxfix.transforms.semantics.static_slots import jitted_call
from jaxfix.transforms.semantics.vocabulary import CHECKPOINT, DIFFERENTIATION, JIT, MAPPING, example_optimizer

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis

#: NumPy functions that build an ndarray (NumPy scalars such as ``np.float32(2.0)`` hash fine).
NUMPY_ARRAYS = frozenset(
    {"array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "identity", "stack",
     "concatenate", "zeros_like", "ones_like", "full_like", "load"}
)
#: jax.numpy names that return something hashable (dtypes, metadata), not an array.
JAX_NOT_ARRAYS = frozenset(METADATA_CALLS)
JAX_ARRAY_MAKERS = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.special.", "jax.scipy.stats.")
#: numpy.random names that make a generator or touch the global state: no array.
NUMPY_RANDOM_STATE = frozenset(
    {"RandomState", "default_rng", "Generator", "SeedSequence", "BitGenerator", "PCG64", "PCG64DXSM", "MT19937",
     "Philox", "SFC64", "seed", "get_state", "set_state", "get_bit_generator", "set_bit_generator"}
)
#: NumPy's samplers (module functions and generator methods), each with the position of its `size`
#: (``rand``/``randn`` take the shape as their arguments: -1): with no size they return one Python
#: or NumPy scalar, which hashes; with one, an ndarray.
NUMPY_SAMPLERS = {
    "rand": -1, "randn": -1, "random": 0, "random_sample": 0, "sample": 0, "ranf": 0, "standard_normal": 0,
    "normal": 2, "uniform": 2, "randint": 2, "integers": 2, "binomial": 2, "beta": 2, "gamma": 2,
    "lognormal": 2, "laplace": 2, "logistic": 2, "gumbel": 2, "poisson": 1, "exponential": 1, "choice": 1,
    "standard_gamma": 1, "dirichlet": 1, "multivariate_normal": 2, "permutation": None,
}
#: Transforms whose function returns arrays (or pytrees of them) when called: never hashable.
ARRAY_RESULTS = frozenset({JIT, *MAPPING, *CHECKPOINT, *DIFFERENTIATION})
ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "numpy.ndarray", "chex.Array", "jaxtyping.Array"})


def made_array(qualified: str) -> str | None:
    """What a call of the function named `qualified` returns, when that is an array:
    "an array" (jax), "a NumPy array", else None. Shared by `array_origin` and JAX403's screen."""
    module, _, name = qualified.rpartition(".")
    if qualified.startswith(JAX_ARRAY_MAKERS) and name not in JAX_NOT_ARRAYS and metadata_call(qualified) is None:
        return "an array"
    if (module == "numpy.random" and name not in NUMPY_RANDOM_STATE) or (module == "numpy" and name in NUMPY_ARRAYS):
        return "a NumPy array"
    return None


def numpy_sample(ctx: ModuleContext, call: cst.Call) -> str | None:
    """What a NumPy sampler's call returns when that is an array: ``np.random.normal(0, 1, (3,))``,
    ``np.random.RandomState(0).randn(4, 3)``, ``rng.normal(size=n)`` of a ``default_rng`` generator.
    None for one sample (no size: a scalar, hashable) and for calls not proven to be NumPy's."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in NUMPY_SAMPLERS:
        return None
    qualified = ctx.names.qualified_name(func) or ""
    if qualified != f"numpy.random.{func.attr.value}" and not _numpy_generator(ctx, func.value):
        return None
    if any(a.star for a in call.args):
        return None
    where = NUMPY_SAMPLERS[func.attr.value]
    positional = [a for a in call.args if a.keyword is None]
    sized = (
        where is None
        or any(a.keyword and a.keyword.value == "size" for a in call.args)
        or (where == -1 and bool(positional))
        or (where >= 0 and len(positional) > where)
    )
    return f"`{ctx.code(func)}(...)` returns a NumPy array" if sized else None


def _numpy_generator(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """`expr` is a NumPy generator: ``np.random.RandomState(0)``, ``np.random.default_rng(seed)``, or a
    name bound once to one."""
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        if value is None:
            return False
        expr = value
    return isinstance(expr, cst.Call) and (ctx.names.qualified_name(expr.func) or "") in (
        "numpy.random.RandomState", "numpy.random.default_rng", "numpy.random.Generator")


def array_annotation(qualified: str) -> bool:
    """An annotation (or a subscripted annotation's head) named `qualified` says "array"."""
    return qualified in ARRAY_ANNOTATIONS or qualified.startswith("jaxtyping.")


#: The updates ``x.at[i]`` offers, each giving a copy of ``x``.
_AT_UPDATES = frozenset({"set", "add", "subtract", "multiply", "divide", "power", "min", "max", "apply", "get"})


def indexed_update(func: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x`` of ``x.at[...].set``: the array an indexed update copies."""
    if not isinstance(func, cst.Attribute) or func.attr.value not in _AT_UPDATES:
        return None
    at = func.value.value if isinstance(func.value, cst.Subscript) else None
    if isinstance(at, cst.Attribute) and at.attr.value == "at":
        return at.value
    return None


#: Array methods that give an array again (``jnp.arange(6).reshape(2, 3)``).
RESHAPING_METHODS = frozenset({"reshape", "astype", "transpose", "ravel", "flatten", "squeeze", "swapaxes", "copy"})


def array_origin(analysis: Analysis, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """Why `expr` is certainly an array ("`jnp.array(...)` returns an array"), or None."""
    ctx = analysis.ctx
    if depth > 8:
        return None
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        made = made_array(qualified) if qualified.rpartition(".")[0] != "numpy.random" else None
        if made:
            return f"`{ctx.code(expr.func)}(...)` returns {made}"
        sampled = numpy_sample(ctx, expr)
        if sampled:
            return sampled
        state = _optimizer_state(ctx, expr)
        if state:
            return state
        if isinstance(expr.func, cst.Call) and (ctx.names.qualified_name(expr.func.func) or "") in ARRAY_RESULTS:
            return f"`{ctx.code(expr.func.func)}(...)(...)` returns arrays"
        func = expr.func
        if isinstance(func, cst.Attribute) and func.attr.value in RESHAPING_METHODS:
            inner = array_origin(analysis, func.value, depth + 1)
            return f"`.{func.attr.value}(...)` of an array is an array: {inner}" if inner else None
        updated = indexed_update(func)
        if updated is not None:  # `x.at[i].set(v)`: a copy of x with the entries changed
            inner = array_origin(analysis, updated, depth + 1)
            return f"`.at[...].{func.attr.value}(...)` of an array is an array: {inner}" if inner else None  # type: ignore[union-attr]
        return _returned_array(analysis, expr, depth)
    if isinstance(expr, cst.Subscript):
        return array_origin(analysis, expr.value, depth + 1)
    if isinstance(expr, cst.Attribute):
        return _stored_array(analysis, expr, depth)
    if isinstance(expr, cst.BinaryOperation):
        return array_origin(analysis, expr.left, depth + 1) or array_origin(analysis, expr.right, depth + 1)
    if isinstance(expr, cst.Name):
        value = binding_value(ctx, expr)
        if value is not None:
            inner = array_origin(analysis, value, depth + 1)
            return f"`{expr.value}` is bound to an array: {inner}" if inner else None
        return _every_binding(analysis, expr, depth) or _every_caller(analysis, expr, depth)
    return None


def _every_caller(analysis: Analysis, name: cst.Name, depth: int) -> str | None:
    """A parameter every call of its function passes an array (jax-gcm's ``resume(boundaries=
    BoundaryData(...))`` handing `boundaries` on to a jitted method): `arguments.passed_to`, plain
    calls only, each read."""
    from jaxfix.transforms.semantics.arguments import passed_to  # arguments reads call routes, which need this module

    param = single_binding(analysis.ctx, name)
    if not isinstance(param, cst.Param):
        return None
    given = passed_to(analysis, param)
    if not given:
        return None
    found = [array_origin(analysis, value, depth + 2) for value in given]
    if not all(found):
        return None
    return f"`{name.value}` is a parameter every call passes an array: {found[0]}"


def _stored_array(analysis: Analysis, expr: cst.Attribute, depth: int) -> str | None:
    """``space.high`` where `space` is surely an instance of classes of this module, each of whose
    ``__init__`` stores an array there and nothing else stores ``.high`` (`object_classes`)."""
    classes = instance_classes(analysis, expr.value)
    if not classes:
        # `self._support` in a method of the class (dopamine's Rainbow agent): `self` is an instance
        # of it, or of a subclass, which `stored_in_init` rules out in the module
        own = receiver_class(analysis.ctx, expr.value) if isinstance(expr.value, cst.Name) else None
        classes = frozenset({own}) if own is not None else None
    if not classes:
        return None
    reasons: list[str] = []
    for cls in sorted(classes, key=analysis.ctx.start):
        stored = stored_in_init(analysis, cls, expr.attr.value)
        found = array_origin(analysis, stored, depth + 1) if stored is not None else None
        if found is None:
            return None
        reasons.append(f"`{cls.name.value}.__init__` stores it: {found}")
    return f"`{analysis.ctx.code(expr)}` holds an array, {reasons[0]}"


def _optimizer_state(ctx: ModuleContext, call: cst.Call) -> str | None:
    """``opt_init(params)`` or ``opt_update(i, g, state)``, unpacked from ``optimizers.adam(...)``
    of jax.example_libraries: an ``OptimizerState``, a pytree of arrays holding a list."""
    binding = single_binding(ctx, call.func) if isinstance(call.func, cst.Name) else None
    found = unpacked_from(ctx, binding) if isinstance(binding, cst.Name) else None
    if found is None or found[2] != 3 or found[1] == 2:
        return None
    if not example_optimizer(ctx.names.qualified_name(found[0].func) or ""):
        return None
    return f"`{ctx.code(call.func)}(...)` returns an optimizer state of `jax.example_libraries.optimizers`, a pytree of arrays"


def _returned_array(analysis: Analysis, call: cst.Call, depth: int) -> str | None:
    """``bcast(x)`` for a plain def of the module (or ``Model.bcast(x)``, a staticmethod) each of
    whose returns is an array."""
    ctx = analysis.ctx
    helper = (
        single_binding(ctx, call.func) if isinstance(call.func, cst.Name)
        else static_method(ctx, call.func) if isinstance(call.func, cst.Attribute)
        else None
    )
    if not isinstance(helper, cst.FunctionDef) or not runs_as_written(ctx, helper):
        return None
    returns = own_returns(helper)
    if not returns or any(r.value is None for r in returns):
        return None
    found = [array_origin(analysis, r.value, depth + 1) for r in returns]  # type: ignore[arg-type]
    return f"`{helper.name.value}` returns an array: {found[0]}" if all(found) else None


def _every_binding(analysis: Analysis, name: cst.Name, depth: int) -> str | None:
    """A name bound more than once, or by unpacking, where every binding gives an array
    (``rng = jax.random.PRNGKey(0)``, then ``state, rng = step(state, rng)`` in a loop)."""
    ctx = analysis.ctx
    dominating = dominating_binding(ctx, name)
    first = first_run_binding(ctx, name) if dominating is None else None
    if first is not None:
        value = assigned_value(ctx, first)
        found = array_origin(analysis, value, depth + 1) if value is not None else _unpacked(analysis, first, depth)
        if found is not None:
            return f"`{name.value}` is bound to an array when the loop first runs: {found}"
    scope = ctx.scope(name)
    targets = [dominating] if dominating is not None else [getattr(a, "node", None) for a in scope[name.value]] if scope is not None else []
    if not targets:
        return None
    reasons: list[str] = []
    for target in targets:
        if not isinstance(target, cst.Name):
            return None
        value = assigned_value(ctx, target)
        found = array_origin(analysis, value, depth + 1) if value is not None else _unpacked(analysis, target, depth)
        if found is None:
            return None
        reasons.append(found)
    if dominating is not None:
        return f"`{name.value}` was last bound to an array: {reasons[0]}"
    return f"every binding of `{name.value}` is an array: {reasons[0]}"


#: Modules whose functions return an array or a sequence of arrays: unpacking gives arrays.
_UNPACKS_TO_ARRAYS = ("jax.numpy.", "jax.random.")


def _unpacked(analysis: Analysis, target: cst.Name, depth: int) -> str | None:
    """`target` is one name of ``a, b = value``: an array when `value` is a jnp or random call
    (``key, sub = jax.random.split(key)``), or a call of a jitted function of this module whose
    every return writes a tuple holding an array at that place (jit returns arrays for leaves)."""
    ctx = analysis.ctx
    found = unpacked_from(ctx, target)
    if found is None:
        return None
    call, index, size = found
    qualified = ctx.names.qualified_name(call.func) or ""
    if qualified.startswith(_UNPACKS_TO_ARRAYS) and made_array(qualified):
        return f"`{ctx.code(call.func)}(...)` returns arrays"
    jitted = jitted_call(ctx, call)
    function = jitted.target.function.node if jitted is not None else None
    if not isinstance(function, cst.FunctionDef):
        return None
    returns = own_returns(function)
    for returned in returns:
        value = returned.value
        if not (isinstance(value, cst.Tuple) and len(value.elements) == size):
            return None
        if any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        if array_origin(analysis, value.elements[index].value, depth + 1) is None:
            return None
    return f"the jitted `{jitted.callee_name}` returns arrays" if returns else None  # type: ignore[union-attr]


#: jax.numpy reductions that give one integer when given no axis (`count_nonzero` of anything, the
#: index `argmax` picks).
_ONE_INT_REDUCTIONS = frozenset({"jax.numpy.count_nonzero", "jax.numpy.argmax", "jax.numpy.argmin"})
#: jax.numpy names that make an integer array of the value they are given.
_INT_ARRAYS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.numpy.int32", "jax.numpy.int64", "jax.numpy.int16", "jax.numpy.int8"})


def one_concrete_int(analysis: Analysis, expr: cst.BaseExpression) -> cst.Call | None:
    """The call making the jax array `expr` holds, where that array holds exactly one integer:
    ``random.randint(key, (1,), lo, hi)`` (or shape ``()``), ``jnp.array(7)``, an integer kind of
    ``jnp.int32(7)``, ``jnp.count_nonzero(x)`` / ``jnp.argmax(x)`` with no axis, ``jnp.sum`` of a
    comparison (jax#3345). Followed through a name bound once; None otherwise. Whether the array is
    concrete where it is read (computed outside a trace) is the caller's question."""
    ctx = analysis.ctx
    value: cst.BaseExpression | None = expr
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    if not isinstance(value, cst.Call) or any(a.star for a in value.args):
        return None
    qualified = ctx.names.qualified_name(value.func) or ""
    positional = [a.value for a in value.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
    if qualified == "jax.random.randint":
        shape = keywords.get("shape", positional[1] if len(positional) > 1 else None)
        return value if shape is not None and _one_element_shape(shape) else None
    if qualified in _INT_ARRAYS and len(value.args) == 1 and isinstance(positional[0] if positional else None, cst.Integer):
        return value
    if qualified in _ONE_INT_REDUCTIONS and len(value.args) == 1 and positional:
        return value
    if qualified == "jax.numpy.sum" and len(value.args) == 1 and isinstance(positional[0] if positional else None, cst.Comparison):
        return value
    return None


def _one_element_shape(shape: cst.BaseExpression) -> bool:
    """``()``, ``(1,)`` or ``[1]``: a shape of one element."""
    if not isinstance(shape, (cst.Tuple, cst.List)):
        return False
    sizes = [e.value for e in shape.elements if isinstance(e, cst.Element)]
    return len(sizes) == len(shape.elements) and all(isinstance(s, cst.Integer) and s.evaluated_value == 1 for s in sizes)

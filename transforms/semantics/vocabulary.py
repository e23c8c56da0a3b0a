"""Which expression is which JAX (or functools) API, through the module's imports.

A name means ``jax.lax.cond`` only when every binding of it that can reach the
use is an import of that object: ``from jax import lax`` then ``lax.cond``,
``import jax.lax as lax``, ``from jax.lax import cond as c``, aliases of all of
these. A name that is also assigned, defined, a parameter, or imported two
different ways (``try: import jax.numpy as np / except: import numpy as np``)
is not ours, and rules leave it alone (as Hypothesis's codemods do).

This is computed from libcst's ScopeProvider, not QualifiedNameProvider: the
latter reports a call's result under the callee's name, so the inline form
``jax.jit(f)(x)`` would read as ``jax.jit``; here a Call never has a name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import Assignment, BuiltinAssignment, ImportAssignment, Scope

JIT = "jax.jit"
#: The keywords by which jit is told which arguments are static.
STATIC_KEYWORDS = frozenset({"static_argnums", "static_argnames"})
PARTIAL = "functools.partial"

CONTROL_FLOW = {
    "jax.lax.cond": "cond",
    "jax.lax.switch": "switch",
    "jax.lax.fori_loop": "fori_loop",
    "jax.lax.while_loop": "while_loop",
    "jax.lax.scan": "scan",
}

#: Where JAX functions take the functions they call: positions and keywords (``switch`` takes a
#: list of them). Read by `purity` (is what they call pure?) and JAX203 (which of them hash it).
CALLABLE_SLOTS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.lax.scan": ((0,), ("f",)),
    "jax.lax.fori_loop": ((2,), ("body_fun",)),
    "jax.lax.while_loop": ((0, 1), ("cond_fun", "body_fun")),
    "jax.lax.cond": ((1, 2), ("true_fun", "false_fun")),
    "jax.lax.switch": ((1,), ("branches",)),
    "jax.lax.map": ((0,), ("f",)),
    "jax.lax.associative_scan": ((0,), ("fn",)),
    "jax.tree.map": ((0,), ("f",)),
    "jax.tree_util.tree_map": ((0,), ("f",)),
}
#: The lax primitives' parameters, in order (``*operands``: every positional argument from there on).
LAX_PARAMETERS: dict[str, tuple[str, ...]] = {
    "jax.lax.scan": ("f", "init", "xs", "length", "reverse", "unroll", "_split_transpose"),
    "jax.lax.fori_loop": ("lower", "upper", "body_fun", "init_val", "unroll"),
    "jax.lax.while_loop": ("cond_fun", "body_fun", "init_val"),
    "jax.lax.cond": ("pred", "true_fun", "false_fun", "*operands"),
    "jax.lax.switch": ("index", "branches", "*operands"),
}
#: The parameter that holds what each primitive carries from step to step, or hands its functions.
OPERANDS: dict[str, str] = {
    "jax.lax.scan": "init",
    "jax.lax.fori_loop": "init_val",
    "jax.lax.while_loop": "init_val",
    "jax.lax.cond": "*operands",
    "jax.lax.switch": "*operands",
}
#: Where each loop's body takes the carry: its parameter's position (``fori_loop``'s comes after the index).
CARRY_PARAMETER: dict[str, int] = {"jax.lax.scan": 0, "jax.lax.fori_loop": 1, "jax.lax.while_loop": 0}


def written_argument(call: cst.Call, parameters: tuple[str, ...], name: str) -> cst.Arg | None:
    """The argument a call gives parameter `name` of `parameters` (by keyword, or by position);
    None when it gives none, or a starred argument comes first (it may hold it)."""
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == name:
                return arg
        elif i < len(parameters) and parameters[i] == name:
            return arg
    return None


def written_arguments(call: cst.Call, parameters: tuple[str, ...], name: str) -> list[cst.Arg]:
    """`written_argument` as a list; for ``*operands``, every positional argument from its place
    up to the first starred or keyword one."""
    if not name.startswith("*"):
        found = written_argument(call, parameters, name)
        return [found] if found is not None else []
    at = parameters.index(name)
    out: list[cst.Arg] = []
    for i, arg in enumerate(call.args):
        if arg.star or arg.keyword is not None:
            break
        if i >= at:
            out.append(arg)
    return out


#: A transform's function slot (``jax.jit(fun)``, ``jax.checkpoint(fun)``).
TRANSFORM_SLOT: tuple[tuple[int, ...], tuple[str, ...]] = ((0,), ("fun",))

#: Calls that trace the function they are given (its parameters become tracers).
TRANSFORMS = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "jax.vmap",
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.jacobian",
        "jax.hessian",
        "jax.jvp",
        "jax.vjp",
        "jax.linearize",
        "jax.checkpoint",
        "jax.remat",
        "jax.eval_shape",
        "jax.make_jaxpr",
        "jax.custom_jvp",
        "jax.custom_vjp",
        "jax.named_call",
        "jax.experimental.shard_map.shard_map",
        "jax.shard_map",
        *CONTROL_FLOW,
        "jax.lax.map",
        "jax.lax.associative_scan",
        "equinox.filter_jit",
        "equinox.filter_vmap",
    }
)

#: ``eqx.filter_jit``: a jit that traces the arrays among the arguments a call passes and keeps
#: every other value static (docs/equinox-behaviour.md). Which parameters it traces depends on
#: the values, not the signature: `tracing.Wrap.traces` cannot tell, the value models read the call.
FILTER_JIT = "equinox.filter_jit"
#: ``eqx.filter_vmap``: maps the arrays its ``in_axes`` (by default ``eqx.if_array(0)``) maps;
#: every other value reaches the function as the call passes it.
FILTER_VMAP = "equinox.filter_vmap"
#: Layers that trace exactly the arrays a call passes (where their ``in_axes`` maps them).
ARRAY_TRACING = frozenset({FILTER_JIT, FILTER_VMAP})

#: Transforms that run the function at once and return values, not a new function.
CALLS_NOW = frozenset(
    {*CONTROL_FLOW, "jax.lax.map", "jax.lax.associative_scan", "jax.jvp", "jax.vjp", "jax.linearize", "jax.eval_shape"}
)

#: ``tree_map(f, tree, ...)``: calls f at once with each leaf of the trees (the caller's values).
TREE_MAP = "jax.tree_util.tree_map"
TREE_MAPS = frozenset({TREE_MAP, "jax.tree.map", "jax.tree_map"})
#: Functions that make an array of whatever they are given: mapped over a tree, every leaf is one.
ARRAY_CONVERTERS = frozenset({"numpy.asarray", "numpy.array", "jax.numpy.asarray", "jax.numpy.array"})

#: Mapping: a function written for one example sees each mapped argument as a tracer.
MAPPING = frozenset({"jax.vmap", "jax.pmap"})
#: Rematerialization: traces what it is given with abstract values (docs/jax103-305-behaviour.md).
CHECKPOINT = frozenset({"jax.checkpoint", "jax.remat"})

#: Differentiation: traces only the `argnums` arguments; the others reach the function as they are.
#: ``jax.jacobian`` is ``jacrev`` under another name (its signature and its transposition).
DIFFERENTIATION = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian"})

#: Reverse-mode differentiation. It cannot go through a while loop (nor a
#: fori_loop) whose trip count is traced (jax-behaviour.md 3d).
REVERSE_MODE = frozenset({"jax.grad", "jax.value_and_grad", "jax.vjp", "jax.jacrev", "jax.jacobian", "jax.hessian"})
#: The loop that becomes a while loop when a bound is traced.
FORI_LOOP = "jax.lax.fori_loop"
SCAN = "jax.lax.scan"

#: Submodules that the package's own ``__init__`` imports (jax 0.10.2), so that
#: ``import jax`` alone makes ``jax.lax.fori_loop`` reachable.
LOADED_WITH_PACKAGE = frozenset(
    {
        "jax.lax",
        "jax.numpy",
        "jax.random",
        "jax.nn",
        "jax.tree",
        "jax.tree_util",
        "jax.debug",
        "jax.core",
        "jax.scipy",
    }
)

#: Decorators that hand a call's arguments to the function unchanged (flax's ``nn.compact``
#: and ``nn.nowrap`` only change how submodules are named and registered).
NEUTRAL_DECORATORS = frozenset(
    {
        "builtins.staticmethod",
        "builtins.classmethod",
        "flax.linen.compact",
        "flax.linen.module.compact",
        "flax.linen.nowrap",
        "flax.linen.module.nowrap",
    }
)


def _import_target(assignment: ImportAssignment, name: str) -> str | None:
    """The dotted name an import binds to `name`, or None for relative imports."""
    node = assignment.node
    if isinstance(node, cst.ImportFrom):
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return None
        module = get_full_name_for_node(node.module)
        for alias in node.names:
            local = alias.evaluated_alias or alias.evaluated_name
            if local == name:
                return f"{module}.{alias.evaluated_name}"
        return None
    assert isinstance(node, cst.Import)
    for alias in node.names:
        if alias.asname is not None:
            if alias.evaluated_alias == name:
                return alias.evaluated_name
        elif alias.evaluated_name.split(".")[0] == name:
            # `import jax.numpy` binds `jax`, the package itself.
            return name
    return None


#: Functions of the array API's compatibility layers that return the namespace of their arguments
#: (``xp = array_api_compat.array_namespace(x)``, scipy's and array-api-extra's own).
ARRAY_NAMESPACE_GETTERS = frozenset({"array_namespace"})
#: What such a namespace is where the analysis asks: code that JAX traces hands it jax arrays, whose
#: namespace is jax.numpy (array_api_compat returns it for them).
ARRAY_NAMESPACE = "jax.numpy"


class NameResolver:
    """Qualified names of Name/Attribute expressions, through scopes and imports.

    With `value_of` (the value a one-target assignment gives a name), a name bound once to
    ``array_namespace(...)`` stands for jax.numpy (`ARRAY_NAMESPACE`): ``xp.sum(n_node)`` in
    deepmd-kit's graph code is ``jnp.sum`` wherever its arguments are jax arrays, the only place the
    rules ask what it computes (eager code handed NumPy arrays computes concretely either way)."""

    def __init__(
        self,
        scopes: Mapping[cst.CSTNode, Scope | None],
        value_of: Callable[[cst.CSTNode], cst.BaseExpression | None] | None = None,
    ) -> None:
        self._scopes = scopes
        self._value_of = value_of
        # what a name means in a scope, kept: the rules ask again for the same callees
        # (a big test module asked about 900,000 times for about 5,000 distinct answers)
        self._targets: dict[tuple[Scope, str], str | None] = {}

    def scope_of(self, node: cst.CSTNode) -> Scope | None:
        return self._scopes.get(node)

    def qualified_name(self, expr: cst.BaseExpression) -> str | None:
        if isinstance(expr, cst.Attribute):
            base = self.qualified_name(expr.value)
            return f"{base}.{expr.attr.value}" if base else None
        if isinstance(expr, cst.Name):
            return self._name_target(expr)
        return None

    def _name_target(self, name: cst.Name) -> str | None:
        scope = self._scopes.get(name)
        if scope is None:
            return None
        key = (scope, name.value)
        if key not in self._targets:
            self._targets[key] = self.target_in_scope(scope, name.value) or self._namespace(scope, name.value)
        return self._targets[key]

    def _namespace(self, scope: Scope, name: str) -> str | None:
        """`ARRAY_NAMESPACE` for a name bound once, by ``name = <...>.array_namespace(...)``."""
        assignments = list(scope[name])
        if self._value_of is None or len(assignments) != 1 or not isinstance(assignments[0], Assignment):
            return None
        value = self._value_of(assignments[0].node)
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        called = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        return ARRAY_NAMESPACE if called in ARRAY_NAMESPACE_GETTERS else None

    @staticmethod
    def target_in_scope(scope: Scope, name: str) -> str | None:
        """What a bare name means in a scope: a qualified name, or None if not an import."""
        assignments = scope[name]
        if not assignments:
            return None
        targets = set()
        for assignment in assignments:
            if isinstance(assignment, BuiltinAssignment):
                targets.add(f"builtins.{name}")
            elif isinstance(assignment, ImportAssignment):
                targets.add(_import_target(assignment, name))
            else:
                return None
        if len(targets) != 1:
            return None
        return targets.pop()

    def is_api(self, expr: cst.BaseExpression, *names: str) -> bool:
        return self.qualified_name(expr) in names

    def control_flow(self, call: cst.Call) -> str | None:
        """'cond', 'switch', ... when call is a call of that lax primitive."""
        return CONTROL_FLOW.get(self.qualified_name(call.func) or "")


#: Methods that change a list, dict or set in place (JAX201 keeps such a value as built; a static
#: `self` whose attribute one of them changes would keep a stale compile, JAX302).
MUTATING_METHODS = frozenset(
    {
        "append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "setdefault",
        "sort", "reverse", "add", "discard", "difference_update", "intersection_update",
        "symmetric_difference_update", "__setitem__", "__delitem__", "__iadd__", "__ior__",
    }
)  # fmt: skip


#: ``jax.example_libraries.optimizers``'s optimizers: each returns ``(init_fun, update_fun,
#: get_params)``, three functions (an ``Optimizer`` NamedTuple); ``init_fun`` and ``update_fun``
#: return an ``OptimizerState``, a pytree of arrays that holds a list (never hashable).
EXAMPLE_OPTIMIZERS = frozenset(
    {"sgd", "momentum", "nesterov", "adagrad", "rmsprop", "rmsprop_momentum", "adam", "adamax", "sm3"}
)


def example_optimizer(qualified: str) -> bool:
    """``optimizers.adam`` of jax.example_libraries, by qualified name."""
    module, _, name = qualified.rpartition(".")
    return module == "jax.example_libraries.optimizers" and name in EXAMPLE_OPTIMIZERS


#: flax linen Modules of the library that take containers as fields: linen hashes a module by its
#: fields, and each fails to hash with a dict or a list there ("Failed to hash Flax Module";
#: docs/flax-linen-behaviour.md).
LIBRARY_LINEN_MODULES = frozenset({"flax.nnx.bridge.ToLinen", "flax.nnx.bridge.module.ToLinen", "flax.linen.Sequential"})

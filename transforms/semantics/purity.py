"""Can an expression be dropped, or evaluated once instead of many times, without changing anything?

Rewrites into ``lax.fori_loop`` drop a scan step's ``y`` and trace a loop body
once instead of running it n times. Both are only right for code whose
evaluation has no effect but its value. JAX's own functions are pure (random
keys are explicit), as long as the functions they call are: those must be
lambdas written right there with pure bodies. A function of this module is
pure when its body is only assignments to its own locals and returns of pure
expressions (``def ux(z, h): return 0.5 * (1 - jnp.cos(z / h))``), followed
a few calls deep. Any other call may print, mutate or draw from a stateful
generator, so it is not.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.array_values import indexed_update
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import FLAX_STRUCT, instance_class_of, pytree_class
from jaxfix.transforms.semantics.vocabulary import CALLABLE_SLOTS, TRANSFORM_SLOT, TRANSFORMS

#: JAX functions that exist for their effects.
_EFFECTFUL = ("jax.debug.", "jax.experimental.io_callback")

#: Modules whose functions compute a value from their arguments and do nothing else (JAX305 lets
#: an arm call them, JAX307 a chain's middle operand). jax.random's too: the same key gives the same
#: numbers, and nothing else changes (openpi#550's `jax.random.categorical` in a selected arm).
PURE_FUNCTION_PREFIXES = ("jax.numpy.", "jax.nn.", "jax.scipy.special.", "jax.random.", "math.")


def name_chain(expr: cst.BaseExpression) -> bool:
    """A name, or an attribute chain of names (``self.cell``): read again, it is the same object."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)


def is_pure(ctx: ModuleContext, expr: cst.BaseExpression, _depth: int = 0) -> bool:
    """Evaluating expr has no effect but its value: names, literals, arithmetic, ``jax.*`` calls."""
    if isinstance(expr, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(expr, cst.Attribute):
        return is_pure(ctx, expr.value, _depth)
    if isinstance(expr, cst.Subscript):
        slices = [s.slice for s in expr.slice]
        parts = [p.value for p in slices if isinstance(p, cst.Index)]
        for p in slices:
            if isinstance(p, cst.Slice):
                parts.extend(x for x in (p.lower, p.upper, p.step) if x is not None)
        return is_pure(ctx, expr.value, _depth) and all(is_pure(ctx, p, _depth) for p in parts)
    if isinstance(expr, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and is_pure(ctx, e.value, _depth) for e in expr.elements)
    if isinstance(expr, cst.UnaryOperation):
        return is_pure(ctx, expr.expression, _depth)
    if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
        return is_pure(ctx, expr.left, _depth) and is_pure(ctx, expr.right, _depth)
    if isinstance(expr, cst.Comparison):
        return is_pure(ctx, expr.left, _depth) and all(is_pure(ctx, c.comparator, _depth) for c in expr.comparisons)
    if isinstance(expr, cst.Lambda):
        return is_pure(ctx, expr.body, _depth)  # making it does nothing; calling it runs its body
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Call):  # jax.vmap(lambda v: v + 1)(x)
        return is_pure(ctx, expr.func, _depth) and all(not a.star and is_pure(ctx, a.value, _depth) for a in expr.args)
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        if isinstance(expr.func, cst.Attribute) and _pure_method_call(ctx, expr, _depth):
            return True
        if not qualified.startswith("jax."):
            return _pure_function_call(ctx, expr, _depth)
        if qualified.startswith(_EFFECTFUL):
            return False
        positions, keywords = CALLABLE_SLOTS.get(qualified, TRANSFORM_SLOT if qualified in TRANSFORMS else ((), ()))
        for i, arg in enumerate(expr.args):
            if arg.star:
                return False
            called = arg.keyword.value in keywords if arg.keyword is not None else i in positions
            if not (_pure_callable(ctx, arg.value, _depth) if called else is_pure(ctx, arg.value, _depth)):
                return False
        return True
    return False


def _pure_method_call(ctx: ModuleContext, call: cst.Call, depth: int) -> bool:
    """A method call that only builds a new value: ``x.at[i].set(v)``, JAX's functional update,
    or ``state.replace(t=t)`` on a ``flax.struct`` dataclass of this module that does not define a
    ``replace`` of its own (flax's returns a copy with the fields given)."""
    assert isinstance(call.func, cst.Attribute)
    method, receiver = call.func.attr.value, call.func.value
    if any(a.star for a in call.args) or not all(is_pure(ctx, a.value, depth) for a in call.args):
        return False
    if indexed_update(call.func) is not None:
        return method != "apply" and is_pure(ctx, receiver, depth)  # `apply` calls a function
    if method == "replace" and all(a.keyword is not None for a in call.args) and is_pure(ctx, receiver, depth):
        cls = instance_class_of(ctx, receiver)
        tree = pytree_class(ctx, cls) if cls is not None else None
        return tree is not None and tree.style is FLAX_STRUCT and not _defines(cls, "replace")
    return False


def _defines(cls: cst.ClassDef, name: str) -> bool:
    """The class body binds `name` itself (a method or an attribute)."""
    for line in cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ():
        if isinstance(line, cst.FunctionDef) and line.name.value == name:
            return True
        if isinstance(line, cst.SimpleStatementLine):
            for small in line.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else (
                    [small.target] if isinstance(small, cst.AnnAssign) else [])
                if any(isinstance(t, cst.Name) and t.value == name for t in targets):
                    return True
    return False


def _pure_callable(ctx: ModuleContext, expr: cst.BaseExpression, depth: int) -> bool:
    """A function JAX will call, written here with a pure body: a lambda, or a list of them."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return all(isinstance(e, cst.Element) and _pure_callable(ctx, e.value, depth) for e in expr.elements)
    return isinstance(expr, cst.Lambda) and is_pure(ctx, expr.body, depth)


#: How many calls deep a module function's body is followed.
_MAX_DEPTH = 3


def _pure_function_call(ctx: ModuleContext, call: cst.Call, depth: int) -> bool:
    """``helper(x, h)`` of an undecorated def of this module whose body only binds its own
    locals and returns, every expression pure, and every argument pure."""
    if depth >= _MAX_DEPTH or not isinstance(call.func, (cst.Name, cst.Attribute)):
        return False
    if any(a.star or not is_pure(ctx, a.value, depth) for a in call.args):
        return False
    fn = plain_def(ctx, call.func)
    if fn is None or fn.asynchronous is not None:
        return False
    if not isinstance(fn.body, cst.IndentedBlock):
        return False
    for index, line in enumerate(fn.body.body):
        if not isinstance(line, cst.SimpleStatementLine):
            return False
        for small in line.body:
            if isinstance(small, cst.Return):
                value = small.value
            elif isinstance(small, cst.Assign) and all(_local_target(t.target) for t in small.targets):
                value = small.value
            elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
                value = small.value
            elif isinstance(small, cst.Pass):
                continue
            elif index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
                continue  # the docstring
            else:
                return False
            if value is not None and not is_pure(ctx, value, depth + 1):
                return False
    return True


def _local_target(target: cst.BaseExpression) -> bool:
    """``a`` or ``a, b``: names only (a ``global`` statement would be a line we refuse)."""
    if isinstance(target, cst.Name):
        return True
    return isinstance(target, (cst.Tuple, cst.List)) and all(
        isinstance(e, cst.Element) and _local_target(e.value) for e in target.elements
    )


#: jnp functions whose result may be larger or smaller than their operands: a loop that carries
#: their result changes its carry's shape from step to step (``seq = jnp.concatenate([seq, t])``).
RESIZING = frozenset(
    {"concatenate", "append", "stack", "hstack", "vstack", "dstack", "column_stack", "pad", "insert",
     "delete", "repeat", "tile", "resize", "reshape", "broadcast_to", "expand_dims", "squeeze", "ravel"}
)


def resizing_call(ctx: ModuleContext, expr: cst.CSTNode, _depth: int = 0) -> str | None:
    """What in `expr`, or in a function of this module it calls (a few calls deep), may change an
    array's shape: a slice (``x[1:]``, not ``x.at[1:]``), a resizing jnp call or array method:
    "`jnp.concatenate` in `step`"; None when there is none."""
    if _depth > 3:
        return None
    slices, calls = _slices_and_calls(expr)
    if slices:
        return f"the slice `{ctx.code(slices[0])}`"
    for node in calls:
        qualified = ctx.names.qualified_name(node.func) or ""
        if qualified.startswith(("jax.numpy.", "numpy.")) and qualified.rsplit(".", 1)[-1] in RESIZING:
            return f"`{ctx.code(node.func)}`"
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("reshape", "ravel", "squeeze", "repeat"):
            return f"`.{node.func.attr.value}`"
        callee = single_binding(ctx, node.func) if isinstance(node.func, cst.Name) else None
        if isinstance(callee, cst.FunctionDef):
            inner = resizing_call(ctx, callee.body, _depth + 1)
            if inner is not None:
                return f"{inner} in `{callee.name.value}`"
    return None


def _slices_and_calls(node: cst.CSTNode) -> tuple[list[cst.Subscript], list[cst.Call]]:
    """The subscripts that slice (not through ``.at``) and the calls written in `node`, in order."""
    slices: list[cst.Subscript] = []
    calls: list[cst.Call] = []

    class _Walk(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> None:
            at = isinstance(sub.value, cst.Attribute) and sub.value.attr.value == "at"
            if not at and any(isinstance(e.slice, cst.Slice) for e in sub.slice):
                slices.append(sub)

        def visit_Call(self, call: cst.Call) -> None:
            calls.append(call)

    node.visit(_Walk())
    return slices, calls

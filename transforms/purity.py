"""Can an expression be dropped, or evaluated once instead of many times, without changing anything?

Rewrites into ``lax.fori_loop`` drop a scan step's ``y`` and trace a loop body
once instead of running it n times. Both are only right for code whose
evaluation has no effect but its value. JAX's own functions are pure (random
keys are explicit); any other call may print, mutate or draw from a stateful
generator, so it is not.
"""

from __future__ import annotations

import libcst as cst

from .context import ModuleContext

#: JAX functions that exist for their effects.
_EFFECTFUL = ("jax.debug.", "jax.experimental.io_callback")


def is_pure(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Evaluating expr has no effect but its value: names, literals, arithmetic, ``jax.*`` calls."""
    if isinstance(expr, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(expr, cst.Attribute):
        return is_pure(ctx, expr.value)
    if isinstance(expr, cst.Subscript):
        slices = [s.slice for s in expr.slice]
        parts = [p.value for p in slices if isinstance(p, cst.Index)]
        for p in slices:
            if isinstance(p, cst.Slice):
                parts.extend(x for x in (p.lower, p.upper, p.step) if x is not None)
        return is_pure(ctx, expr.value) and all(is_pure(ctx, p) for p in parts)
    if isinstance(expr, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and is_pure(ctx, e.value) for e in expr.elements)
    if isinstance(expr, cst.UnaryOperation):
        return is_pure(ctx, expr.expression)
    if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
        return is_pure(ctx, expr.left) and is_pure(ctx, expr.right)
    if isinstance(expr, cst.Comparison):
        return is_pure(ctx, expr.left) and all(is_pure(ctx, c.comparator) for c in expr.comparisons)
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        return (
            qualified.startswith("jax.")
            and not qualified.startswith(_EFFECTFUL)
            and all(not a.star and is_pure(ctx, a.value) for a in expr.args)
        )
    return False

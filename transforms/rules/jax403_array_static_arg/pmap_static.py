"""JAX403 for pmap: an array handed to a slot ``static_broadcasted_argnums`` makes static.

pmap hashes each static broadcasted argument to key its cache, as jit hashes
a static one, and no array is hashable: ``jax.pmap(f,
static_broadcasted_argnums=0)(jnp.arange(4))`` fails with "Non-hashable
static arguments are not supported" (numpyro#494). A static broadcasted
argument is one value every device sees; a value per device is a mapped
argument, and what the body does with it (index a Python list of shards, say)
then decides whether it can be traced at all. So this is reported, never
rewritten: the options say both ways out.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.constants import assigned_value, constant_value, single_binding

PMAP = "jax.pmap"
OPTION = "static_broadcasted_argnums"


def pmap_findings(analysis: Analysis) -> Iterator[Finding]:
    """A call of ``jax.pmap(f, static_broadcasted_argnums=...)`` (inline, or a name bound once to
    it) passing an array at one of those positions."""
    ctx = analysis.ctx
    for call in ctx.calls:
        made = _pmap_call(analysis, call.func)
        if made is None or any(a.star for a in call.args):
            continue
        option = next((a for a in made.args if a.keyword is not None and a.keyword.value == OPTION), None)
        value = constant_value(ctx, option.value) if option is not None else None
        numbers = value if isinstance(value, tuple) else (value,)
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            continue
        positional = [a.value for a in call.args if a.keyword is None]
        for number in numbers:
            argument = positional[number] if 0 <= number < len(positional) else None  # type: ignore[operator]
            origin = array_origin(analysis, argument) if argument is not None else None
            if origin is None:
                continue
            yield ctx.finding(
                "JAX403",
                argument,  # type: ignore[arg-type]
                f"`{OPTION}` makes argument {number} of this `jax.pmap` static, but the call passes "
                f"`{ctx.code(argument)}` ({origin}): pmap hashes a static argument, and no array is hashable; "  # type: ignore[arg-type]
                "not rewritten: a static broadcasted argument is one value for every device, so what the "
                "function does with a value per device decides the redesign",
                notes=(
                    f"option: a value per device is a mapped argument: drop {number} from `{OPTION}` and pass "
                    "the per-device data stacked along the first axis (a Python list indexed by it must become an array)",
                    "option: one value for every device: pass a hashable Python value (`int(...)`, `tuple(....tolist())`)",
                ),
            )


def _pmap_call(analysis: Analysis, func: cst.BaseExpression) -> cst.Call | None:
    """``jax.pmap(f, ...)`` as the callee, written there or bound once to a name."""
    ctx = analysis.ctx
    if isinstance(func, cst.Name):
        binding = single_binding(ctx, func)
        func = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None  # type: ignore[assignment]
    if isinstance(func, cst.Call) and ctx.names.qualified_name(func.func) == PMAP:
        return func
    return None

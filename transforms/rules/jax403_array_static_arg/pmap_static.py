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

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.pmap_statics import OPTION, broadcast_arguments


def pmap_findings(analysis: Analysis) -> Iterator[Finding]:
    """A call of ``jax.pmap(f, static_broadcasted_argnums=...)`` (inline, or a name bound once to
    it) passing an array at one of those positions."""
    ctx = analysis.ctx
    for _, _, number, argument in broadcast_arguments(ctx):
        origin = array_origin(analysis, argument)
        if origin is None:
            continue
        yield ctx.finding(
            "JAX403",
            argument,
            f"`{OPTION}` makes argument {number} of this `jax.pmap` static, but the call passes "
            f"`{ctx.code(argument)}` ({origin}): pmap hashes a static argument, and no array is hashable; "
            "not rewritten: a static broadcasted argument is one value for every device, so what the "
            "function does with a value per device decides the redesign",
            notes=(
                f"option: a value per device is a mapped argument: drop {number} from `{OPTION}` and pass "
                "the per-device data stacked along the first axis (a Python list indexed by it must become an array)",
                "option: one value for every device: pass a hashable Python value (`int(...)`, `tuple(....tolist())`)",
            ),
        )

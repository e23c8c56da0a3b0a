"""JAX405 for an equinox module handed to a lax primitive as its carry or operand: the module
holds a function as a leaf.

``lax.scan``, ``fori_loop`` and ``while_loop`` take every leaf of their carry as
an array, and ``lax.cond``/``switch`` every leaf of their operands; an
``eqx.nn.MLP``'s activations (`semantics.function_leaves`) are no JAX type, so
the primitive fails before the body runs (``... is not a valid JAX type``,
equinox#446, #389, #630). ``eqx.nn.Linear`` holds arrays alone and passes,
which is why such code works until the model grows. The fix is equinox's
split: ``params, static = eqx.partition(model, eqx.is_array)``, the arrays
through the primitive, ``eqx.combine(params, static)`` where the module is
used again; where that goes (the body, after the loop, the cond's result)
depends on the code around, so this is reported with that option.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.function_leaves import function_leaf

#: Each primitive: where its carried or operand values are (first position, keyword), and what they are called.
_PRIMITIVES = {
    "jax.lax.scan": (1, "init", "initial carry"),
    "jax.lax.fori_loop": (3, "init_val", "initial carry"),
    "jax.lax.while_loop": (2, "init_val", "initial carry"),
    "jax.lax.cond": (3, None, "operands"),
    "jax.lax.switch": (2, None, "operands"),
}
_OPTION = (
    "option: pass only its arrays: `params, static = eqx.partition(model, eqx.is_array)`; hand `params` to the "
    "primitive and rebuild the module with `eqx.combine(params, static)` where it is used (in the body, after it)"
)


def equinox_carry_findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls:
        primitive = ctx.names.qualified_name(call.func) or ""
        if primitive not in _PRIMITIVES:
            continue
        position, keyword, what = _PRIMITIVES[primitive]
        positional = [a for a in call.args if a.keyword is None and not a.star]
        values = [a.value for a in positional[position:]] if keyword is None else positional[position : position + 1]
        values = [v.value if isinstance(v, cst.Arg) else v for v in values]
        values += [a.value for a in call.args if keyword is not None and a.keyword is not None and a.keyword.value == keyword]
        for value in values:
            why = function_leaf(analysis, value, 0)
            if why is None:
                continue
            name = primitive.rsplit(".", 1)[-1]
            out.append(
                ctx.finding(
                    "JAX405",
                    value,
                    f"`{shorten(ctx.code(value))}`, in the {what} of `{name}`, is (or holds) an equinox module that "
                    f"holds {why} as a leaf; `{name}` takes every leaf of its {what} as an array and fails "
                    '("is not a valid JAX type")',
                    notes=(_OPTION,),
                )
            )
            break
    return out

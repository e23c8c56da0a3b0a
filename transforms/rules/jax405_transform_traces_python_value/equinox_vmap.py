"""JAX405 for an equinox module given to ``jax.vmap``: the module holds a function as a leaf.

``jax.vmap(f)(ensemble, keys)`` maps every leaf of its arguments as an array,
and fails on a function one ("... is not a valid JAX type", equinox#865):
an ``eqx.nn.MLP``'s activations, a module field given a function
(`semantics.function_leaves`). ``eqx.filter_vmap`` maps the arrays along axis
0, as vmap's default does, and leaves every other leaf as it is; a call vmap
ran (arrays alone) maps the same under both. Only the bare ``jax.vmap(f)``
(no options) applied at its call is rewritten.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.function_leaves import FILTER_VMAP, function_leaf

VMAP = "jax.vmap"


def equinox_vmap_findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls:
        mapped = call.func
        if not isinstance(mapped, cst.Call) or ctx.names.qualified_name(mapped.func) != VMAP:
            continue
        if len(mapped.args) != 1 or mapped.args[0].keyword is not None or mapped.args[0].star:
            continue
        for arg in call.args:
            why = function_leaf(analysis, arg.value, 0) if not arg.star else None
            if why is None:
                continue
            head = (
                f"`{shorten(ctx.code(arg.value))}`, given to `{shorten(ctx.code(mapped))}`, is an equinox module that "
                f"holds {why} as a leaf; `jax.vmap` maps every leaf as an array and fails (\"is not a valid JAX type\")"
            )
            spelled = planner(analysis).spell(FILTER_VMAP, call)
            if spelled is None:
                out.append(ctx.finding("JAX405", arg.value, f"{head}; not rewritten: `eqx.filter_vmap` cannot be spelled here"))
                break
            edits = [ctx.replace(mapped.func, spelled.text), *((spelled.edit,) if spelled.edit is not None else ())]
            out.append(ctx.finding(
                "JAX405", arg.value,
                f"{head}; map it with equinox's `{spelled.text}`, which maps the arrays along axis 0 and leaves "
                "every other leaf as it is",
                tuple(edits), Applicability.SAFE,
                description=f"`{spelled.text}` instead of `{ctx.code(mapped.func)}`",
            ))
            break
    return out

"""JAX302 for a jit stacked under a jit with static arguments (catalyst#932).

The outer jit keeps the parameter static; the inner plain jit traces it again,
and the body needs it concrete (``range(n_layers)``). The repair drops the
inner jit (`repairs.stacked_jit`).
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.stacked_jit import drop_inner_jits, lost_statics, stacked_jits
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    uses = ConcreteUses(ctx, strict=True, traces=analysis.traces)
    out: list[Finding] = []
    for fn in ctx.nodes_of(cst.FunctionDef):
        lost = lost_statics(ctx, fn)
        needed = [(p, u) for p in sorted(lost) if (u := uses.first_need(fn, p)) is not None and u.need is Need.NEEDS]
        if not needed:
            continue
        param, use = needed[0]
        outer, inner_decorators = stacked_jits(ctx, fn)  # type: ignore[misc]
        inner = ", ".join(f"`@{ctx.code(d.decorator)}`" for d in inner_decorators)
        above = inner_decorators[0]
        head = (
            f"{inner} under `@{shorten(ctx.code(fn.decorators[fn.decorators.index(above) - 1].decorator))}` traces `{param}` again, which the outer "
            f"jit keeps static, and {use.reason}"
        )
        edits = drop_inner_jits(ctx, fn)
        if isinstance(edits, str):
            out.append(ctx.finding("JAX302", above, f"{head}; not rewritten: {edits}"))
            continue
        out.append(
            ctx.finding(
                "JAX302",
                above,
                f"{head}; a jit inside a jit adds nothing (the outer trace inlines it), so the inner one goes",
                edits,
                description=f"drop {inner}",
            )
        )
    return out


def seeds(facts: Facts) -> list[ast.AST]:
    """Defs with two or more decorators that may be jits."""
    return [
        n for n in facts.nodes
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(n.decorator_list) >= 2
        and sum("jit" in ast.unparse(d) for d in n.decorator_list) >= 2
    ]

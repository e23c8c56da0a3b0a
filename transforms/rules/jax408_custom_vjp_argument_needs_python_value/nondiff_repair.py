"""Move ordinary arguments of a custom_vjp into ``nondiff_argnums`` (the inverse of JAX407's move)::

    @jax.custom_vjp                                   @partial(jax.custom_vjp, nondiff_argnums=(1,))
    def f(z, k): return z ** int(k)                   def f(z, k): return z ** int(k)
    def fwd(z, k): return f(z, k), z            ->    def fwd(z, k): return f(z, k), z
    def bwd(res, g): return (g * ..., None)           def bwd(k, res, g): return (g * ...,)

custom_vjp hands the nondiff arguments to bwd first, in position order, and
takes from it a cotangent for the other arguments only; fwd keeps its
signature (it takes every argument). The edit is made only where each piece
is written so that it can be read: one ``defvjp`` naming two defs used nowhere
else, plain positional signatures that line up, bwd not already using a name
it is given, and every return of bwd a tuple written out whose dropped
cotangents are pure expressions.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.fresh_names import names_in
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import own_returns
from jaxfix.transforms.semantics.custom_vjp import vjp_signatures
from jaxfix.transforms.semantics.purity import is_pure
from jaxfix.transforms.semantics.vocabulary import PARTIAL


@dataclass(frozen=True)
class CustomVjp:
    """A def decorated ``@jax.custom_vjp`` or ``@partial(jax.custom_vjp, nondiff_argnums=...)``."""

    function: cst.FunctionDef
    decorator: cst.Decorator
    #: The positions ``nondiff_argnums`` lists already, and that argument (None: not written).
    listed: tuple[int, ...]
    option: cst.Arg | None


def move_to_nondiff(analysis: Analysis, vjp: CustomVjp, moved: tuple[int, ...]) -> tuple[tuple[Edit, ...], str] | str:
    """The edits listing the `moved` positions in ``nondiff_argnums``, and the new decorator; or why
    they cannot be made."""
    ctx = analysis.ctx
    read = vjp_signatures(ctx, vjp.function, vjp.listed)
    if isinstance(read, str):
        return read
    bwd, primal, bwd_params = read.bwd, read.primal, read.bwd_params
    n, listed = len(primal), vjp.listed
    nondiff = sorted({*listed, *moved})
    given = [primal[p].name.value for p in moved]
    if any(name in names_in(bwd) for name in given):
        return f"bwd already uses the name `{next(n for n in given if n in names_in(bwd))}`"
    edits: list[Edit] = []
    ordinary = [p for p in range(n) if p not in listed]
    for ret in own_returns(bwd):
        value = ret.value
        if not isinstance(value, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in value.elements):
            return f"bwd's `{ctx.code(ret).strip()}` is not a tuple of cotangents written out"
        if len(value.elements) != len(ordinary):
            return f"bwd's `{ctx.code(ret).strip()}` does not give one cotangent per differentiable argument"
        kept: list[str] = []
        for position, element in zip(ordinary, value.elements):
            if position not in moved:
                kept.append(ctx.code(element.value))
            elif not is_pure(ctx, element.value):
                return f"bwd computes `{ctx.code(element.value)}` for `{primal[position].name.value}`, which dropping it would not run"
        edits.append(ctx.replace(value, f"({', '.join(kept)}{',' if len(kept) == 1 else ''})"))
    header = [primal[p].name.value if p in moved else bwd_params[listed.index(p)].name.value for p in nondiff]
    header += [bwd_params[-2].name.value, bwd_params[-1].name.value]
    edits.append(ctx.replace(bwd.params, ", ".join(header)))
    numbers = ", ".join(str(p) for p in nondiff) + ("," if len(nondiff) == 1 else "")
    if vjp.option is not None:
        edits.append(ctx.replace(vjp.option.value, f"({numbers})"))
        return tuple(edits), f"nondiff_argnums=({numbers})"
    partial = planner(analysis).spell(PARTIAL, vjp.decorator)
    if partial is None:
        return "`functools.partial` cannot be named here"
    decorator = f"{partial.text}({ctx.code(vjp.decorator.decorator)}, nondiff_argnums=({numbers}))"
    edits.append(ctx.replace(vjp.decorator.decorator, decorator))
    if partial.edit is not None:
        edits.append(partial.edit)
    return tuple(edits), f"@{decorator}"

"""Move a traced nondiff argument of a custom_vjp into its residuals.

custom_vjp refuses a tracer in a ``nondiff_argnums`` slot (UnexpectedTracerError;
docs/jax407-behaviour.md). JAX's own advice is to make such an argument an
ordinary one: fwd saves it with the residuals, and bwd, which received it first,
reads it back from them and gives it no cotangent (``None``: zero). Written out::

    @partial(jax.custom_vjp, nondiff_argnums=(0,))      @jax.custom_vjp
    def f(s, p): ...                                     def f(s, p): ...
    def fwd(s, p): return out, res                 ->    def fwd(s, p): return out, (s, res)
    def bwd(s, res, g): return (s * g,)                  def bwd(saved, g):
                                                             s, res = saved
                                                             return (None, s * g)

The program computes the same values: fwd and bwd read the same ``s``, and the
cotangent of an argument the author declared non-differentiable is zero.
Proof obligations, each refused with the reason: fwd and bwd are plain defs
(or staticmethods) named only by ``defvjp``; their parameters line up with ``f``'s
(positional, no defaults, no ``*``); the moved names are never rebound in
them; every ``return`` of fwd is ``out, res`` and every ``return`` of bwd a
tuple display with one cotangent per differentiable argument; and no read of
the argument in ``f``, fwd or bwd needs it as a Python value (a size, an ``if``,
a call of it): once ordinary, it may arrive as a tracer there.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.fresh_names import fresh_name, names_in
from jaxfix.transforms.edits.statements import is_docstring
from jaxfix.transforms.semantics.constants import own_returns
from jaxfix.transforms.semantics.custom_vjp import (
    NondiffFunction,
    plain_positional,
    python_value_needed,
    vjp_signatures,
)
from jaxfix.transforms.semantics.module import ModuleContext


def needed_as_python_value(ctx: ModuleContext, nd: NondiffFunction, moved: tuple[int, ...]) -> str | None:
    """Why the function itself needs one of the `moved` arguments as a Python value (then no
    formulation takes a tracer there: the value must be made static where it comes from)."""
    primal = plain_positional(nd.function, undecorated=False)
    if primal is None:
        return None
    for position in moved:
        if position < len(primal):
            why = python_value_needed(ctx, primal[position])
            if why is not None:
                return f"`{primal[position].name.value}` is needed as a Python value: {why}"
    return None


def move_to_residuals(ctx: ModuleContext, nd: NondiffFunction, moved: tuple[int, ...]) -> tuple[tuple[Edit, ...], str] | str:
    """The edits that make the `moved` positions ordinary arguments (and the new ``bwd`` header),
    or why not."""
    read = vjp_signatures(ctx, nd.function, nd.positions)
    if isinstance(read, str):
        return read
    fwd, bwd, primal, fwd_params, bwd_params = read.fwd, read.bwd, read.primal, read.fwd_params, read.bwd_params
    n, positions = len(primal), nd.positions
    for params, index_of in ((fwd_params, lambda p: p), (bwd_params, positions.index)):
        for position in moved:
            why = python_value_needed(ctx, params[index_of(position)])
            if why is not None:
                return f"`{params[index_of(position)].name.value}` is needed as a Python value: {why}"
    diff_count = n - len(positions)
    edits: list[Edit] = []
    fwd_moved = [fwd_params[p].name.value for p in moved]
    for ret in own_returns(fwd):
        value = ret.value
        if not (isinstance(value, cst.Tuple) and len(value.elements) == 2 and not any(isinstance(e, cst.StarredElement) for e in value.elements)):
            return f"fwd's `{ctx.code(ret).strip()}` is not `return out, residuals`"
        residuals = value.elements[1].value
        edits.append(ctx.replace(residuals, f"({', '.join(fwd_moved)}, {ctx.code(residuals)})"))
    remaining = [p for p in positions if p not in moved]
    for ret in own_returns(bwd):
        value = ret.value
        if not isinstance(value, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in value.elements):
            return f"bwd's `{ctx.code(ret).strip()}` is not a tuple of cotangents written out"
        if len(value.elements) != diff_count:
            return f"bwd's `{ctx.code(ret).strip()}` does not give one cotangent per differentiable argument"
        given = iter(ctx.code(e.value) for e in value.elements)
        cotangents = ["None" if p in moved else next(given) for p in range(n) if p not in remaining]
        text = ", ".join(cotangents) + ("," if len(cotangents) == 1 else "")
        edits.append(ctx.replace(value, f"({text})"))
    res, g = bwd_params[-2].name.value, bwd_params[-1].name.value
    saved = fresh_name("saved", names_in(bwd))
    kept = [bwd_params[positions.index(p)].name.value for p in remaining]
    bwd_moved = [bwd_params[positions.index(p)].name.value for p in moved]
    header = ", ".join([*kept, saved, g])
    edits.append(ctx.replace(bwd.params, header))
    body = bwd.body
    if not isinstance(body, cst.IndentedBlock) or not body.body:
        return "bwd's body is on its def line"
    first = body.body[0]
    if is_docstring(first) and len(body.body) > 1:
        first = body.body[1]
    indent = ctx.indent_of(first)
    edits.append(Edit(ctx.start(first), ctx.start(first), f"{', '.join([*bwd_moved, res])} = {saved}\n{indent}"))
    if remaining:
        numbers = ", ".join(str(p) for p in remaining) + ("," if len(remaining) == 1 else "")
        edits.append(ctx.replace(nd.option.value, f"({numbers})"))
    else:
        edits.append(ctx.replace(nd.decorator, ctx.code(nd.decorator.args[0].value)))
    return tuple(edits), f"def {bwd.name.value}({header})"

"""A jit stacked under another jit: the inner one traces what the outer one keeps static.

``@partial(jax.jit, static_argnums=(1,))`` over ``@jax.jit`` (catalyst#932's
``qjit``-over-``jit``, a decorator a library already applied) compiles the
function once per static value, and inside, the plain jit traces every
argument again: ``range(n_layers)`` gets a tracer although the outer jit keeps
``n_layers`` a Python int. A jit inside a jit adds nothing (the outer trace
inlines it), so the inner decorator goes, and the outer jit's static
arguments reach the body. Proof obligations: every decorator of the def is a
jit written there (no other layer between them; a ``@staticmethod`` above them), the outermost declares the
parameter static and an inner one does not, and each inner decorator sits on
lines of its own.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.statements import line_removed
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import JitWrapper, read_jit_wrapper
from jaxfix.transforms.semantics.module import ModuleContext


def stacked_jits(ctx: ModuleContext, fn: cst.FunctionDef) -> tuple[JitWrapper, list[cst.Decorator]] | None:
    """(the outermost jit, the jit decorators under it) when every decorator of `fn` is a jit and
    there are several; None otherwise."""
    decorators = list(fn.decorators)
    if decorators and ctx.names.qualified_name(decorators[0].decorator) == "builtins.staticmethod":
        decorators = decorators[1:]  # a staticmethod of a class: the jits under it
    if len(decorators) < 2:
        return None
    wrappers = [read_jit_wrapper(ctx, d.decorator) for d in decorators]
    if any(w is None or w.spec is None for w in wrappers):
        return None
    return wrappers[0], decorators[1:]  # type: ignore[return-value]


def lost_statics(ctx: ModuleContext, fn: cst.FunctionDef) -> frozenset[str]:
    """The parameters the outermost of stacked jits keeps static and an inner one traces again."""
    stacked = stacked_jits(ctx, fn)
    if stacked is None:
        return frozenset()
    outer, inner = stacked
    signature = Signature.from_cst(fn.params)
    kept = outer.spec.declared_static(signature)  # type: ignore[union-attr]
    lost: set[str] = set()
    for decorator in inner:
        wrapper = read_jit_wrapper(ctx, decorator.decorator)
        lost |= set(kept) - set(wrapper.spec.declared_static(signature))  # type: ignore[union-attr]
    return frozenset(lost)


def drop_inner_jits(ctx: ModuleContext, fn: cst.FunctionDef) -> tuple[Edit, ...] | str:
    """The edits removing every jit decorator under the outermost one, or why not."""
    stacked = stacked_jits(ctx, fn)
    if stacked is None:
        return "the jits are not all decorators of the def"
    edits: list[Edit] = []
    for decorator in stacked[1]:
        removed = line_removed(ctx, decorator.decorator, "@" + ctx.code(decorator.decorator))
        if removed is None:
            return "an inner jit decorator shares its line with other code"
        edits.append(removed)
    return tuple(edits)

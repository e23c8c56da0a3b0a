"""JAX302 for ``optax.inject_hyperparams``: a hyperparameter the optimizer reads as a Python value.

``optax.inject_hyperparams(opt)(...)`` turns every numeric hyperparameter it is not told is
static into an array of the optimizer state, so under jit it is a tracer. adafactor compares its
``min_dim_size_to_factor`` in a Python ``if``: ``jax.jit(opt.init)(params)`` raises
TracerBoolConversionError (optax#412). Named in ``static_args``, it stays the Python int it was,
which is what ``optax.adafactor`` itself would have been given.

`NEEDS_STATIC` is measured, not guessed: every optax function taking a ``learning_rate`` was
wrapped by ``inject_hyperparams`` and its ``init`` and ``update`` jitted
(docs/optax-behaviour.md); adafactor is the one a ``static_args`` entry mends.

Proven (safe) when the call passes the optimizer alone (no ``static_args`` of its own to merge
with) and the module never reads the hyperparameter back by its name (``hyperparams[...]``): a
static argument is no longer in the state.
"""

from __future__ import annotations

import ast

from jaxfix.transforms.core.findings import Applicability, Edit, Finding
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.semantics.analysis import Analysis

INJECT = "optax.inject_hyperparams"
#: The optax optimizers whose named hyperparameters must stay Python values (docs/optax-behaviour.md).
NEEDS_STATIC: dict[str, tuple[str, ...]] = {"optax.adafactor": ("min_dim_size_to_factor",)}


def seeds(facts: Facts) -> list[ast.AST]:
    """``inject_hyperparams(...)`` calls, wherever written."""
    return [call for call in facts.calls if INJECT in qualified_spellings(facts, call.func)]


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls_of(INJECT):
        if not call.args or call.args[0].keyword is not None or call.args[0].star:
            continue
        optimizer = ctx.names.qualified_name(call.args[0].value)
        names = NEEDS_STATIC.get(optimizer or "")
        if names is None or len(call.args) != 1:
            continue  # other optimizers, or a call passing its own static_args (left alone)
        quoted = [f'"{n}"' for n in names]
        if any(q in ctx.text or f"'{n}'" in ctx.text for q, n in zip(quoted, names)):
            continue  # the module names it as a string: it may read it back from the state
        spelled = f"static_args=({', '.join(quoted)},)"
        last = call.args[0]
        edit = Edit(ctx.end(last.value), ctx.end(last.value), f", {spelled}")
        out.append(
            ctx.finding(
                "JAX302",
                call,
                f"`optax.inject_hyperparams({ctx.code(last.value)})` makes every numeric hyperparameter an array of "
                f"the state, a tracer under jit, but `{optimizer.rsplit('.', 1)[1]}` reads `{names[0]}` as a Python "
                f"value (a Python `if`: TracerBoolConversionError, optax#412); named in `static_args`, it stays the "
                f"Python int it is: `{spelled}`",
                (edit,),
                Applicability.SAFE,
                description=f"keep `{names[0]}` static",
                notes=("a static hyperparameter is no longer in `opt_state.hyperparams`",),
            )
        )
    return out

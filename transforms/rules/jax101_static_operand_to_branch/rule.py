"""JAX101 static-operand-to-branch: a jitted branch's static parameter receives a primitive's operand."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.control_flow_operands import REQUIRED, BranchBindings, seeds
from jaxfix.transforms.semantics.analysis import Analysis


class StaticOperandToBranch(Rule):
    """A jitted callable's static parameter receives an operand of a control-flow primitive.

    ``lax.cond``, ``lax.switch``, ``lax.fori_loop``, ``lax.while_loop`` and
    ``lax.scan`` turn every operand they pass into a tracer, eagerly and under
    jit alike, even a Python int that is static in the enclosing jit. A branch
    jitted with ``static_argnums``/``static_argnames`` that receives one tries to
    hash the tracer::

        ValueError: Non-hashable static arguments are not supported. An error
        occurred while trying to hash an object of type <class '...DynamicJaxprTracer'>

    The fix takes the static values out of the operands and binds them into
    the callable, in the one form that keeps them static for this signature:
    ``partial(f, N)`` for a positional prefix, ``partial(f, N=N)`` for
    parameters after every operand, both mixed, or a lambda with the values
    captured as defaults when a static parameter sits between dynamic ones.
    ``partial(f, N=N)`` where ``N`` comes first (a common copied answer) is
    also repaired: there the operand lands in ``N``'s slot.

    The value must be static where the primitive is called: a literal, a
    constant, arithmetic on those, array metadata, a static parameter of the
    enclosing jit, or a parameter of a function this module never traces.
    When it cannot be followed the fix is unsafe; when it is a traced
    parameter of the enclosing jit (or a helper's parameter a call from there
    hands a tracer), JAX102 takes over. The branches may be a helper's
    parameters (``def choose(flag, on_true, on_false, x): return
    lax.cond(flag, on_true, on_false, 3, x)``): each names the one function
    every call of the helper hands it, and the binding is written in the
    helper (`callables.passed_target`). A body whose static
    parameter receives the loop index or carry is reported: a value the loop
    supplies is never static.

    ``partial(f, alpha, T)`` whose values are named for parameters other than
    the ones their positions fill (``f(z, alpha, T)``) shifts an operand into a
    static slot, of a branch, a loop body or a function ``jax.vmap`` maps
    (``vmap(partial(map_row, alpha, T))(rows)``); the names say what was meant,
    and the values are bound by keyword: ``partial(f, alpha=alpha, T=T)``.
    """

    code = "JAX101"
    name = "static-operand-to-branch"
    summary = "a static parameter of a jitted branch or loop body receives a traced operand"
    required = REQUIRED

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [f for f in BranchBindings.of(analysis) if f.code == self.code]

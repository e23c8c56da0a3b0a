"""JAX102 branch-jit-into-enclosing-jit: the static value is a traced parameter of the enclosing jit."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.control_flow_operands import BRANCH_REQUIRED, BranchBindings, seeds
from jaxfix.transforms.semantics.analysis import Analysis


class BranchJitIntoEnclosingJit(Rule):
    """The value a branch needs static is a traced parameter of the enclosing jit.

    Inside a jitted function, a parameter that is not static there is already
    a tracer, so binding it into a branch with ``partial`` fails exactly like
    passing it as an operand (jax-behaviour.md 1i). The fix makes that
    parameter static on the enclosing jit, in the jit's own spelling
    (argnums stay argnums, argnames stay argnames), and binds it into the
    branches as JAX101 does: one finding, one diff.

    The branches' own ``jit`` is redundant inside traced code (1j: same
    results, same compiled program), so it is dropped when every use of the
    branch function in the module is inside traced code; when anything calls
    it eagerly it stays, and the finding says so.

    Making a parameter static changes what callers must pass: a hashable
    Python value, and each new value compiles again. The fix is safe when every
    call of the enclosing function in this module passes a static value for
    it; otherwise (an array, a value that cannot be followed, no visible
    caller) it is unsafe and applied only with ``--unsafe-fixes``.
    """

    code = "JAX102"
    name = "branch-jit-into-enclosing-jit"
    summary = "a branch's static value is a traced parameter of the enclosing jitted function"
    required = BRANCH_REQUIRED

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [f for f in BranchBindings.of(analysis) if f.code == self.code]

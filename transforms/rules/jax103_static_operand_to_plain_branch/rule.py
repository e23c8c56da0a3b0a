"""JAX103 static-operand-to-plain-branch: ``lax.cond(p, f, g, n, x)`` where ``f`` needs ``n`` concrete.

The shared pass is `repairs.control_flow_operands` in its plain mode: the
parameters of a branch that need a concrete value (`semantics.concrete_uses`,
followed into the helpers and methods the branch calls) take the place of a
jitted branch's static parameters, and the repair JAX101 proves (bind the
operands into the branches before the primitive) applies unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.control_flow_operands import BranchBindings
from jaxfix.transforms.semantics.analysis import Analysis


class StaticOperandToPlainBranch103(Rule):
    """A branch of ``lax.cond``/``lax.switch`` needs as a Python value an operand the primitive traces.

    ``lax.cond`` and ``lax.switch`` turn every operand into a tracer, eagerly
    too, before either branch runs. A branch (a def, a method, a lambda; not
    jitted) that needs one of them concrete, a size (``jnp.arange(n)``,
    ``jnp.zeros((n, 2))``), a Python ``if``, ``int()``, a slice bound, here or in
    a helper it hands the value to, fails::

        jax.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
        ... The size argument of jnp.arange must be concrete ... for cond

    The fix takes the value out of the operands and binds it into every
    branch (``partial(f, n)``, ``partial(f, n=n)``, or a lambda with the value
    as a default), the form chosen and checked against each branch's
    signature as JAX101 does. The value must be a Python value where the
    primitive is called (a literal, a constant, a static parameter of the
    enclosing jit, a parameter of eager code); when it cannot be followed the
    fix is unsafe, and when it is itself a tracer nothing is proposed: no
    binding makes it concrete. A jitted branch with static parameters is
    JAX101's.
    """

    code = "JAX103"
    name = "static-operand-to-plain-branch"
    summary = "a plain cond/switch branch needs as a Python value an operand the primitive traces"
    required = (("cond", "switch"),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Every cond/switch call handing the branches an operand."""
        return [call for call in facts.control_flow_calls if _operands(facts, call)]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [f for f in BranchBindings.of(analysis, plain=True) if f.code == self.code]


def _operands(facts: Facts, call: ast.Call) -> bool:
    name = facts.control_flow_name(call)
    head = {"cond": 3, "switch": 2}.get(name or "")
    return head is not None and (len(call.args) > head or any(k.arg is None for k in call.keywords))

"""Keep a validation guard where its value is concrete: ``if n < 1: raise ValueError(...)``.

A check written for eager calls (quantum-rf-pdk's ``if n_turns < 1: raise ValueError``) meets a
tracer once the function runs under jit or vmap, and Python cannot take the truth of a tracer
(TracerBoolConversionError). The guard keeps checking every concrete value and steps aside for a
tracer: ``if not isinstance(n, jax.core.Tracer) and n < 1:`` (the fix quantum-rf-pdk#766 took).

Proof obligations, each refused with the reason:

* the ``if`` has no ``else``/``elif`` and its body is one ``raise``: a check, which changes
  nothing when it passes, so skipping it changes nothing a passing program computes;
* the test reads one name (besides literals, builtins and imports): the value that may be a
  tracer, which ``isinstance`` asks about;
* ``jax.core.Tracer`` has a name there (`edits.imports` adds ``import jax`` where the module has
  no name for it).

Unsafe: under a trace the check no longer runs (``jax.experimental.checkify.check`` keeps such a
check inside traced code).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.reads import names_read

TRACER = "jax.core.Tracer"
#: Tests that need parentheses under ``and`` (``or`` binds looser; a conditional expression too).
_LOOSE = (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr)

NOTE = (
    "unsafe: under a trace the check no longer runs (it still checks every concrete value); "
    "`jax.experimental.checkify.check` keeps such a check inside traced code"
)


def guard_concrete_only(analysis: Analysis, guard: cst.If) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the new test) making `guard` skip a tracer; else why not."""
    ctx = analysis.ctx
    if guard.orelse is not None:
        return "the `if` has another branch, so it does more than check"
    body = guard.body.body if isinstance(guard.body, cst.IndentedBlock) else ()
    line = body[0] if len(body) == 1 else None
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Raise)):
        return "the `if` does more than raise"
    names = {
        n.value for n in names_read(guard.test)  # builtins and imports named there are no values read
        if ctx.names.qualified_name(n) is None and n.value not in ("True", "False", "None")
    }
    if len(names) != 1:
        return "its test reads several values, and which may be a tracer is not one name"
    (name,) = names
    spelled = planner(analysis).spell(TRACER, guard.test)
    if spelled is None:
        return "no name for `jax.core.Tracer` is free here"
    test = ctx.code(guard.test)
    if isinstance(guard.test, _LOOSE):
        test = f"({test})"
    text = f"not isinstance({name}, {spelled.text}) and {test}"
    edits = [ctx.replace(guard.test, text)]
    if spelled.edit is not None:
        edits.append(spelled.edit)
    return tuple(edits), text

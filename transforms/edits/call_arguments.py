"""Text edits on call arguments that keep commas and comments right."""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.module import ModuleContext


def remove_args(ctx: ModuleContext, call: cst.Call, positions: list[int]) -> list[Edit]:
    """Edits deleting some arguments of a call (by position), leaving the commas right.

    A run of arguments followed by another argument goes up to that argument;
    a run at the end goes from the end of the argument before it, so a
    trailing comma, and any comment after it, stays.
    """
    args = list(call.args)
    runs: list[list[int]] = []
    for i in sorted(positions):
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    edits: list[Edit] = []
    for run in runs:
        first, last = run[0], run[-1]
        if last + 1 < len(args):
            edits.append(Edit(ctx.start(args[first]), ctx.start(args[last + 1]), ""))
        elif first > 0:
            edits.append(Edit(ctx.end(args[first - 1].value), ctx.end(args[last].value), ""))
        else:
            whole = ctx.start(args[last]) + len(ctx.module.code_for_node(args[last]))
            edits.append(Edit(ctx.start(args[first]), whole, ""))
    return edits

"""JAX302 for ``@jax.jit`` written above ``@staticmethod``: the jit is handed the staticmethod object.

Decorators apply bottom up, so ``@jax.jit`` over ``@staticmethod`` jits the ``staticmethod``
wrapper rather than the function, and JAX refuses it when the class body runs: ``TypeError:
staticmethod arguments are not supported`` (jax#7702; docs/jax302-behaviour.md, H).
``@staticmethod`` outermost makes the staticmethod of the jitted function, which is what the
author meant: the class could not even be defined before, so no program that ran
changes, and the fix is safe. Only where every decorator above ``@staticmethod`` is a jit (bare,
with its options, or ``partial(jax.jit, ...)``): another wrapper there may expect either object.
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding
from jaxfix.transforms.edits.statements import line_removed
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.jit_wrappers import read_jit_wrapper

STATICMETHOD = "builtins.staticmethod"


def seeds(facts: Facts) -> list[ast.AST]:
    """Defs with ``staticmethod`` below another decorator."""
    out: list[ast.AST] = []
    for defs in facts.defs_by_name.values():
        for node in defs:
            names = [d.id if isinstance(d, ast.Name) else None for d in node.decorator_list]
            if "staticmethod" in names[1:]:
                out.append(node)
    return out


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for fn in ctx.nodes_of(cst.FunctionDef):
        decorators = list(fn.decorators)
        at = next((i for i, d in enumerate(decorators) if ctx.names.qualified_name(d.decorator) == STATICMETHOD), 0)
        above = decorators[:at]
        if not above or not isinstance(ctx.parent(ctx.parent(fn)), cst.ClassDef):
            continue
        if any(read_jit_wrapper(ctx, d.decorator) is None for d in above):
            continue
        static = decorators[at]
        head = (
            f"`{ctx.code(above[-1].decorator)}` is applied to the `staticmethod` object `@staticmethod` made of "
            f"`{fn.name.value}`, not to the function, and jit refuses it when the class is defined "
            "(\"staticmethod arguments are not supported\")"
        )
        moved = _moved_to_top(ctx, static, decorators[0])
        if moved is None:
            out.append(ctx.finding("JAX302", static.decorator, f"{head}; not rewritten: the decorators share lines",
                                   notes=("put `@staticmethod` first, above the jit",)))
            continue
        out.append(
            ctx.finding(
                "JAX302",
                static.decorator,
                f"{head}; `@staticmethod` goes outermost, making the staticmethod of the jitted function",
                moved,
                description="put `@staticmethod` above the jit",
            )
        )
    return out


def _moved_to_top(ctx, static: cst.Decorator, first: cst.Decorator) -> tuple[Edit, ...] | None:
    """The edits taking the ``@staticmethod`` line out and writing it above the first decorator;
    None where a decorator shares its line with other code or holds a comment."""
    shown = ctx.code(static).strip()
    removed = line_removed(ctx, static, shown)
    first_start = ctx.text.rfind("\n", 0, ctx.start(first)) + 1
    indent = ctx.text[first_start : ctx.start(first)]
    if removed is None or indent.strip():
        return None
    return (Edit(first_start, first_start, f"{indent}{shown}{ctx.newline}"), removed)

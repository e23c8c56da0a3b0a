"""JAX302 for ``@classmethod`` above ``@jax.jit``: the jit is handed the class.

The jit wraps the plain function and the classmethod binds the class to it, so every call hands
the jit the class as its first argument, and a class is no array: "Error interpreting argument to
<function A.zeros> as an abstract array ... of type <class 'type'>" (jax#15727). Static, it is
hashed by identity and read as the Python class it is, which is what the body meant; making it
static changes nothing else (a class was never traceable), so the fix is safe. Where the body
also needs another parameter static, the main JAX302 finding makes both static at once
(`repairs.static_parameter.class_receiver`) and this one stays silent.
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.static_parameter import class_receiver, static_edit, used_as_class
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.jit_wrappers import function_info, read_jit_wrapper
from jaxfix.transforms.semantics.tracing import Wrap
from jaxfix.transforms.semantics.vocabulary import JIT


def seeds(facts: Facts) -> list[ast.AST]:
    """Defs decorated with ``classmethod`` and something else below it."""
    out: list[ast.AST] = []
    for defs in facts.defs_by_name.values():
        for node in defs:
            names = [d.id if isinstance(d, ast.Name) else None for d in node.decorator_list]
            if "classmethod" in names and names.index("classmethod") < len(names) - 1:
                out.append(node)
    return out


def findings(analysis: Analysis, taken: list[tuple[int, int]]) -> list[Finding]:
    """One finding per jitted classmethod whose class is not static, unless an edit of another
    JAX302 finding (`taken`, character spans) already rewrites its jit."""
    ctx = analysis.ctx
    out: list[Finding] = []
    for fn in ctx.nodes_of(cst.FunctionDef):
        for decorator in fn.decorators:
            wrapper = read_jit_wrapper(ctx, decorator.decorator)
            if wrapper is None or wrapper.spec is None:
                continue
            jit = Wrap(JIT, decorator, wrapper.call, wrapper)
            receiver = class_receiver(analysis, fn, jit)
            if receiver is None:
                continue
            if receiver in wrapper.spec.declared_static(function_info(ctx, fn).signature):
                continue
            start, end = ctx.start(decorator), ctx.end(decorator)
            if any(a < end and start < b for a, b in taken):
                continue
            if not used_as_class(analysis, fn, receiver):
                out.append(
                    ctx.finding(
                        "JAX302",
                        decorator.decorator,
                        f"`@classmethod` hands what `{ctx.code(decorator.decorator)}` made of `{fn.name.value}` the class "
                        f"first, so the jit is given it as `{receiver}`, which the body uses as something else; "
                        "not rewritten: the def takes no class parameter",
                        notes=(
                            f"option: add the class parameter first (`def {fn.name.value}(cls, {receiver}, ...)`) and make it "
                            "static with the parameters the body needs static (jax#15727's answer: `static_argnums=(0, 1)`)",
                            "option: a `@staticmethod` if the body never needs the class",
                        ),
                    )
                )
                continue
            edit = static_edit(analysis, fn, jit, (receiver,))
            head = (
                f"`@classmethod` binds the class to what `{ctx.code(decorator.decorator)}` made of `{fn.name.value}`, "
                f"so the jit is handed the class as `{receiver}`, and a class is no array (jit cannot trace it)"
            )
            if isinstance(edit, str):
                out.append(ctx.finding("JAX302", decorator.decorator, f"{head}; not rewritten: {edit}"))
                continue
            edits, description, added = edit
            notes = (f"adds `{added}`",) if added else ()
            out.append(
                ctx.finding(
                    "JAX302",
                    decorator.decorator,
                    f"{head}; static, it is hashed by identity and read as the class: `{description}`",
                    edits,
                    description=f"make `{receiver}` static on the jit",
                    notes=notes,
                )
            )
    return out


"""A ``custom_jvp`` function with ``nondiff_argnums``, the jvp rule its ``defjvp`` names, and its calls.

Read as written, in the two spellings people use: ``@partial(jax.custom_jvp,
nondiff_argnums=(1,))`` on the def, or ``f = jax.custom_jvp(g, nondiff_argnums=(1,))``
(jax#20889); the rule ``@f.defjvp`` on a def, or ``f.defjvp(rule)`` naming one. The
option must be a literal int or tuple of ints, and the name ``f`` bound once. Anything
else is not read (None).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.custom_vjp import defined_function, nondiff_positions
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.vocabulary import PARTIAL

CUSTOM_JVP = "jax.custom_jvp"


@dataclass(frozen=True)
class CustomJvp:
    #: The name calls use: the def's own, or the assignment's target.
    binding: cst.Name
    #: The def whose parameters the slots are.
    primal: cst.FunctionDef
    #: ``jax.custom_jvp(g, nondiff_argnums=...)`` or the decorator's ``partial(jax.custom_jvp, ...)``.
    option_call: cst.Call
    decorator: cst.Decorator | None
    positions: tuple[int, ...]
    #: The jvp rule, when the module names one def.
    rule: cst.FunctionDef | None
    #: Every use of the name: a call (``f(x, m)``), or the ``f.defjvp`` that names the rule.
    calls: tuple[cst.Call, ...]
    #: A use that is neither (the function handed elsewhere).
    escapes: bool


def custom_jvps(ctx: ModuleContext) -> Iterator[CustomJvp]:
    for fn in ctx.nodes_of(cst.FunctionDef):
        if len(fn.decorators) == 1 and isinstance(call := fn.decorators[0].decorator, cst.Call):
            if ctx.names.qualified_name(call.func) == PARTIAL and call.args and ctx.names.qualified_name(call.args[0].value) == CUSTOM_JVP:
                found = _read(ctx, fn.name, fn, call, fn.decorators[0])
                if found is not None:
                    yield found
    for call in ctx.calls_of(CUSTOM_JVP):
        parent = ctx.parent(call)  # the Assign of `f = jax.custom_jvp(...)`
        if not (isinstance(parent, cst.Assign) and parent.value is call and len(parent.targets) == 1):
            continue
        target = parent.targets[0].target
        primal = defined_function(ctx, call.args[0].value) if call.args and call.args[0].keyword is None else None
        if isinstance(target, cst.Name) and isinstance(primal, cst.FunctionDef):
            found = _read(ctx, target, primal, call, None)
            if found is not None:
                yield found


def _read(ctx: ModuleContext, binding: cst.Name, primal: cst.FunctionDef, call: cst.Call, decorator: cst.Decorator | None) -> CustomJvp | None:
    option = next((a for a in call.args if a.keyword is not None and a.keyword.value == "nondiff_argnums"), None)
    if option is None or any(a.star for a in call.args):
        return None
    positions = nondiff_positions(ctx, option)
    if positions is None:
        return None
    scope = ctx.scope(binding)
    assignments = scope[binding.value] if scope is not None else ()
    if len(assignments) != 1:
        return None
    rule: cst.FunctionDef | None = None
    calls: list[cst.Call] = []
    escapes = False
    for access in getattr(next(iter(assignments)), "references", ()):
        node = access.node
        parent = ctx.parent(node)
        if isinstance(parent, cst.Call) and parent.func is node:
            calls.append(parent)
        elif isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "defjvp":
            named = _rule(ctx, parent)
            if named is None or rule is not None:
                return None
            rule = named
        else:
            escapes = True
    return CustomJvp(binding, primal, call, decorator, tuple(positions), rule, tuple(calls), escapes)


def _rule(ctx: ModuleContext, attr: cst.Attribute) -> cst.FunctionDef | None:
    """The def ``f.defjvp`` names: the def it decorates, or the one ``f.defjvp(rule)`` is given."""
    parent = ctx.parent(attr)
    if isinstance(parent, cst.Decorator):
        fn = ctx.parent(parent)
        return fn if isinstance(fn, cst.FunctionDef) and len(fn.decorators) == 1 else None
    if isinstance(parent, cst.Call) and parent.func is attr and len(parent.args) == 1 and parent.args[0].keyword is None:
        return defined_function(ctx, parent.args[0].value)
    return None


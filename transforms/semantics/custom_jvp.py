"""A ``custom_jvp`` function with ``nondiff_argnums``, the jvp rule its ``defjvp`` names, and its calls.

Read as written, in the two spellings people use: ``@partial(jax.custom_jvp,
nondiff_argnums=(1,))`` on the def, or ``f = jax.custom_jvp(g, nondiff_argnums=(1,))``
(jax#20889); the rule ``@f.defjvp`` on a def, or ``f.defjvp(rule)`` naming one. The
option must be a literal int or tuple of ints, and the name ``f`` bound once, or twice when
the second is ``f = jax.jit(f)`` after it in the same code (jax#23065; module level, or a
function both sit in): uses there after it go through the jit (`CustomJvp.jitted_calls`), as do
the uses of a name bound once to ``jax.jit(f)`` in that code. Anything else is not read (None).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.custom_vjp import defined_function, nondiff_positions
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, JIT, PARTIAL

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
    #: Calls, after ``f = jax.jit(f)`` rebinds the name in the same code, through that jit: ``f(x, m)``,
    #: or ``jax.jacobian(f)(x, m)`` (jax#23065); the jit traces every array they pass.
    jitted_calls: tuple[cst.Call, ...] = ()


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
    assignments = list(scope[binding.value]) if scope is not None else []
    rebinding = _jit_rebinding(ctx, binding, assignments) if len(assignments) == 2 else None
    if len(assignments) != 1 and rebinding is None:
        return None
    rule: cst.FunctionDef | None = None
    calls: list[cst.Call] = []
    jitted: list[cst.Call] = []
    escapes = False
    references = {id(a.node): a.node for assignment in assignments for a in getattr(assignment, "references", ())}
    for node in sorted(references.values(), key=ctx.start):
        parent = ctx.parent(node)
        after = (
            rebinding is not None
            and ctx.enclosing_function(node) is ctx.enclosing_function(rebinding)
            and ctx.start(node) > ctx.start(rebinding)
        )  # later in the code that rebinds it: module level, or the function (`main()`) both sit in
        if rebinding is not None and any(a is rebinding for a in ctx.ancestors(node)):
            continue  # the `jax.jit(f)` of the rebinding itself
        if isinstance(parent, cst.Call) and parent.func is node:
            (jitted if after else calls).append(parent)
        elif isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "defjvp":
            named = _rule(ctx, parent)
            if named is None or rule is not None:
                return None
            rule = named
        elif after and (applied := _differentiated_call(ctx, node)) is not None:
            jitted.append(applied)
        elif (through := _jit_alias_calls(ctx, node)) is not None:
            jitted.extend(through)  # `jf = jax.jit(f)`, then `jf(x, m)` or `jax.grad(jf)(x, m)`
        else:
            escapes = True
    return CustomJvp(binding, primal, call, decorator, tuple(positions), rule, tuple(calls), escapes, tuple(jitted))


def _jit_rebinding(ctx: ModuleContext, binding: cst.Name, assignments: list) -> cst.Assign | None:
    """The ``f = jax.jit(f)`` (module level, or in the function the def sits in) that rebinds the custom_jvp's name after it is made (with
    no option: every argument traced), when the other binding is the custom_jvp's own."""
    for assignment in assignments:
        target = getattr(assignment, "node", None)
        assign = ctx.parent(ctx.parent(target)) if isinstance(target, cst.Name) else None
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1 or assign.targets[0].target is not target:
            continue
        value = assign.value
        if target is binding or ctx.enclosing_function(assign) is not _home(ctx, binding) or not isinstance(value, cst.Call):
            continue
        if not ctx.names.is_api(value.func, JIT) or len(value.args) != 1 or value.args[0].keyword is not None:
            continue
        inner = value.args[0].value
        if isinstance(inner, cst.Name) and inner.value == binding.value and ctx.start(assign) > ctx.start(binding):
            return assign
    return None


def _home(ctx: ModuleContext, binding: cst.Name) -> cst.CSTNode | None:
    """The function whose code binds `binding` (None: the module): a def's own name is bound where
    the def is written, outside it."""
    holder = ctx.parent(binding)
    return ctx.enclosing_function(holder if isinstance(holder, cst.FunctionDef) and holder.name is binding else binding)


def _jit_alias_calls(ctx: ModuleContext, node: cst.Name) -> list[cst.Call] | None:
    """`node` is the ``f`` of a ``jf = jax.jit(f)`` in the same code (no option) binding a name once:
    every use of ``jf``, each a call or the call of its derivative; None when one is anything else."""
    arg = ctx.parent(node)
    jit_call = ctx.parent(arg) if isinstance(arg, cst.Arg) else None
    assign = ctx.parent(jit_call) if isinstance(jit_call, cst.Call) else None
    if not isinstance(assign, cst.Assign) or assign.value is not jit_call or len(assign.targets) != 1:
        return None
    if not ctx.names.is_api(jit_call.func, JIT) or len(jit_call.args) != 1 or jit_call.args[0] is not arg or arg.keyword:  # type: ignore[union-attr]
        return None
    target = assign.targets[0].target
    scope = ctx.scope(target)
    assignments = list(scope[target.value]) if isinstance(target, cst.Name) and scope is not None else []
    if ctx.enclosing_function(assign) is not ctx.enclosing_function(node) or len(assignments) != 1:
        return None
    out: list[cst.Call] = []
    for access in getattr(assignments[0], "references", ()):
        use = access.node
        parent = ctx.parent(use)
        if isinstance(parent, cst.Call) and parent.func is use:
            out.append(parent)
        elif (applied := _differentiated_call(ctx, use)) is not None:  # type: ignore[arg-type]
            out.append(applied)
        else:
            return None
    return out


def _differentiated_call(ctx: ModuleContext, node: cst.Name) -> cst.Call | None:
    """``jax.jacobian(f)(x, m)`` with `node` the ``f``: the call of the differentiated function."""
    arg = ctx.parent(node)
    transform = ctx.parent(arg) if isinstance(arg, cst.Arg) and arg.keyword is None and not arg.star else None
    if not isinstance(transform, cst.Call) or transform.args[0] is not arg:
        return None
    if ctx.names.qualified_name(transform.func) not in DIFFERENTIATION:
        return None
    outer = ctx.parent(transform)
    return outer if isinstance(outer, cst.Call) and outer.func is transform else None


def _rule(ctx: ModuleContext, attr: cst.Attribute) -> cst.FunctionDef | None:
    """The def ``f.defjvp`` names: the def it decorates, or the one ``f.defjvp(rule)`` is given."""
    parent = ctx.parent(attr)
    if isinstance(parent, cst.Decorator):
        fn = ctx.parent(parent)
        return fn if isinstance(fn, cst.FunctionDef) and len(fn.decorators) == 1 else None
    if isinstance(parent, cst.Call) and parent.func is attr and len(parent.args) == 1 and parent.args[0].keyword is None:
        return defined_function(ctx, parent.args[0].value)
    return None


"""JAX302 for flax's lifted checkpoint: ``static_argnums`` counts the module as argument 0.

``nn.checkpoint(Block, static_argnums=...)`` (``nn.remat`` is the same function) lifts
``Block.__call__(self, x, deterministic)``, and its positions count ``self``: position 2 is
``deterministic``, position 1 is ``x`` (docs/flax-linen-behaviour.md, lifted static_argnums).
Written as ``jax.checkpoint`` counts a plain function's, ``static_argnums=(1,)`` makes ``x``
static and leaves the flag traced, and the layer that tests it fails (flax#3630).

The fix names the positions the module needs: every parameter whose reads need a Python value
(`concrete_uses`) joins the static positions, and a static position one place before such a
parameter whose reads need nothing concrete (the array the user counted as first) leaves
them. Proven (safe) when every call of the lifted class passes those parameters a hashable
Python value (`python_values`); else a report with the positions to write.
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import linen_module
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value, single_binding
from jaxfix.transforms.semantics.python_values import NotStatic, python_value
from jaxfix.transforms.semantics.tracing import call_defs

LIFTED_CHECKPOINT = frozenset({"flax.linen.checkpoint", "flax.linen.remat"})
#: flax's lifted jit: traces every argument of the module's method, as ``jax.jit`` does.
LIFTED_JIT = frozenset({"flax.linen.jit"})
OPTION = "static_argnums"


def seeds(facts: Facts) -> list[ast.AST]:
    """``nn.checkpoint(...)`` calls with static positions, and the module they sit in (the lifted
    class and its calls may be anywhere)."""
    lifts = [
        call
        for call in facts.calls
        if any(k.arg == OPTION for k in call.keywords) and qualified_spellings(facts, call.func) & LIFTED_CHECKPOINT
    ]
    jits = [call for call in facts.calls if qualified_spellings(facts, call.func) & LIFTED_JIT]
    return [facts.tree] if lifts or jits else []


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    uses = ConcreteUses(ctx, strict=True, traces=analysis.traces)
    for lift in ctx.calls:
        if ctx.names.qualified_name(lift.func) not in LIFTED_CHECKPOINT or not lift.args or lift.args[0].keyword:
            continue
        option = next((a for a in lift.args if a.keyword is not None and a.keyword.value == OPTION), None)
        cls = single_binding(ctx, lift.args[0].value) if isinstance(lift.args[0].value, cst.Name) else None
        if option is None or not isinstance(cls, cst.ClassDef) or not linen_module(ctx, cls):
            continue
        declared = _positions(constant_value(ctx, option.value))
        defs = call_defs(cls)
        if declared is None or len(defs) != 1 or isinstance(defs[0].params.star_arg, cst.Param):
            continue
        params = [p.name.value for p in (*defs[0].params.posonly_params, *defs[0].params.params)]
        needs = {i for i, name in enumerate(params) if i > 0 and i not in declared and _needs(uses, defs[0], name)}
        if not needs:
            continue
        held = {j: uses.first_need(defs[0], params[j]) for j in declared if j + 1 in needs and 0 < j < len(params)}
        freed = {j for j, use in held.items() if use is None or use.need is not Need.NEEDS}
        unsure = {j for j in freed if held[j] is not None}
        wanted = tuple(sorted((set(declared) - freed) | needs))
        need = uses.first_need(defs[0], params[min(needs)])
        reason = need.reason if need is not None else f"`{params[min(needs)]}` needs a Python value"
        out.append(_finding(analysis, lift, option, cls, params, needs, freed, unsure, wanted, reason))
    return out


def jit_findings(analysis: Analysis) -> list[Finding]:
    """``Model = nn.jit(Model)`` (flax's lifted jit, no static options) whose ``__call__`` needs a
    parameter as a Python value (flax#3171: ``Dropout(deterministic=not training)``): every argument
    is traced, as under ``jax.jit``. When every call the module shows passes it by keyword, a
    hashable Python value each time, ``static_argnames`` names it (the reference fix); else a report."""
    ctx = analysis.ctx
    out: list[Finding] = []
    uses = ConcreteUses(ctx, strict=True, traces=analysis.traces)
    for lift in ctx.calls:
        if ctx.names.qualified_name(lift.func) not in LIFTED_JIT or len(lift.args) != 1 or lift.args[0].keyword:
            continue
        statement = ctx.parent(lift)
        target = statement.targets[0].target if isinstance(statement, cst.Assign) and len(statement.targets) == 1 else None
        cls = _class_read(analysis, lift.args[0].value)
        if not isinstance(target, cst.Name) or cls is None:
            continue
        defs = call_defs(cls)
        if len(defs) != 1 or isinstance(defs[0].params.star_arg, cst.Param):
            continue
        params = [p.name.value for p in (*defs[0].params.posonly_params, *defs[0].params.params)]
        needs = [name for name in params[1:] if _needs(uses, defs[0], name)]
        if not needs:
            continue
        use = uses.first_need(defs[0], needs[0])
        head = (
            f"`{ctx.code(lift)}` traces every argument of `{cls.name.value}.__call__` as `jax.jit` does, "
            f"but {use.reason if use is not None else f'`{needs[0]}` needs a Python value'}"
        )
        spelled = f"static_argnames=({', '.join(repr(n).replace(chr(39), chr(34)) for n in needs)},)"
        refusal = _keyword_calls_refusal(analysis, target, needs)
        if refusal is not None:
            out.append(ctx.finding("JAX302", lift, f"{head}; not rewritten: {refusal}", notes=(f"option: `{spelled}`, passed by keyword at every call",)))
            continue
        out.append(
            ctx.finding(
                "JAX302",
                lift,
                f"{head}; every call passes it by keyword, a hashable Python value, so it becomes static: `{spelled}`",
                (Edit(ctx.end(lift.args[0].value), ctx.end(lift.args[0].value), f", {spelled}"),),
                description="name the parameters the module needs static",
                notes=("each distinct value compiles once",),
            )
        )
    return out


def _class_read(analysis: Analysis, expr: cst.BaseExpression) -> cst.ClassDef | None:
    """The linen Module class `expr` names, also where the statement rebinds the name
    (``Model = nn.jit(Model)``: the right side reads the class, the one def of the name)."""
    ctx = analysis.ctx
    if not isinstance(expr, cst.Name):
        return None
    scope = ctx.scope(expr)
    defs = [a.node for a in scope[expr.value] if isinstance(getattr(a, "node", None), cst.ClassDef)] if scope is not None else []
    cls = defs[0] if len(defs) == 1 else None
    if cls is None or ctx.start(cls) > ctx.start(expr) or not linen_module(ctx, cls):
        return None
    return cls  # type: ignore[return-value]


def _keyword_calls_refusal(analysis: Analysis, target: cst.Name, needs: list[str]) -> str | None:
    """Why not every run of the lifted class is shown passing each of `needs` by keyword, a
    hashable Python value: its instances are built from `target` and used as ``m.init(...)``,
    ``m.apply(...)`` or called at once."""
    ctx = analysis.ctx
    scope = ctx.scope(target)
    assignment = next((a for a in scope[target.value] if getattr(a, "node", None) is target), None) if scope is not None else None
    if assignment is None:
        return "its uses cannot be listed"
    runs: list[cst.Call] = []
    for access in assignment.references:
        made = ctx.parent(access.node)
        if not isinstance(made, cst.Call) or made.func is not access.node:
            return f"`{target.value}` is used other than to build a module"
        instances = [made]
        holder = ctx.parent(made)
        if isinstance(holder, cst.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0].target, cst.Name):
            name = holder.targets[0].target
            inner = ctx.scope(name)
            bound = next((a for a in inner[name.value] if getattr(a, "node", None) is name), None) if inner is not None else None
            if bound is None or len(inner[name.value]) != 1:  # type: ignore[index]
                return f"`{name.value}` is bound more than once"
            instances = [r.node for r in bound.references]
        for instance in instances:
            parent = ctx.parent(instance)
            call = ctx.parent(parent) if isinstance(parent, cst.Attribute) and parent.attr.value in ("init", "apply") else parent
            if not isinstance(call, cst.Call) or (call.func is not instance and call.func is not parent):
                return f"an instance is used on line {ctx.span(instance).start.line} other than by `init`, `apply` or a call"
            runs.append(call)
    if not runs:
        return "no run of it can be seen"
    for run in runs:
        for name in needs:
            given = next((a.value for a in run.args if a.keyword is not None and a.keyword.value == name), None)
            if given is None:
                return f"the call on line {ctx.span(run).start.line} does not pass `{name}` by keyword"
            if isinstance(python_value(analysis, given), NotStatic):
                return f"the call on line {ctx.span(run).start.line} does not surely pass `{name}` a hashable Python value"
    return None


def _needs(uses: ConcreteUses, fn: cst.FunctionDef, name: str) -> bool:
    use = uses.first_need(fn, name)
    return use is not None and use.need is Need.NEEDS


def _positions(value: object) -> tuple[int, ...] | None:
    if value is NOT_CONSTANT or value is None:
        return None
    numbers = value if isinstance(value, tuple) else (value,)
    return numbers if all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers) else None  # type: ignore[return-value]


def _finding(analysis: Analysis, lift: cst.Call, option: cst.Arg, cls: cst.ClassDef, params: list[str],
             needs: set[int], freed: set[int], unsure: set[int], wanted: tuple[int, ...], reason: str) -> Finding:
    ctx = analysis.ctx
    spelled = f"({wanted[0]},)" if len(wanted) == 1 else f"({', '.join(map(str, wanted))})"
    named = ", ".join(f"`{params[i]}`" for i in sorted(needs))
    head = (
        f"`{ctx.code(lift.func)}` counts `{params[0]}` as argument 0 of `{cls.name.value}.__call__`, so "
        f"`{ctx.code(option)}` leaves {named} traced ({', '.join(f'position {i}' for i in sorted(needs))}), "
        f"but {reason}"
    )
    if freed:
        head += f"; position {', '.join(map(str, sorted(freed)))} (`{'`, `'.join(params[j] for j in sorted(freed))}`) is not needed static"
    refusal = _calls_refusal(analysis, lift, params, needs)
    if refusal is not None:
        return ctx.finding(
            "JAX302",
            option.value,
            f"{head}; not rewritten: {refusal}",
            notes=(f"option: `{OPTION}={spelled}`, once every call passes {named} a hashable Python value",),
        )
    notes = ["flax's lifted transforms count the module itself: `self` is position 0"]
    if unsure:
        names = "`, `".join(params[j] for j in sorted(unsure))
        notes.append(f"unsafe: what `{names}` goes through cannot all be seen; traced, it must need no Python value")
    return ctx.finding(
        "JAX302",
        option.value,
        f"{head}; every call passes a hashable Python value there, so the positions become `{OPTION}={spelled}`",
        (Edit(ctx.start(option.value), ctx.end(option.value), spelled),),
        applicability=Applicability.UNSAFE if unsure else Applicability.SAFE,
        description=f"name the module's positions in {OPTION}, self counted",
        notes=tuple(notes),
    )


def _calls_refusal(analysis: Analysis, lift: cst.Call, params: list[str], needs: set[int]) -> str | None:
    """Why not every call of the lifted class is shown to pass a hashable Python value at the needed
    positions: the lift bound once to a name, called only as ``Name(...)(...)``."""
    ctx = analysis.ctx
    statement = ctx.parent(lift)
    target = statement.targets[0].target if isinstance(statement, cst.Assign) and len(statement.targets) == 1 else None
    if not isinstance(target, cst.Name):
        return "the lifted class is not bound to a name whose calls can be read"
    scope = ctx.scope(target)
    calls: list[cst.Call] = []
    for assignment in scope[target.value] if scope is not None else ():
        if getattr(assignment, "node", None) is not target:
            return f"`{target.value}` is bound more than once"
        for access in assignment.references:
            made = ctx.parent(access.node)
            run = ctx.parent(made) if isinstance(made, cst.Call) and made.func is access.node else None
            if not isinstance(run, cst.Call) or run.func is not made:
                return f"`{target.value}` is used other than as `{target.value}(...)(...)`"
            calls.append(run)
    if not calls:
        return f"no call of `{target.value}(...)` can be seen"
    for run in calls:
        positional = [a for a in run.args if a.keyword is None]
        if any(a.star for a in run.args):
            return f"the call on line {ctx.span(run).start.line} unpacks its arguments"
        for i in needs:
            given = positional[i - 1].value if i - 1 < len(positional) else next(
                (a.value for a in run.args if a.keyword is not None and a.keyword.value == params[i]), None
            )
            value = python_value(analysis, given) if given is not None else None
            if value is None or isinstance(value, NotStatic):
                return f"the call on line {ctx.span(run).start.line} does not surely pass `{params[i]}` a hashable Python value"
    return None

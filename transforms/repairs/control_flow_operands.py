"""JAX101 / JAX102: static values handed to control-flow primitives as operands.

``lax.cond``, ``lax.switch`` and the loops trace every operand they pass, even
eagerly, even a Python int that is static in the enclosing jit
(jax-behaviour.md 1a, 1b, 1h). A branch jitted with a static parameter that
receives such an operand hashes a tracer and fails with "Non-hashable static
arguments are not supported". JAX101 binds the static values into the
callables before the primitive (`binding` chooses the form). When the value
is itself a non-static parameter of the enclosing jit, binding cannot help
(1i): JAX102 makes that parameter static on the enclosing jit as well
(`enclosing_jit`), in the same fix.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import ClassScope

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, enumerate_words, shorten
from jaxfix.transforms.core.rule import STATIC_JITTED
from jaxfix.transforms.edits.call_arguments import remove_args
from jaxfix.transforms.edits.imports import Spelling, planner
from jaxfix.transforms.edits.partial_binding import Plan, plan_known, plan_opaque
from jaxfix.transforms.gate.screen import (
    Facts,
    calls_on,
    lines_mentioning,
    mentions_static_jitted,
    qualified_spellings,
    reads_parameter,
)
from jaxfix.transforms.repairs.enclosing_jit import EnclosingJit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.branch_calls import Branch, analyse_branch, value_of
from jaxfix.transforms.semantics.call_shapes import Operand
from jaxfix.transforms.semantics.callables import read_callable_use
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses
from jaxfix.transforms.semantics.constants import assigned_value, single_binding, written_out
from jaxfix.transforms.semantics.static_values import Kind as Static
from jaxfix.transforms.semantics.static_values import Verdict
from jaxfix.transforms.semantics.vocabulary import PARTIAL

#: For loops: the primitive's parameters in order, and for each callable
#: parameter what the primitive passes it.
LOOP_BODIES = {
    "fori_loop": (("lower", "upper", "body_fun", "init_val"), {"body_fun": ("the loop index", "the carry")}),
    "while_loop": (("cond_fun", "body_fun", "init_val"), {"cond_fun": ("the carry",), "body_fun": ("the carry",)}),
    "scan": (("f", "init", "xs", "length"), {"f": ("the carry", "the scanned slice")}),
}


@dataclass(frozen=True)
class Bindings:
    """The JAX101 part of a fix: new branch texts, the operands removed, the import."""

    edits: tuple[Edit, ...]
    texts: tuple[str, ...]  # one per branch, as it will read
    added_import: str | None


class BranchBindings:
    """The shared pass: every control-flow call of a module, analysed once."""

    def __init__(self, analysis: Analysis, *, plain: bool = False) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.enclosing = EnclosingJit(analysis)
        #: JAX103's pass: plain branches whose parameters need a concrete value stand for jitted
        #: ones with static parameters (the repair, binding the operands first, is the same).
        self.plain = plain
        self.code = "JAX103" if plain else "JAX101"
        self.concrete = ConcreteUses(analysis.ctx, strict=True) if plain else None

    @classmethod
    def of(cls, analysis: Analysis, *, plain: bool = False) -> list[Finding]:
        key = "cond_plain" if plain else "cond_static"
        if key not in analysis.memo:
            analysis.memo[key] = list(cls(analysis, plain=plain).findings())
        return analysis.memo[key]  # type: ignore[return-value]

    @classmethod
    def fixed_calls(cls, analysis: Analysis) -> frozenset[cst.Call]:
        """The cond/switch calls whose operands JAX103 binds into plain branches: a size or count
        inside those branches that the operand reaches is the same bug, fixed at the call."""
        cls.of(analysis, plain=True)
        return frozenset(analysis.memo.get("cond_plain_fixed", ()))  # type: ignore[arg-type]

    def findings(self) -> Iterator[Finding]:
        for call in self.ctx.calls:
            primitive = self.ctx.names.control_flow(call)
            if primitive in ("cond", "switch"):
                yield from self._branches(call, primitive)
            elif primitive in LOOP_BODIES and not self.plain:
                yield from self._loop(call, primitive)
            elif not self.plain and self.ctx.names.qualified_name(call.func) == "jax.vmap":
                yield from self._mapped(call)

    # -- cond / switch -------------------------------------------------------
    def _branch_exprs(self, call: cst.Call, primitive: str):
        """(callable expressions, operand args, the table's name when `switch` reads its
        branches from a named tuple or list), or None when the call is not one we can read."""
        args = list(call.args)
        head = 3 if primitive == "cond" else 2
        if len(args) < head or any(a.keyword is not None or a.star for a in args[:head]):
            return None
        operands = args[head:]
        if primitive == "cond":
            return [args[1].value, args[2].value], operands, None
        branches = args[1].value
        table = None
        if isinstance(branches, cst.Name):
            target = single_binding(self.ctx, branches)
            value = assigned_value(self.ctx, target) if isinstance(target, cst.Name) else None
            if value is not None:
                value = written_out(self.ctx, value)  # `BRANCHES = make_branches()`
            if not isinstance(value, (cst.List, cst.Tuple)):
                return None
            if isinstance(value, cst.List) and self._used_elsewhere(branches):
                return None  # a list other code may change before this call
            table, branches = branches, value
        if not isinstance(branches, (cst.List, cst.Tuple)):
            return None
        if any(not isinstance(e, cst.Element) for e in branches.elements):
            return None
        return [e.value for e in branches.elements], operands, table

    def _used_elsewhere(self, use: cst.Name) -> bool:
        scope = self.ctx.scope(use)
        refs = [r.node for a in scope[use.value] for r in a.references]  # type: ignore[index]
        return refs != [use]

    def _branches(self, call: cst.Call, primitive: str) -> Iterator[Finding]:
        ctx = self.ctx
        parsed = self._branch_exprs(call, primitive)
        if parsed is None:
            return
        exprs, operand_args, table = parsed
        spelled = ctx.code(call.func)
        if any(a.star or a.keyword is not None for a in operand_args):
            if not self.plain:
                yield from self._unpacked_operands(exprs, spelled)
            return
        analysed = [analyse_branch(ctx, e, len(operand_args), self.concrete) for e in exprs]
        if any(b is None for b in analysed):
            return
        if self.plain and any(b.use.target is not None and b.use.target.jit is not None for b in analysed):  # type: ignore[union-attr]
            return  # a jitted branch: JAX101's call
        if self.plain and len(analysed) == 1:
            return  # switch with one branch calls it with the operands as they are (measured)
        branches: list[Branch] = analysed  # type: ignore[assignment]
        broken = [b for b in branches if b.pitfall]
        refusal = next((b.refusal for b in branches if b.refusal), None)
        if refusal:
            yield ctx.finding(self.code, broken[0].use.expr, f"`{spelled}` call cannot be rewritten: {refusal}")
            return
        to_bind = sorted(set().union(*(b.to_bind for b in branches)))
        staticness = self.analysis.staticness
        verdicts: dict[cst.BaseExpression, Verdict] = {
            operand_args[j].value: staticness.verdict(operand_args[j].value) for j in to_bind
        }
        for branch in branches:
            for key in branch.bound_static:
                expr = branch.value_exprs[key]
                verdicts[expr] = staticness.verdict(expr)
        traced = {e: v for e, v in verdicts.items() if v.kind is Static.TRACED}
        if not broken and not traced:
            return
        if self.plain and traced:
            return  # the operand is itself a tracer: binding it cannot make it concrete
        bindings: Bindings | Finding | None = None
        if broken:
            bindings = self._bindings(call, branches, operand_args, to_bind, table)
            if isinstance(bindings, Finding):
                yield bindings
                return
        unsure = [v for v in verdicts.values() if v.kind is Static.UNKNOWN]
        if self.plain and _maybe_callable_pytree(self.analysis, branches, operand_args, verdicts):
            return
        if traced:
            yield self.enclosing.finding(call, spelled, branches, traced, bindings, unsure)
            return
        assert bindings is not None
        if self.plain:
            fixed = self.analysis.memo.setdefault("cond_plain_fixed", set())
            fixed.add(call)  # type: ignore[attr-defined]
        yield self._jax101(call, spelled, branches, operand_args, to_bind, bindings, unsure, table)

    def _unpacked_operands(self, exprs, spelled: str) -> Iterator[Finding]:
        """Operands given with `*`: report when a visible branch has a static slot they may fill."""
        for expr in exprs:
            use = read_callable_use(self.ctx, expr)
            target = use.target if use is not None else None
            if target is None or target.jit is None or target.jit.spec is None:
                continue
            sig = target.function.signature
            declared = target.jit.spec.declared_static(sig)
            skip = len(use.bound_args) + (1 if target.implicit_self else 0)  # type: ignore[union-attr]
            exposed = [p.name for p in sig.positional[skip:] if p.name in declared]
            if exposed:
                names = enumerate_words(f"`{p}`" for p in exposed)
                yield self.ctx.finding(
                    "JAX101",
                    expr,
                    f"`{self.ctx.code(use.callee)}` has static parameter {names}, but `{spelled}` "  # type: ignore[union-attr]
                    "gets its operands through `*`, so which one lands in a static slot cannot be seen",
                    notes=("bind the static values into the branches yourself: `partial(f, N)` or `lambda x: f(N, x)`",),
                )
                return

    def _bindings(
        self, call: cst.Call, branches: list[Branch], operand_args, to_bind: list[int], table: cst.Name | None = None
    ) -> Bindings | Finding:
        """Rebind every branch so the operands in `to_bind` leave the operand list.

        Branches read from a named table are rebound at the call, never in the
        table: the values bound are the call's own operands, which may exist only
        there (a loop variable), and other code may read the table as it is.
        """
        ctx = self.ctx
        values = {Operand(j): value_of(ctx, Operand(j), operand_args[j].value) for j in to_bind}
        dynamic = [Operand(j) for j in range(len(operand_args)) if j not in to_bind]
        spelling = _LazySpelling(self.analysis, call)
        if table is not None:
            return self._table_bindings(call, branches, operand_args, to_bind, table, values, dynamic, spelling)
        edits: list[Edit] = []
        texts: list[str] = []
        for branch in branches:
            if not to_bind and branch.pitfall != "misbound":
                texts.append(ctx.code(branch.use.expr))
                continue
            plan = self._checked_plan(branch, values, dynamic, spelling)
            if isinstance(plan, Finding):
                return plan
            texts.append(plan.text)
            if plan.text != ctx.code(branch.use.expr):
                edits.append(ctx.replace(branch.use.expr, plan.text))
        return self._finish(call, operand_args, to_bind, edits, texts, spelling)

    def _checked_plan(self, branch: Branch, values, dynamic, spelling: _LazySpelling, callee: str | None = None):
        """The branch's plan, or the report saying why it has none."""
        ctx = self.ctx
        if branch.known and branch.intended is None:
            return ctx.finding(
                self.code,
                branch.use.expr,
                f"`{ctx.code(branch.use.callee)}` does not take the operands this call passes it, "
                "so no rewrite of the call can be checked against its signature",
            )
        plan = self._plan(branch, values, dynamic, spelling, callee)
        if plan is None:
            return ctx.finding(
                self.code,
                branch.use.expr,
                f"no binding form keeps the static parameters of `{ctx.code(branch.use.callee)}` static here",
            )
        return plan

    def _table_bindings(self, call, branches, operand_args, to_bind, table: cst.Name, values, dynamic, spelling):
        """``switch(i, TABLE, x, k)``: ``[partial(f, k=k) for f in TABLE]`` when every branch binds
        alike, else the table's entries rebound one by one (``TABLE[0]``, ...), all at the call."""
        ctx = self.ctx
        name = table.value
        if any(b.use.partial is not None for b in branches):
            return ctx.finding(
                self.code,
                branches[0].use.expr,
                f"the branches in `{name}` bind arguments of their own, so rebinding them at this call "
                "cannot be checked; bind the static values into the table's entries by hand",
            )
        taken = set(re.findall(r"[A-Za-z_]\w*", ctx.code(call)))
        variable = next(v for v in ("branch", "branch_fn", "fn", "branch_") if v not in taken)
        uniform: set[str] = set()
        indexed: list[str] = []
        for i, branch in enumerate(branches):
            plan = self._checked_plan(branch, values, dynamic, spelling, variable)
            if isinstance(plan, Finding):
                return plan
            uniform.add(plan.text)
            indexed_plan = self._checked_plan(branch, values, dynamic, spelling, f"{name}[{i}]")
            if isinstance(indexed_plan, Finding):
                return indexed_plan
            indexed.append(indexed_plan.text)
        in_class_body = isinstance(ctx.scope(call), ClassScope)  # a comprehension there cannot read the class's names
        if len(uniform) == 1 and not in_class_body:
            (text,) = uniform
            replacement = f"[{text} for {variable} in {name}]"
        else:
            replacement = "(" + ", ".join(indexed) + ("," if len(indexed) == 1 else "") + ")"
        edits = [ctx.replace(table, replacement)]
        return self._finish(call, operand_args, to_bind, edits, [replacement] * len(branches), spelling)

    def _finish(self, call, operand_args, to_bind, edits: list[Edit], texts: list[str], spelling: _LazySpelling) -> Bindings:
        used = spelling.used(texts)
        if used is not None and used.edit is not None:
            edits.append(used.edit)
        head = len(call.args) - len(operand_args)
        edits.extend(remove_args(self.ctx, call, [head + j for j in to_bind]))
        return Bindings(tuple(edits), tuple(texts), used.added if used is not None else None)

    def _plan(self, branch: Branch, values, dynamic, spelling: _LazySpelling, callee: str | None = None) -> Plan | None:
        """A replacement for one branch; a branch that is already a partial keeps its spelling.
        `callee`: how the replacement names the branch's function (default: as written)."""
        ctx = self.ctx
        use = branch.use
        callee = callee or ctx.code(use.callee)
        if use.partial is not None:
            partial_name = ctx.code(use.partial.func)
        else:
            resolved = spelling.get()
            if resolved is None:
                return None
            partial_name = resolved.text
        names = set(re.findall(r"[A-Za-z_]\w*", callee))
        if branch.known:
            return plan_known(
                branch.sig,  # type: ignore[arg-type]
                branch.spec,  # type: ignore[arg-type]
                branch.implicit_self,
                callee,
                partial_name,
                branch.intended,  # type: ignore[arg-type]
                {**branch.values, **values},
                dynamic,
                names,
            )
        return plan_opaque(
            callee,
            partial_name,
            [ctx.code(a.value) for a in use.bound_args],
            [(a.keyword.value, ctx.code(a.value)) for a in use.bound_kwargs],  # type: ignore[union-attr]
            [Operand(j) for j in range(branch.n_operands)],
            values,
            names,
        )

    def _jax101(self, call, spelled, branches, operand_args, to_bind, bindings: Bindings, unsure, table=None) -> Finding:
        ctx = self.ctx
        broken = next(b for b in branches if b.pitfall)
        new_text = bindings.texts[branches.index(broken)]
        notes: list[str] = []
        if bindings.added_import:
            notes.append(f"adds `{bindings.added_import}`")
        if unsure:
            notes.append(f"unsafe: {unsure[0].reason}; if it is a tracer, binding fails the same way")
        return ctx.finding(
            self.code,
            table if table is not None else broken.use.expr,  # the table's entry may be far from this call
            self.message(broken, [ctx.code(operand_args[j].value) for j in to_bind], spelled, new_text),
            bindings.edits,
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description="bind static operands into the branches",
            notes=tuple(notes),
        )

    def message(self, branch: Branch, values: list[str], spelled: str, new_text: str) -> str:
        ctx = self.ctx
        if self.plain:
            plural = len(values) > 1
            param = branch.static_params[0]
            callee = ctx.code(branch.use.callee)
            shown = "the lambda" if isinstance(branch.use.callee, cst.Lambda) else f"`{callee}`"
            return (
                f"`{spelled}` passes {enumerate_words(f'`{v}`' for v in values)} as "
                f"{'operands' if plural else 'an operand'}, so {shown} gets {'them' if plural else 'it'} "
                f"as {'tracers' if plural else 'a tracer'}, but {branch.needs[param].reason}; bind "
                f"{'them' if plural else 'it'} into the branch first: `{shorten(new_text, 80)}`"
            )
        if branch.shifted:
            names = [ctx.code(a.value) for a in branch.use.bound_args]
            filled = [p.name for p in branch.sig.positional[1 if branch.implicit_self else 0 :]][: len(names)]  # type: ignore[union-attr]
            return (
                f"`{ctx.code(branch.use.expr)}` binds {enumerate_words(f'`{n}`' for n in names)} by position, to "
                f"{enumerate_words(f'`{n}`' for n in filled)}, so `{spelled}` hands an operand to static parameter "
                f"`{branch.shifted}`, which cannot hash it; each value is named for its own parameter, so it is "
                f"bound there: `{new_text}`"
            )
        if branch.pitfall == "misbound":
            return (
                f"`{ctx.code(branch.use.expr)}` binds a static parameter by keyword, but `{spelled}` "
                f"passes its operands positionally, so an operand lands in a static slot and cannot be "
                f"hashed; bind it in place: `{new_text}`"
            )
        plural = len(values) > 1
        params = enumerate_words(f"`{p}`" for p in branch.static_params)
        return (
            f"`{spelled}` passes {enumerate_words(f'`{v}`' for v in values)} as "
            f"{'operands' if plural else 'an operand'} to static "
            f"parameter{'s' if len(branch.static_params) > 1 else ''} {params} of the jitted "
            f"`{ctx.code(branch.use.callee)}`, so {'they arrive as tracers' if plural else 'it arrives as a tracer'} "
            f"that cannot be hashed; bind {'them' if plural else 'it'} first: `{new_text}`"
        )

    # -- loops ---------------------------------------------------------------
    def _loop(self, call: cst.Call, primitive: str) -> Iterator[Finding]:
        ctx = self.ctx
        names, bodies = LOOP_BODIES[primitive]
        args = _by_name(call, names)
        if args is None:
            return
        spelled = ctx.code(call.func)
        for pname, supplied in bodies.items():
            arg = args.get(pname)
            if arg is None:
                continue
            branch = analyse_branch(ctx, arg.value, len(supplied))
            if branch is None or not branch.pitfall:
                continue
            callee = ctx.code(branch.use.callee)
            if branch.to_bind or branch.refusal:
                params = enumerate_words(f"`{p}`" for p in branch.static_params) or "a static parameter"
                what = " and ".join(supplied[j] for j in sorted(branch.to_bind)) or "a loop value"
                yield ctx.finding(
                    "JAX101",
                    arg.value,
                    f"`{spelled}` passes {what} to static parameter {params} of the jitted `{callee}`; "
                    "a value the loop supplies is always a tracer, so it cannot be static",
                    notes=(f"make {params} a dynamic parameter: remove it from the static arguments of `{callee}`",),
                )
                continue
            dynamic = [Operand(j) for j in range(len(supplied))]
            spelling = _LazySpelling(self.analysis, call)
            plan = self._plan(branch, {}, dynamic, spelling)
            if plan is None:
                yield ctx.finding("JAX101", arg.value, f"no binding form keeps `{callee}`'s static parameters static")
                continue
            edits = [ctx.replace(arg.value, plan.text)]
            used = spelling.used([plan.text])
            if used is not None and used.edit is not None:
                edits.append(used.edit)
            yield ctx.finding(
                "JAX101",
                arg.value,
                self.message(branch, [], spelled, plan.text),
                tuple(edits),
                description="bind static values so the loop's arguments land in dynamic slots",
            )

    # -- vmap ----------------------------------------------------------------
    def _mapped(self, vmap: cst.Call) -> Iterator[Finding]:
        """``jax.vmap(partial(f, alpha, T))(x)`` where the partial's values, named for other
        parameters, shift the mapped operand into a static slot of the jitted ``f``: bound by name,
        as its loop body or branch would be. vmap hands its operands on positionally, as many as
        each call of the mapped function passes (the same count after the rewrite, so ``in_axes``
        still matches)."""
        ctx = self.ctx
        if not vmap.args or vmap.args[0].keyword is not None or vmap.args[0].star:
            return
        calls = self._applications(vmap)
        if not calls or any(a.star or a.keyword is not None for c in calls for a in c.args):
            return
        counts = {len(c.args) for c in calls}
        if len(counts) != 1:
            return
        fexpr = vmap.args[0].value
        branch = analyse_branch(ctx, fexpr, counts.pop())
        if branch is None or branch.pitfall != "misbound":
            return
        spelling = _LazySpelling(self.analysis, vmap)
        plan = self._plan(branch, {}, [Operand(j) for j in range(branch.n_operands)], spelling)
        if plan is None:
            return
        edits = [ctx.replace(fexpr, plan.text)]
        used = spelling.used([plan.text])
        if used is not None and used.edit is not None:
            edits.append(used.edit)
        yield ctx.finding(
            "JAX101",
            fexpr,
            self.message(branch, [], ctx.code(vmap.func), plan.text),
            tuple(edits),
            description="bind static values so the mapped arguments land in dynamic slots",
        )

    def _applications(self, vmap: cst.Call) -> list[cst.Call]:
        """The calls of what `vmap` returns: ``jax.vmap(g)(x)``, or every use of a name bound once
        to it when each is a call (else none: the mapped function goes where we cannot see)."""
        ctx = self.ctx
        parent = ctx.parent(vmap)
        if isinstance(parent, cst.Call) and parent.func is vmap:
            return [parent]
        assign = ctx.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
        if not (isinstance(assign, cst.Assign) and assign.value is vmap and len(assign.targets) == 1):
            return []
        target = assign.targets[0].target
        scope = ctx.scope(target) if isinstance(target, cst.Name) else None
        if scope is None or len(scope[target.value]) != 1:  # type: ignore[union-attr]
            return []
        calls: list[cst.Call] = []
        for assignment in scope[target.value]:  # type: ignore[union-attr]
            for access in assignment.references:
                call = ctx.parent(access.node)
                if not (isinstance(call, cst.Call) and call.func is access.node):
                    return []
                calls.append(call)
        return calls


class _LazySpelling:
    """How to write functools.partial here, looked up only if a plan needs it."""

    def __init__(self, analysis: Analysis, at: cst.CSTNode) -> None:
        self.analysis = analysis
        self.at = at
        self._spelling: Spelling | None = None
        self._looked = False

    def get(self) -> Spelling | None:
        if not self._looked:
            self._spelling = planner(self.analysis).spell(PARTIAL, self.at)
            self._looked = True
        return self._spelling

    def used(self, texts: Iterable[str]) -> Spelling | None:
        """The spelling, if some emitted text calls it (its import is then needed)."""
        if self._spelling is None:
            return None
        prefix = self._spelling.text + "("
        return self._spelling if any(t.startswith(prefix) for t in texts) else None


def _by_name(call: cst.Call, names: tuple[str, ...]) -> dict[str, cst.Arg] | None:
    out: dict[str, cst.Arg] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None:
            if i < len(names):
                out[names[i]] = arg
        else:
            out[arg.keyword.value] = arg
    return out


#: JAX102's words: a branch or loop body handed a static value. JAX101 also rebinds vmapped partials.
BRANCH_REQUIRED = (("static_arg", STATIC_JITTED), ("cond", "switch", "fori_loop", "while_loop", "scan"))
REQUIRED = (BRANCH_REQUIRED[0], (*BRANCH_REQUIRED[1], "vmap"))


def seeds(facts: Facts) -> list[ast.AST]:
    """Control-flow and vmap calls handed something that may be jitted with static arguments."""
    vmaps = [c for c in calls_on(facts, lines_mentioning(facts, ("vmap",))) if "jax.vmap" in qualified_spellings(facts, c.func)]
    found: list[ast.AST] = [
        call
        for call in (*facts.control_flow_calls, *vmaps)
        if any(mentions_static_jitted(facts, a) for a in (*call.args, *(k.value for k in call.keywords)))
    ]
    if any(reads_parameter(facts, a) for call in found for a in (*call.args, *(k.value for k in call.keywords))):
        found.extend(facts.static_jitted_handed_on)  # what a branch parameter holds is read at these calls
    return found


def _maybe_callable_pytree(analysis: Analysis, branches: list[Branch], operand_args, verdicts: dict) -> bool:
    """An operand a plain branch only calls, whose value is not followed: a callable pytree
    (``jax.tree_util.Partial``, an equinox or flax module) is traced as its leaves and called
    fine, so nothing says the program fails (jax#16413's look-alike)."""
    for j, arg in enumerate(operand_args):
        verdict = verdicts.get(arg.value)
        if verdict is None or not _value_unfollowed(analysis, arg.value, verdict):
            continue
        needs = [
            branch.needs[name]
            for branch in branches
            for name, source in (branch.intended or {}).items()
            if source == Operand(j) and name in branch.needs
        ]
        if needs and all(use.calls for use in needs):
            return True
    return False


def _value_unfollowed(analysis: Analysis, expr: cst.BaseExpression, verdict: Verdict, depth: int = 0) -> bool:
    """Is what `expr` holds not followed? Its verdict is unknown; or it is a parameter of a function
    nothing traces (static, whatever it holds) whose calls pass a value not followed, or cannot all
    be seen (``cond_via(pred, f, g, add_one)`` handing on a ``jax.tree_util.Partial``)."""
    if verdict.kind is Static.UNKNOWN:
        return True
    binding = single_binding(analysis.ctx, expr) if isinstance(expr, cst.Name) else None
    if verdict.kind is not Static.STATIC or not isinstance(binding, cst.Param) or depth > 4:
        return False
    passed = analysis.traces.passed_arguments(binding)
    if passed is None:
        return True
    return any(_value_unfollowed(analysis, p, analysis.staticness.verdict(p), depth + 1) for p in passed)

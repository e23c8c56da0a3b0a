"""JAX102's fix: make the traced parameter static on the enclosing jit.

Inside a jitted function a non-static parameter is a tracer (jax-behaviour.md
1i), so a branch that needs it static can only get it if the enclosing jit
makes it static. The fix has up to three parts, in one finding:

1. the parameter joins the enclosing jit's static arguments (`staticedit`);
2. the branches are bound as JAX101 binds them (passed in, already built);
3. a branch function's own jit is dropped when every use of it in the module
   is inside traced code (1j: redundant there); otherwise it stays and the
   finding says why.

Whether it is safe depends on the callers of the enclosing function: static
parameters must receive hashable Python values, so the fix is safe only when
every call in the module passes a static value for each parameter made static.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding
from jaxfix.transforms.core.identifiers import Names
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.static_arguments import SpecEdit, StaticEditor
from jaxfix.transforms.repairs.redundant_jit import dropped_jit, why_jit_stays
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.branch_calls import Branch
from jaxfix.transforms.semantics.importers import calls_elsewhere, jitted_name
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.static_values import Kind as Static
from jaxfix.transforms.semantics.static_values import Verdict
from jaxfix.transforms.semantics.tracing import JitEntry
from jaxfix.transforms.semantics.vocabulary import PARTIAL


class EnclosingJit:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def finding(self, call, spelled: str, branches: list[Branch], traced: dict, bindings, unsure: list[Verdict]) -> Finding:
        ctx = self.ctx
        anchor, first = next(iter(traced.items()))
        functions = {v.function for v in traced.values()}
        callee = ctx.code(next((b for b in branches if b.pitfall or b.bound_static), branches[0]).use.callee)
        if len(functions) != 1:
            return ctx.finding(
                "JAX102",
                anchor,
                f"`{ctx.code(anchor)}` must be static for `{callee}`, but {first.reason}; the traced values come "
                "from different enclosing functions, so no single jit can be changed",
            )
        fn = first.function
        entry: JitEntry = first.entry  # type: ignore[assignment]
        fname = fn.name.value if isinstance(fn, cst.FunctionDef) else "the enclosing function"
        params = tuple(dict.fromkeys(v.param for v in traced.values()))
        names = ", ".join(f"`{p}`" for p in params)
        head = (
            f"`{ctx.code(anchor)}` must be static for `{callee}`, but {first.reason}; binding it into the "
            "branches cannot help"
        )
        sig = function_info(ctx, fn).signature
        spec_edit = StaticEditor(ctx).add(
            entry.wrapper, entry.node, sig, params, planner(self.analysis).spell(PARTIAL, fn)
        )
        if isinstance(spec_edit, str):
            return ctx.finding("JAX102", anchor, f"{head}; make {names} static on `{fname}`'s jit by hand: {spec_edit}")
        edits: list[Edit] = list(spec_edit.edits)
        notes: list[str] = []
        if bindings is not None:
            edits.extend(bindings.edits)
            if bindings.added_import:
                notes.append(f"adds `{bindings.added_import}`")
        edits.extend(self._branch_jits(branches, notes))
        callers = self._callers_pass_static(fn, entry, params)
        if callers:
            notes.append(f"unsafe: {callers}")
        if unsure:
            notes.append(f"unsafe: {unsure[0].reason}")
        bound = ""
        if bindings is not None:
            broken = next(b for b in branches if b.pitfall)
            bound = f" and bind it into the branches: `{bindings.texts[branches.index(broken)]}`"
        message = f"{head}; make {names} static on `{fname}`'s jit (`{_spec_text(spec_edit)}`){bound}"
        return ctx.finding(
            "JAX102",
            anchor,
            message,
            tuple(edits),
            Applicability.UNSAFE if callers or unsure else Applicability.SAFE,
            description=f"make {names} static on `{fname}`'s jit",
            notes=tuple(notes),
        )

    # -- the branches' own jit ----------------------------------------------------
    def _branch_jits(self, branches: list[Branch], notes: list[str]) -> list[Edit]:
        """Drop each branch function's jit decorator when all its uses are traced."""
        ctx = self.ctx
        edits: list[Edit] = []
        dropped: list[str] = []
        kept: list[str] = []
        seen: set[cst.CSTNode] = set()
        for branch in branches:
            target = branch.use.target
            key = target.function.node if target is not None and target.function.node is not None else (
                target.function.defined_in, target.function.name
            ) if target is not None else None
            if target is None or target.jit is None or key in seen:
                continue
            seen.add(key)
            name = target.function.name
            reason = why_jit_stays(self.analysis, target)
            if reason is None:
                edits.append(dropped_jit(ctx, target))
                dropped.append(f"`{name}`")
            else:
                kept.append(f"`{name}` ({reason})")
        if dropped:
            notes.append(f"drops the jit of {', '.join(dropped)}: every use is inside traced code, where it is redundant")
        if kept:
            notes.append(f"keeps the jit of {', '.join(kept)}")
        return edits

    # -- the callers of the enclosing function -------------------------------------
    def _callers_pass_static(self, fn, entry: JitEntry, params: Names) -> str | None:
        """None when every call, in this module and in the project's others, passes
        static values; else why not."""
        ctx = self.ctx
        info = function_info(ctx, fn)
        calls = self._calls_of(fn, entry)
        if isinstance(calls, str):
            return calls
        exported = jitted_name(ctx, fn, entry.node)
        elsewhere = calls_elsewhere(ctx, exported) if exported is not None else []
        if isinstance(elsewhere, str):
            return elsewhere
        if not calls and not elsewhere:
            return f"no call of `{info.name}` in this module shows what its callers pass"
        for call, bound_self in calls:
            problem = _passes_static(self.analysis, info, call, bound_self, params)
            if problem is not None:
                return problem
        for other in elsewhere:
            problem = _passes_static(other.uses.analysis, info, other.call, False, params)
            if problem is not None:
                return f"in `{other.uses.module.name}`, {problem}"
        return None

    def _calls_of(self, fn, entry: JitEntry) -> list[tuple[cst.Call, bool]] | str:
        """Every call of the jitted function (and whether it binds self), or why they cannot be listed."""
        ctx = self.ctx
        traces = self.analysis.traces
        if isinstance(entry.node, cst.Decorator):
            refs = traces.references(fn)
        else:
            refs = self._references_of_jitted(entry.node)
        if refs is None:
            return f"the uses of `{ctx.code(entry.node)}` cannot all be seen"
        calls = []
        for ref in refs:
            parent = ctx.parent(ref)
            if not (isinstance(parent, cst.Call) and parent.func is ref):
                return f"`{ctx.code(ref)}` is used at line {ctx.span(ref).start.line} other than by a direct call"
            calls.append((parent, isinstance(ref, cst.Attribute)))
        return calls

    def _references_of_jitted(self, jit_call: cst.CSTNode) -> list[cst.CSTNode] | None:
        """Uses of `g` in ``g = jax.jit(f, ...)``, or the inline call ``jax.jit(f)(...)``."""
        ctx = self.ctx
        parent = ctx.parent(jit_call)
        if isinstance(parent, cst.Call) and parent.func is jit_call:
            return [jit_call]
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
            scope = ctx.scope(target)
            if isinstance(target, cst.Name) and scope is not None:
                assignments = [a for a in scope.assignments[target.value] if getattr(a, "node", None) is target]
                if assignments:
                    return [access.node for access in assignments[0].references]
        return None


def _passes_static(analysis, info, call: cst.Call, bound_self: bool, params: Names) -> str | None:
    """None when `call` (in `analysis`'s module) passes a static value for each of `params`."""
    ctx = analysis.ctx
    if any(a.star for a in call.args):
        return f"the call at line {ctx.span(call).start.line} unpacks its arguments"
    shift = 1 if info.method in (MethodKind.INSTANCE, MethodKind.CLASS) and bound_self else 0
    positional = [a for a in call.args if a.keyword is None]
    for param in params:
        index = info.signature.positional_index(param)
        arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == param), None)
        if arg is None and index is not None and 0 <= index - shift < len(positional):
            arg = positional[index - shift]
        if arg is None:
            continue  # the default applies
        verdict = analysis.staticness.verdict(arg.value)
        if verdict.kind is not Static.STATIC:
            return (
                f"the call at line {ctx.span(call).start.line} passes `{ctx.code(arg.value)}` for "
                f"`{param}`, which may not be a hashable Python value ({verdict.reason})"
            )
    return None


def _spec_text(spec_edit: SpecEdit) -> str:
    return spec_edit.description

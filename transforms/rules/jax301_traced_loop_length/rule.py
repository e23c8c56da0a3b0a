"""JAX301 traced-loop-length: a loop count that must be concrete is traced.

Finds the counts (`loop_count`), proves them traced (`tracedness`), and picks
the fix in the order DESIGN.md gives: make the count static when every caller
passes a Python int (`static_count`); else, for a scan whose ys are discarded
or a provably equivalent Python loop, a ``lax.fori_loop`` with the count traced
(`scan_to_fori`, `range_to_fori`), dropping the parameter from the static
arguments when it was static only for this; else a report with the options.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, enumerate_words
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.core.suppression import is_suppressed, suppressions
from jaxfix.transforms.edits.imports import Spelling, planner
from jaxfix.transforms.edits.static_arguments import SpecEdit, StaticEditor
from jaxfix.transforms.gate.screen import (
    Facts,
    calls_on,
    lines_mentioning,
    plainly_static,
    qualified_spellings,
    spelled_name,
)
from jaxfix.transforms.gate.screen_tracing import count_may_be_traced
from jaxfix.transforms.repairs.control_flow_operands import BranchBindings
from jaxfix.transforms.repairs.stacked_jit import lost_statics
from jaxfix.transforms.rules.jax301_traced_loop_length.range_to_fori import rewrite_range_loop
from jaxfix.transforms.rules.jax301_traced_loop_length.scan_to_fori import (
    ScanCall,
    carry_use,
    fori_body,
    index_body,
    read_scan,
    render_fori,
    scanned_arange,
)
from jaxfix.transforms.rules.jax301_traced_loop_length.shifted_arange import shifted_arange
from jaxfix.transforms.rules.jax301_traced_loop_length.static_count import StaticCount, plan_static_count
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.expected_errors import expected_failure
from jaxfix.transforms.semantics.int_values import IntStatic
from jaxfix.transforms.semantics.int_values import Kind as IntKind
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.loop_counts import Count, SiteKind, find_sites, traced_counts, without_conversions
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.reads import parameter_reads
from jaxfix.transforms.semantics.traced_values import Taint, function_name
from jaxfix.transforms.semantics.transform_options import python_value_at_every_call
from jaxfix.transforms.semantics.vocabulary import CONTROL_FLOW, FORI_LOOP

GRAD_WARNING = (
    "reverse-mode grad (`jax.grad`, `vjp`) through a fori_loop with a traced count raises "
    "`ValueError: Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
    "dynamic start/stop values`; if you need it, use a masked scan with a static bound MAX instead "
    "(it silently truncates a count above MAX)"
)


#: What a static count keeps working, by site.
_KEEPS = {
    SiteKind.SCAN: "scan keeps its stacked outputs and reverse-mode grad keeps working",
    SiteKind.RANGE: "the loop unrolls as before and reverse-mode grad keeps working",
    SiteKind.COMPREHENSION: "the comprehension runs as before",
    SiteKind.ARANGE: "the array keeps a static size",
}


@dataclass(frozen=True)
class LoopRewrite:
    """The fori_loop rewrite of one count's loop."""

    edits: tuple[Edit, ...]
    #: Why the rewrite is exact, for the message: "its stacked outputs are discarded".
    because: str
    notes: tuple[str, ...] = ()


class LoopLengths:
    """One module's JAX301 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self._rewrites: dict[cst.CSTNode, LoopRewrite | str] = {}
        self._silenced = suppressions(self.ctx.text)
        self._ints: IntStatic | None = None

    def findings(self) -> list[Finding]:
        ctx = self.ctx
        counts: list[Count] = []
        for site in find_sites(ctx):
            traced = [c for c in traced_counts(ctx, self.analysis.traced, site) if not _jax101s(c)]
            if traced:
                counts.append(traced[0])
        groups: dict[tuple[FunctionNode, str], list[Count]] = {}
        for count in counts:
            groups.setdefault((count.source.function, count.source.param), []).append(count)
        found = (self._finding(c, groups[(c.source.function, c.source.param)]) for c in counts)
        return [f for f in found if f is not None]

    # -- choosing the fix ----------------------------------------------------
    def _finding(self, count: Count, group: list[Count]) -> Finding | None:
        source = count.source
        entry = source.entry
        if isinstance(entry.function, cst.FunctionDef) and entry.param in lost_statics(self.ctx, entry.function):
            return None  # a jit stacked under one that keeps it static: JAX302 drops the inner jit
        if source.via is not None and python_value_at_every_call(self.analysis, source.function, source.param, source.via):
            return None  # a Python value that checkpoint/vmap/... traces at the call: JAX405 fixes the call
        entry = source.entry.via
        if entry is not None and entry.node in BranchBindings.fixed_calls(self.analysis):
            return None  # a Python operand cond/switch traces: JAX103 binds it into the branches
        expecting = self._expected_failure(count)
        if expecting is not None:
            return self._report(count, expecting, None)
        if count.concretized_elsewhere:
            at = source.concretized
            assert at is not None
            reason = f"`{self.ctx.code(at)}` on line {self.ctx.span(at).start.line} already asks for a concrete value"
            return self._report(count, reason, None)
        static_refusal = None
        if source.taint is Taint.TRACED and (source.jit is not None or source.entry.jit is not None):
            plan = self._silenced_in(group) or plan_static_count(self.analysis, source.function, source.param, group)
            if isinstance(plan, StaticCount):
                return self._static_finding(count, plan)
            static_refusal = plan
        shifted = self._shifted(count)
        if shifted is not None:
            return shifted
        rewrite = self._rewrite(count, group)
        if isinstance(rewrite, str):
            if source.taint is Taint.FED and source.via is None:
                # One bug, one finding (issue 17.5): a static parameter that a call hands an
                # array is JAX403's, one it hands a tracer JAX404's; JAX301 speaks for
                # those only when it can fix them (a vmap feeding it stays JAX301's).
                return None
            return self._report(count, rewrite, static_refusal)
        return self.ctx.finding(
            "JAX301",
            count.expr,
            f"{self._head(count)}; {rewrite.because}, so it becomes a `lax.fori_loop` with the count traced",
            rewrite.edits,
            description="run the loop with lax.fori_loop and a traced count",
            notes=rewrite.notes,
        )

    def _shifted(self, count: Count) -> Finding | None:
        """``jnp.arange(a - 1, a + 1)``: the length is static, only the offset is traced (jax#19433)."""
        if count.site.kind is not SiteKind.ARANGE:
            return None
        shifted = shifted_arange(self.ctx, count.site.call, self._python_int)
        if shifted is None:
            return None
        return self.ctx.finding(
            "JAX301",
            count.expr,
            f"{self._head(count)}; both bounds are `{shifted.offset}` plus a Python int, so the size is "
            f"{shifted.length}, a Python int, and only the offset is traced: `{shifted.text}`",
            (self.ctx.replace(count.site.call, shifted.text),),
            description="a static-size arange shifted by the traced offset",
            notes=(
                "the same ints; for a float offset the same values up to rounding (the offset is added once per "
                "element instead of starting the count)",
            ),
        )

    def _python_int(self, expr: cst.BaseExpression) -> bool:
        if self._ints is None:
            self._ints = IntStatic(self.analysis)
        return self._ints.kind(expr).kind is IntKind.INT

    def _expected_failure(self, count: Count) -> str | None:
        """Why not to rewrite a loop that a test runs to watch it fail (`expected_failure`)."""
        ctx = self.ctx
        places = [count.site.node]
        for route in self.analysis.traces.routes(count.source.function) or ():
            places.extend(node for node in (route.ref, route.call) if node is not None)
        for place in places:
            expecting = expected_failure(ctx, place)
            if expecting is not None:
                line = ctx.span(place).start.line
                return (
                    f"line {line} runs inside `{ctx.code(expecting.func)}(...)` (line {ctx.span(expecting).start.line}): "
                    "the code expects this error, and a rewrite would make that test fail"
                )
        return None

    def _rewrite(self, count: Count, group: list[Count]) -> LoopRewrite | str:
        """The fori_loop rewrite, with the static declaration dropped when that is all that kept it static."""
        rewrite = self._loop_rewrite(count)
        if isinstance(rewrite, str) or count.source.taint is not Taint.FED:
            return rewrite
        drop = self._drop_static(count, group)
        if isinstance(drop, str):
            return drop
        note = f"`{count.source.param}` leaves the static arguments (nothing else needs it static)"
        return LoopRewrite((*rewrite.edits, *drop.edits), rewrite.because, (note, *rewrite.notes))

    def _loop_rewrite(self, count: Count) -> LoopRewrite | str:
        key = count.expr
        if key not in self._rewrites:
            self._rewrites[key] = self._compute_loop_rewrite(count)
        return self._rewrites[key]

    def _compute_loop_rewrite(self, count: Count) -> LoopRewrite | str:
        site = count.site
        indexed = scanned_arange(self.ctx, site.call) if site.kind is SiteKind.ARANGE else None
        if site.kind is SiteKind.ARANGE and indexed is None:
            return "an array's size cannot depend on a traced value"
        if site.kind is SiteKind.COMPREHENSION:
            return "a comprehension makes one element per step, so its length cannot be traced"
        if len(site.counts) != 1:
            return "`range()` is given a start or a step"
        differentiated = self.analysis.traces.reverse_mode_root(site.node)
        if differentiated is not None:
            return (
                f"the module differentiates `{function_name(differentiated)}` in reverse mode and it reaches this "
                "loop, and reverse-mode grad fails through a fori_loop with a traced count"
            )
        if indexed is not None:
            spelling = self._fori_spelling(SiteKind.SCAN, indexed.call)
        else:
            spelling = self._fori_spelling(site.kind, site.call)
        if spelling is None:
            return "no name for `lax.fori_loop` is free in this module"
        n = without_conversions(self.ctx, count, astype=True)
        imports = (spelling.edit,) if spelling.edit is not None else ()
        notes = (GRAD_WARNING, *((f"adds `{spelling.added}`",) if spelling.added else ()))
        if site.kind is SiteKind.SCAN or indexed is not None:
            return self._scan_rewrite(count, spelling, n, imports, notes, indexed)
        result = rewrite_range_loop(self.ctx, site.node, n, spelling.text, planner(self.analysis).bound_names)  # type: ignore[arg-type]
        if isinstance(result, str):
            return result
        carried = ", ".join(f"`{name}`" for name in result.carried)
        return LoopRewrite((*result.edits, *imports), f"the loop only carries {carried} from step to step", notes)

    def _scan_rewrite(
        self,
        count: Count,
        spelling: Spelling,
        n: str,
        imports: tuple[Edit, ...],
        notes: tuple[str, ...],
        indexed: ScanCall | None = None,
    ) -> LoopRewrite | str:
        """The scan as a fori_loop: over no xs (`fori_body`), or over ``jnp.arange(n)`` whose
        elements are the indices (`indexed`, `index_body`)."""
        ctx = self.ctx
        scan = indexed or read_scan(count.site.call)
        if scan is None:
            return "the scan's arguments cannot be read"
        if scan.options:
            return f"it sets `{scan.options[0]}`"
        body = index_body(ctx, scan) if indexed is not None else fori_body(ctx, scan)
        if isinstance(body, str):
            return body
        if scan.xs is not None and indexed is None:
            return f"it scans over xs (`{ctx.code(scan.xs)}`), which a fori_loop body would have to index"
        use = carry_use(ctx, scan.call)
        if isinstance(use, str):
            return use
        if "#" in ctx.code(use.replaced):
            return "the scan call holds comments that the rewrite would lose"
        text = render_fori(spelling.text, n, body.text, ctx.code(scan.init))
        edits = (ctx.replace(use.replaced, text), *use.edits, *body.edits, *imports)
        if body.rewrites_def:
            notes = (f"`{body.text}` becomes the loop body: `(index, carry) -> carry`", *notes)
        because = "its stacked outputs are discarded" + (", and its xs are the step indices" if indexed is not None else "")
        return LoopRewrite(edits, because, notes)

    def _drop_static(self, count: Count, group: list[Count]) -> SpecEdit | str:
        """Make the count's parameter dynamic again, when only these loops needed it static."""
        ctx = self.ctx
        source = count.source
        fn, param, jit = source.function, source.param, source.jit
        silenced = self._silenced_in(group)
        if silenced:
            return silenced
        for other in group:
            rewrite = self._loop_rewrite(other)
            if isinstance(rewrite, str):
                line = ctx.span(other.expr).start.line
                return f"`{param}` must stop being static, but the loop on line {line} cannot be rewritten: {rewrite}"
        inside = [(ctx.start(c.expr), ctx.end(c.expr)) for c in group]
        for use in parameter_reads(ctx, fn, param):
            if not any(a <= ctx.start(use) < b for a, b in inside):
                line = ctx.span(use).start.line
                return f"`{param}` is also used on line {line}, where it may need to stay static"
        if jit is None or jit.jit is None:
            return f"the jit that makes `{param}` static cannot be read"
        edit = StaticEditor(ctx).drop(jit.jit, jit.node, function_info(ctx, fn).signature, param)
        if isinstance(edit, str):
            return f"`{param}` cannot leave the static arguments: {edit}"
        return edit

    def _silenced_in(self, group: list[Count]) -> str | None:
        """A fix every loop of the group must share is not made when one of them is silenced."""
        for count in group:
            line = self.ctx.span(count.expr).start.line
            if is_suppressed(self._silenced, line, "JAX301"):
                return f"the loop on line {line}, which must change with this one, is silenced with `# jaxfix: ignore`"
        return None

    def _fori_spelling(self, kind: SiteKind, call: cst.Call) -> Spelling | None:
        """``lax.fori_loop`` spelled as the scan beside it is (``jax.lax.scan`` -> ``jax.lax.fori_loop``)."""
        if kind is SiteKind.SCAN and isinstance(call.func, cst.Attribute):
            return Spelling(f"{self.ctx.code(call.func.value)}.fori_loop", None)
        return planner(self.analysis).spell(FORI_LOOP, call)

    # -- messages ------------------------------------------------------------
    def _head(self, count: Count) -> str:
        ctx = self.ctx
        site = count.site
        if site.kind is SiteKind.SCAN:
            needs = f"`{ctx.code(site.call.func)}` needs a concrete `length`"
        elif site.kind is SiteKind.ARANGE:
            needs = f"`{ctx.code(site.call.func)}` needs a concrete size"
        else:
            needs = "`range()` needs a concrete count"
        return f"{needs}, but `{ctx.code(count.expr)}` depends on a traced value: {count.source.reason}"

    def _static_finding(self, count: Count, plan: StaticCount) -> Finding:
        ctx = self.ctx
        lines = [ctx.span(call).start.line for call, _ in plan.calls]
        if len(plan.params) == 1:
            made = f"`{plan.params[0]}` becomes"
            passed = ", ".join(f"{value} on line {line}" for (_, value), line in zip(plan.calls, lines))
        else:
            made = f"{enumerate_words(f'`{p}`' for p in plan.params)} become"
            passed = f"to each of them, on {'line' if len(lines) == 1 else 'lines'} {', '.join(map(str, lines))}"
        notes = [_KEEPS[count.site.kind] + "; each distinct count compiles once"]
        what = "a NamedTuple of hashable Python values" if plan.tuples else "a Python int"
        if plan.tuples:
            notes.append("the whole NamedTuple becomes static: its fields read as the Python values it was built with")
        if plan.added:
            notes.append(f"adds `{plan.added}`")
        if plan.converted:
            what = "a Python int, or a concrete array of one integer that `.item()` at the call turns into one"
            notes.insert(0, "unsafe: the function now gets a Python int where it got an array; read it only as a count")
        return ctx.finding(
            "JAX301",
            count.expr,
            f"{self._head(count)}; every call passes {what} ({passed}), so {made} static: `{plan.jit_text}`",
            plan.edits,
            Applicability.UNSAFE if plan.converted else Applicability.SAFE,
            description=f"make {enumerate_words(f'`{p}`' for p in plan.params)} static on its jit",
            notes=tuple(notes),
        )

    def _report(self, count: Count, reason: str, static_refusal: str | None) -> Finding:
        return self.ctx.finding(
            "JAX301",
            count.expr,
            f"{self._head(count)}; not rewritten: {reason}",
            notes=tuple(self._options(count, static_refusal)),
        )

    def _options(self, count: Count, static_refusal: str | None) -> Iterable[str]:
        ctx = self.ctx
        site = count.site
        n = without_conversions(ctx, count, astype=True)
        if site.kind is SiteKind.SCAN:
            scan = read_scan(site.call)
            body = ctx.code(scan.f) if scan is not None else "body"
            init = ctx.code(scan.init) if scan is not None else "init"
            if scan is not None and not isinstance(scan.f, (cst.Name, cst.Attribute)):
                body = f"({body})"
            x = f"{ctx.code(scan.xs)}[i]" if scan is not None and scan.xs is not None else "None"
            step = next(name for name in ("masked_step", "masked_step_", "masked_step__") if name not in body)
            yield (
                f"option: a masked scan with a static bound MAX >= every count: `def {step}(c, i): new, y = "
                f"{body}(c, {x}); return jnp.where(i < {n}, new, c), y` then "
                f"`{ctx.code(site.call.func)}({step}, {init}, jnp.arange(MAX))`; it always runs MAX steps, rows of "
                "ys from the count on are padding, vmap and reverse-mode grad work, and a count above MAX is "
                "silently truncated: check it (use `jax.tree.map` for a pytree carry)"
            )
        elif site.kind is SiteKind.ARANGE:
            yield (
                f"option: a static bound MAX >= every count and a mask: `jnp.arange(MAX)` with "
                f"`jnp.arange(MAX) < {n}` marking the entries in use; a count above MAX is silently truncated: check it"
            )
        else:
            yield (
                f"option: a masked loop with a static bound MAX >= every count: `for i in range(MAX): "
                f"c = jnp.where(i < {n}, <next c>, c)`; it always runs MAX steps, and a count above MAX is "
                "silently truncated: check it"
            )
            yield (
                f"option: `lax.fori_loop(0, {n}, body, carry)` with the loop state as the carry "
                "(reverse-mode grad then fails with a traced count)"
            )
        if site.kind is not SiteKind.ARANGE:
            yield (
                "option: a Python-level loop outside jit and vmap, calling the function once per count with "
                "the count a Python int (static): one compile per distinct count"
            )
        if static_refusal is not None:
            yield f"option: make `{count.source.param}` static on its jit if every caller passes a Python int; not done here: {static_refusal}"


def _jax101s(count: Count) -> bool:
    """A control-flow primitive passing an operand into a static parameter is JAX101's finding."""
    via = count.source.via
    return count.source.taint is Taint.FED and via is not None and via.name in CONTROL_FLOW


def _numpy_receiver(facts: Facts, func: ast.expr) -> bool:
    """``np.arange`` with ``import numpy as np``: NumPy's, not jax.numpy's (that is JAX301's).
    Decided by the module's imports: ``import jax.numpy as np`` is common in real code."""
    spellings = qualified_spellings(facts, func)
    return bool(spellings) and all(s.startswith("numpy.") for s in spellings)


class TracedLoopLength(Rule):
    """A loop count that must be a concrete Python int is traced.

    ``lax.scan(..., length=n)``, ``for _ in range(n)`` and ``jnp.arange(n)``
    need a concrete int when they are traced. Inside a jitted or vmapped
    function, a count made with ``n.item()``, ``int(n)``,
    ``n.astype(int).item()`` or ``operator.index(n)`` from a traced value
    fails with ``ConcretizationTypeError`` (or ``TracerIntegerConversionError``);
    a count parameter marked static fails as soon as the module vmaps the
    function or passes it an array (``Non-hashable static arguments are not
    supported``). There is no "dynamic length scan" in JAX.

    The fix, in this order:

    1. The count is a parameter of a jitted function, and every call the
       module makes passes it a Python int (a literal, a constant, arithmetic
       on those), with nothing else entering the function (no vmap): the
       parameter becomes static on that jit and the conversions go. The loop
       keeps its shape, a scan keeps its ys, reverse-mode grad keeps working;
       each distinct count compiles once.
    2. A scan whose stacked outputs are discarded (``carry, _ = scan(...)``,
       ``scan(...)[0]``) over no xs becomes
       ``lax.fori_loop(0, n, lambda _, c: body(c, None)[0], init)`` (or takes
       the body itself, reordered to ``(index, carry) -> carry``, when it is a
       def beside the scan whose x is unused); a scan over ``xs=jnp.arange(n)``,
       whose x is the step's index, becomes
       ``lax.fori_loop(0, n, lambda i, c: body(c, i)[0], init)``
       (equinox#776); a Python ``for`` loop over
       ``range(n)`` whose body is straight-line pure assignments becomes a
       fori_loop carrying its loop state. The count stays traced, so this works
       under vmap with a different count per element. A parameter made static
       only for this loop leaves the static arguments. Reverse-mode grad through
       a fori_loop with a traced count fails; the finding says so and names
       the masked scan.
    3. Otherwise, a report with the options: a masked scan with a static bound
       MAX (it silently truncates a count above MAX), a Python-level loop, or
       making the count static. This is what happens when the ys are used,
       when the body reads its xs, when the module applies ``jax.grad``,
       ``value_and_grad``, ``vjp``, ``jacrev`` or ``hessian`` to a function that
       reaches the loop, for ``jnp.arange`` (an array's size cannot be traced),
       and for a Python loop that cannot be proven equivalent.
    """

    code = "JAX301"
    name = "traced-loop-length"
    summary = "a scan length, range() count or arange size is computed from a traced value"
    #: A count is traced only through a transform of this module (tracedness).
    required = (
        ("scan", "range"),
        ("jax",),
        ("jit", "vmap", "pmap", "grad", "jvp", "vjp", "linearize", "checkpoint", "remat", "custom_",
         "named_call", "shard_map", "eval_shape", "make_jaxpr", "scan", "fori_loop", "while_loop",
         "cond(", "cond,", "cond\n", "switch", "lax.map", "import map", ", map"),
    )

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Scan lengths, range() counts and jnp.arange sizes that may come from a traced parameter."""
        lines = lines_mentioning(facts, ("scan", "range", "arange"))
        out: list[ast.AST] = []
        for call in calls_on(facts, lines):
            name = spelled_name(call.func)
            if name == "scan":
                counts = [k.value for k in call.keywords if k.arg == "length"] + call.args[3:4]
            elif name == "range" or (name == "arange" and not _numpy_receiver(facts, call.func)):
                counts = list(call.args)
            else:
                continue
            if counts and not all(plainly_static(c) for c in counts) and count_may_be_traced(facts, call, counts):
                out.append(call)
        return out

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return LoopLengths(analysis).findings()

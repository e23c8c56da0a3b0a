"""JAX101 / JAX102: static values handed to control-flow primitives as operands.

``lax.cond``, ``lax.switch`` and the loops trace every operand they pass, even
eagerly, even a Python int that is static in the enclosing jit
(jax-behaviour.md 1a, 1b, 1h). A branch jitted with a static parameter that
receives such an operand hashes a tracer and fails with "Non-hashable static
arguments are not supported". The fix binds the static values into the
callable before the primitive (`binding` chooses the form). When the value is
itself a non-static parameter of the enclosing jit, binding cannot help (1i):
that is JAX102's finding.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field

import libcst as cst

from .analysis import Analysis
from .binding import SELF, CallShape, Operand, Plan, Value, intended_binding, plan_known, plan_opaque
from .callables import CallableUse, read_callable_use
from .constants import assigned_value, single_binding
from .calledit import remove_args
from .context import ModuleContext
from .findings import Applicability, Edit, Finding
from .jaxapi import PARTIAL
from .rule import Rule
from .staticness import Kind as Static
from .staticness import Verdict
from .staticspec import BindError, Signature, StaticSpec, bind_call

_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)

#: For loops: the callables a primitive takes, by parameter name and position,
#: and what the primitive passes them.
_LOOP_BODIES = {
    "fori_loop": (("lower", "upper", "body_fun", "init_val"), {"body_fun": ("the loop index", "the carry")}),
    "while_loop": (("cond_fun", "body_fun", "init_val"), {"cond_fun": ("the carry",), "body_fun": ("the carry",)}),
    "scan": (("f", "init", "xs", "length"), {"f": ("the carry", "the scanned slice")}),
}


@dataclass
class Branch:
    """One callable argument of a primitive call, analysed."""

    use: CallableUse
    n_operands: int
    sig: Signature | None = None
    spec: StaticSpec | None = None
    implicit_self: bool = False
    values: dict[Hashable, Value] = field(default_factory=dict)
    shape: CallShape | None = None
    intended: dict[str, Hashable] | None = None
    #: Operand indices that belong in static parameters.
    to_bind: set[int] = field(default_factory=set)
    #: "operand" (an operand lands in a static slot), "misbound" (partial(f, N=N)).
    pitfall: str | None = None
    static_params: list[str] = field(default_factory=list)
    refusal: str | None = None

    @property
    def known(self) -> bool:
        return self.sig is not None


def _value(ctx: ModuleContext, key: Hashable, expr: cst.BaseExpression) -> Value:
    literal = isinstance(expr, _LITERALS) or (
        isinstance(expr, cst.Name) and expr.value in ("True", "False", "None")
    )
    return Value(key, ctx.code(expr), literal)


def analyse_branch(ctx: ModuleContext, expr: cst.BaseExpression, n_operands: int) -> Branch | None:
    use = read_callable_use(ctx, expr)
    if use is None:
        return None
    branch = Branch(use, n_operands)
    target = use.target
    pre = [("arg", i) for i in range(len(use.bound_args))]
    for key, arg in zip(pre, use.bound_args):
        branch.values[key] = _value(ctx, key, arg.value)
    keywords = []
    for arg in use.bound_kwargs:
        key = ("kw", arg.keyword.value)  # type: ignore[union-attr]
        branch.values[key] = _value(ctx, key, arg.value)
        keywords.append((arg.keyword.value, key))  # type: ignore[union-attr]
    if target is None or (target.jit is not None and target.jit.spec is None):
        return branch
    sig = target.function.signature
    spec = target.jit.spec if target.jit is not None else StaticSpec()
    assert spec is not None
    if sig.has_var_positional:
        return branch
    branch.sig, branch.spec, branch.implicit_self = sig, spec, target.implicit_self
    operands = [Operand(j) for j in range(n_operands)]
    shape = CallShape((*([SELF] if target.implicit_self else []), *pre, *operands), tuple(keywords))
    branch.shape = shape
    branch.intended = intended = intended_binding(sig, shape)
    declared = spec.declared_static(sig)
    try:
        actual = bind_call(sig, spec, shape.positional, dict(shape.keywords))
    except BindError:
        if intended is not None and any(name in declared for name, _ in keywords):
            branch.pitfall = "misbound"
        actual = None
    if intended is None:
        return branch
    owner = {source: name for name, source in intended.items()}
    for op in operands:
        param = owner.get(op)
        if param in declared:
            branch.to_bind.add(op.index)
            branch.static_params.append(param)
    bound_static = any(owner.get(key) in declared for key in branch.values)
    if actual is not None:
        for name, b in actual.items():
            if not (isinstance(b.source, Operand) and b.static) or name in declared:
                continue
            # A negative static_argnums counts from the end of *this* call's
            # positional arguments (1l): here it picks an operand.
            if bound_static:
                branch.pitfall = "misbound"
            else:
                branch.pitfall = "operand"
                branch.refusal = (
                    f"jit's static_argnums makes the operand for `{name}` static at this call "
                    "(negative indices count from the end of each call's positional arguments)"
                )
    if branch.to_bind and branch.pitfall is None and actual is not None:
        branch.pitfall = "operand"
    return branch


def _enumerate(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _identifiers(text: str) -> set[str]:
    import re

    return set(re.findall(r"[A-Za-z_]\w*", text))


class BranchBindings:
    """The shared pass: every control-flow call of a module, analysed once."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    @classmethod
    def of(cls, analysis: Analysis) -> list[Finding]:
        if "cond_static" not in analysis.memo:
            analysis.memo["cond_static"] = list(cls(analysis).findings())
        return analysis.memo["cond_static"]  # type: ignore[return-value]

    def findings(self) -> Iterator[Finding]:
        for call in self.ctx.calls:
            primitive = self.ctx.names.control_flow(call)
            if primitive in ("cond", "switch"):
                yield from self._branches(call, primitive)
            elif primitive in _LOOP_BODIES:
                yield from self._loop(call, primitive)

    # -- cond / switch -------------------------------------------------------
    def _branch_exprs(self, call: cst.Call, primitive: str):
        """(callable expressions, operand args, where the callables live) or a refusal string."""
        args = list(call.args)
        head = 3 if primitive == "cond" else 2
        if len(args) < head or any(a.keyword is not None or a.star for a in args[:head]):
            return None
        operands = args[head:]
        if primitive == "cond":
            return [args[1].value, args[2].value], operands, None
        branches = args[1].value
        if isinstance(branches, cst.Name):
            target = single_binding(self.ctx, branches)
            value = assigned_value(self.ctx, target) if isinstance(target, cst.Name) else None
            if not isinstance(value, (cst.List, cst.Tuple)) or self._used_elsewhere(target, branches):
                return "the branches are a list defined elsewhere or used elsewhere too"
            branches = value
        if not isinstance(branches, (cst.List, cst.Tuple)):
            return "the branches are not a list or tuple written out here"
        if any(not isinstance(e, cst.Element) for e in branches.elements):
            return "the branch list unpacks another sequence"
        return [e.value for e in branches.elements], operands, branches

    def _used_elsewhere(self, target: cst.Name, use: cst.Name) -> bool:
        scope = self.ctx.scope(use)
        refs = [r.node for a in scope[use.value] for r in a.references]  # type: ignore[index]
        return refs != [use]

    def _branches(self, call: cst.Call, primitive: str) -> Iterator[Finding]:
        ctx = self.ctx
        parsed = self._branch_exprs(call, primitive)
        if parsed is None:
            return
        if isinstance(parsed, str):
            # Only worth saying if some visible branch would need the fix.
            return
        exprs, operand_args, _ = parsed
        spelled = ctx.code(call.func)
        if any(a.star or a.keyword is not None for a in operand_args):
            yield from self._unpacked_operands(exprs, spelled)
            return
        n = len(operand_args)
        branches = [analyse_branch(ctx, e, n) for e in exprs]
        if any(b is None for b in branches):
            return
        broken = [b for b in branches if b.pitfall]  # type: ignore[union-attr]
        if not broken:
            return
        first = broken[0]
        anchor = first.use.expr
        refusal = next((b.refusal for b in branches if b.refusal), None)  # type: ignore[union-attr]
        if refusal:
            yield ctx.finding("JAX101", anchor, f"`{spelled}` call cannot be rewritten: {refusal}")
            return
        to_bind = sorted(set().union(*(b.to_bind for b in branches)))  # type: ignore[union-attr]
        verdicts = {j: self.analysis.staticness.verdict(operand_args[j].value) for j in to_bind}
        traced = [(j, v) for j, v in verdicts.items() if v.kind is Static.TRACED]
        if traced:
            yield self._traced_finding(call, first, operand_args, traced, spelled)
            return
        yield from self._rewrite(call, primitive, branches, operand_args, to_bind, verdicts, spelled)  # type: ignore[arg-type]

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
                yield self.ctx.finding(
                    "JAX101",
                    expr,
                    f"`{self.ctx.code(use.callee)}` has static parameter {_enumerate(f'`{p}`' for p in exposed)}, "  # type: ignore[union-attr]
                    f"but `{spelled}` gets its operands through `*`, so which one lands in a static slot "
                    "cannot be seen",
                    notes=("bind the static values into the branches yourself: `partial(f, N)` or `lambda x: f(N, x)`",),
                )
                return

    def _name(self, branch: Branch) -> str:
        return self.ctx.code(branch.use.callee)

    def _traced_finding(self, call, first: Branch, operand_args, traced, spelled) -> Finding:
        j, verdict = traced[0]
        value = self.ctx.code(operand_args[j].value)
        fname = verdict.function.name.value if isinstance(verdict.function, cst.FunctionDef) else "the function"
        return self.ctx.finding(
            "JAX102",
            operand_args[j].value,
            f"`{value}` must be static for `{self._name(first)}`, but {verdict.reason}: "
            f"binding it into the branches cannot help; make `{verdict.param}` static on `{fname}`'s jit",
            notes=(
                f"add `{verdict.param}` to the static arguments of `{fname}` (only right if every caller "
                "passes it a hashable Python value), then bind it: `partial(f, N)`",
            ),
        )

    def _rewrite(self, call, primitive, branches: list[Branch], operand_args, to_bind, verdicts, spelled):
        ctx = self.ctx
        values = {Operand(j): _value(ctx, Operand(j), operand_args[j].value) for j in to_bind}
        dynamic = [Operand(j) for j in range(len(operand_args)) if j not in to_bind]
        spelling = None
        edits: list[Edit] = []
        new_texts: list[str] = []
        for branch in branches:
            if not to_bind and branch.pitfall != "misbound":
                new_texts.append(ctx.code(branch.use.expr))
                continue
            plan, spelling = self._plan(branch, values, dynamic, call, spelling)
            if plan is None:
                yield ctx.finding(
                    "JAX101",
                    branch.use.expr,
                    f"no binding form keeps the static parameters of `{self._name(branch)}` static here",
                )
                return
            new_texts.append(plan.text)
            if plan.text != ctx.code(branch.use.expr):
                edits.append(ctx.replace(branch.use.expr, plan.text))
        if spelling is not None and spelling.edit is not None and any(
            t.startswith(spelling.text + "(") for t in new_texts
        ):
            edits.append(spelling.edit)
        else:
            spelling = None
        head = len(call.args) - len(operand_args)
        edits.extend(remove_args(ctx, call, [head + j for j in to_bind]))
        unsure = [v for v in verdicts.values() if v.kind is Static.UNKNOWN]
        broken = next(b for b in branches if b.pitfall)
        message = self._message(broken, operand_args, to_bind, spelled, new_texts[branches.index(broken)])
        notes: list[str] = []
        if spelling is not None and spelling.added:
            notes.append(f"adds `{spelling.added}`")
        if unsure:
            notes.append(f"unsafe: {unsure[0].reason}; if it is a tracer, binding fails the same way")
        yield ctx.finding(
            "JAX101",
            broken.use.expr,
            message,
            tuple(edits),
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description="bind static operands into the branches",
            notes=tuple(notes),
        )

    def _plan(self, branch: Branch, values, dynamic, call, spelling):
        """A replacement for one branch; reuses the branch's own partial spelling."""
        ctx = self.ctx
        use = branch.use
        callee = ctx.code(use.callee)
        all_values = {**branch.values, **values}
        if use.partial is not None:
            partial_name = ctx.code(use.partial.func)
        else:
            if spelling is None:
                spelling = self.analysis.imports.spell(PARTIAL, call)
                if spelling is None:
                    return None, None
            partial_name = spelling.text
        names = _identifiers(callee)
        if branch.known:
            plan = plan_known(
                branch.sig,  # type: ignore[arg-type]
                branch.spec,  # type: ignore[arg-type]
                branch.implicit_self,
                callee,
                partial_name,
                branch.intended,  # type: ignore[arg-type]
                all_values,
                dynamic,
                names,
            )
        else:
            plan = plan_opaque(
                callee,
                partial_name,
                [ctx.code(a.value) for a in use.bound_args],
                [(a.keyword.value, ctx.code(a.value)) for a in use.bound_kwargs],  # type: ignore[union-attr]
                [Operand(j) for j in range(branch.n_operands)],
                values,
                names,
            )
        return plan, spelling

    def _message(self, branch: Branch, operand_args, to_bind, spelled, new_text) -> str:
        name = self._name(branch)
        if branch.pitfall == "misbound":
            return (
                f"`{self.ctx.code(branch.use.expr)}` binds a static parameter by keyword, but `{spelled}` "
                f"passes its operands positionally, so an operand lands in a static slot and cannot be "
                f"hashed; bind it in place: `{new_text}`"
            )
        values = _enumerate(f"`{self.ctx.code(operand_args[j].value)}`" for j in to_bind)
        params = _enumerate(f"`{p}`" for p in branch.static_params)
        plural = len(to_bind) > 1
        return (
            f"`{spelled}` passes {values} as {'operands' if plural else 'an operand'} to static "
            f"parameter{'s' if len(branch.static_params) > 1 else ''} {params} of the jitted `{name}`, "
            f"so {'they arrive as tracers' if plural else 'it arrives as a tracer'} that cannot be hashed; "
            f"bind {'them' if plural else 'it'} first: `{new_text}`"
        )

    # -- loops ---------------------------------------------------------------
    def _loop(self, call: cst.Call, primitive: str) -> Iterator[Finding]:
        ctx = self.ctx
        names, bodies = _LOOP_BODIES[primitive]
        args = _by_name(call, names)
        if args is None:
            return
        for pname, supplied in bodies.items():
            arg = args.get(pname)
            if arg is None:
                continue
            branch = analyse_branch(ctx, arg.value, len(supplied))
            if branch is None or not branch.pitfall:
                continue
            if branch.to_bind or branch.refusal:
                params = ", ".join(f"`{p}`" for p in branch.static_params) or "a static parameter"
                what = " and ".join(supplied[j] for j in sorted(branch.to_bind)) or "a loop value"
                yield ctx.finding(
                    "JAX101",
                    arg.value,
                    f"`{ctx.code(call.func)}` passes {what} to {params} of the jitted "
                    f"`{self._name(branch)}`; a value the loop supplies is always a tracer, so it cannot be static",
                    notes=(f"remove {params} from the static arguments of `{self._name(branch)}`",),
                )
                continue
            dynamic = [Operand(j) for j in range(len(supplied))]
            plan, spelling = self._plan(branch, {}, dynamic, call, None)
            if plan is None:
                yield ctx.finding(
                    "JAX101", arg.value, f"no binding form keeps `{self._name(branch)}`'s static parameters static"
                )
                continue
            edits = [ctx.replace(arg.value, plan.text)]
            if spelling is not None and spelling.edit is not None and plan.text.startswith(spelling.text + "("):
                edits.append(spelling.edit)
            yield ctx.finding(
                "JAX101",
                arg.value,
                self._message(branch, [], [], ctx.code(call.func), plan.text),
                tuple(edits),
                description="bind static values so the loop's arguments land in dynamic slots",
            )


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


_REQUIRED = (("static_arg",), ("cond", "switch", "fori_loop", "while_loop", "scan"))


class StaticOperandToBranch(Rule):
    """A jitted callable's static parameter receives an operand of a control-flow primitive.

    ``lax.cond``, ``lax.switch``, ``lax.fori_loop``, ``lax.while_loop`` and
    ``lax.scan`` turn every operand they pass into a tracer, eagerly and under
    jit alike, even a Python int that is static in the enclosing jit. A branch
    jitted with ``static_argnums``/``static_argnames`` that receives one tries to
    hash the tracer::

        ValueError: Non-hashable static arguments are not supported. An error
        occurred while trying to hash an object of type <class '...DynamicJaxprTracer'>

    The fix takes the static values out of the operands and binds them into
    the callable, in the one form that keeps them static for this signature:
    ``partial(f, N)`` for a positional prefix, ``partial(f, N=N)`` for
    parameters after every operand, both mixed, or a lambda with the values
    captured as defaults when a static parameter sits between dynamic ones.
    ``partial(f, N=N)`` where ``N`` comes first (a common copied answer) is
    also repaired: there the operand lands in ``N``'s slot.

    The value must be static where the primitive is called: a literal, a
    constant, arithmetic on those, array metadata, a static parameter of the
    enclosing jit, or a parameter of a function this module never traces.
    When it cannot be followed the fix is unsafe; when it is a traced
    parameter of the enclosing jit, JAX102 reports it instead. A body whose
    static parameter receives the loop index or carry is reported: a value the
    loop supplies is never static.
    """

    code = "JAX101"
    name = "static-operand-to-branch"
    summary = "a static parameter of a jitted branch or loop body receives a traced operand"
    required = _REQUIRED

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [f for f in BranchBindings.of(analysis) if f.code == self.code]


class BranchJitIntoEnclosingJit(Rule):
    """The value a branch needs static is a traced parameter of the enclosing jit.

    Inside a jitted function, a parameter that is not static there is already
    a tracer, so binding it into a branch with ``partial`` fails exactly like
    passing it as an operand (jax-behaviour.md 1i). The parameter must become
    static on the enclosing jit; that changes what every caller must pass
    (a hashable Python value), so it is reported with the options.
    """

    code = "JAX102"
    name = "branch-jit-into-enclosing-jit"
    summary = "a branch's static value is a traced parameter of the enclosing jitted function"
    required = _REQUIRED

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [f for f in BranchBindings.of(analysis) if f.code == self.code]

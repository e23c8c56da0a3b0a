"""JAX401 outer-transform-static: a function jitted with static parameters, traced by an outer transformation.

``jax.make_jaxpr``, ``jax.pmap``, ``jax.checkpoint`` and an outer ``jax.jit``
trace every argument they are given, and ``jax.vmap`` maps every one its
in_axes does not set to None; they do not read the inner jit's
``static_argnums``. The static value reaches the inner jit as a tracer and
fails to hash (docs/jax4xx-behaviour.md, A). A ``jax.tree_util.Partial``
handed to a jitted function is a pytree whose bound arguments are leaves:
traced the same way. The fixes carry the static information outwards, each
in the option that transform honours (measured): ``static_argnums`` for
make_jaxpr (positional or keyword calls) and checkpoint (positional calls
only: its ``static_argnames`` does not help), ``static_broadcasted_argnums``
for pmap (positional calls only), the outer jit's own static arguments, and
for a Partial, the static values bound into its function
(``Partial(partial(f, 2))``) so that they are no longer leaves.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.gate.screen import Facts, calls_on, spelled_name
from jaxfix.transforms.rules.jax401_outer_transform_static.differentiated_statics import (
    DIFFERENTIATING,
    differentiated_statics,
)
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.concrete_uses import read_as_loop_count
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value, single_binding
from jaxfix.transforms.semantics.jit_signature import Kind as ParamKind
from jaxfix.transforms.semantics.jit_wrappers import Target, read_jit_application
from jaxfix.transforms.semantics.static_slots import Slot, bind_slots, jitted_call
from jaxfix.transforms.semantics.static_values import Kind as Static
from jaxfix.transforms.semantics.transform_options import POSITIONS_ONLY, STATIC_OPTION, in_axes, in_axes_text
from jaxfix.transforms.semantics.vocabulary import PARTIAL

#: transform -> (the keyword that makes arguments static, whether the call must pass them positionally)
OPTIONS = {name: (keyword, name in POSITIONS_ONLY) for name, keyword in STATIC_OPTION.items() if keyword is not None}
TREE_PARTIAL = "jax.tree_util.Partial"
VMAP = "jax.vmap"


@dataclass(frozen=True)
class Application:
    """``T(F, ...)``: the transform call, its name, the jitted F, and the calls that run it."""

    node: cst.Call
    transform: str
    target: Target
    calls: tuple[cst.Call, ...]
    #: Some reference to the transformed function is not a direct call.
    escapes: bool


class OuterTransforms:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for call in self.ctx.calls:
            qualified = self.ctx.names.qualified_name(call.func)
            if qualified in OPTIONS or qualified in ("jax.jit", VMAP):
                app = self._application(call, qualified)  # type: ignore[arg-type]
                if app is not None:
                    found = self._transform(app)
                    if found is not None:
                        out.append(found)
            elif qualified == TREE_PARTIAL:
                found = self._partial(call)
                if found is not None:
                    out.append(found)
            elif qualified in DIFFERENTIATING and call.args and call.args[0].keyword is None and not call.args[0].star:
                target = resolve_callable(self.ctx, call.args[0].value)
                if target is not None and target.jit is not None and not target.implicit_self:
                    found = differentiated_statics(self.analysis, call, target, self.ctx.code(call.func))
                    if found is not None:
                        out.append(found)
        return out

    # -- make_jaxpr, pmap, checkpoint, an outer jit ----------------------------------
    def _application(self, call: cst.Call, transform: str) -> Application | None:
        ctx = self.ctx
        if not call.args or call.args[0].keyword is not None or call.args[0].star:
            return None
        target = resolve_callable(ctx, call.args[0].value)
        if target is None or target.jit is None or target.jit.spec is None or target.implicit_self:
            return None
        if not target.jit.spec.declared_static(target.function.signature):
            return None
        parent = ctx.parent(call)
        if isinstance(parent, cst.Call) and parent.func is call:
            return Application(call, transform, target, (parent,), False)
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
            name = parent.targets[0].target
            scope = ctx.scope(name)
            if scope is None or len(scope.assignments[name.value]) != 1:
                return None
            (assignment,) = scope.assignments[name.value]
            refs = [r.node for r in assignment.references]
            calls = tuple(ctx.parent(r) for r in refs if isinstance(ctx.parent(r), cst.Call) and ctx.parent(r).func is r)  # type: ignore[union-attr]
            return Application(call, transform, target, calls, len(calls) != len(refs))  # type: ignore[arg-type]
        return None

    def _already_static(self, app: Application) -> set[str] | None:
        """The inner parameters the transform already keeps static; None when its option cannot be read."""
        sig = app.target.function.signature
        if app.transform == "jax.jit":
            applied = read_jit_application(self.ctx, app.node)
            if applied is None or applied[0].spec is None:
                return None
            return set(applied[0].spec.declared_static(sig))
        if app.transform == VMAP:
            axes = in_axes(self.ctx, app.node)
            if axes is None:
                return {p.name for p in sig.params}
            if isinstance(axes, int) and not isinstance(axes, bool):
                return set()
            if not isinstance(axes, tuple):
                return None
            return {sig.positional[i].name for i, a in enumerate(axes) if a is None and i < len(sig.positional)}
        keyword, _ = OPTIONS[app.transform]
        arg = next((a for a in app.node.args if a.keyword is not None and a.keyword.value == keyword), None)
        if arg is None:
            return set()
        value = constant_value(self.ctx, arg.value)
        if value is NOT_CONSTANT:
            return None
        items = value if isinstance(value, tuple) else (value,)
        positional = sig.positional
        out = set()
        for i in items:
            if isinstance(i, int) and -len(positional) <= i < len(positional):
                out.add(positional[i].name)
        return out

    def _transform(self, app: Application) -> Finding | None:
        ctx = self.ctx
        already = self._already_static(app)
        if already is None or not app.calls:
            return None
        needed: dict[str, list[Slot]] = {}
        for call in app.calls:
            bound = bind_slots(call, app.target)
            if bound is None:
                return None
            for slot in bound.static_slots:
                if slot.param not in already:
                    needed.setdefault(slot.param, []).append(slot)
        if not needed:
            return None
        inner = ctx.code(app.node.args[0].value)
        spelled = ctx.code(app.node.func)
        first = next(iter(needed.values()))[0]
        head = (
            f"`{spelled}` traces every argument it is given and does not know that `{inner}` is jitted with "
            f"static {_params(needed)}: `{ctx.code(first.expr)}` reaches `{first.param}` as a tracer, which cannot be hashed"
        )
        if app.transform == VMAP:
            head = (
                f"`{spelled}` maps every argument along axis 0 unless in_axes says None, and does not know that "
                f"`{inner}` is jitted with static {_params(needed)}: `{ctx.code(first.expr)}` reaches `{first.param}` "
                "mapped (a Python scalar has no axis; an array arrives as a tracer, which cannot be hashed)"
            )
        refusal, unsure = self._values(needed)
        if refusal is not None and app.transform == VMAP and self._counts(app, needed):
            return None  # a vmap feeding a static loop count: JAX301's finding, with its rewrite
        if refusal is not None:
            return ctx.finding("JAX401", app.node, f"{head}; not rewritten: {refusal}", notes=self._array_options(app, needed))
        edit = self._edit(app, needed)
        if isinstance(edit, str):
            return ctx.finding("JAX401", app.node, f"{head}; not rewritten: {edit}")
        edits, after = edit
        notes = []
        if app.escapes:
            unsure.append(f"the {_transform_name(app.transform)}-transformed function is also used where its calls cannot be seen")
        if unsure:
            notes.append(f"unsafe: {unsure[0]}; if it is not a hashable Python value, the static option fails the same way")
        return ctx.finding(
            "JAX401",
            app.node,
            f"{head}; " + (f"leave {'them' if len(needed) > 1 else 'it'} unmapped: `{after}`" if app.transform == VMAP
                           else f"tell `{spelled}` that {'they are' if len(needed) > 1 else 'it is'} static: `{after}`"),
            edits,
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description=f"mark the static arguments static on {spelled}",
            notes=tuple(notes),
        )

    def _values(self, needed: dict[str, list[Slot]]) -> tuple[str | None, list[str]]:
        """A reason no static option can help (a traced value, an array), and doubts that make the fix unsafe."""
        ctx = self.ctx
        unsure: list[str] = []
        for slots in needed.values():
            for slot in slots:
                line = ctx.span(slot.expr).start.line
                array = array_origin(self.analysis, slot.expr)
                if array is not None:
                    return f"`{ctx.code(slot.expr)}` (line {line}) is an array ({array}), and an array cannot be static", unsure
                verdict = self.analysis.staticness.verdict(slot.expr)
                if verdict.kind is Static.TRACED:
                    return f"`{ctx.code(slot.expr)}` (line {line}) is already a tracer: {verdict.reason}", unsure
                if verdict.kind is Static.UNKNOWN:
                    unsure.append(verdict.reason)
        return None, unsure

    def _edit(self, app: Application, needed: dict[str, list[Slot]]) -> tuple[tuple[Edit, ...], str] | str:
        ctx = self.ctx
        sig = app.target.function.signature
        editor = StaticEditor(ctx)
        if app.transform == "jax.jit":
            applied = read_jit_application(ctx, app.node)
            assert applied is not None
            edit = editor.add(applied[0], app.node, sig, list(needed), None)
            if isinstance(edit, str):
                return edit
            return edit.edits, edit.description
        if app.transform == VMAP:
            return self._unmapped(app, needed)
        keyword, positional_only = OPTIONS[app.transform]
        indices: list[str] = []
        for param, slots in needed.items():
            index = sig.positional_index(param)
            kind = sig.param(param).kind  # type: ignore[union-attr]
            if index is None or kind is ParamKind.KEYWORD_ONLY:
                return (
                    f"`{param}` is keyword-only, and `{ctx.code(app.node.func)}` has no option for it; bind it "
                    f"first: `{ctx.code(app.node.func)}(partial({app.target.function.name}, {param}=...))`"
                )
            if positional_only and any(s.keyword for s in slots):
                line = ctx.span(next(s for s in slots if s.keyword).expr).start.line
                return (
                    f"the call on line {line} passes `{param}` by keyword, and `{ctx.code(app.node.func)}`'s "
                    f"`{keyword}` only covers positional arguments; pass it positionally"
                )
            indices.append(str(index))
        edit = editor.extend(app.node, keyword, sorted(indices, key=int))
        if isinstance(edit, str):
            return edit
        return (edit,), self._reads_after(app, edit)

    def _counts(self, app: Application, needed: dict[str, list[Slot]]) -> bool:
        fn = app.target.function.node
        return fn is not None and any(read_as_loop_count(self.ctx, fn, param) for param in needed)

    def _unmapped(self, app: Application, needed: dict[str, list[Slot]]) -> tuple[tuple[Edit, ...], str] | str:
        """vmap: ``in_axes`` with ``None`` at the static positions, so each call's Python value reaches
        the jitted function unmapped (docs/jax405-behaviour.md: an unmapped value arrives as it is)."""
        ctx = self.ctx
        sig = app.target.function.signature
        spelled = ctx.code(app.node.func)
        if len(app.node.args) > 1:
            return f"`{spelled}` already has options; give `None` in its in_axes at the static positions"
        counts = {len([a for a in call.args if a.keyword is None]) for call in app.calls}
        if len(counts) != 1 or any(a.star for call in app.calls for a in call.args):
            return "the calls pass different numbers of positional arguments, so one in_axes cannot fit them all"
        (count,) = counts
        unmapped: set[int] = set()
        for param, slots in needed.items():
            index = sig.positional_index(param)
            if index is None or any(s.keyword for s in slots) or index >= count:
                return f"a call passes `{param}` by keyword, which vmap always maps; pass it positionally"
            unmapped.add(index)
        if len(unmapped) == count and not any(a.keyword is not None for call in app.calls for a in call.args):
            return "every argument would be unmapped, and vmap needs one to map"
        last = app.node.args[-1]
        edit = Edit(ctx.end(last.value), ctx.end(last.value), f", {in_axes_text(count, unmapped)}")
        return (edit,), self._reads_after(app, edit)

    def _reads_after(self, app: Application, edit: Edit) -> str:
        """The transform's call as it reads once `edit` (inside it) is made, for the message."""
        ctx = self.ctx
        start, end = ctx.start(app.node), ctx.end(app.node)
        text = ctx.text[start:end]
        return text[: edit.start - start] + edit.content + text[edit.end - start :]

    def _array_options(self, app: Application, needed: dict[str, list[Slot]]) -> tuple[str, ...]:
        inner = app.target.function.name
        params = ", ".join(f"`{p}`" for p in needed)
        return (
            f"option: if the value is meant to vary, make {params} a traced parameter of `{inner}` (drop it from its "
            "static arguments), provided nothing there needs it concrete",
            "option: if it is meant to be fixed, pass a Python value instead (`int(...)`, `float(...)` outside any "
            "transform), and tell the outer transformation it is static",
        )

    # -- jax.tree_util.Partial handed to a jitted function -----------------------------
    def _partial(self, call: cst.Call) -> Finding | None:
        ctx = self.ctx
        args = list(call.args)
        if not args or args[0].keyword is not None or any(a.star for a in args):
            return None
        target = resolve_callable(ctx, args[0].value)
        if target is None or target.jit is None or target.jit.spec is None or target.implicit_self:
            return None
        sig = target.function.signature
        declared = target.jit.spec.declared_static(sig)
        bound = [a for a in args[1:] if a.keyword is None]
        keywords = [a for a in args[1:] if a.keyword is not None]
        positional = sig.positional
        static_positional = [i for i, _ in enumerate(bound) if i < len(positional) and positional[i].name in declared]
        static_keywords = [a for a in keywords if a.keyword.value in declared]  # type: ignore[union-attr]
        if not static_positional and not static_keywords:
            return None
        crossing = self._crossing(call)
        if crossing is None:
            return None
        jitted, slot = crossing
        inner = target.function.name
        moved = [bound[i] for i in static_positional] + static_keywords
        first = moved[0]
        param = positional[static_positional[0]].name if static_positional else first.keyword.value  # type: ignore[union-attr]
        head = (
            f"`{shorten(ctx.code(call))}` is handed to the jitted `{jitted.callee_name}`, which traces its bound "
            f"arguments as pytree leaves: `{ctx.code(first.value)}` reaches static parameter `{param}` of the "
            f"jitted `{inner}` as a tracer, which cannot be hashed"
        )
        if static_positional != list(range(len(static_positional))):
            return ctx.finding("JAX401", call, f"{head}; not rewritten: the static values are not the first bound arguments", notes=self._partial_options(jitted, slot))
        for kw in static_keywords:
            p = sig.param(kw.keyword.value)  # type: ignore[union-attr]
            if p is None or p.kind is not ParamKind.KEYWORD_ONLY:
                return ctx.finding(
                    "JAX401",
                    call,
                    f"{head}; not rewritten: `{kw.keyword.value}=` binds a parameter by keyword that the call's "  # type: ignore[union-attr]
                    "positional arguments may fill first",
                    notes=self._partial_options(jitted, slot),
                )
        unsure: list[str] = []
        for arg in moved:
            verdict = self.analysis.staticness.verdict(arg.value)
            if verdict.kind is Static.TRACED:
                return ctx.finding("JAX401", call, f"{head}; not rewritten: {verdict.reason}", notes=self._partial_options(jitted, slot))
            if verdict.kind is Static.UNKNOWN:
                unsure.append(verdict.reason)
        spelling = planner(self.analysis).spell(PARTIAL, call)
        if spelling is None:
            return ctx.finding("JAX401", call, f"{head}; not rewritten: no name for functools.partial is free here")
        kept = [a for a in args[1:] if a not in moved]
        inner_text = f"{spelling.text}({', '.join([ctx.code(args[0].value), *(_arg_text(ctx, a) for a in moved)])})"
        new = f"{ctx.code(call.func)}({', '.join([inner_text, *(_arg_text(ctx, a) for a in kept)])})"
        edits = [ctx.replace(call, new)]
        notes = [
            f"alternative: make `{slot.param}` static on the jit of `{jitted.callee_name}`; either way each new "
            "Partial object compiles again (functools.partial compares by identity)"
        ]
        if spelling.edit is not None:
            edits.append(spelling.edit)
            notes.append(f"adds `{spelling.added}`")
        if unsure:
            notes.insert(0, f"unsafe: {unsure[0]}; if it is a tracer, binding fails the same way")
        return ctx.finding(
            "JAX401",
            call,
            f"{head}; bind the static values into the function, where jit does not trace them: `{new}`",
            tuple(edits),
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description="bind static values into the Partial's function",
            notes=tuple(notes),
        )

    def _crossing(self, call: cst.Call):
        """The jitted call the Partial is handed to in a traced (non-static) slot, and that slot."""
        ctx = self.ctx
        uses: list[cst.CSTNode] = [call]
        parent = ctx.parent(call)
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
            name = parent.targets[0].target
            scope = ctx.scope(name)
            if scope is None or len(scope.assignments[name.value]) != 1:
                return None
            (assignment,) = scope.assignments[name.value]
            uses = [r.node for r in assignment.references if single_binding(ctx, r.node) is name]  # type: ignore[arg-type]
        for use in uses:
            arg = ctx.parent(use)
            outer = ctx.parent(arg) if isinstance(arg, cst.Arg) and arg.value is use else None
            if not isinstance(outer, cst.Call):
                continue
            jitted = jitted_call(ctx, outer)
            if jitted is None:
                continue
            slot = next((s for s in jitted.slots if s.expr is use), None)
            if slot is not None and not slot.static:
                return jitted, slot
        return None

    def _partial_options(self, jitted, slot: Slot) -> tuple[str, ...]:
        return (
            f"option: make `{slot.param}` static on the jit of `{jitted.callee_name}`: the Partial is then hashed "
            "(by identity), not traced; each new Partial object compiles again",
            "option: bind the static values into the function: `Partial(functools.partial(f, N), ...)`",
        )


def _arg_text(ctx, arg: cst.Arg) -> str:
    value = ctx.code(arg.value)
    return f"{arg.keyword.value}={value}" if arg.keyword is not None else value


def _params(needed: dict) -> str:
    names = [f"`{p}`" for p in needed]
    word = "parameters" if len(names) > 1 else "parameter"
    return f"{word} {', '.join(names[:-1]) + ' and ' + names[-1] if len(names) > 1 else names[0]}"


def _transform_name(transform: str) -> str:
    return transform.rsplit(".", 1)[-1]


# -- the screen -------------------------------------------------------------------

_WORDS = ("make_jaxpr", "pmap", "checkpoint", "remat", "jit", "Partial", "vmap", "grad", "jacfwd", "jacrev", "jacobian", "hessian")


def _seeds(facts: Facts) -> list[ast.AST]:
    """Calls applying make_jaxpr/pmap/checkpoint/jit or a Partial to a name jitted with static arguments."""
    names = facts.static_jitted_names
    if not names:
        return []
    out: list[ast.AST] = []
    words = set(_WORDS) | {
        local
        for local, targets in facts.import_targets.items()
        if any(target.rsplit(".", 1)[-1] in _WORDS for target in targets)
    }
    for node in calls_on(facts, facts.lines_of_words(words)):
        if spelled_name(node.func) not in words or not node.args:
            continue
        if _names_jitted(facts, node.args[0], names):
            out.append(node)  # the call, not its statement: a class around it would keep the whole class
    return out


def _names_jitted(facts: Facts, head: ast.expr, names: frozenset[str]) -> bool:
    """The transformed callable as `resolve_callable` reads it: a name jitted with static arguments
    (a plain name: one bound so around the call), or ``jax.jit(f, static_argnums=...)`` written
    inline (with `f` a name)."""
    if _jitted_name(facts, head, names):
        return True
    if isinstance(head, ast.Call):
        says = [head, head.func] if isinstance(head.func, ast.Call) else [head]  # partial(jax.jit, static_...)(f)
        return any(k.arg in ("static_argnums", "static_argnames") for c in says for k in c.keywords) or (
            bool(head.args) and _jitted_name(facts, head.args[0], names)
        )
    return False


def _jitted_name(facts: Facts, node: ast.expr, names: frozenset[str]) -> bool:
    if isinstance(node, ast.Name):
        return facts.static_jitted_at(node.id, node.lineno)
    return spelled_name(node) in names


class OuterTransformStatic401(Rule):
    """A function jitted with static parameters is traced by an outer transformation.

    ``jax.make_jaxpr``, ``jax.pmap``, ``jax.checkpoint``/``remat`` and an outer
    ``jax.jit`` trace every argument they pass on; they do not read the
    inner jit's ``static_argnums``. So does ``jit`` for a
    ``jax.tree_util.Partial`` handed to it: the Partial is a pytree and its
    bound arguments are leaves. The static value arrives as a tracer::

        jax.make_jaxpr(jax.jit(f, static_argnames="y"))(1, 2)
        # ValueError: Non-hashable static arguments are not supported ... JitTracer(~int32[])

    The fix tells the outer transformation, in the option each one honours
    (docs/jax4xx-behaviour.md, A): ``make_jaxpr(f, static_argnums=(1,))``
    (positional or keyword calls); ``checkpoint(f, static_argnums=(1,))``
    and ``pmap(f, static_broadcasted_argnums=(1,))`` when every call passes
    the value positionally (otherwise they fail, and the finding says to pass
    it positionally; checkpoint's ``static_argnames`` does not help); an
    outer ``jax.jit`` gets the static arguments in its own spelling;
    ``jax.vmap`` gets ``in_axes`` with ``None`` at the static positions (an
    unmapped value arrives as it is, docs/jax405-behaviour.md), when every
    call passes them positionally and vmap has no options yet. A static
    parameter that ``grad`` (``value_and_grad``, ``jacfwd``, ``jacrev``,
    ``hessian``) differentiates leaves the static arguments when nothing
    needs it concrete (StackOverflow 79550040; `differentiated_statics`). A
    Partial gets its static values bound into its function,
    ``Partial(partial(f, 2), ...)``, where jit does not trace them (marking
    the receiving parameter static also works; both compile once per new
    Partial object). The fix is safe when the value is provably static at
    the call, unsafe when it cannot be followed; a value that is already a
    tracer or an array is reported (no static option helps). ``vmap`` and
    ``grad`` are not reported for the arguments they leave alone: an unmapped,
    undifferentiated argument reaches the function unchanged.
    """

    code = "JAX401"
    name = "outer-transform-static"
    summary = "an outer transformation traces the static argument of a jitted function"
    required = (("static_arg",), _WORDS)
    #: A Partial bound to a name is followed to the jitted function it is handed to.
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return _seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return OuterTransforms(analysis).findings()

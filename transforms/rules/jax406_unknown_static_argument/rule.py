"""JAX406: a jit names static arguments its function does not take.

jit checks its static options against the function when it wraps it: a name
in ``static_argnames`` that is no parameter, or a position in
``static_argnums`` beyond the positional parameters, raises at once
(``ValueError: Jitted function has invalid argnames {'scale'} in
static_argnames. Function does not take these args.``; docs/jax406-behaviour.md).
It happens when a parameter is renamed or dropped and the jit is not
(probfindiff#59). Nothing can be static that no call can pass, so the
entries go; a name one letter off a parameter that is not static is likely a
typo for it, and then which was meant is a person's choice: reported.
A function taking ``**kwargs`` (or ``*args``) takes any name (position).
A positional-only parameter named in ``static_argnames`` raises too ("These
are positional-only"): the name was meant, so it becomes its position in
``static_argnums`` (jax#10601).
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.traced_parameter import entered_jit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.jit_signature import Kind
from jaxfix.transforms.semantics.jit_wrappers import JitWrapper, function_info
from jaxfix.transforms.semantics.vocabulary import JIT

CODE = "JAX406"
_KEYWORDS = ("static_argnums", "static_argnames")


class UnknownStatics:
    """One module's JAX406 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        for fn in self.ctx.nodes_of(cst.FunctionDef):
            info = function_info(self.ctx, fn)
            if info.opaque:
                continue
            jit, node = self._jit(fn, info)
            if jit is None or node is None or jit.spec is None or jit.call is None:
                continue
            sig = info.signature
            named = {p.name for p in sig.params if p.kind is not Kind.POSITIONAL_ONLY}
            by_position = {p.name for p in sig.params if p.kind is Kind.POSITIONAL_ONLY}
            listed = frozenset(jit.spec.argnames or ())
            if listed & by_position:
                yield self._positional_only(info, jit, listed, by_position)
                continue
            names = frozenset() if sig.has_var_keyword else listed - named
            count = len(sig.positional)
            numbers = frozenset(
                n for n in (jit.spec.argnums or ()) if not sig.has_var_positional and not -count <= n < count
            )
            if names or numbers:
                yield self._finding(info, jit, node, names, numbers)

    def _positional_only(self, info, jit: JitWrapper, listed: frozenset[str], by_position: set[str]) -> Finding:
        """A positional-only parameter named in ``static_argnames``: jit raises ("These are
        positional-only"); the name was meant, so it becomes its position (jax#10601)."""
        ctx = self.ctx
        meant = sorted(listed & by_position, key=lambda n: info.signature.positional_index(n))
        shown = ", ".join(f"`{n}`" for n in meant)
        names_arg = next(a for a in jit.call.args if a.keyword is not None and a.keyword.value == "static_argnames")
        head = (
            f"the jit of `{info.name}` names {shown} in `static_argnames`, but `{info.name}` takes "
            f"{'it' if len(meant) == 1 else 'them'} by position only: jit raises when it wraps the function "
            "(\"Jitted function has invalid argnames ... These are positional-only\")"
        )
        numbers = [str(info.signature.positional_index(n)) for n in meant]
        nums_written = any(a.keyword is not None and a.keyword.value == "static_argnums" for a in jit.call.args)
        if listed != set(meant) or nums_written:
            return ctx.finding(
                CODE, names_arg, f"{head}; not rewritten: the other static options would have to be merged by hand",
                notes=(f"option: name {shown} by position in `static_argnums` ({', '.join(numbers)})",),
            )
        text = f"static_argnums=({', '.join(numbers)},)" if len(numbers) == 1 else f"static_argnums=({', '.join(numbers)})"
        return ctx.finding(
            CODE,
            names_arg,
            f"{head}; static by position instead: `{text}`",
            (Edit(ctx.start(names_arg), ctx.end(names_arg.value), text),),
            description=f"make {shown} static by position: `{text}`",
        )

    def _jit(self, fn: cst.FunctionDef, info) -> tuple[JitWrapper | None, cst.CSTNode | None]:
        """The jit written around `fn`: its decorator, ``f = jax.jit(f, ...)`` after it, or the one
        jit every jitted use goes through (``g = jax.jit(f, ...)``)."""
        if info.jit is not None:
            return info.jit, info.jit_node
        layer = self.analysis.traces.rebinding_layer(fn)
        if layer is not None and layer.name == JIT:
            return layer.jit, layer.node
        entry = entered_jit(self.analysis, fn)
        return (entry.wrapper, entry.node) if entry is not None else (None, None)

    def _finding(
        self, info, jit: JitWrapper, node: cst.CSTNode, names: frozenset[str], numbers: frozenset[int]
    ) -> Finding:
        ctx = self.ctx
        anchor = next(
            (a for a in jit.call.args if a.keyword is not None and a.keyword.value in _KEYWORDS), jit.call
        )
        shown = ", ".join([*(f"`{n}`" for n in sorted(names)), *(f"position {n}" for n in sorted(numbers))])
        raised = "invalid argnames ... in static_argnames" if names else "static_argnums=..., but only accepts"
        head = (
            f"the jit of `{info.name}` makes {shown} static, which `{info.name}` does not take "
            f"(it takes {_taken(info.signature)}): jit raises when it wraps the function "
            f"(\"Jitted function has {raised}\")"
        )
        static = jit.spec.declared_static(info.signature)
        params = [p.name for p in info.signature.params if p.name not in static]
        near = {n: m[0] for n in names if (m := difflib.get_close_matches(n, params, n=1, cutoff=0.8))}
        if near:
            name, meant = next(iter(sorted(near.items())))
            return ctx.finding(
                CODE,
                anchor,
                f"{head}; not rewritten: `{name}` may mean the parameter `{meant}`",
                notes=(
                    f"option: `static_argnames=(..., {meant!r})` if `{meant}` must be static",
                    f"option: drop `{name}` if no parameter of that name is meant",
                ),
            )
        edit = StaticEditor(ctx).drop_entries(jit, node, info.signature, names, numbers)
        if isinstance(edit, str):
            return ctx.finding(CODE, anchor, f"{head}; not rewritten: {edit}")
        return ctx.finding(
            CODE,
            anchor,
            f"{head}; no call can pass what it does not take, so the entries go ({edit.description})",
            edit.edits,
            description=f"drop {shown} from the static arguments of `{info.name}`",
        )


def _taken(sig) -> str:
    names = [p.name for p in sig.params if p.kind not in (Kind.VAR_POSITIONAL, Kind.VAR_KEYWORD)]
    return ", ".join(f"`{n}`" for n in names) if names else "no parameters"


class UnknownStaticArgument406(Rule):
    """A jit names static arguments its function does not take.

    jit checks ``static_argnames`` and ``static_argnums`` against the function
    when it wraps it, and raises for a name that is no parameter or a position
    past the positional ones::

        @partial(jax.jit, static_argnames=("scale", "order", "bias"))
        def polynomial(x, y, *, p): ...
        # ValueError: Jitted function has invalid argnames {'scale', 'order', 'bias'} in static_argnames.

    No call can pass them, so they go (the keyword too when it empties)::

        @jax.jit
        def polynomial(x, y, *, p): ...

    A positional-only parameter named in ``static_argnames`` (jit raises "These
    are positional-only") is written by position: ``static_argnums=(1,)``.
    Reported: a name close to a parameter that is not static (``n_step`` for
    ``n_steps``), which may be a typo for it. Valid: a function with
    ``**kwargs`` (any name) or ``*args`` (any position), a keyword-only
    parameter named in ``static_argnames``.
    """

    code = CODE
    name = "unknown-static-argument"
    summary = "a jit names static arguments its function does not take (jit raises): drop them"
    required = (("jit",), ("static_argnums", "static_argnames"))

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The defs of the module (the jit that wraps each is found with its function)."""
        return [n for n in facts.nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return UnknownStatics(analysis).findings()

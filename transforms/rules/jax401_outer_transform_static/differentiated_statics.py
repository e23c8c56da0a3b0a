"""A parameter that ``grad`` differentiates and its jit declares static.

``jax.grad(f, argnums=(1, 2))`` hands ``f`` tracers at the positions it
differentiates; a jitted ``f`` that lists one of them in its static arguments
must hash that tracer, and fails ("Non-hashable static arguments are not
supported"; StackOverflow 79550040: ``omega`` static on a jitted solver and
differentiated). A value cannot be both a Python constant and a variable of
differentiation: since the call asks for its gradient, it leaves the static
arguments. Proven when nothing in ``f`` needs it concrete, except handing it to
a static parameter of a jitted helper in which nothing needs it concrete
either: that parameter leaves the helper's static arguments in the same fix
(JAX404 would otherwise speak for the helper, after the outer jit had failed).
Otherwise a report, with the choice: drop it from ``argnums``, or compute what
needs it concretely elsewhere.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.repairs.traced_parameter import entered_jit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value
from jaxfix.transforms.semantics.jit_wrappers import Target, function_info
from jaxfix.transforms.semantics.reads import parameter_reads
from jaxfix.transforms.semantics.static_slots import jitted_call

#: Differentiation transforms and where their ``argnums`` is written.
DIFFERENTIATING = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian"})


def argnums(ctx, call: cst.Call) -> tuple[int, ...] | None:
    """The positions ``grad(f, argnums=...)`` differentiates (0 when not written); None: unreadable."""
    if any(a.star for a in call.args):
        return None
    written = next((a for a in call.args if a.keyword is not None and a.keyword.value == "argnums"), None)
    positional = [a for a in call.args if a.keyword is None]
    if written is None and len(positional) > 1:
        written = positional[1]
    if written is None:
        return (0,)
    value = constant_value(ctx, written.value)
    items = value if isinstance(value, tuple) else (value,)
    if value is NOT_CONSTANT or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in items):
        return None
    return items  # type: ignore[return-value]


def differentiated_statics(analysis: Analysis, call: cst.Call, target: Target, spelled: str) -> Finding | None:
    """The finding for ``grad(f, ...)`` (`call`) of the jitted `target`, when it differentiates one
    of the jit's static parameters."""
    ctx = analysis.ctx
    positions = argnums(ctx, call)
    jit, jit_node = target.jit, target.jit_node
    if positions is None or jit is None or jit.spec is None or jit_node is None:
        return None
    sig = target.function.signature
    static = jit.spec.declared_static(sig)
    names = [sig.positional[i].name for i in positions if i < len(sig.positional) and sig.positional[i].name in static]
    if not names:
        return None
    fn = target.function.node
    shown = ", ".join(f"`{n}`" for n in names)
    head = (
        f"`{spelled}` differentiates {shown}, which the jit of `{target.function.name}` declares static: the "
        f"gradient needs {'it' if len(names) == 1 else 'them'} traced, and jit cannot hash a tracer"
    )
    uses = ConcreteUses(ctx)  # not strict: once traced, what jnp computes from it stays traced (as JAX404 reads it)
    helper_edits: list[Edit] = []
    for name in names:
        for read in parameter_reads(ctx, fn, name):
            use = uses.need_of(read, fn)
            if use is None or use.need is not Need.NEEDS:
                if use is not None and use.need is Need.UNKNOWN:
                    return _report(ctx, call, head, f"{use.reason}, which is not followed")
                continue
            edits = _helper_drop(analysis, uses, use.node, read) if use.static_parameter else None
            if edits is None:
                return _report(ctx, call, head, f"`{name}` {use.reason}")
            helper_edits.extend(e for e in edits if e not in helper_edits)
    outer = StaticEditor(ctx).drop_entries(jit, jit_node, sig, frozenset(names), frozenset())
    if isinstance(outer, str):
        return _report(ctx, call, head, outer)
    helpers = " (and those of the jitted helpers it is handed to)" if helper_edits else ""
    return ctx.finding(
        "JAX401",
        call,
        f"{head}; nothing needs {'it' if len(names) == 1 else 'them'} concrete, so {shown} "
        f"{'leaves' if len(names) == 1 else 'leave'} the static arguments{helpers}",
        (*outer.edits, *helper_edits),
        description=f"make {shown} traced on the jit of `{target.function.name}`",
        notes=("a traced argument compiles once per shape and dtype, not once per value",),
    )


def _helper_drop(analysis: Analysis, uses: ConcreteUses, node: cst.CSTNode, read: cst.CSTNode) -> list[Edit] | None:
    """The edits dropping the static parameter of the jitted helper call `node` that `read` fills,
    when nothing in the helper needs it concrete; None otherwise."""
    ctx = analysis.ctx
    if not isinstance(node, cst.Call):
        return None
    jitted = jitted_call(ctx, node)
    slot = next((s for s in jitted.slots if s.expr is read), None) if jitted is not None else None
    if jitted is None or slot is None or not slot.static:
        return None
    callee = jitted.target.function.node
    if uses.first_need(callee, slot.param) is not None:
        return None
    entry = entered_jit(analysis, callee)
    if entry is None or entry.wrapper.spec is None:
        return None
    edit = StaticEditor(ctx).drop(entry.wrapper, entry.node, function_info(ctx, callee).signature, slot.param)
    return None if isinstance(edit, str) else list(edit.edits)


def _report(ctx, call: cst.Call, head: str, why: str) -> Finding:
    return ctx.finding(
        "JAX401",
        call,
        f"{head}; not rewritten: {why}",
        notes=(
            "option: drop it from `argnums` if its gradient is not wanted (it then stays a Python value)",
            "option: make it a traced argument and compute what needs it concrete from a static value instead",
        ),
    )

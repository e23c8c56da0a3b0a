"""A function SciPy calls back, computing with jax.numpy while a trace runs.

``scipy.integrate.quad(fn, a, b)`` calls ``fn`` with Python floats and converts what
it returns with ``float()``. Written with jax.numpy and run while a jit traces (a
flax ``setup`` under ``jax.jit(model.init)``), every jnp call there is staged and
gives a tracer even of constants (docs/jax4xx-behaviour.md, B1), and SciPy's
conversion fails: ConcretizationTypeError (flax#2750). NumPy's twins
(`numpy_twins.TWINS`) compute the same values as concrete floats, which is what
SciPy takes:

    return jnp.exp(-x ** 2 / 2) / jnp.sqrt(2 * jnp.pi)
    ->
    return np.exp(-x ** 2 / 2) / np.sqrt(2 * np.pi)

Obligations, each refused (no finding) when not shown:

* the function is an undecorated def of the module holding no nested function,
  and every reference to it hands it to a SciPy routine's callback slot
  (`CALLBACKS`): SciPy is all that ever runs it, with its own float arguments;
* the SciPy call runs staged (`staged.runs_staged`): eagerly, jnp gives concrete
  arrays and the program works;
* every JAX name the function reads is a jax.numpy function with a NumPy twin,
  called, or one of jax.numpy's constants, and NumPy is spelled where each lands.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.numpy_twins import TWINS
from jaxfix.transforms.semantics.staged import runs_staged

#: SciPy routines that call a function of floats and need floats back: its position and keyword.
CALLBACKS: dict[str, tuple[int, str]] = {
    "scipy.integrate.quad": (0, "func"),
    "scipy.integrate.quad_vec": (0, "f"),
    "scipy.integrate.fixed_quad": (0, "func"),
    "scipy.optimize.minimize_scalar": (0, "fun"),
    "scipy.optimize.brentq": (0, "f"),
    "scipy.optimize.bisect": (0, "f"),
    "scipy.optimize.root_scalar": (0, "f"),
    "scipy.optimize.fsolve": (0, "func"),
}
#: jax.numpy's constants, the same floats as NumPy's.
_CONSTANTS = frozenset({"pi", "e", "inf", "nan", "euler_gamma"})
_JNP = "jax.numpy."


def callback_slot(ctx, call: cst.Call) -> cst.Arg | None:
    """The argument of a `CALLBACKS` call that holds the function SciPy calls."""
    entry = CALLBACKS.get(ctx.names.qualified_name(call.func) or "")
    if entry is None or any(a.star for a in call.args):
        return None
    position, keyword = entry
    positional = [a for a in call.args if a.keyword is None]
    if len(positional) > position:
        return positional[position]
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)


def jnp_in_scipy_callback(analysis: Analysis, call: cst.Call, code: str) -> Finding | None:
    """The finding for the SciPy call `call` whose callback computes with jax.numpy under a trace."""
    ctx = analysis.ctx
    slot = callback_slot(ctx, call)
    fn = plain_def(ctx, slot.value) if slot is not None else None
    if fn is None or not runs_staged(analysis, ctx.enclosing_function(call)):
        return None
    references = analysis.traces.references(fn)
    if not references or not all(_handed_to_scipy(ctx, ref) for ref in references):
        return None
    edits = _numpy_edits(analysis, fn)
    if not edits:
        return None
    scipy = ctx.code(call.func)
    return ctx.finding(
        code,
        slot.value,  # type: ignore[union-attr]
        f"`{fn.name.value}` is called back by `{shorten(scipy)}`, which needs Python floats from it, but it "
        "computes with jax.numpy while a trace runs, where jnp gives tracers (ConcretizationTypeError); "
        "SciPy is all that calls it, and NumPy's twins compute the same values as floats",
        edits,
        description=f"compute `{fn.name.value}` with NumPy",
    )


def _handed_to_scipy(ctx, ref: cst.CSTNode) -> bool:
    arg = ctx.parent(ref)
    call = ctx.parent(arg) if isinstance(arg, cst.Arg) else None
    return isinstance(call, cst.Call) and callback_slot(ctx, call) is arg


def _numpy_edits(analysis: Analysis, fn: cst.FunctionDef) -> tuple[Edit, ...]:
    """The edits swapping each jax.numpy name `fn` reads for NumPy's; () when a JAX name there
    has no NumPy twin, or `fn` holds a nested function."""
    ctx = analysis.ctx
    owned = ctx.written_in(fn)
    if any(isinstance(node, (cst.FunctionDef, cst.Lambda)) for node in owned):
        return ()
    edits: list[Edit] = []
    for node in owned:
        if not isinstance(node, (cst.Name, cst.Attribute)):
            continue
        parent = ctx.parent(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            continue  # a part of a longer chain (`jnp` of `jnp.exp`): the chain is judged
        qualified = ctx.names.qualified_name(node) or ""
        if not qualified.startswith("jax"):
            continue
        name = qualified[len(_JNP) :] if qualified.startswith(_JNP) else ""
        called = isinstance(parent, cst.Call) and parent.func is node
        if not ((called and name in TWINS) or (not called and name in _CONSTANTS)):
            return ()
        spelled = planner(analysis).spell(f"numpy.{name}", node)
        if spelled is None:
            return ()
        edits.append(ctx.replace(node, spelled.text))
        if spelled.edit is not None:
            edits.append(spelled.edit)
    return tuple(edits)  # `ctx.finding` drops the repeated import edit

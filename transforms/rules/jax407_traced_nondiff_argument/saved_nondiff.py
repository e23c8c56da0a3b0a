"""A custom_vjp's fwd saves a nondiff argument that is no JAX type in its residuals (jax#17753).

Residuals are a pytree of arrays: a function saved there fails ("... is not a
valid JAX type"). bwd is handed every nondiff argument anyway, first, in
``nondiff_argnums`` order, so the saved copy is not needed. The repair drops
it from fwd's residual tuple and from bwd's unpacking of them, where bwd
unpacks it under the name of its own parameter for that slot: each read then
sees bwd's parameter, the same object fwd was given. Shown only where a call
of the function passes that slot a function or an object jit cannot trace
(a saved Python number would be turned into an array, not rejected).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.edits.tuple_elements import without_element
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import own_returns, single_binding
from jaxfix.transforms.semantics.custom_vjp import NondiffFunction, slot_arguments
from jaxfix.transforms.semantics.python_values import PythonValue, ValueKind, python_value
from jaxfix.transforms.semantics.reads import parameter_reads


def _positional(fn: cst.FunctionDef) -> list[str]:
    return [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]


def _untraceable_at_a_call(analysis: Analysis, nd: NondiffFunction, position: int) -> str | None:
    """What a call passes the slot that is no JAX type: "`euler_integrator`, a function"."""
    for at, argument in slot_arguments(analysis.ctx, nd):
        value = python_value(analysis, argument) if at == position else None
        if isinstance(value, PythonValue) and (
            value.kind is ValueKind.CALLABLE or (value.kind is ValueKind.OBJECT and not value.may_trace)
        ):
            return value.text
    return None


def _residuals(fwd: cst.FunctionDef) -> cst.Tuple | None:
    """The residual tuple of fwd's one ``return primal, (a, b, ...)``."""
    returns = own_returns(fwd)
    value = returns[0].value if len(returns) == 1 else None
    if not isinstance(value, cst.Tuple) or len(value.elements) != 2:
        return None
    residuals = value.elements[1].value
    return residuals if isinstance(residuals, cst.Tuple) and all(isinstance(e, cst.Element) for e in residuals.elements) else None


def _unpacking(ctx, bwd: cst.FunctionDef, res: str) -> cst.Tuple | None:
    """bwd's one read of its residuals parameter, as the whole value of ``a, b, ... = res``."""
    reads = parameter_reads(ctx, bwd, res)
    if len(reads) != 1:
        return None
    assign = ctx.parent(reads[0])
    if not isinstance(assign, cst.Assign) or assign.value is not reads[0] or len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    if not isinstance(target, (cst.Tuple, cst.List)) or not all(
        isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements
    ):
        return None
    return target  # type: ignore[return-value]


def saved_nondiff_findings(analysis: Analysis, nd: NondiffFunction, code: str) -> list[Finding]:
    ctx = analysis.ctx
    fwd, bwd = nd.fwd, nd.bwd
    if fwd is None or bwd is None:
        return []
    residuals = _residuals(fwd)
    if residuals is None:
        return []
    fwd_params, bwd_params = _positional(fwd), _positional(bwd)
    if len(bwd_params) != len(nd.positions) + 2:
        return []
    out: list[Finding] = []
    for index, element in enumerate(residuals.elements):
        saved = element.value
        binding = single_binding(ctx, saved) if isinstance(saved, cst.Name) else None
        if not isinstance(binding, cst.Param) or ctx.enclosing_function(binding) is not fwd:
            continue
        position = fwd_params.index(binding.name.value) if binding.name.value in fwd_params else -1
        if position not in nd.positions:
            continue
        what = _untraceable_at_a_call(analysis, nd, position)
        if what is None:
            continue
        slot = bwd_params[nd.positions.index(position)]
        head = (
            f"`{fwd.name.value}` saves `{saved.value}`, an argument `nondiff_argnums` lists, in its residuals, and a "  # type: ignore[union-attr]
            f"call passes it {what}: residuals must be JAX types (\"is not a valid JAX type\")"
        )
        unpacked = _unpacking(ctx, bwd, bwd_params[-2])
        names = [e.value.value for e in unpacked.elements] if unpacked is not None else []  # type: ignore[union-attr]
        if unpacked is None or len(names) != len(residuals.elements) or names[index] != slot:
            out.append(ctx.finding(
                code,
                saved,
                f"{head}; not rewritten: `{bwd.name.value}` does not read it back as its own `{slot}`",
                notes=(f"option: drop it from the residuals: `{bwd.name.value}` is handed it first, as `{slot}`",),
            ))
            continue
        out.append(ctx.finding(
            code,
            saved,
            f"{head}; `{bwd.name.value}` is handed it anyway, as `{slot}`, so it leaves the residuals and "
            f"`{bwd.name.value}`'s unpacking of them",
            (without_element(ctx, residuals, index), without_element(ctx, unpacked, index)),  # type: ignore[arg-type]
            description=f"keep `{saved.value}` out of the residuals",  # type: ignore[union-attr]
        ))
    return out

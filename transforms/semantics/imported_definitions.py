"""Names a module imports from the project's other modules, followed to their definitions.

A libcst name that is bound by an import (``from .model import step``,
``import pkg.model as m`` then ``m.step``) is resolved through the
`Repository` the engine gave the module's context; a jitted function found
there becomes a `callables.Target` like a local one, built from the defining
module's summary (signature and static arguments), with no libcst node.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from jaxfix.transforms.project.repo_index import JittedSummary
from jaxfix.transforms.project.repository import Definition, module_attribute, resolve
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.jit_signature import Kind, Param, Signature, StaticSpec
from jaxfix.transforms.semantics.jit_wrappers import FunctionInfo, JitWrapper, MethodKind, Target
from jaxfix.transforms.semantics.module import ModuleContext

_KINDS = {
    "posonly": Kind.POSITIONAL_ONLY,
    "pos": Kind.POSITIONAL_OR_KEYWORD,
    "vararg": Kind.VAR_POSITIONAL,
    "kwonly": Kind.KEYWORD_ONLY,
    "varkw": Kind.VAR_KEYWORD,
}


def definition_of(ctx: ModuleContext, expr: cst.BaseExpression, _depth: int = 0) -> Definition | None:
    """Where the project defines what `expr` names, when an import brings it in."""
    repo, ref = ctx.repo, ctx.ref
    if repo is None or ref is None or _depth > 8:
        return None
    if isinstance(expr, cst.Attribute):
        base = definition_of(ctx, expr.value, _depth + 1)
        return module_attribute(repo, base, expr.attr.value) if base is not None else None  # type: ignore[arg-type]
    if not isinstance(expr, cst.Name):
        return None
    binding = single_binding(ctx, expr)
    if isinstance(binding, cst.ImportFrom):
        if isinstance(binding.names, cst.ImportStar):
            return None
        module = get_full_name_for_node(binding.module) if binding.module is not None else ""
        for alias in binding.names:
            if (alias.evaluated_alias or alias.evaluated_name) == expr.value:
                return resolve(repo, ref, module or "", alias.evaluated_name, len(binding.relative))  # type: ignore[arg-type]
        return None
    if isinstance(binding, cst.Import):
        for alias in binding.names:
            if alias.asname is not None and alias.evaluated_alias == expr.value:
                return resolve(repo, ref, alias.evaluated_name, None, 0)  # type: ignore[arg-type]
            if alias.asname is None and alias.evaluated_name.split(".")[0] == expr.value:
                return resolve(repo, ref, expr.value, None, 0)  # type: ignore[arg-type]
    return None


def signature_of(summary: JittedSummary) -> Signature:
    return Signature(tuple(Param(p.name, _KINDS[p.kind], p.default) for p in summary.params))


def external_target(ctx: ModuleContext, expr: cst.BaseExpression) -> Target | None:
    """The jitted function of another project module that `expr` names, as a Target."""
    definition = definition_of(ctx, expr)
    if definition is None:
        return None
    summary = definition.jitted(ctx.repo)  # type: ignore[arg-type]
    if summary is None or not summary.readable:
        return None
    spec = StaticSpec(summary.argnums, summary.argnames)
    info = FunctionInfo(
        None,  # type: ignore[arg-type]
        summary.name,
        signature_of(summary),
        MethodKind.FUNCTION,
        JitWrapper(spec, None),
        False,
        None,
        definition.module,
        summary.function or summary.name,
    )
    return Target(info, info.jit, None, implicit_self=False)

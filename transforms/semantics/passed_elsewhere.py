"""What other modules of the project pass a jitted function's parameter.

JAX402 proves a static parameter an int from every call of its jitted
function, and JAX403 makes a static parameter traced when no call needs it
static; calls in other modules (``from .model import step``) count as much as
this module's own. Each is handed back with the module it is in, so the rule
reads the argument with that module's analysis. Without a project there are
none: the module is the whole program.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.importers import UsesIn, calls_elsewhere, exported_name, jitted_name
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument


@dataclass(frozen=True)
class PassedElsewhere:
    uses: UsesIn
    call: cst.Call
    #: The argument, `tracedness.DEFAULT` when the call leaves the parameter to its default, None: cannot tell.
    argument: cst.BaseExpression | object | None

    @property
    def where(self) -> str:
        return f"the call in `{self.uses.module.name}` (line {self.uses.line(self.call)})"

    @property
    def analysis(self):
        return self.uses.analysis


def passed_elsewhere(ctx: ModuleContext, fn: FunctionNode, jit_node: cst.CSTNode | None, param: str) -> list[PassedElsewhere] | str:
    """Every other module's argument for `param` of the jitted `fn` (`jit_node` None: of the def
    itself, called as written); else why they cannot all be seen."""
    if ctx.repo is None:
        return []
    exported = exported_name(ctx, fn) if jit_node is None else jitted_name(ctx, fn, jit_node)
    if exported is None:
        return []
    calls = calls_elsewhere(ctx, exported)
    if isinstance(calls, str):
        return calls
    info = function_info(ctx, fn)
    out = []
    for other in calls:
        argument = call_argument(other.call, info.signature, param, bound=False)
        out.append(PassedElsewhere(other.uses, other.call, argument))
    return out


def local_routes(analysis, fn: FunctionNode):
    """The module's own routes into `fn`, or None when they cannot be listed.

    A function the module never names has one synthetic route, "used from
    elsewhere"; in a project, `passed_elsewhere` lists those uses, so it
    stands for none here. The routes that start from code of this module stay
    (``DiscreteUniform(1, 3)`` runs ``__init__``, which nothing names).
    """
    routes = analysis.traces.routes(fn)
    if routes is None:
        return None
    if analysis.ctx.repo is not None and analysis.traces.references(fn) == []:
        return tuple(r for r in routes if r.ref is not None)
    return routes


__all__ = ["DEFAULT", "PassedElsewhere", "local_routes", "passed_elsewhere"]

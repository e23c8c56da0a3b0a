"""What every call passes a parameter: values flow from callers into a function.

A parameter holds what its callers pass. Where every use the module makes of
a function is a plain call (no jit, vmap or other layer around it, nothing
that stores or returns it), those calls are all there is, and a rule may
reason about the parameter from their arguments (a default where a call
leaves it out): ``main()`` called only with its defaults makes ``vocab_size``
the int ``32``. Anything else answers None: the callers cannot all be seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis

#: At most this many calls are followed for one parameter (each is judged on its own).
MAX_CALLERS = 8


def passed_to(analysis: Analysis, param: cst.Param) -> list[cst.BaseExpression] | None:
    """The expression every call passes `param` (its default where a call leaves it out), in
    source order; None when some use of its function is not a plain call we can read."""
    ctx = analysis.ctx
    fn = ctx.parent(ctx.parent(param))
    if not isinstance(fn, cst.FunctionDef):
        return None
    routes = analysis.traces.routes(fn)
    if not routes or len(routes) > MAX_CALLERS:
        return None
    info = function_info(ctx, fn)
    out: list[cst.BaseExpression] = []
    for route in routes:
        if route.wraps or route.call is None or route.escapes or route.uncertain:
            return None
        argument = call_argument(route.call, info.signature, param.name.value, bound=route.bound, consumed=route.consumed)
        if argument is DEFAULT:
            if param.default is None:
                return None
            argument = param.default
        if not isinstance(argument, cst.BaseExpression):
            return None
        out.append(argument)
    return out


def passed_keywords(analysis: Analysis, param: cst.Param) -> list[cst.BaseExpression] | None:
    """For the ``**kwargs`` parameter `param`: the value of every keyword argument every call
    passes it (those no other parameter takes), in source order; None when some use of its
    function is not a plain call we can read, or a call unpacks ``**`` or ``*``."""
    ctx = analysis.ctx
    fn = ctx.parent(ctx.parent(param))
    if not isinstance(fn, cst.FunctionDef) or fn.params.star_kwarg is not param:
        return None
    routes = analysis.traces.routes(fn)
    if not routes or len(routes) > MAX_CALLERS:
        return None
    named = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
    out: list[cst.BaseExpression] = []
    for route in routes:
        if route.wraps or route.call is None or route.escapes or route.uncertain:
            return None
        if any(a.star for a in route.call.args):
            return None
        out.extend(a.value for a in route.call.args if a.keyword is not None and a.keyword.value not in named)
    return out

"""A ``custom_vjp`` function with ``nondiff_argnums``, and the fwd and bwd its ``defvjp`` names.

Read from the module as written: the decorator ``@partial(jax.custom_vjp,
nondiff_argnums=(0,))`` (under a ``@staticmethod`` too), a literal int or tuple
of ints, and one ``f.defvjp(fwd, bwd)`` call whose two arguments are defs of
the module (``Model.fwd`` for staticmethods). Anything else is not read
(None): the rule then stays silent rather than guess which slots are which.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.constants import NOT_CONSTANT, class_members, constant_value, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.sinks import Follower
from jaxfix.transforms.semantics.vocabulary import PARTIAL

CUSTOM_VJP = "jax.custom_vjp"


@dataclass(frozen=True)
class NondiffFunction:
    function: cst.FunctionDef
    #: The ``partial(jax.custom_vjp, ...)`` call of the decorator.
    decorator: cst.Call
    #: The ``nondiff_argnums=`` argument of it.
    option: cst.Arg
    positions: tuple[int, ...]
    #: The ``f.defvjp(fwd, bwd)`` call and the two defs, when the module shows them.
    defvjp: cst.Call | None
    fwd: cst.FunctionDef | None
    bwd: cst.FunctionDef | None


def nondiff_function(ctx: ModuleContext, fn: cst.FunctionDef) -> NondiffFunction | None:
    """`fn` read as a custom_vjp with nondiff_argnums, or None."""
    decorators = [d for d in fn.decorators if ctx.names.qualified_name(d.decorator) != "builtins.staticmethod"]
    if len(decorators) != 1 or (len(fn.decorators) == 2 and fn.decorators[0] is decorators[0]):
        return None  # one decorator, under a staticmethod at most
    for decorator in decorators:
        call = decorator.decorator
        if not isinstance(call, cst.Call) or ctx.names.qualified_name(call.func) != PARTIAL or not call.args:
            continue
        if ctx.names.qualified_name(call.args[0].value) != CUSTOM_VJP:
            continue
        option = next((a for a in call.args[1:] if a.keyword is not None and a.keyword.value == "nondiff_argnums"), None)
        if option is None or len(call.args) != 2:
            return None
        positions = nondiff_positions(ctx, option)
        if positions is None:
            return None
        defvjp, fwd, bwd = vjp_rules(ctx, fn)
        return NondiffFunction(fn, call, option, tuple(sorted(set(positions))), defvjp, fwd, bwd)
    return None


def nondiff_positions(ctx: ModuleContext, option: cst.Arg) -> tuple[int, ...] | None:
    """The positions ``nondiff_argnums=`` lists (custom_vjp's or custom_jvp's), when it is a literal
    int or tuple of non-negative ints; None otherwise."""
    value = constant_value(ctx, option.value)
    positions = (value,) if isinstance(value, int) else value if isinstance(value, tuple) else NOT_CONSTANT
    if positions is NOT_CONSTANT or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in positions):  # type: ignore[union-attr]
        return None
    return positions  # type: ignore[return-value]


def vjp_rules(ctx: ModuleContext, fn: cst.FunctionDef) -> tuple[cst.Call | None, cst.FunctionDef | None, cst.FunctionDef | None]:
    """The one ``fn.defvjp(fwd, bwd)`` call of the module, and the fwd and bwd defs it names."""
    found = []
    for attribute in ctx.attributes_named("defvjp"):
        call = ctx.parent(attribute)
        if defined_function(ctx, attribute.value) is fn and isinstance(call, cst.Call):
            found.append(call)
    if len(found) != 1:
        return None, None, None
    call = found[0]
    if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args):
        return call, None, None
    fwd, bwd = (defined_function(ctx, a.value) for a in call.args)
    return call, fwd, bwd


def defined_function(ctx: ModuleContext, expr: cst.BaseExpression) -> cst.FunctionDef | None:
    """The def of the module `expr` names: ``f`` bound once to it, or ``Model.f`` of a staticmethod."""
    if isinstance(expr, cst.Name):
        bound = single_binding(ctx, expr)
        return bound if isinstance(bound, cst.FunctionDef) else None
    if isinstance(expr, cst.Attribute):
        members = class_members(ctx, expr)  # `Model.f`: a staticmethod, whatever else decorates it
        member = members[0] if members and len(members) == 1 else None
        if isinstance(member, cst.FunctionDef) and any(
            ctx.names.qualified_name(d.decorator) == "builtins.staticmethod" for d in member.decorators
        ):
            return member
    return None


def references(ctx: ModuleContext, fn: cst.FunctionDef) -> list[cst.BaseExpression]:
    """Every ``f`` or ``Model.f`` of the module that names `fn`."""
    found: list[cst.BaseExpression] = []
    scope = ctx.scope(fn)
    for assignment in scope.assignments[fn.name.value] if scope is not None else ():
        found.extend(a.node for a in assignment.references if isinstance(a.node, cst.Name))
    found.extend(a for a in ctx.attributes_named(fn.name.value) if defined_function(ctx, a) is fn)
    return found


def slot_arguments(ctx: ModuleContext, nd: NondiffFunction) -> Iterator[tuple[int, cst.BaseExpression]]:
    """(position, argument) for each nondiff slot each call of the function in the module fills
    (a call leaving a slot to its default, or filling it by ``*args``, gives nothing there)."""
    signature = function_info(ctx, nd.function).signature
    params = signature.positional
    for reference in references(ctx, nd.function):
        call = ctx.parent(reference)
        if not isinstance(call, cst.Call) or call.func is not reference:
            continue
        for position in nd.positions:
            if position >= len(params):
                continue
            arg = call_argument(call, signature, params[position].name, bound=False, ctx=ctx)
            if isinstance(arg, cst.BaseExpression):
                yield position, arg


def nondiff_parameter(ctx: ModuleContext, fn: cst.FunctionDef, param: str) -> bool:
    """`param` of `fn` fills a ``nondiff_argnums`` slot of its custom_vjp: it is never a tracer
    where the function runs (custom_vjp raises at a call that passes one: JAX407's finding)."""
    if not fn.decorators:
        return False
    read = nondiff_function(ctx, fn)
    if read is None:
        return False
    positional = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    return param in positional and positional.index(param) in read.positions


def python_value_needed(ctx: ModuleContext, param: cst.Param) -> str | None:
    """Where a read of `param` needs a Python value (a size, an ``if``, a call of it), or that it is
    bound again; None when it is only used as data, which a tracer serves as well."""
    scope = ctx.scope(param.name)
    if scope is None or len(scope.assignments[param.name.value]) != 1:
        return f"`{param.name.value}` is bound again"
    follower = Follower(ctx, through_indexing=True)
    for read in reads(ctx, param.name):
        parent = ctx.parent(read)
        if isinstance(parent, cst.Call) and parent.func is read:
            return f"`{ctx.code(parent)}` calls it"
        sink = next(iter(follower.follow(read).sinks), None)
        if sink is not None:
            return f"{sink.reason} (line {ctx.span(sink.node).start.line})"
    return None


def plain_positional(fn: cst.FunctionDef, *, undecorated: bool = True) -> list[cst.Param] | None:
    """The parameters of a def that takes positional ones only (no ``*``, keyword-only or ``**``);
    `undecorated` (fwd and bwd): no defaults either, and no decorator but ``@staticmethod``."""
    params = fn.params
    if params.posonly_params or params.kwonly_params or params.star_kwarg or not isinstance(params.star_arg, cst.MaybeSentinel):
        return None
    if undecorated:
        staticmethod_only = all(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod" for d in fn.decorators)
        if any(p.default is not None for p in params.params) or not staticmethod_only:
            return None
    return list(params.params)


def named_only_by(ctx: ModuleContext, fn: cst.FunctionDef, call: cst.Call) -> bool:
    """`fn` is named once in the module, as an argument of `call` (fwd and bwd in ``defvjp``)."""
    refs = references(ctx, fn)
    return len(refs) == 1 and ctx.parent(ctx.parent(refs[0])) is call


@dataclass(frozen=True)
class VjpSignatures:
    """The parameters of a custom_vjp function, its fwd and its bwd, which line up: fwd takes the
    function's, bwd the nondiff ones, the residuals and the cotangent."""

    fwd: cst.FunctionDef
    bwd: cst.FunctionDef
    primal: list[cst.Param]
    fwd_params: list[cst.Param]
    bwd_params: list[cst.Param]


def vjp_signatures(ctx: ModuleContext, fn: cst.FunctionDef, listed: tuple[int, ...]) -> VjpSignatures | str:
    """`fn`'s fwd and bwd read as an edit of them needs them (`listed`: the positions in
    ``nondiff_argnums`` now): one ``defvjp`` naming two defs of the module used nowhere else, plain
    positional signatures that line up; else why not."""
    defvjp, fwd, bwd = vjp_rules(ctx, fn)
    if defvjp is None or fwd is None or bwd is None:
        return "the module does not show one `defvjp(fwd, bwd)` with two defs of its own"
    if not (named_only_by(ctx, fwd, defvjp) and named_only_by(ctx, bwd, defvjp)):
        return "fwd or bwd is used elsewhere, where the new signature of bwd would not be seen"
    primal = plain_positional(fn, undecorated=False)
    fwd_params, bwd_params = plain_positional(fwd), plain_positional(bwd)
    if primal is None or fwd_params is None or bwd_params is None:
        return "a signature has defaults, `*args`, keyword-only parameters or decorators"
    n = len(primal)
    if len(fwd_params) != n or len(bwd_params) != len(listed) + 2 or any(p >= n for p in listed):
        return "the parameters of fwd and bwd do not line up with those of the function"
    return VjpSignatures(fwd, bwd, primal, fwd_params, bwd_params)

"""Which argument of a call reaches which parameter of the function it runs.

`call_argument` binds a call's arguments as Python does (`jit_signature.bind_call`), for a
route's call (`tracing.Route`): a bound method's receiver fills no argument, and an entry may
take some arguments for itself (`Consumed`: ``tree_map``'s function, flax ``apply``'s
``rngs=``). The trace index and every value question below it read calls through this one
binding, so none re-implements it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.jit_signature import BindError, Signature, StaticSpec, bind_call
from jaxfix.transforms.semantics.module import ModuleContext


@dataclass(frozen=True)
class Consumed:
    """The arguments of a route's call that its entry takes for itself, and never hands to the
    function: ``tree_map(f, tree)`` takes `f` (one leading positional) and ``is_leaf=``;
    flax's ``model.apply(variables, x, rngs=...)`` takes ``rngs=`` (its variables fill `self`'s slot)."""

    leading: int = 0
    keywords: frozenset[str] = frozenset()
    #: The function receives the leaves of what the call passes (``tree_map``), not the values:
    #: a tracer in a traced tree, but no value a call argument shows (a tuple of arrays gives arrays).
    leaves: bool = False


NOTHING_CONSUMED = Consumed()


#: What `call_argument` gives for a parameter the call leaves to its default.
DEFAULT = object()


def call_argument(
    call: cst.Call,
    sig: Signature,
    param: str,
    *,
    bound: bool,
    ctx: ModuleContext | None = None,
    consumed: Consumed = NOTHING_CONSUMED,
    leaves: bool = False,
) -> cst.BaseExpression | object | None:
    """The expression a call passes to `param`; DEFAULT when it passes none; None: cannot tell.

    `bound`: the call runs a bound method (``obj.m(...)``, ``jax.jit(obj.m)(...)``),
    whose first parameter is the receiver, not one of the call's arguments. With `ctx`,
    ``**kw`` is read as the keywords of the dict it unpacks (`unpacked_keywords`).
    `consumed`: what the entry takes for itself (`Consumed`: ``tree_map``'s function,
    flax's ``apply(..., rngs=...)``), which never reaches the function. Where the function is
    handed the leaves of each argument (``tree_map``), the argument is no value of the parameter:
    None, unless the caller asks only what the leaves come from (`leaves`: tracedness).
    """
    if consumed.leaves and not leaves:
        return None
    unpack = (lambda value: unpacked_keywords(ctx, value)) if ctx is not None else None
    return bind_argument(call, sig, param, bound=bound, consumed=consumed, unpack=unpack)


#: How `bind_argument` reads a ``**value`` of a call: its keywords, or None where they cannot be seen.
Unpack = Callable[[cst.BaseExpression], "dict[str, cst.BaseExpression] | None"]


def bind_argument(
    call: cst.Call,
    sig: Signature,
    param: str,
    *,
    bound: bool,
    consumed: Consumed = NOTHING_CONSUMED,
    unpack: Unpack | None = None,
) -> cst.BaseExpression | object | None:
    """`call_argument`'s binding, each ``**value`` read by `unpack` (none read without it)."""
    unpacked: dict[str, cst.BaseExpression] = {}
    unseen_keywords = False
    for a in call.args:
        if a.star == "**" and unpack is not None and (found := unpack(a.value)) is not None:
            if set(found) & set(unpacked):
                return None
            unpacked.update(found)
        elif a.star == "**":
            unseen_keywords = True
        elif a.star:
            return None
    positional = [a.value for a in call.args if a.keyword is None and not a.star][consumed.leading :]
    if unseen_keywords:
        # `fn(step, **kwargs)`: the keywords are unknown, but a positional argument fills its slot
        # (were `kwargs` to hold that name too, Python would raise "got multiple values").
        return _positional_only(sig, param, positional, bound)
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None and a.keyword.value not in consumed.keywords}  # type: ignore[union-attr]
    if set(unpacked) & set(keywords):
        return None  # Python raises "got multiple values"
    keywords.update(unpacked)
    slots: list[object] = [None] if bound else []
    slots.extend(range(len(positional)))
    try:
        bound_args = bind_call(sig, StaticSpec(), slots, {k: k for k in keywords})  # type: ignore[arg-type]
    except BindError:
        return None
    if param not in bound_args:
        return DEFAULT
    source = bound_args[param].source
    if isinstance(source, int):
        return positional[source]
    if isinstance(source, str):
        return keywords[source]
    return None


def _positional_only(sig: Signature, param: str, positional: list[cst.BaseExpression], bound: bool) -> cst.BaseExpression | None:
    """What the call's positional arguments hand `param`; None where they do not reach it."""
    names = [p.name for p in sig.positional][1 if bound else 0 :]
    if sig.has_var_positional and len(positional) > len(names):
        return None
    index = names.index(param) if param in names else len(positional)
    return positional[index] if index < len(positional) else None


def unpacked_keywords(ctx: ModuleContext, expr: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    """``f(x, **kw)``: the keywords ``kw`` hands the call, when it is a name bound once to a dict
    written out with string keys (``{"temperature": 0.7}`` or ``dict(temperature=0.7)``) and
    every use of it is such an unpacking, so nothing changes it on the way; else None."""
    if not isinstance(expr, cst.Name):
        return None
    binding = single_binding(ctx, expr)
    value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    found = written_keywords(ctx, value) if value is not None else None
    if found is None:
        return None
    scope = ctx.scope(binding)
    for assignment in scope[expr.value] if scope is not None else ():
        for access in assignment.references:
            arg = ctx.parent(access.node)
            if not (isinstance(arg, cst.Arg) and arg.star == "**" and arg.value is access.node):
                return None
    return found


def written_keywords(ctx: ModuleContext, value: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    """The keywords a dict written out with string keys holds: ``{"temperature": 0.7}`` or
    ``dict(temperature=0.7)``; None for any other expression."""
    found: dict[str, cst.BaseExpression] = {}
    if isinstance(value, cst.Dict):
        for element in value.elements:
            key = element.key if isinstance(element, cst.DictElement) else None
            if not isinstance(key, cst.SimpleString) or not _plain_key(key):
                return None
            found[key.evaluated_value] = element.value  # type: ignore[index,union-attr]
        return found
    if isinstance(value, cst.Call) and ctx.names.qualified_name(value.func) == "builtins.dict":
        if any(a.keyword is None for a in value.args):
            return None
        return {a.keyword.value: a.value for a in value.args}  # type: ignore[union-attr]
    return None


def _plain_key(key: cst.SimpleString) -> bool:
    """A string key that is a valid parameter name once evaluated."""
    value = key.evaluated_value
    return isinstance(value, str) and value.isidentifier()

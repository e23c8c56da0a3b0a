"""``fn(x, **self.kwargs)``: the keywords an object keeps for the calls it makes.

openpi's policy (openpi#550) keeps ``self._sample_kwargs = sample_kwargs or {}`` from its
constructor and calls ``self._sample_actions(rng, obs, **self._sample_kwargs)``: each
instance passes the keywords its own construction gave, so a call has one set of keywords
per construction. `argument_variants` reads such a call once per construction, where

* the attribute is set once in ``__init__``, read only by its class's methods and held by
  instances whose every use is seen (`instance_attributes.read_attribute`), and every read
  is a ``**`` unpacking, so nothing changes the dict on the way;
* ``__init__`` stores one of its parameters as it is, or ``param or {}`` (also with
  ``dict()``), or ``{} if param is None else param``;
* the class is built only by calls the module shows (`class_hashing.constructions`), each
  passing that parameter a dict written out with string keys, or None where the stored
  expression makes that an empty dict, or leaving it to such a default.

Anything else: no variants, and the call's keywords stay unseen.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.class_hashing import constructions
from jaxfix.transforms.semantics.constants import members_named, single_binding
from jaxfix.transforms.semantics.instance_attributes import read_attribute
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.passed_arguments import (
    DEFAULT,
    NOTHING_CONSUMED,
    Consumed,
    bind_argument,
    call_argument,
    unpacked_keywords,
    written_keywords,
)
from jaxfix.transforms.semantics.reads import parameter

#: One construction's keywords: the names and the values it writes for them.
Keywords = dict[str, cst.BaseExpression]


def argument_variants(
    ctx: ModuleContext,
    call: cst.Call,
    sig: Signature,
    param: str,
    *,
    bound: bool,
    consumed: Consumed = NOTHING_CONSUMED,
) -> list[cst.BaseExpression | object | None]:
    """What the call passes `param`, as `call_argument` answers: one answer, or one per
    construction of the object whose ``**self.kwargs`` the call unpacks (see the module docstring)."""
    kept = [(a.value, found) for a in call.args if a.star == "**" and (found := keyword_variants(ctx, a.value)) is not None]
    if len(kept) != 1:
        return [call_argument(call, sig, param, bound=bound, ctx=ctx, consumed=consumed)]
    value, variants = kept[0]
    answers: list[cst.BaseExpression | object | None] = []
    for keywords in variants:

        def unpack(expr: cst.BaseExpression, keywords: Keywords = keywords) -> Keywords | None:
            return keywords if expr is value else unpacked_keywords(ctx, expr)

        answers.append(bind_argument(call, sig, param, bound=bound, consumed=consumed, unpack=unpack))
    return answers


def keyword_variants(ctx: ModuleContext, expr: cst.BaseExpression) -> list[Keywords] | None:
    """The keywords ``self.<name>`` holds, one dict per construction of its class, in the order
    the constructions are written; None where that cannot be shown."""
    if not isinstance(expr, cst.Attribute):
        return None
    attribute = read_attribute(ctx, expr)
    if attribute is None or not all(_unpacked(ctx, read) for read in attribute.reads):
        return None
    inits = members_named(attribute.cls, "__init__")
    init = inits[0] if len(inits) == 1 and isinstance(inits[0], cst.FunctionDef) else None
    kept = _kept_parameter(ctx, attribute.value) if init is not None else None
    made = constructions(ctx, attribute.cls) if kept is not None else None
    if not made or init is None or kept is None:
        return None
    read, none_is_empty = kept
    name = read.value
    declared = parameter(init, name)
    if declared is None or declared.star or single_binding(ctx, read) is not declared:
        return None
    signature = function_info(ctx, init).signature
    variants: list[Keywords] = []
    for call in made:
        passed = call_argument(call, signature, name, bound=True, ctx=ctx)
        if passed is DEFAULT:
            passed = declared.default
        if not isinstance(passed, cst.BaseExpression):
            return None
        if isinstance(passed, cst.Name) and passed.value == "None":
            if not none_is_empty:
                return None
            variants.append({})
            continue
        found = written_keywords(ctx, passed)
        if found is None:
            return None
        variants.append(found)
    return variants


def _unpacked(ctx: ModuleContext, read: cst.Attribute) -> bool:
    arg = ctx.parent(read)
    return isinstance(arg, cst.Arg) and arg.star == "**" and arg.value is read


def _kept_parameter(ctx: ModuleContext, value: cst.BaseExpression) -> tuple[cst.Name, bool] | None:
    """(the read of the parameter, whether None becomes an empty dict) for the expressions
    ``__init__`` may store: ``param``, ``param or {}``, ``param or dict()``,
    ``{} if param is None else param``."""
    if isinstance(value, cst.Name):
        return value, False
    if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
        if isinstance(value.left, cst.Name) and _empty_dict(ctx, value.right):
            return value.left, True
        return None
    if isinstance(value, cst.IfExp) and isinstance(value.test, cst.Comparison) and len(value.test.comparisons) == 1:
        test = value.test
        target = test.comparisons[0]
        if not (isinstance(test.left, cst.Name) and isinstance(target.comparator, cst.Name) and target.comparator.value == "None"):
            return None
        name = test.left.value
        if isinstance(target.operator, cst.Is):
            empty, kept = value.body, value.orelse
        elif isinstance(target.operator, cst.IsNot):
            kept, empty = value.body, value.orelse
        else:
            return None
        if _empty_dict(ctx, empty) and isinstance(kept, cst.Name) and kept.value == name:
            return kept, True
    return None


def _empty_dict(ctx: ModuleContext, value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Dict):
        return not value.elements
    return isinstance(value, cst.Call) and not value.args and ctx.names.qualified_name(value.func) == "builtins.dict"

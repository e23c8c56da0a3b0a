"""Make parameters static on their jit, when every call passes a hashable Python value.

The strategy JAX301 first proved for loop counts, for any parameter jit
traces but the program needs as a Python value (JAX302): a size, a Python
condition, a function the body calls, an object whose methods it uses. Its
proof obligations, checked on the model:

* every way into the function is a call through the one jit being edited
  (decorator, ``g = jax.jit(f)``, inline): no vmap or grad around it (a
  mapped value differs per example and cannot be static), no reference that
  escapes where its arguments cannot be seen, no bound-method jit (its
  argnums count without ``self``);
* every call, in this module and in the project's others, passes each
  parameter a hashable Python value (`semantics.python_values`), or leaves
  it to its default, which must be one too;
* the jit's static arguments are written where they can be edited in the
  jit's own spelling (`edits.static_arguments`).

Each distinct value then compiles once (docs/jax302-behaviour.md); the plan
says what every call passes, for the message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit, shorten
from jaxfix.transforms.core.identifiers import Names, names
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.repairs.returned_function_jit import returned_function
from jaxfix.transforms.repairs.static_branch_choice import static_choices
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin, one_concrete_int
from jaxfix.transforms.semantics.class_hashing import instance_class
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.importers import CallElsewhere, calls_elsewhere, jitted_name
from jaxfix.transforms.semantics.instance_keywords import argument_variants
from jaxfix.transforms.semantics.jit_signature import Param, Signature
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.python_values import NotStatic, PythonValue, ValueKind, python_value
from jaxfix.transforms.semantics.reads import parameter, parameter_reads
from jaxfix.transforms.semantics.staged import runs_staged
from jaxfix.transforms.semantics.tracing import STAGING_METHODS, Route, Wrap
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, JIT, PARTIAL

#: How a plan judges one argument: its kind, or why it is refused.
Judge = Callable[[Analysis, cst.BaseExpression], "PythonValue | NotStatic"]


@dataclass(frozen=True)
class Passed:
    """What one call passes one parameter."""

    param: str
    value: PythonValue
    #: "line 39", "`pkg.train` line 12", "its default".
    where: str


@dataclass(frozen=True)
class StaticPlan:
    edits: tuple[Edit, ...]
    #: The jit as it reads after the edit.
    jit_text: str
    passed: tuple[Passed, ...]
    #: An import the edit adds, for the message.
    added: str | None
    #: The jit that is edited.
    jit: Wrap
    #: What the finding says of edits a strategy adds to the plan's own (`dataclasses.replace`).
    notes: tuple[str, ...] = ()
    #: A call's concrete one-integer array is made a Python int there (`item_at_call`): unsafe.
    converted: bool = False


def plan_static_parameters(
    analysis: Analysis, fn: FunctionNode, params: Names, judge: Judge = python_value, *, items: bool = False
) -> StaticPlan | str:
    """Edits making `params` static on fn's jit; else why that is not proven. With `items`, a call
    passing a concrete array of one integer to a parameter read only where a value is needed
    concrete passes its ``.item()`` instead (`item_at_call`)."""
    params = names(params)
    ctx = analysis.ctx
    returned = returned_function(ctx, fn)
    if returned is not None:
        return (
            f"it returns a function (`{shorten(ctx.code(returned), 40)}`), which jit cannot return whatever is "
            "static: jit the function it returns instead, or call it unjitted"
        )
    info = function_info(ctx, fn)
    passed: list[Passed] = []
    converted: list[Edit] = []

    def each_call(route: Route) -> str | None:
        line = ctx.span(route.call).start.line
        for param in params:
            answers = argument_variants(analysis.ctx, route.call, info.signature, param, bound=route.bound, consumed=route.consumed)
            for argument in answers:
                where = f"line {line}"
                if len(answers) > 1 and isinstance(argument, cst.BaseExpression):
                    where = f"line {ctx.span(argument).start.line}, unpacked on line {line}"
                found = _judge_argument(analysis, fn, param, argument, judge, where)
                item = item_at_call(analysis, route.call, argument) if isinstance(found, str) and items else None
                if item is not None and only_needed_concrete(analysis, fn, param):
                    converted.append(item[0])
                    found = Passed(param, PythonValue(ValueKind.NUMBER, item[1]), where)
                if isinstance(found, str):
                    return f"the call on line {line} {found}"
                passed.append(found)
        return None

    entry = through_jits(analysis, fn, each_call, ", so its arguments may differ per call it makes", params)
    if isinstance(entry, str):
        return entry
    jits, elsewhere = entry
    for other in elsewhere:
        where = f"`{other.uses.module.name}` (line {other.uses.line(other.call)})"
        for param in params:
            argument = call_argument(other.call, info.signature, param, bound=False)
            found = _judge_argument(other.uses.analysis, fn, param, argument, judge, where, home=analysis)  # type: ignore[arg-type]
            if isinstance(found, str):
                return f"the call in {where} {found}"
            passed.append(found)
    all_edits: list[Edit] = []
    descriptions: list[str] = []
    added: str | None = None
    for jit in jits:
        edit = static_edit(analysis, fn, jit, params)
        if isinstance(edit, str):
            return edit
        edits, description, added_here = edit
        all_edits.extend(edits)
        descriptions.append(description)
        added = added or added_here
    if len(set(all_edits)) != len(all_edits):
        return "two of the jits would get the same edit"
    if converted and elsewhere:
        return "another module calls it too, whose arrays are not converted"
    notes = ("unsafe: the function now gets a Python int where a call passed an array; it reads it only where a value is needed concrete",) if converted else ()
    all_edits.extend(dict.fromkeys(converted))
    choices = static_choices(ctx, fn, params)
    if isinstance(choices, str):
        return choices
    if choices:  # `lax.cond(T == 0, ...)` on what is now static: the branch cond would choose, alone traced
        all_edits.extend(choices)
        notes = (*notes, "each `lax.cond` whose predicate is now a Python bool calls the branch it would choose, "
                 "and only that one is traced (its output may then differ in shape from the other's)")
    return StaticPlan(tuple(all_edits), "`, `".join(descriptions), tuple(passed), added, jits[0], notes, bool(converted))


def item_at_call(analysis: Analysis, call: cst.Call, argument: object) -> tuple[Edit, str] | None:
    """(the edit, the text it passes) where a call made eagerly passes a concrete array holding one
    integer (`array_values.one_concrete_int`: jax#3345's ``K = random.randint(rng, (1,), 1, 100)``
    made at module level): ``K.item()`` is that int; None otherwise (an array made while traced
    has no concrete `.item()`)."""
    ctx = analysis.ctx
    if not isinstance(argument, (cst.Name, cst.Attribute)) or runs_staged(analysis, ctx.enclosing_function(call)):
        return None
    made = one_concrete_int(analysis, argument)
    home = ctx.enclosing_function(made) if made is not None else None
    if made is None or (home is not None and runs_staged(analysis, home)):
        return None
    text = f"{ctx.code(argument)}.item()"
    return ctx.replace(argument, text), f"`{text}`"


def only_needed_concrete(analysis: Analysis, fn: FunctionNode, param: str) -> bool:
    """Every read of `param` in `fn` goes where a value is needed concrete (a size, a count, a
    Python condition): a Python int there acts as the one-integer array would."""
    uses = ConcreteUses(analysis.ctx, strict=True, traces=analysis.traces)
    reads_of_it = parameter_reads(analysis.ctx, fn, param)
    return bool(reads_of_it) and all(
        (use := uses.need_of(read, fn)) is not None and use.need is Need.NEEDS for read in reads_of_it
    )


def through_one_jit(
    analysis: Analysis, fn: FunctionNode, each_call: Callable[[Route], str | None], handed: str = "", params: Names = ()
) -> tuple[Wrap, list[CallElsewhere]] | str:
    """The one jit every way into `fn` goes through, and the project's other modules' calls of
    it; else why not (the first proof obligation above). `each_call` judges each call of this
    module as it is met, and its refusal comes first; `handed` ends the message for a route
    through another transform; `params`, the parameters to be made static, may pass through a
    differentiation that does not trace them (`through_jits`)."""
    entry = through_jits(analysis, fn, each_call, handed, params)
    if isinstance(entry, str):
        return entry
    jits, elsewhere = entry
    if len(jits) != 1:
        name = fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
        return f"`{name}` is not entered through exactly one jit"
    return jits[0], elsewhere


def _wraps_bound_method(analysis: Analysis, fn: FunctionNode, wrap: Wrap) -> bool:
    """``jax.jit(obj.m, ...)``: a jit applied right to an instance's method, `fn`; or
    ``jax.jit(model)`` of an instance whose ``__call__`` `fn` is (jit reads its signature
    without ``self`` too)."""
    node = wrap.node
    if wrap.name != JIT or not isinstance(node, cst.Call) or not node.args:
        return False
    first = node.args[0].value
    if isinstance(first, cst.Attribute):
        return analysis.traces.binds_receiver(fn, first)
    built = instance_class(analysis.ctx, first)
    return (
        isinstance(fn, cst.FunctionDef)
        and fn.name.value == "__call__"
        and built is not None
        and built[0] is analysis.ctx.parent(analysis.ctx.parent(fn))
    )


def jitted_signature(analysis: Analysis, fn: FunctionNode, jit: Wrap) -> Signature | None:
    """The signature `jit` sees: the def's, or without the receiver for ``jax.jit(obj.m)``."""
    signature = function_info(analysis.ctx, fn).signature
    return signature.without_first() if _wraps_bound_method(analysis, fn, jit) else signature


def array_in_static_slot(analysis: Analysis, route: Route, sig: Signature) -> str | None:
    """A call that hands an array to a parameter its jit already makes static fails at that
    hash whatever else is made static (JAX403's finding, jax#17158): no static edit can make the
    call work, so none is proven."""
    ctx = analysis.ctx
    for index, wrap in enumerate(route.wraps):
        if wrap.name != JIT or wrap.jit is None or wrap.jit.spec is None or route.call is None:
            continue
        seen = sig.without_first() if route.bound and index >= route.head else sig  # `jax.jit(obj.m)`
        for name in wrap.jit.spec.declared_static(seen) if seen is not None else ():
            argument = call_argument(route.call, sig, name, bound=route.bound, consumed=route.consumed, ctx=ctx)
            if isinstance(argument, cst.BaseExpression) and array_origin(analysis, argument):
                line = ctx.span(route.call).start.line
                return f"the call on line {line} passes an array to `{name}`, which is static already"
    return None


def through_jits(
    analysis: Analysis,
    fn: FunctionNode,
    each_call: Callable[[Route], str | None],
    handed: str = "",
    params: Names = (),
) -> tuple[list[Wrap], list[CallElsewhere]] | str:
    """The jits the ways into `fn` go through: one, or several each applied right at its one call
    (``jax.jit(f)(x, 3)`` twice), so that an edit to each changes only that call. A
    differentiation inside (``jax.jit(jax.jacrev(f))``) is allowed when it traces none of
    `params`: it hands them on as they are, at the same positions."""
    ctx = analysis.ctx
    routes = analysis.traces.routes(fn)
    name = fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
    if not routes:
        return f"no call of `{name}` can be seen"
    sig = function_info(ctx, fn).signature
    jits: dict[int, Wrap] = {}
    uses: dict[int, int] = {}
    inline: dict[int, bool] = {}
    for route in routes:
        if _left_to_defaults(route, sig, params):
            continue  # a Python value whatever the layers: no jit traces a default, no vmap maps one
        others = [w for w in route.wraps if w.name != JIT and not hands_on(ctx, w, sig, params)]
        if others:
            return f"the module hands `{name}` to `{others[0].name}`{handed}"
        if route.escapes or route.call is None or route.uncertain:
            return f"`{name}` is also used where its arguments cannot be seen"
        if route.from_call and any(w.name == JIT for w in route.wraps):
            # docs/flax-linen-behaviour.md: `apply` takes `*args, **kwargs`, so a name in
            # static_argnames reaches `__call__` only from a call passing it by keyword.
            return f"the jit is around flax's `{ctx.code(route.ref)}`, which hands `{name}` its arguments through `*args` and `**kwargs`"  # type: ignore[arg-type]
        if route.bound and len(route.wraps) > route.head and (
            len(route.wraps) != route.head + 1 or not _wraps_bound_method(analysis, fn, route.wraps[-1])
        ):
            return f"`{name}` is jitted as a bound method, whose jit counts positions without `self`"
        for index, wrap in enumerate(route.wraps):
            if wrap.name != JIT:
                continue
            jits[id(wrap.node)] = wrap
            uses[id(wrap.node)] = uses.get(id(wrap.node), 0) + 1
            inline[id(wrap.node)] = index >= route.head and _applied_at(route.call, wrap)
        refused = array_in_static_slot(analysis, route, sig) or each_call(route)
        if refused is not None:
            return refused
    if not jits:
        return f"`{name}` is not entered through a jit"
    if len(jits) > 1 and not all(inline[k] and uses[k] == 1 for k in jits):
        return f"`{name}` is not entered through exactly one jit"
    if any(j.jit is None for j in jits.values()):
        return "the jit's static arguments cannot be read"
    if len(jits) > 1:
        return list(jits.values()), []
    (jit,) = jits.values()
    exported = jitted_name(ctx, fn, jit.node)
    elsewhere = calls_elsewhere(ctx, exported) if exported is not None else []
    if isinstance(elsewhere, str):
        return elsewhere
    return [jit], elsewhere


def _left_to_defaults(route: Route, sig: Signature, params: Names) -> bool:
    """The route's call leaves each of `params` to its default (``jax.vmap(jax.jit(f))(xs)`` for
    `f`'s ``option=False``), through layers that bind nothing (no partial)."""
    if not params or route.call is None or route.escapes or route.uncertain or route.from_call:
        return False
    if any(w.name == PARTIAL for w in route.wraps):
        return False
    for param in params:
        declared = sig.param(param)
        if declared is None or not declared.has_default:
            return False
        if call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed) is not DEFAULT:
            return False
    return True


def class_receiver(analysis: Analysis, fn: FunctionNode, jit: Wrap) -> str | None:
    """``@classmethod`` above ``@jax.jit``: the jit wraps the plain function, so it is handed the
    class as the first argument, which is no array and must be static as well (jax#15727). The
    parameter's name; None for any other arrangement."""
    if not isinstance(fn, cst.FunctionDef) or function_info(analysis.ctx, fn).method is not MethodKind.CLASS:
        return None
    if not isinstance(jit.node, cst.Decorator) or jit.node not in fn.decorators:
        return None
    names = [analysis.ctx.names.qualified_name(d.decorator) for d in fn.decorators]
    if "builtins.classmethod" not in names or names.index("builtins.classmethod") > fn.decorators.index(jit.node):
        return None
    positional = [*fn.params.posonly_params, *fn.params.params]
    return positional[0].name.value if positional else None


def used_as_class(analysis: Analysis, fn: cst.FunctionDef, name: str) -> bool:
    """Every read of the class parameter treats it as the class: ``cls.X``, ``cls(...)``. A def
    whose first parameter is read any other way (``jnp.zeros(shape)``) was written without one
    (jax#15727's ``def zeros(shape)``): making it static would not make the call work."""
    ctx = analysis.ctx
    for read in parameter_reads(ctx, fn, name):
        parent = ctx.parent(read)
        if isinstance(parent, cst.Attribute) and parent.value is read:
            continue
        if isinstance(parent, cst.Call) and parent.func is read:
            continue
        return False
    return True


def hands_on(ctx: ModuleContext, wrap: Wrap, sig: Signature, params: Names) -> bool:
    """A differentiation that traces none of `params` (only its argnums): they pass through it."""
    return bool(params) and wrap.name in DIFFERENTIATION and all(wrap.traces(ctx, sig, p) is False for p in params)


def _applied_at(call: cst.Call | None, wrap: Wrap) -> bool:
    """The jit is written in the call's own callee: ``jax.jit(f)(x)``, ``jax.jit(jax.jacrev(f))(x)``."""
    node: cst.BaseExpression | None = call.func if call is not None else None
    if isinstance(node, cst.Attribute) and node.attr.value in STAGING_METHODS:
        node = node.value  # jax.jit(f).lower(x)
    while isinstance(node, cst.Call):
        if node is wrap.node:
            return True
        node = node.args[0].value if node.args else None
    return False


def static_edit(
    analysis: Analysis, fn: FunctionNode, jit: Wrap, params: Names, added: tuple[Param, ...] = ()
) -> tuple[tuple[Edit, ...], str, str | None] | str:
    """(edits, the jit as it reads after them, an import they add) making `params` static on
    `jit`, in the jit's own spelling; else why the jit cannot be edited. `added`: parameters
    another edit gives the function (`hoist_to_callers`), which the signature read has not got."""
    partial = planner(analysis).spell(PARTIAL, jit.node) if jit.jit.call is None else None  # type: ignore[union-attr]
    signature = jitted_signature(analysis, fn, jit)
    if signature is None:
        return "the jitted method takes no receiver"
    signature = Signature((*signature.params, *added)) if added else signature
    receiver = class_receiver(analysis, fn, jit)
    if receiver is not None and not used_as_class(analysis, fn, receiver):  # type: ignore[arg-type]
        return f"`@classmethod` hands the jit the class as `{receiver}`, which the body does not use as a class (no class parameter?)"
    if receiver is not None and receiver not in params:
        params = (receiver, *params)
    edit = StaticEditor(analysis.ctx).add(jit.jit, jit.node, signature, params, partial)  # type: ignore[arg-type]
    if isinstance(edit, str):
        return edit
    added = partial.added if partial is not None and any(partial.edit == e for e in edit.edits) else None
    return tuple(edit.edits), edit.description, added


def _judge_argument(
    analysis: Analysis,
    fn: FunctionNode,
    param: str,
    argument: object,
    judge: Judge,
    where: str,
    home: Analysis | None = None,
) -> Passed | str:
    """What a call passes `param` (an expression in `analysis`'s module), judged; else why not."""
    if argument is DEFAULT:
        node = parameter(fn, param)
        if node is None or node.default is None:
            return f"passes no `{param}`"
        value = judge(home or analysis, node.default)
        if isinstance(value, NotStatic):
            return f"leaves `{param}` to its default, and {value.reason}"
        return Passed(param, value, "its default")
    if not isinstance(argument, cst.BaseExpression):
        return f"passes `{param}` in a way that cannot be read (`*args` or `**kwargs`)"
    value = judge(analysis, argument)
    if isinstance(value, NotStatic):
        return f"passes `{param}` a value not proven hashable: {value.reason}"
    return Passed(param, value, where)


def describe_passed(passed: tuple[Passed, ...], param: str, limit: int = 3) -> str:
    """"8 on line 39", "`dfx_rate_cell`, a function or class, on line 27, and 2 more calls"."""
    # one entry per place: a call reached by two routes (a jitted and a plain one) is one call
    mine = list({(p.value.text, p.where): p for p in passed if p.param == param}.values())
    shown = [f"{p.value.text} {'as ' if p.where == 'its default' else 'on '}{p.where}" for p in mine[:limit]]
    more = len(mine) - limit
    text = ", ".join(shown)
    return text + (f", and {more} more call{'s' if more > 1 else ''}" if more > 0 else "")

"""JAX408 for custom_jvp: an ordinary argument needed as a Python value goes to ``nondiff_argnums``.

Inside a staging transform custom_jvp hands every argument it is not told is
non-differentiable to the function as a tracer, as custom_vjp does (jax#22513:
the derivative order ``dx`` that the jit under ``@jax.custom_jvp`` keeps static
arrives as a tracer, "Non-hashable static arguments are not supported").
Listed in ``nondiff_argnums`` it passes through as the Python value the call
gave. custom_jvp then hands the rule that value first, and the primals and
tangents without it; the rule's first line puts it back among the primals
(with ``None`` for its tangent), so every line of the body computes what it
did::

    @jax.custom_jvp                          @partial(jax.custom_jvp, nondiff_argnums=(2,))
    def fun(x, n, dx): ...                   def fun(x, n, dx): ...
    @fun.defjvp                              @fun.defjvp
    def fun_jvp(a, adot):             ->     def fun_jvp(dx, a, adot):
        (x, n, dx) = a                           a, adot = a[:2] + (dx,) + a[2:], adot[:2] + (None,) + adot[2:]
        (xdot, ndot, dxdot) = adot               (x, n, dx) = a
                                                 (xdot, ndot, dxdot) = adot

Proven when: the def's outermost decorator is a bare ``jax.custom_jvp`` (the
others below it are jits); one def of the module is its rule (``@fun.defjvp``),
taking exactly (primals, tangents) and not already using the argument's name;
the rule reads the tangents only by unpacking them into names, the argument's
one read nowhere (``None`` stands there now); and every use of the function
is a call, directly or through transforms that keep the positions (``jit``,
``vmap``, ``grad`` and kin: ``jax.vmap(jax.grad(fun), ...)(x, n, dx)``), that
passes a Python value there (a literal, a constant, a static argument where it
runs staged) or, in the rule, one computed from the argument itself and
literals (``fun(x, n, dx + 1)``).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.fresh_names import names_in
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.statements import is_docstring
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.custom_jvp import CUSTOM_JVP
from jaxfix.transforms.semantics.custom_vjp import references
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import read_jit_wrapper
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.reads import names_read, reads
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, JIT, MAPPING, PARTIAL

#: Transforms that hand the function its arguments at the positions the call gives them.
_POSITION_KEEPING = frozenset({JIT, *MAPPING, *DIFFERENTIATION})


@dataclass(frozen=True)
class CustomJvp:
    """A def whose outermost decorator is a bare ``@jax.custom_jvp``, and its jvp rule."""

    function: cst.FunctionDef
    decorator: cst.Decorator
    rule: cst.FunctionDef


def bare_custom_jvp(ctx, fn: cst.FunctionDef) -> CustomJvp | str | None:
    """`fn` read as a custom_jvp with no ``nondiff_argnums`` (None: it is not one; a str: why its
    rule cannot be read)."""
    if not fn.decorators or ctx.names.qualified_name(fn.decorators[0].decorator) != CUSTOM_JVP:
        return None
    if any(read_jit_wrapper(ctx, d.decorator) is None for d in fn.decorators[1:]):
        return "a decorator under `jax.custom_jvp` is not a jit"
    rules = []
    for ref in references(ctx, fn):
        attr = ctx.parent(ref)
        if isinstance(attr, cst.Attribute) and attr.attr.value == "defjvp":
            holder = ctx.parent(attr)
            rule = ctx.parent(holder) if isinstance(holder, cst.Decorator) else None
            if not isinstance(rule, cst.FunctionDef) or len(rule.decorators) != 1:
                return f"`{ctx.code(attr)}` does not decorate a def of its own"
            rules.append(rule)
    if len(rules) != 1:
        return "the jvp rule is not one def decorated with `defjvp`"
    return CustomJvp(fn, fn.decorators[0], rules[0])


def move_to_nondiff(analysis: Analysis, cj: CustomJvp, position: int, name: str) -> tuple[tuple[Edit, ...], str] | str:
    """The edits listing `position` (the parameter `name`) in ``nondiff_argnums`` and putting it back
    among the rule's primals; the new decorator; or why not."""
    ctx = analysis.ctx
    rule = cj.rule
    params = rule.params
    plain = [*params.posonly_params, *params.params]
    if len(plain) != 2 or params.kwonly_params or not isinstance(params.star_arg, cst.MaybeSentinel) or params.star_kwarg:
        return f"`{rule.name.value}` does not take exactly (primals, tangents)"
    if any(p.default is not None for p in plain) or not isinstance(rule.body, cst.IndentedBlock):
        return f"`{rule.name.value}` is not written as a plain def of (primals, tangents)"
    if name in names_in(rule) and not _local(ctx, rule, name):
        return f"`{rule.name.value}` reads a `{name}` bound outside it"
    primals, tangents = (p.name.value for p in plain)
    unread = _tangent_unread(ctx, rule, plain[1], position)
    if unread is not None:
        return unread
    k = position
    statements = list(rule.body.body)
    anchor = statements[1] if is_docstring(statements[0]) and len(statements) > 1 else statements[0]
    start = ctx.start(anchor)
    indent = ctx.indent_of(anchor)
    prologue = (
        f"{primals}, {tangents} = {primals}[:{k}] + ({name},) + {primals}[{k}:], "
        f"{tangents}[:{k}] + (None,) + {tangents}[{k}:]\n{indent}"
    )
    partial = planner(analysis).spell(PARTIAL, cj.decorator)
    if partial is None:
        return "`functools.partial` cannot be named here"
    decorator = f"{partial.text}({ctx.code(cj.decorator.decorator)}, nondiff_argnums=({k},))"
    edits = [
        ctx.replace(cj.decorator.decorator, decorator),
        Edit(ctx.start(plain[0]), ctx.start(plain[0]), f"{name}, "),
        Edit(start, start, prologue),
    ]
    if partial.edit is not None:
        edits.append(partial.edit)
    return tuple(edits), f"@{decorator}"


def _local(ctx, rule: cst.FunctionDef, name: str) -> bool:
    """`name` is a local of the rule (bound in its own body, ``(x, n, dx) = a``): a parameter of that
    name only gives it a value from the first line, which the prologue alone reads."""
    scope = ctx.scope(rule.body)
    return scope is not None and any(
        getattr(a, "node", None) is not None and ctx.enclosing_function(a.node) is rule for a in scope.assignments[name]
    )


def _primal_names(ctx, rule: cst.FunctionDef, position: int) -> set[str]:
    """The names the rule unpacks the primal at `position` to (``(x, n, dx) = a``: ``dx``)."""
    primals = [*rule.params.posonly_params, *rule.params.params][0]
    out: set[str] = set()
    for read in reads(ctx, primals.name):
        assign = ctx.parent(read)
        target = assign.targets[0].target if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and assign.value is read else None
        if isinstance(target, (cst.Tuple, cst.List)) and position < len(target.elements):
            element = target.elements[position]
            if isinstance(element, cst.Element) and isinstance(element.value, cst.Name):
                out.add(element.value.value)
    return out


def _tangent_unread(ctx, rule: cst.FunctionDef, tangents: cst.Param, position: int) -> str | None:
    """Why the rule may read the argument's tangent (which becomes ``None``); None when every read of
    the tangents unpacks them into names (``(xdot, ndot, dxdot) = adot``) and that one is read nowhere."""
    for read in reads(ctx, tangents.name):
        assign = ctx.parent(read)
        target = assign.targets[0].target if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and assign.value is read else None
        if not isinstance(target, (cst.Tuple, cst.List)) or any(not isinstance(e, cst.Element) for e in target.elements):
            return f"`{ctx.code(ctx.statement_of(read)).strip()}` reads the tangents otherwise than by unpacking them"
        names = [e.value for e in target.elements]
        if position >= len(names) or not all(isinstance(n, cst.Name) for n in names):
            return f"`{ctx.code(target)}` does not unpack each tangent to a name"
        tangent = names[position]
        if any(other is not tangent and other.value == tangent.value for other in names_read(rule.body)):  # type: ignore[union-attr]
            return f"the rule reads `{tangent.value}`, the tangent of the argument made non-differentiable"  # type: ignore[union-attr]
    return None


def calls_pass(analysis: Analysis, cj: CustomJvp, position: int, python_value) -> str | None:
    """Why some use of the function is not shown to pass a Python value as `param`; None when every
    use is a call (through position-keeping transforms) that does. `python_value(expr, call)` judges
    an argument."""
    ctx = analysis.ctx
    signature = Signature.from_cst(cj.function.params)
    param = signature.positional[position].name
    calls = 0
    for ref in references(ctx, cj.function):
        parent = ctx.parent(ref)
        if isinstance(parent, cst.Attribute) and parent.attr.value == "defjvp":
            continue
        call = _applied(ctx, ref)
        if call is None:
            return f"`{ctx.code(ref)}` is used on line {ctx.span(ref).start.line} where its arguments cannot be seen"
        calls += 1
        argument = call_argument(call, signature, param, bound=False, ctx=ctx)
        if argument is DEFAULT:
            argument = next((p.default for p in cj.function.params.params if p.name.value == param), None)
        if not isinstance(argument, cst.BaseExpression):
            return f"the call on line {ctx.span(call).start.line} passes `{param}` in a way not read"
        if _from_own_primal(ctx, cj, call, argument, position) or python_value(argument, call):
            continue
        return f"the call on line {ctx.span(call).start.line} may pass `{param}` a value that is not a Python value"
    return None if calls else f"no call of `{cj.function.name.value}` can be seen"


def _applied(ctx, ref: cst.BaseExpression) -> cst.Call | None:
    """The call that hands `ref`'s function its arguments: ``fun(...)``, or the call of
    ``jax.vmap(jax.grad(fun), ...)`` whose layers keep the positions; None otherwise."""
    node: cst.CSTNode = ref
    while True:
        parent = ctx.parent(node)
        if isinstance(parent, cst.Call) and parent.func is node:
            return parent
        layer = ctx.parent(parent) if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star else None
        if not isinstance(layer, cst.Call) or layer.args[0] is not parent:
            return None
        if ctx.names.qualified_name(layer.func) not in _POSITION_KEEPING:
            return None
        if any(a.keyword is not None and a.keyword.value in ("argnums", "static_argnames", "in_axes") and ctx.names.qualified_name(layer.func) in DIFFERENTIATION for a in layer.args):
            return None  # `grad(f, argnums=2)`: a different reading of the positions' roles, not followed
        node = layer


def _from_own_primal(ctx, cj: CustomJvp, call: cst.Call, argument: cst.BaseExpression, position: int) -> bool:
    """A call inside the rule passing a value made of the argument's own primal (``dx`` unpacked from
    the primals, ``dx + 1``) and number literals: after the move that primal is the Python value."""
    if not any(a is cj.rule for a in ctx.ancestors(call)):
        return False
    own = _primal_names(ctx, cj.rule, position)
    names = names_read(argument)
    if not names or any(n.value not in own for n in names):
        return False
    stack: list[cst.CSTNode] = [argument]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Name, cst.Integer, cst.Float)):
            continue
        if isinstance(node, (cst.BinaryOperation, cst.UnaryOperation)):
            stack.extend(c for c in node.children if isinstance(c, cst.BaseExpression))
            continue
        return False
    return True

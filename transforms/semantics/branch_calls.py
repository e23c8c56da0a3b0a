"""One callable handed to a control-flow primitive, analysed against jit's rule.

For a branch or loop body (``f`` or ``partial(f, ...)``) this says how the
primitive's call binds today, what the author meant (`binding.intended_binding`),
which operands belong in static parameters, and which pitfall, if any, the
call has: an operand landing in a static slot ("operand"), or a partial whose
keyword puts an operand into a static slot ("misbound", 1d, 1l), or whose
positional values, named after other parameters (``partial(f, alpha, T)``),
shift an operand into one (jax#... openillumi's vmap report).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

import libcst as cst

from jaxfix.transforms.semantics.call_shapes import SELF, CallShape, Operand, Value, intended_binding
from jaxfix.transforms.semantics.callables import CallableUse, read_callable_use
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need, Use
from jaxfix.transforms.semantics.jit_signature import BindError, Kind, Signature, StaticSpec, bind_call
from jaxfix.transforms.semantics.module import ModuleContext

_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)

@dataclass
class Branch:
    """One callable argument of a primitive call, analysed."""

    use: CallableUse
    n_operands: int
    sig: Signature | None = None
    spec: StaticSpec | None = None
    implicit_self: bool = False
    values: dict[Hashable, Value] = field(default_factory=dict)
    #: The expressions behind `values` (a partial's own arguments).
    value_exprs: dict[Hashable, cst.BaseExpression] = field(default_factory=dict)
    shape: CallShape | None = None
    intended: dict[str, Hashable] | None = None
    #: Operand indices that belong in static parameters.
    to_bind: set[int] = field(default_factory=set)
    #: "operand" (an operand lands in a static slot), "misbound" (partial(f, N=N)).
    pitfall: str | None = None
    static_params: list[str] = field(default_factory=list)
    #: Values a partial already binds into declared static parameters: key -> parameter.
    bound_static: dict[Hashable, str] = field(default_factory=dict)
    refusal: str | None = None
    #: A plain branch's parameters that need a concrete value, and the read that needs it.
    needs: dict[str, Use] = field(default_factory=dict)
    #: "misbound" by position (`_named_intent`): the static parameter Python hands an operand.
    shifted: str | None = None

    @property
    def known(self) -> bool:
        return self.sig is not None


def value_of(ctx: ModuleContext, key: Hashable, expr: cst.BaseExpression) -> Value:
    literal = isinstance(expr, _LITERALS) or (
        isinstance(expr, cst.Name) and expr.value in ("True", "False", "None")
    )
    return Value(key, ctx.code(expr), literal)


def analyse_branch(
    ctx: ModuleContext, expr: cst.BaseExpression, n_operands: int, concrete: ConcreteUses | None = None
) -> Branch | None:
    """`concrete`: judge a plain (not jitted) branch too, its parameters that need a concrete value
    (``jnp.arange(n)``, ``if flag:``) standing for static ones (JAX103)."""
    use = read_callable_use(ctx, expr)
    if use is None:
        return None
    branch = Branch(use, n_operands)
    target = use.target
    pre = [("arg", i) for i in range(len(use.bound_args))]
    for key, arg in zip(pre, use.bound_args):
        branch.values[key] = value_of(ctx, key, arg.value)
        branch.value_exprs[key] = arg.value
    keywords = []
    for arg in use.bound_kwargs:
        key = ("kw", arg.keyword.value)  # type: ignore[union-attr]
        branch.values[key] = value_of(ctx, key, arg.value)
        branch.value_exprs[key] = arg.value
        keywords.append((arg.keyword.value, key))  # type: ignore[union-attr]
    if target is None or (target.jit is not None and target.jit.spec is None):
        return branch
    sig = target.function.signature
    spec = target.jit.spec if target.jit is not None else StaticSpec()
    assert spec is not None
    if sig.has_var_positional:
        return branch
    needs: dict[str, Use] = {}
    if concrete is not None:
        node = target.function.node
        if target.jit is not None or node is None or target.function.opaque:
            return branch
        skip = 1 if target.implicit_self else 0
        for param in sig.positional[skip:]:
            found = concrete.first_need(node, param.name)
            if found is not None and found.need is Need.NEEDS and not found.static_parameter:
                needs[param.name] = found
        branch.needs = needs
    branch.sig, branch.spec, branch.implicit_self = sig, spec, target.implicit_self
    operands = [Operand(j) for j in range(n_operands)]
    shape = CallShape((*([SELF] if target.implicit_self else []), *pre, *operands), tuple(keywords))
    branch.shape = shape
    branch.intended = intended = intended_binding(sig, shape)
    named = _named_intent(sig, use, keywords, operands, target.implicit_self) if concrete is None else None
    if named is not None:
        branch.intended = intended = named
    declared = frozenset(needs) if concrete is not None else spec.declared_static(sig)
    try:
        actual = bind_call(sig, spec, shape.positional, dict(shape.keywords))
    except BindError:
        if intended is not None and any(name in declared for name, _ in keywords):
            branch.pitfall = "misbound"
        actual = None
    if intended is None:
        return branch
    owner = {source: name for name, source in intended.items()}
    for op in operands:
        param = owner.get(op)
        if param in declared:
            branch.to_bind.add(op.index)
            branch.static_params.append(param)
    branch.bound_static = {key: owner[key] for key in branch.values if owner.get(key) in declared}
    bound_static = bool(branch.bound_static)
    if actual is not None:
        for name, b in actual.items():
            if not (isinstance(b.source, Operand) and b.static) or name in declared:
                continue
            # A negative static_argnums counts from the end of *this* call's
            # positional arguments (1l): here it picks an operand.
            if bound_static:
                branch.pitfall = "misbound"
            else:
                branch.pitfall = "operand"
                branch.refusal = (
                    f"jit's static_argnums makes the operand for `{name}` static at this call "
                    "(negative indices count from the end of each call's positional arguments)"
                )
    if branch.to_bind and branch.pitfall is None and actual is not None:
        branch.pitfall = "operand"
    if named is not None and branch.pitfall is None and actual is not None:
        hit = next((name for name, b in actual.items() if isinstance(b.source, Operand) and b.static), None)
        if hit is not None:
            branch.pitfall = "misbound"  # Python's binding hands an operand to a static slot: it fails
            branch.shifted = hit
    return branch


def _named_intent(
    sig: Signature, use: CallableUse, keywords: list, operands: list[Operand], implicit_self: bool
) -> dict[str, Hashable] | None:
    """``partial(f, alpha, T)`` where ``alpha`` and ``T`` are names of f's parameters other than
    the ones their positions fill: the author meant each value for the parameter of its name
    (they bind as ``partial(f, alpha=alpha, T=T)``), the operands filling the rest in order. None
    unless every value the partial binds positionally is such a name, each a different one."""
    bound = use.bound_args
    if not bound or not all(isinstance(a.value, cst.Name) for a in bound):
        return None
    names = [a.value.value for a in bound]  # type: ignore[union-attr]
    positional = [p.name for p in sig.positional[1 if implicit_self else 0 :]]
    if len(set(names)) != len(names) or names == positional[: len(names)]:
        return None
    for name in names:
        param = sig.param(name)
        if param is None or param.kind not in (Kind.POSITIONAL_OR_KEYWORD, Kind.KEYWORD_ONLY):
            return None
    by_name = tuple((name, ("arg", i)) for i, name in enumerate(names))
    shape = CallShape((*([SELF] if implicit_self else []), *operands), (*by_name, *keywords))
    return intended_binding(sig, shape)


def _enumerate(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

"""JAX402 static-arithmetic: jnp arithmetic on static Python ints where a concrete int is needed.

Under jit (and every staging transform) a jnp call is recorded, not run: its
result is a tracer even when every operand is a Python int, so
``jnp.arange(jnp.minimum(x.shape[0], n))`` fails although ``n`` is static
(docs/jax4xx-behaviour.md, B). Python's ``min``, ``max``, ``abs`` and integer
operators compute the same int without tracing. The rewrite is made only
where the value is the same: every operand provably a Python int
(`int_static`), the result flowing only to places that need it concrete or
take a Python int alike (`concrete_sinks`). A bare ``jnp.array(1)`` is kept (an
array may be wanted) except where only a jnp function's axis takes it
(``jnp.squeeze(x, jnp.array(1))``, jax#12331), which accepts nothing but a
static int, or a shape, which takes the ints as well as an array of them
(``jnp.reshape(x, jnp.array(shape, dtype=jnp.int32))`` becomes ``jnp.reshape(x,
shape)`` where every call passes `shape` a tuple of ints; aesara#43).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts, calls_on, lines_mentioning, qualified_spellings
from jaxfix.transforms.gate.screen_sinks import reaches_sink
from jaxfix.transforms.rules.jax402_static_arithmetic.arange_loop import ArangeLoop, arange_loops
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.int_values import IntStatic, Kind, Proof
from jaxfix.transforms.semantics.jnp_arithmetic import (
    Op,
    read_op,
)
from jaxfix.transforms.semantics.sinks import Flow, Follower
from jaxfix.transforms.semantics.staged import in_eager_block, runs_staged


def _no_array_wanted(flow: Flow) -> bool:
    """Every place the value flows is a jnp function's axis (jax#12331: ``jnp.squeeze(x,
    jnp.array(1))``), which takes nothing but a static int, or a shape, which takes the ints
    themselves as well as an array of them (``jnp.reshape(x, jnp.array(shape))``)."""
    return bool(flow.sinks) and flow.blocked is None and all(s.axis or s.shape for s in flow.sinks)


_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)
_BARE_CONTEXTS = (cst.Arg, cst.Element, cst.Index, cst.Assign, cst.AnnAssign, cst.Return, cst.Slice)


class StaticArithmetic:
    """One module's JAX402 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.ints = IntStatic(analysis, nested=self._nested)
        self.follower = Follower(self.ctx)

    def findings(self) -> list[Finding]:
        ctx = self.ctx
        out: list[Finding] = []
        seen: set[cst.CSTNode] = set()
        for call in ctx.calls:
            op = self._op(call)
            if op is None:
                continue
            top = self._top(op)
            if top.node in seen:
                continue
            seen.add(top.node)
            if not runs_staged(self.analysis, ctx.enclosing_function(top.node)) or in_eager_block(ctx, top.node):
                continue
            flow = self.follower.follow(top.node)
            if top.kind == "wrap" and not top.astype and not _no_array_wanted(flow):
                continue  # ``jnp.array(n)`` kept as an array on purpose, except where only an axis or a shape takes it
            finding = self._finding(top, flow)
            if finding is not None:
                out.append(finding)
        out.extend(self._loop_finding(loop) for loop in arange_loops(self.analysis, self.ints))
        return out

    def _loop_finding(self, loop: ArangeLoop) -> Finding:
        ctx = self.ctx
        code = ctx.code(loop.call)
        head = (
            f"`{code}` gives the loop traced ints under jit although its operands are static, and "
            f"{loop.sink.reason} (line {ctx.span(loop.sink.node).start.line})"
        )
        if loop.blocked is not None:
            return self._report_at(loop.call, head, loop.blocked, (
                f"option: `for ... in {loop.text}`, whose ints are Python ints, once each use of the loop "
                "variable is checked to compute the same with a Python int",
            ))
        return ctx.finding(
            "JAX402",
            loop.call,
            f"{head}; `{loop.text}` gives the same ints without tracing",
            (ctx.replace(loop.call, loop.text),),
            Applicability.SAFE,
            description="loop over a Python range",
            notes=(
                f"every operand is a static Python int: {loop.reasons}; the loop variable is only used "
                "as an index or where a concrete int is needed, where both give the same element",
            ),
        )

    def _op(self, node: cst.CSTNode) -> Op | None:
        if not isinstance(node, cst.BaseExpression):
            return None
        op = read_op(self.ctx, node)
        if op is not None and not op.astype:
            parent = self.ctx.parent(node)
            outer = self.ctx.parent(parent) if isinstance(parent, cst.Attribute) else None
            if isinstance(outer, cst.Call) and outer.func is parent:
                wrapped = read_op(self.ctx, outer)
                if wrapped is not None:
                    return wrapped
        return op

    def _top(self, op: Op) -> Op:
        """The outermost op that this one is an operand of (``jnp.maximum(jnp.abs(n), 1)``)."""
        ctx = self.ctx
        while True:
            arg = ctx.parent(op.node)
            call = ctx.parent(arg) if isinstance(arg, cst.Arg) else None
            outer = self._op(call) if isinstance(call, cst.Call) else None
            if outer is None or op.node not in outer.operands:
                return op
            op = outer

    # -- kinds --------------------------------------------------------------
    def _nested(self, call: cst.Call, depth: int) -> Proof | None:
        op = self._op(call)
        return self._kind(op, depth) if op is not None else None

    def _kind(self, op: Op, depth: int = 0) -> Proof:
        parts = [self.ints.kind(o, depth + 1) for o in op.operands]
        if op.kind == "wrap" and parts[0].kind is not Kind.INT:
            # ``jnp.array(shape, dtype=jnp.int32)``: a tuple of ints it holds is the same shape
            ints = self.ints.int_sequence(op.operands[0], depth + 1)
            if ints.kind is Kind.INT:
                parts = [ints]
        worst = max(parts, key=lambda p: p.kind)
        if worst.kind is Kind.UNKNOWN:
            return worst
        if op.kind == "divide":
            return Proof(Kind.FLOAT, f"`{self.ctx.code(op.call)}` is a true division, a float")
        return worst if worst.kind is not Kind.INT else Proof(Kind.INT, "integer arithmetic on ints")

    def _ops_in(self, op: Op) -> Iterable[Op]:
        yield op
        for operand in op.operands:
            inner = self._op(operand)
            if inner is not None and inner.node is operand:
                yield from self._ops_in(inner)

    # -- the finding ----------------------------------------------------------
    def _finding(self, op: Op, flow: Flow) -> Finding | None:
        """The finding for `op`, staged code whose value goes where `flow` says."""
        ctx = self.ctx
        if not flow.sinks:
            return None
        proof = self._kind(op)
        if proof.kind is Kind.UNKNOWN:
            return None  # not provably static: the rewrite could not help
        code = ctx.code(op.node)
        sink = flow.sinks[0]
        head = (
            f"`{code}` is traced under jit although its operands are static, "
            f"and {sink.reason} (line {ctx.span(sink.node).start.line})"
        )
        divisions = [o for o in self._ops_in(op) if o.kind == "divide"]
        if divisions:
            return self._report(op, head, "`jnp.divide` is a float division", self._division_options(divisions[0]))
        if proof.kind is Kind.FLOAT:
            return self._report(
                op,
                head,
                f"{proof.reason}, and Python computes floats in float64 where jnp uses float32, "
                "so the result could round differently",
                (
                    "option: compute the size with Python on purpose, e.g. `int(...)` or `math.ceil(...)`, "
                    "and check it gives the size you expect",
                ),
            )
        if flow.blocked is not None:
            return self._report(op, head, flow.blocked, ())
        if proof.kind is Kind.STATIC and any(o.astype for o in self._ops_in(op)):
            return self._report(
                op,
                head,
                f"an operand is static ({proof.reason}) but not known to be an int, and `.astype` of a float truncates in float32",
                (),
            )
        shown = text = self._render(op)
        if not isinstance(ctx.parent(op.node), _BARE_CONTEXTS) and op.kind not in ("min", "max", "abs") and not (
            op.kind == "wrap" and isinstance(op.operands[0], _ATOMS)
        ):
            text = f"({text})"
        unsafe = proof.kind is Kind.STATIC
        notes = [f"every operand is a static Python int: {self._reasons(op)}"] if not unsafe else [
            f"unsafe: an operand is static ({proof.reason}) but not known to be an int; with a float, Python's float64 "
            "result could differ from jnp's float32"
        ]
        return ctx.finding(
            "JAX402",
            op.node,
            f"{head}; Python computes the same int without tracing: `{shown}`",
            (ctx.replace(op.node, text),),
            Applicability.UNSAFE if unsafe else Applicability.SAFE,
            description="compute the static size with Python's arithmetic",
            notes=tuple(notes),
        )

    def _reasons(self, op: Op) -> str:
        seen: list[str] = []
        for inner in self._ops_in(op):
            for operand in inner.operands:
                if self._op(operand) is not None:
                    continue
                proof = self.ints.kind(operand)
                if inner.kind == "wrap" and proof.kind is not Kind.INT:
                    ints = self.ints.int_sequence(operand)  # `jnp.array((1, 1, df))`: `_kind` read it so
                    proof = ints if ints.kind is Kind.INT else proof
                text = f"`{self.ctx.code(operand)}` ({proof.reason})"
                if text not in seen:
                    seen.append(text)
        return "; ".join(seen)

    def _render(self, op: Op) -> str:
        parts = [self._operand(o) for o in op.operands]
        if op.kind in ("min", "max", "abs"):
            return f"{op.kind}({', '.join(parts)})"
        if op.kind == "wrap":
            return parts[0]
        return f"{self._wrapped(op.operands[0], parts[0])} {op.kind} {self._wrapped(op.operands[1], parts[1])}"

    def _operand(self, expr: cst.BaseExpression) -> str:
        inner = self._op(expr)
        if inner is not None and inner.node is expr:
            return self._render(inner)
        return self.ctx.code(expr)

    def _wrapped(self, expr: cst.BaseExpression, text: str) -> str:
        inner = self._op(expr)
        if inner is not None and inner.node is expr:
            atomic = inner.kind in ("min", "max", "abs") or (inner.kind == "wrap" and isinstance(inner.operands[0], _ATOMS))
        else:
            atomic = isinstance(expr, _ATOMS) or bool(getattr(expr, "lpar", ()))
        return text if atomic else f"({text})"

    def _report(self, op: Op, head: str, reason: str, options: tuple[str, ...]) -> Finding:
        return self._report_at(op.node, head, reason, options)

    def _report_at(self, node: cst.CSTNode, head: str, reason: str, options: tuple[str, ...]) -> Finding:
        return self.ctx.finding("JAX402", node, f"{head}; not rewritten: {reason}", notes=options)

    def _division_options(self, op: Op) -> tuple[str, ...]:
        a, b = (self.ctx.code(o) for o in op.operands)
        return (
            f"option: `{a} // {b}`, Python's floor division: the same int as `jnp.divide({a}, {b}).astype(int)` "
            "when both are ints of the same sign below 2**24 (astype truncates toward zero, // floors, and "
            "float32 cannot hold every int above 2**24)",
            f"option: `int({a} / {b})`, which truncates like astype but divides in float64 where jnp uses float32",
        )


# -- the screen -----------------------------------------------------------------

_OP_WORDS = ("minimum", "maximum", "abs", "absolute", "add", "subtract", "multiply", "floor_divide", "remainder",
             "mod", "divide", "true_divide", "astype")
#: The byte pre-filter's spelling of the calls: ``<module>.minimum(`` and its kin (bare names need
#: an import from jax.numpy), and ``astype`` only with the int types the rule rewrites; the short
#: names alone ("add", "mod", "abs") are in most files as parts of other words.
_OP_TEXT = (
    *(f".{op}(" for op in ("minimum", "maximum", "abs", "absolute", "add", "subtract", "multiply", "floor_divide",
                           "remainder", "mod", "divide", "true_divide")),
    "from jax.numpy import",
    "arange(",
    "array(",
    "astype(int", "astype(jnp.int", "astype(np.int", "astype(numpy.int", "astype(jax.numpy.int", "astype('int",
    'astype("int',
)
_STAGING_WORDS = ("jit", "make_jaxpr", "pmap", "eval_shape", "checkpoint", "remat", "scan", "fori_loop",
                  "while_loop", "cond", "switch", "map", "shard_map")


_WRAPPER_WORDS = ("array", "asarray", "int32", "int64")
_INT_SPELLINGS = frozenset({"int", "int32", "int64"})


def _jax_numpy(facts: Facts, call: ast.Call, names) -> bool:
    """``jnp.minimum(...)`` / ``jax.numpy.minimum(...)`` / ``minimum`` imported from jax.numpy, one of `names`."""
    return any(
        dotted.startswith("jax.numpy.") and dotted.rsplit(".", 1)[-1] in names
        for dotted in qualified_spellings(facts, call.func)
    )


def _int_astype(call: ast.Call) -> bool:
    """``.astype(int)``, ``.astype(jnp.int32)``, ``.astype("int32")``: the only astype the rule rewrites."""
    if len(call.args) != 1 or call.keywords:
        return False
    arg = call.args[0]
    if isinstance(arg, ast.Constant):
        return arg.value in ("int32", "int64")
    name = arg.attr if isinstance(arg, ast.Attribute) else arg.id if isinstance(arg, ast.Name) else None
    return name in _INT_SPELLINGS


def _seeds(facts: Facts) -> list[ast.AST]:
    """jnp arithmetic (or an int ``astype`` of it, or of ``jnp.array``) whose value may reach a concrete sink."""
    out: list[ast.AST] = []
    for call in calls_on(facts, lines_mentioning(facts, (*_OP_WORDS, *_WRAPPER_WORDS))):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "astype":
            inner = func.value
            if not (_int_astype(call) and isinstance(inner, ast.Call)):
                continue
            if not _jax_numpy(facts, inner, (*_OP_WORDS, *_WRAPPER_WORDS)):
                continue
        elif not _jax_numpy(facts, call, (*_OP_WORDS, *_WRAPPER_WORDS)):
            continue  # jnp arithmetic, or ``jnp.array(1, dtype=jnp.int32)`` (`jnp_arithmetic.read_op`)
        if reaches_sink(facts, call):
            out.append(call)
    out.extend(_arange_loops(facts))
    return out


def _arange_loops(facts: Facts) -> list[ast.AST]:
    """``for i in jnp.arange(...)`` (or a slice of it): `arange_loop`'s candidates."""
    out: list[ast.AST] = []
    for stmt in facts.statements_on(lines_mentioning(facts, ("arange",))):
        if not isinstance(stmt, ast.For):
            continue
        iterated = stmt.iter.value if isinstance(stmt.iter, ast.Subscript) else stmt.iter
        if isinstance(iterated, ast.Call) and "jax.numpy.arange" in qualified_spellings(facts, iterated.func):
            out.append(iterated)
    return out


class StaticArithmetic402(Rule):
    """jnp arithmetic on static Python ints, where a concrete int is needed.

    Under ``jit`` (and ``make_jaxpr``, ``pmap``, ``eval_shape``, ``checkpoint``,
    the control-flow primitives) every jnp call is staged out: its result is
    a tracer even when every operand is a Python int. Used as a size it fails::

        @partial(jax.jit, static_argnums=0)
        def head(n, x):
            return x[: jnp.minimum(n, x.shape[0])]   # IndexError: Slice entries must be static integers

    with ``ConcretizationTypeError`` (``jnp.arange``, ``linspace``'s ``num``,
    ``scan``'s ``length``, ``int()``), ``TypeError: Shapes must be 1D sequences
    of concrete values of integer type`` (``jnp.zeros``, ``reshape``,
    ``jax.random.*``), ``TracerIntegerConversionError`` (``range``) or the
    non-hashable error (a static parameter of a jitted call). Under ``vmap``
    or ``grad`` alone the same code works: nothing is staged there.

    The fix computes the value with Python: ``jnp.minimum``/``maximum`` ->
    ``min``/``max``, ``jnp.abs`` -> ``abs``, ``jnp.add``/``subtract``/
    ``multiply``/``floor_divide``/``remainder`` -> ``+ - * // %``, and
    ``jnp.array(E).astype(int)`` -> ``E``. It is made only when every operand
    is provably a Python int (a literal, array metadata such as ``x.shape[0]``
    or ``len(x)``, arithmetic on those, or a static parameter every call
    passes an int): then both compute the same int. A static operand whose
    type cannot be seen makes the fix unsafe. Reported, not rewritten:
    ``jnp.divide`` (``-7 / 2`` truncates to -3, ``-7 // 2`` is -4, and
    float32 loses ints above 2**24), float operands (float32 and float64
    round differently), and a result also used as an array
    (``m.astype(...)``, returned, passed to code we cannot see). Operands
    that are traced are not this rule's: no rewrite can make them static.

    A Python loop over ``jnp.arange`` of static ints is staged the same way
    (``for i in jnp.arange(3)[::-1]: strides[i]`` fails): ``range(3)[::-1]``
    gives the same ints, and is written where the loop variable is only an
    index or a value needed concrete (`arange_loop`); any other use of it
    makes the finding a report.
    """

    code = "JAX402"
    name = "static-arithmetic"
    summary = "jnp arithmetic on static Python ints is traced under jit where a concrete int is needed"
    required = (("numpy",), _OP_TEXT, _STAGING_WORDS)

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return _seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return StaticArithmetic(analysis).findings()

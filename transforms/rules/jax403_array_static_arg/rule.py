"""JAX403 array-static: an array-valued parameter listed in static_argnums / static_argnames.

A static argument is hashed to key jit's cache, and no array is hashable:
``jnp``, NumPy arrays and PRNG keys all fail with "Non-hashable static
arguments are not supported" (docs/jax4xx-behaviour.md, C1). An array
belongs among the traced arguments, where it compiles once per shape and
dtype. The fix drops the parameter from the static arguments, in the jit's
own spelling (`staticedit`), when nothing in the body needs its concrete
value (`concrete_uses`); otherwise it reports the use that does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.gate.screen import Facts, qualified_spellings, spelled_name
from jaxfix.transforms.repairs.scalar_to_int import ints_at_calls
from jaxfix.transforms.repairs.traced_parameter import Judged, calls_through, doubts_elsewhere, entered_jit
from jaxfix.transforms.rules.jax403_array_static_arg import hashed_attributes
from jaxfix.transforms.rules.jax403_array_static_arg.pmap_static import pmap_findings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import (
    NUMPY_SAMPLERS,
    RESHAPING_METHODS,
    array_annotation,
    array_origin,
    made_array,
)
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need, Use, read_as_loop_count
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, assigned_value, constant_value, single_binding
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info, read_jit_application
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.passed_elsewhere import local_routes
from jaxfix.transforms.semantics.reads import parameter, reads
from jaxfix.transforms.semantics.tracing import JitEntry
from jaxfix.transforms.semantics.vocabulary import JIT, STATIC_KEYWORDS

#: The counts JAX301 can turn into a traced fori_loop count (an arange size it only reports).
_REWRITABLE_COUNTS = frozenset({"builtins.range", "jax.lax.scan"})


@dataclass(frozen=True)
class Evidence:
    """Why the parameter holds an array: a call passing one, or the annotation."""

    node: cst.CSTNode
    text: str


class ArrayStatic:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = ConcreteUses(self.ctx, traces=analysis.traces)

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        applied = _jitted_by_call(self.ctx)
        for fn in self.ctx.nodes_of(cst.FunctionDef):
            if function_info(self.ctx, fn).jit is None and fn.name.value not in applied:
                continue  # neither decorated with a jit nor handed to one with static arguments
            entry = entered_jit(self.analysis, fn)
            if entry is None:
                out.extend(self._inline_jits(fn))
                continue
            if entry.wrapper.spec is None or entry.wrapper.call is None:
                continue
            info = function_info(self.ctx, fn)
            declared = entry.wrapper.spec.declared_static(info.signature)
            for param in info.signature.params:
                if param.name in declared:
                    finding = self._param(fn, entry, param.name)
                    if finding is not None:
                        out.append(finding)
        return out

    def _inline_jits(self, fn: FunctionNode) -> list[Finding]:
        """`fn` jitted inline at several calls (``jax.jit(foo, static_argnums=(0,))(x)`` twice), each jit
        with its own static options: a call handing an array to a static slot is reported at its own
        jit. Never rewritten: an edit at one jit leaves the others, and what the body needs is JAX403's
        usual question, answered in the message."""
        ctx = self.ctx
        routes = local_routes(self.analysis, fn)
        if not routes or len(routes) < 2:
            return []
        layers = [r.wraps[0] if len(r.wraps) == 1 else None for r in routes]
        if any(
            r.escapes or r.call is None or w is None or w.name != JIT or w.jit is None or w.jit.spec is None
            or not isinstance(w.node, cst.Call)
            for r, w in zip(routes, layers)
        ):
            return []
        info = function_info(ctx, fn)
        out: list[Finding] = []
        for route, layer in zip(routes, layers):
            seen = route.signature_seen(0, info.signature)  # `jax.jit(obj.m, ...)` counts without `self`
            if seen is None:
                continue
            declared = layer.jit.spec.declared_static(seen)  # type: ignore[union-attr]
            for param in info.signature.params:
                if param.name not in declared:
                    continue
                argument = call_argument(route.call, info.signature, param.name, bound=route.bound, consumed=route.consumed)  # type: ignore[arg-type]
                origin = array_origin(self.analysis, argument) if isinstance(argument, cst.BaseExpression) else None
                if origin is None or _static_arithmetic(self.analysis, argument):  # type: ignore[arg-type]
                    continue
                if read_as_loop_count(ctx, fn, param.name, _REWRITABLE_COUNTS):
                    continue  # a static loop count fed an array: JAX301's
                use = self.uses.first_need(fn, param.name)
                need = (
                    f"`{param.name}` must be concrete in `{info.name}`: {use.reason}"
                    if use is not None and use.need is Need.NEEDS
                    else f"`{info.name}` is jitted at {len(routes)} calls, each with its own static options"
                )
                out.append(
                    ctx.finding(
                        "JAX403",
                        argument,  # type: ignore[arg-type]
                        f"`{param.name}` is a static parameter of `{info.name}` at this jit, but the call passes "
                        f"`{ctx.code(argument)}` ({origin}): a static argument is hashed, and no array is hashable; "  # type: ignore[arg-type]
                        f"not rewritten: {need}",
                        notes=(
                            f"option: pass a hashable Python value instead (`int(...)`, `tuple(....tolist())`) where "
                            f"`{info.name}` needs it concrete; each distinct value compiles again",
                            f"option: drop `{param.name}` from this jit's static options where nothing in "
                            f"`{info.name}` needs it concrete",
                        ),
                    )
                )
        return out

    def _evidence(self, fn: FunctionNode, entry: JitEntry, param: str) -> tuple[list[Evidence], list[str]]:
        """Calls through the jit passing an array, and what the other calls pass that may not suit a
        traced argument (`repairs.traced_parameter`); the annotation counts as evidence too."""
        ctx = self.ctx
        calls = calls_through(self.analysis, fn, entry, param, _judge)
        evidence = [Evidence(*calls.evidence)] if calls.evidence is not None else []
        node = parameter(fn, param)
        if node is not None and node.annotation is not None:
            annotation = node.annotation.annotation
            target = annotation.value if isinstance(annotation, cst.Subscript) else annotation
            if array_annotation(ctx.names.qualified_name(target) or ""):
                evidence.append(Evidence(node, f"it is annotated `{ctx.code(annotation)}`"))
        return evidence, list(calls.doubts)

    def _mask_index(self, fn: cst.FunctionDef, entry: JitEntry, param: str) -> Use | None:
        """`param` indexes an array in the body (``x[problem]``, ``x.at[problem].set(0.0)``) and a
        call through the jit passes an array not shown to hold integers: a boolean mask there picks
        as many elements as it holds True, a size it needs concrete (NonConcreteBooleanIndexError
        once traced: jax#34127), so the static slot cannot simply go."""
        ctx = self.ctx
        node = parameter(fn, param)
        indexes = [
            read for read in (reads(ctx, node.name) if node is not None else ())
            if isinstance(ctx.parent(read), cst.Index) and ctx.enclosing_function(read) is fn
        ]
        if not indexes:
            return None
        calls = calls_through(self.analysis, fn, entry, param, _judge).calls
        info = function_info(ctx, fn)
        for call in calls:
            argument = call_argument(call, info.signature, param, bound=False)
            if isinstance(argument, cst.BaseExpression) and not _integer_array(self.analysis, argument):
                line = ctx.span(indexes[0]).start.line
                return Use(
                    Need.NEEDS,
                    indexes[0],
                    f"it indexes an array (line {line}), and the call on line {ctx.span(call).start.line} passes "
                    f"`{ctx.code(argument)}`, not shown to hold integers: as a boolean mask it must be concrete",
                )
        return None

    def _param(self, fn: cst.FunctionDef, entry: JitEntry, param: str) -> Finding | None:
        ctx = self.ctx
        evidence, doubts = self._evidence(fn, entry, param)
        if not evidence:
            return None
        if read_as_loop_count(ctx, fn, param, _REWRITABLE_COUNTS) and self.analysis.traced.param_source(fn, param) is not None:
            return None  # a static loop count fed an array: JAX301 reports it, and may rewrite the loop
        info = function_info(ctx, fn)
        where = _spec_node(ctx, entry, info.signature, param)
        head = (
            f"`{param}` is a static parameter of the jitted `{info.name}`, but {evidence[0].text}: "
            "a static argument is hashed, and no array is hashable"
        )
        use = self._mask_index(fn, entry, param) or self.uses.first_need(fn, param)
        if use is not None and use.need is Need.NEEDS:
            converted = ints_at_calls(self.analysis, fn, entry, param)
            if not isinstance(converted, str):
                return ctx.finding(
                    "JAX403",
                    where,
                    f"{head}; `{param}` must be concrete in `{info.name}` ({use.reason}), and each array a call "
                    f"passes holds one integer (made by `np.array` of a Python int, in an integer dtype), so the "
                    f"call passes its value, `int(...)`, a hashable Python int",
                    converted,
                    description=f"pass `{param}` as a Python int",
                    notes=("each distinct value compiles once, as a static int does",),
                )
            return ctx.finding(
                "JAX403",
                where,
                f"{head}; not rewritten: `{param}` must be concrete in `{info.name}`: {use.reason}",
                notes=(
                    f"option: pass a hashable copy instead (`int(...)` of an array holding one integer, "
                    f"`tuple(....tolist())` of a vector, at the call) and read it so in the body; each distinct "
                    f"value compiles again (not done here: {converted})",
                    f"option: compute what needs the concrete value before calling `{info.name}` and pass that "
                    f"(a Python int, a shape) as the static argument, with `{param}` traced",
                ),
            )
        if info.method in (MethodKind.INSTANCE, MethodKind.CLASS) and info.signature.params:
            receiver = info.signature.params[0].name
            if receiver not in entry.wrapper.spec.declared_static(info.signature):  # type: ignore[union-attr]
                # jax#17158: static_argnums counts `self`; without it static, dropping `param` leaves a
                # jit that traces the receiver, which is no array either.
                return ctx.finding(
                    "JAX403",
                    where,
                    f"{head}; not rewritten: `{info.name}` is a method, and its jit's static_argnums count "
                    f"`{receiver}` too, which stays traced (the index may have meant the next parameter)",
                    notes=(
                        f"option: make `{receiver}` static as well and count it (`static_argnums=(0, ...)`), or jit "
                        "a function that takes the instance's data as arguments",
                    ),
                )
        edit = StaticEditor(ctx).drop(entry.wrapper, entry.node, info.signature, param)
        if isinstance(edit, str):
            return ctx.finding("JAX403", where, f"{head}; not rewritten: {edit}")
        unsure = [use.reason] if use is not None else []
        unsure.extend(doubts)
        unsure.extend(doubts_elsewhere(self.analysis, fn, entry, param, _judge))  # last: it may parse the project's other modules
        notes = ["a traced argument compiles once per shape and dtype, not once per value"]
        if unsure:
            notes.insert(0, f"unsafe: {unsure[0]}; if it needs `{param}` concrete, the traced value fails there")
        return ctx.finding(
            "JAX403",
            where,
            f"{head}; nothing in `{info.name}` needs `{param}` concrete, so it becomes a regular (traced) argument",
            edit.edits,
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description=f"make `{param}` a traced argument of `{info.name}`",
            notes=tuple(notes),
        )


def _jitted_by_call(ctx) -> frozenset[str]:
    """Names handed to a call that says static_argnums/static_argnames (``jax.jit(f, static_argnums=1)``).

    `TraceIndex.jit_entry` finds such a jit from the function's references,
    and listing a method's references scans every attribute of the module:
    asking only for these names (and decorated defs) keeps that off the
    thousands of test methods a large module has.
    """
    out: set[str] = set()
    for call in ctx.calls:
        # `jax.jit(f, static_argnums=1)`, or `partial(jax.jit, static_argnums=1)(f)`
        says = _says_static(call) or (isinstance(call.func, cst.Call) and _says_static(call.func))
        first = call.args[0].value if says and call.args else None
        if first is None and isinstance(call.func, (cst.Name, cst.Attribute)) and (applied := read_jit_application(ctx, call)) is not None:
            first = applied[1]  # `variant(jax.jit, step)`: a def of the module that applies jit for us
        if isinstance(first, cst.Name):
            out.add(first.value)
        elif isinstance(first, cst.Attribute):
            out.add(first.attr.value)
    return frozenset(out)


def _says_static(call: cst.Call) -> bool:
    return any(a.keyword is not None and a.keyword.value in STATIC_KEYWORDS for a in call.args)




def _judge(analysis: Analysis, argument: cst.BaseExpression) -> Judged:
    """An array is the evidence; a number traces as well; anything else may need the static slot."""
    origin = array_origin(analysis, argument)
    if origin is not None and _static_arithmetic(analysis, argument):
        return Judged()  # jnp arithmetic on static ints, staged by jit: JAX402 rewrites it to Python's
    if origin is not None:
        return Judged(evidence=origin)
    if _number(analysis.ctx, argument):
        return Judged()
    return Judged(doubt="which may not be an array")


def _static_arithmetic(analysis: Analysis, argument: cst.BaseExpression) -> bool:
    from jaxfix.transforms.semantics.jnp_arithmetic import read_op
    from jaxfix.transforms.semantics.staged import in_eager_block, runs_staged

    ctx = analysis.ctx
    return (
        read_op(ctx, argument) is not None
        and runs_staged(analysis, ctx.enclosing_function(argument))
        and not in_eager_block(ctx, argument)
    )



def _number(ctx, expr: cst.BaseExpression) -> bool:
    """A Python number or None written out: traced, it computes the same (weak types)."""
    value = constant_value(ctx, expr)
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _spec_node(ctx, entry: JitEntry, sig, param: str) -> cst.CSTNode:
    """The static_argnums/static_argnames keyword that lists the parameter, else the jit."""
    call = entry.wrapper.call
    index = sig.positional_index(param)
    n = len(sig.positional)
    for arg in call.args if call is not None else ():
        if arg.keyword is None or arg.keyword.value not in ("static_argnums", "static_argnames"):
            continue
        value = constant_value(ctx, arg.value)
        items = value if isinstance(value, tuple) else (value,)
        if value is NOT_CONSTANT:
            return arg
        if arg.keyword.value == "static_argnums" and index is not None and any(
            isinstance(i, int) and (i == index or i + n == index) for i in items
        ):
            return arg
        if arg.keyword.value == "static_argnames" and param in items:
            return arg
    return entry.node


# -- the screen -------------------------------------------------------------------


def _seeds(facts: Facts) -> list[ast.AST]:
    """Calls of names jitted with static arguments that pass something spelled like an array into a static slot;
    defs jitted with static arguments whose parameters are annotated as arrays."""
    from jaxfix.transforms.gate.screen import calls_on

    out: list[ast.AST] = []
    names = facts.static_jitted_names
    words = names | facts.jit_factories  # `make_run(step)(x)` calls what the factory returns
    lines = facts.lines_of_words(words) if words else set()
    for call in calls_on(facts, lines):
        for slots in facts.slots_for_call(call) or []:
            if slots is None:
                candidates = [*call.args, *(k.value for k in call.keywords)]
            else:
                candidates = slots.arguments(call)
            if any(_may_be_array(facts, c, call.lineno) for c in candidates):
                out.append(call)
                out.extend(_jitted_defs(facts, spelled_name(call.func) or "", call if isinstance(call.func, ast.Name) else None))
                break
    for name in names:
        for node in facts.defs_by_name.get(name, ()):
            annotations = [a.annotation for a in _static_params(facts, name, node) if a.annotation]
            if any(_may_say_array(facts, a) for a in annotations):
                out.append(node)
    # An inline ``jax.jit(f, static_argnums=...)(x)``: its keyword is on a static line, so the
    # call is among the calls written on the statements there.
    for inner in calls_on(facts, facts.static_lines):
        if isinstance(inner.func, ast.Call) and any(
            k.arg in ("static_argnums", "static_argnames") for k in inner.func.keywords
        ):
            if any(_may_be_array(facts, a, inner.lineno) for a in (*inner.args, *(k.value for k in inner.keywords))):
                out.append(inner)
                for wrapped in inner.func.args[:1]:
                    out.extend(_jitted_defs(facts, spelled_name(wrapped) or "", inner if isinstance(wrapped, ast.Name) else None))
    # `jax.pmap(f, static_broadcasted_argnums=...)`, called inline or through the name it is bound to.
    pmap_lines = facts.lines_containing("static_broadcasted")
    out.extend(calls_on(facts, pmap_lines))
    for statement in facts.statements_on(pmap_lines):
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            out.extend(calls_on(facts, facts.lines_of_words({statement.targets[0].id})))
    return list({id(node): node for node in out}.values())


def _static_params(facts: Facts, name: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    """The def's parameters its jits may make static (all of them when a jit's static arguments cannot be read)."""
    every = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    slots = [s for _, s in facts.static_slots.get(name, [])]
    if not slots or any(s is None for s in slots):
        return every
    positional = [*node.args.posonlyargs, *node.args.args]
    out = []
    for i, arg in enumerate(every):
        index = i if i < len(positional) else None
        if any(
            arg.arg in s.names or (index is not None and (index in s.positions or index - len(positional) in s.positions))
            for s in slots  # type: ignore[union-attr]
        ):
            out.append(arg)
    return out


def _jitted_defs(facts: Facts, name: str, call: ast.Call | None = None) -> list[ast.AST]:
    """The defs behind a jitted name: the def itself, or the def an assignment on a static line jits.

    The rule follows the parameter into the helpers the def calls, so the
    slice must keep those bodies (`Rule.follows_callees`). A plain name
    called at `call` means a def bound in a scope around the call (a test
    file defines a jitted ``f`` in every test): the others are left out.
    """
    found: list[ast.AST] = list(facts.defs_by_name.get(name, ()))
    for statement in facts.statements_on(facts.static_lines):
        if isinstance(statement, ast.Assign) and any(spelled_name(t) == name for t in statement.targets):
            for inner in ast.walk(statement.value):
                if isinstance(inner, ast.Name):
                    found.extend(facts.defs_by_name.get(inner.id, ()))
    if call is not None:
        around = facts.scopes_around(call.lineno)
        found = [node for node in found if facts.scope_of(node) in around]
    return found


def _may_say_array(facts: Facts, annotation: ast.expr) -> bool:
    """The screen's `_array_annotation`: the annotation's head, through the imports."""
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return any(array_annotation(qualified) for qualified in qualified_spellings(facts, head))


def _may_be_array(facts: Facts, expr: ast.expr, line: int, depth: int = 0) -> bool:
    from jaxfix.transforms.gate.screen_tracing import name_values

    if depth > 8:
        return True
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in NUMPY_SAMPLERS:
            return True  # `rng.normal(size=3)`: `numpy_sample` tells the generator
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in RESHAPING_METHODS:
            return _may_be_array(facts, expr.func.value, line, depth + 1)
        if isinstance(expr.func, ast.Name) and facts.lines_containing("example_libraries"):
            return True  # `opt_init(params)`: `array_origin` reads the optimizer it is unpacked from
        # `array_origin`'s test on the import's spelling (libcst resolves the same import, or nothing).
        return any(made_array(qualified) for qualified in qualified_spellings(facts, expr.func))
    if isinstance(expr, (ast.Subscript, ast.BinOp)):
        parts = [expr.value] if isinstance(expr, ast.Subscript) else [expr.left, expr.right]
        return any(_may_be_array(facts, p, line, depth + 1) for p in parts)
    if isinstance(expr, ast.Attribute):
        # `space.high`: what some `__init__` stores there (`array_values._stored_array`)
        stored = facts.attribute_stores.get(expr.attr, ())
        return any(_may_be_array(facts, v, getattr(v, "lineno", line), depth + 1) for v in stored)
    if isinstance(expr, ast.Name):
        values = name_values(facts, expr.id, line)
        if values is None:
            return True
        return any(v is not True and v is not False and _may_be_array(facts, v, getattr(v, "lineno", line), depth + 1) for v in values)
    return False


class ArrayStatic403(Rule):
    """An array-valued parameter is listed in ``static_argnums`` / ``static_argnames``.

    jit hashes every static argument to key its cache, and arrays are not
    hashable: a ``jnp`` or NumPy array, a jnp scalar such as
    ``jnp.float32(2.0)`` and a PRNG key all fail::

        ValueError: Non-hashable static arguments are not supported. An error
        occurred while trying to hash an object of type <class 'jaxlib._jax.ArrayImpl'>

    (a NumPy scalar such as ``np.float32(2.0)`` hashes, and is not reported).
    The finding is raised where a call in the module passes an array to the
    static parameter, or where the parameter is annotated as an array.

    The fix removes the parameter from ``static_argnums``/``static_argnames``
    (argnums stay argnums, a jit left without static arguments becomes plain
    ``jax.jit``), so the array is traced: it compiles once per shape and
    dtype instead of once per value. It is made only when nothing in the
    body needs the concrete value; a Python ``if`` on it, ``int()``,
    ``.item()``, ``.tolist()``, ``range()``, a shape, a slice bound, NumPy's
    conversion or hashing does, and so does an index (``x.at[problem]``)
    where a call passes an array not shown to hold integers: a boolean mask
    must be concrete (jax#34127). There, where every array a call passes surely
    holds one integer (``np.array(4, np.int32)``, followed through names and
    the attribute an ``__init__`` stores it in: dynalang#10's ``space.high``),
    the call passes ``int(...)`` of it instead (`repairs.scalar_to_int`);
    otherwise the finding names that use and the options (a hashable copy
    such as ``tuple(w.tolist())``, or a static value computed before the
    call). A use we cannot follow (a helper outside the
    module's reach), or a call passing something that may not be an array,
    makes the fix unsafe.

    ``jax.pmap``'s ``static_broadcasted_argnums`` hashes the same way; an
    array passed there is reported, never rewritten (`pmap_static`). So is
    an object in a static slot whose class's own ``__hash__`` hashes an
    attribute a construction gives an array (`hashed_attributes`); an
    instance of a pytree class whose arrays sit in data fields leaves the
    static arguments instead, and traces.
    """

    code = "JAX403"
    name = "array-static-arg"
    summary = "an array-valued parameter is listed in static_argnums/static_argnames"
    required = (("static_arg", "static_broadcasted"), ("jnp", "numpy", "random", "Array", "ndarray", "example_libraries"))
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return hashed_attributes.seeds(facts) or _seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [
            *ArrayStatic(analysis).findings(),
            *pmap_findings(analysis),
            *hashed_attributes.hashed_array_findings(analysis),
        ]


def _integer_array(analysis: Analysis, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """``np.array([0, 2])`` (integer literals), or an array made with an integer ``dtype=``,
    through a name bound once: surely no boolean mask."""
    ctx = analysis.ctx
    if isinstance(expr, cst.Name) and depth < 4:
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _integer_array(analysis, value, depth + 1)
    if not isinstance(expr, cst.Call) or not expr.args:
        return False
    dtype = next((a.value for a in expr.args if a.keyword is not None and a.keyword.value == "dtype"), None)
    if dtype is not None:
        return "int" in (ctx.names.qualified_name(dtype) or ctx.code(dtype)).rsplit(".", 1)[-1]
    data = expr.args[0].value
    elements = [e.value for e in data.elements] if isinstance(data, (cst.List, cst.Tuple)) else []
    return bool(elements) and all(isinstance(e, cst.Integer) for e in elements)

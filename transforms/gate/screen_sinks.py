"""Does a value reach a place that needs it concrete? `concrete_sinks.Follower`'s question, on the stdlib ast.

JAX402's screen: ``jnp.add``/``jnp.abs``/``.astype`` are everywhere in JAX
code, and only the calls whose result reaches a shape, a count, ``range``, a
slice bound, a conversion, a Python ``if`` or a static argument can be
findings. Answering that here, on the ast the screen already has, keeps
libcst from parsing the many modules where jnp arithmetic only computes
arrays. The answer may say yes where the Follower says no (it keeps every
call of a name jitted with static arguments, and a callee's argument
positions are matched through every qualified name its spelling could
resolve to), never the reverse: what the Follower climbs through, this
climbs through too.
"""

from __future__ import annotations

import ast

from jaxfix.transforms.gate.screen import _defs_around, qualified_spellings
from jaxfix.transforms.semantics.sinks import (
    ARRAY_KEEPING_METHODS,
    AXIS_SECOND,
    COMPARING,
    CONVERSIONS,
    CONVERTING_METHODS,
    EXACT_REDUCTIONS,
    LINEN_SWITCHES,
    numpy_function,
)
from jaxfix.transforms.semantics.size_arguments import ALL, SIZE_ARGUMENTS, VALUE_SHAPED, VALUE_SIZED
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION, FORI_LOOP

_DEPTH = 6


def reaches_sink(facts, call: ast.Call) -> bool:
    """Can the value of `call` flow, inside its function, to a place that needs it concrete?"""
    around = _defs_around(facts, call.lineno)
    if around:
        body: ast.AST = around[-1]
    else:
        # Module-level code is never staged; a lambda written there may be.
        statements = [
            s for s in facts.statements_on({call.lineno})
            if any("lambda" in line for line in facts.lines[s.lineno - 1 : s.end_lineno or s.lineno])
        ]
        if not statements:
            return False
        body = statements[0]
    index = _index(facts, body)
    if call not in index.parents:
        return True  # cannot place it: let libcst decide
    if not around and not _inside_lambda(index.parents, call):
        return False
    return _climb(facts, index, call, 0, {})


def constant_reaches_sink(facts, name: str) -> list[ast.AST]:
    """The functions a read of the module-level `name` may flow, inside them, to a place that needs
    it concrete (`sinks.Follower` follows a module constant into the functions reading it)."""
    return [
        f for f in _functions(facts)
        if any(_climb(facts, _index(facts, f), read, 0, {}) for read in _index(facts, f).loads.get(name, ()))
    ]


def field_reaches_sink(facts, field: str) -> list[ast.AST]:
    """The functions a read ``self.<field>`` may flow, inside them, to a place that needs it
    concrete (`sinks.init_field`: the Follower follows a field ``__init__`` sets to its reads)."""
    out: list[ast.AST] = []
    for f in _functions(facts):
        if isinstance(f, ast.Lambda):
            continue
        index = _index(facts, f)
        reads = [n for n in index.parents if isinstance(n, ast.Attribute) and n.attr == field and isinstance(n.ctx, ast.Load)]
        if any(_climb(facts, index, read, 0, {}) for read in reads):
            out.append(f)
    return out


def parameter_reaches_sink(facts, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> bool:
    """Can a parameter of `function` flow, inside it, to a place that needs it concrete?"""
    args = function.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    index = _index(facts, function)
    return any(
        _climb(facts, index, read, 0, {}) for name in names for read in index.loads.get(name, ())
    )


class _Index:
    """One function's nodes: each node's parent, and the reads of each name (built once per function)."""

    def __init__(self, body: ast.AST) -> None:
        self.parents: dict[ast.AST, ast.AST] = {}
        self.loads: dict[str, list[ast.Name]] = {}
        for node in ast.walk(body):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.loads.setdefault(node.id, []).append(node)


def _functions(facts) -> list[ast.AST]:
    """Every def and lambda of the module (listed once: each module constant asks)."""
    if "_sink_functions" not in facts.__dict__:
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
        facts.__dict__["_sink_functions"] = [f for f in facts.nodes if isinstance(f, kinds)]
    return facts.__dict__["_sink_functions"]


def _index(facts, body: ast.AST) -> _Index:
    cache = facts.__dict__.setdefault("_sink_index", {})
    if id(body) not in cache:
        cache[id(body)] = (body, _Index(body))  # the node is kept so that its id stays its own
    return cache[id(body)][1]


def _constant_item(expr: ast.AST) -> bool:
    """``args[0]``: an item of a name at a constant index, which may be a Python list a loop
    carries (`carried_lists.carried_list_index`, jax#2962), generously here."""
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Name)
        and isinstance(expr.slice, ast.Constant)
        and isinstance(expr.slice.value, int)
    )


def _inside_lambda(parents: dict, node: ast.AST) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Lambda):
            return True
    return False


def _climb(facts, index: _Index, node: ast.AST, depth: int, explored: dict[ast.AST, int]) -> bool:
    """Does `node`'s value reach a sink, following assignments to names at most `_DEPTH` deep?

    `explored` holds each assignment already followed without finding a sink, with the depth it
    was followed from: from there or deeper it cannot find one either (it sees a subset of the
    same reads), so it is not walked again. Without it, a name reassigned and read many times
    (``x = f(x)`` down a long function) made the walk exponential in the number of reads.
    """
    parents = index.parents
    while True:
        parent = parents.get(node)
        if parent is None:
            return False
        if isinstance(parent, (ast.BinOp, ast.Compare)) or (
            isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not)
        ):
            node = parent
            continue
        if isinstance(parent, (ast.ListComp, ast.GeneratorExp)) and parent.elt is node:
            node = parent  # a list of such values (`sinks.Follower`)
            continue
        if isinstance(parent, (ast.Tuple, ast.List)) or (isinstance(parent, ast.Subscript) and parent.value is node):
            node = parent  # an element of an array is an array (JAX304 follows it)
            continue
        if isinstance(parent, ast.Slice):
            return True
        if isinstance(parent, ast.Attribute) and parent.attr in ARRAY_KEEPING_METHODS | EXACT_REDUCTIONS:
            outer = parents.get(parent)
            if isinstance(outer, ast.Call) and outer.func is parent:
                node = outer  # `.astype(jnp.int32)` keeps the values (`sinks.Follower`)
                continue
        if isinstance(parent, ast.Attribute) and parent.attr in CONVERTING_METHODS:
            outer = parents.get(parent)
            return isinstance(outer, ast.Call) and outer.func is parent  # `mean.item()` (`sinks.Follower`)
        if isinstance(parent, ast.Subscript) and parent.slice is node:
            if facts.python_sequence(parent.value) or _constant_item(parent.value):
                return True  # a Python list's index must be a concrete int (a carry's item may be one)
            node = parent  # what an array gives at a traced index is traced (JAX304 follows it)
            continue
        if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is node:
            return True
        if isinstance(parent, ast.BoolOp) or isinstance(parent, ast.UnaryOp):
            return True  # `and`/`or`/`not` need a concrete bool
        if isinstance(parent, ast.keyword):
            call = parents.get(parent)
            return isinstance(call, ast.Call) and (
                sink_call(facts, call, None, parent.arg) or _fields_reach_sink(facts, call)
            )
        if isinstance(parent, ast.Starred):
            call = parents.get(parent)
            return isinstance(call, ast.Call) and sink_call(facts, call, None, None)
        if isinstance(parent, ast.Call) and node is not parent.func:
            if isinstance(parent.func, ast.Name) and parent.func.id in ("tuple", "list"):
                above = parents.get(parent)  # `table[tuple(lo)]`: a key as unhashable as the tracer
                if isinstance(above, ast.Subscript) and above.slice is parent and facts.python_sequence(above.value):
                    return True
            return sink_call(facts, parent, parent.args.index(node) if node in parent.args else None, None) or (
                _fields_reach_sink(facts, parent)
            )
        if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node and isinstance(parent.target, ast.Name):
            if depth >= _DEPTH:
                return False
            return any(_climb(facts, index, read, depth + 1, explored) for read in index.loads.get(parent.target.id, ()))
        if isinstance(parent, ast.Return) and parent.value is node:
            fn = _enclosing_def(parents, parent)
            return fn is not None and _results_reach_sink(facts, fn.name)
        if isinstance(parent, ast.Assign) and parent.value is node:
            names = _assigned_names(parent)
            if names is None or depth >= _DEPTH:
                return False
            if explored.get(parent, _DEPTH) <= depth:
                return False
            explored[parent] = depth
            return any(
                _climb(facts, index, read, depth + 1, explored) for name in names for read in index.loads.get(name, ())
            )
        return False


def _enclosing_def(parents: dict, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The def whose ``return`` `node` is (None: a lambda's body holds no return)."""
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _results_reach_sink(facts, name: str) -> bool:
    """Can what a def named `name` returns reach a sink where it is called (`sinks.Follower._returned`)?
    Generous: any call ``name(...)`` or ``<anything>.name(...)``."""
    cache = facts.__dict__.setdefault("_result_sinks", {})
    if name not in cache:
        cache[name] = False  # in progress: a def returning its own call proves nothing
        cache[name] = any(
            reaches_sink(facts, call) for call in facts.calls
            if (call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)) == name
        )
    return cache[name]


def _assigned_names(assign: ast.Assign) -> list[str] | None:
    """The one name bound, or each name of ``u, s, vt = ...`` (`sinks.Follower` follows every part
    of a traced value, generously here: it does so only through indexing)."""
    if len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
        return [e.id for e in target.elts]  # type: ignore[attr-defined]
    return None


def _fields_reach_sink(facts, call: ast.Call) -> bool:
    """``MLP(widths + (n,))`` of a class of the module: can a field its methods read as
    ``self.<field>`` reach a sink there (`sinks.Follower._field`)? Generous: any field, any method."""
    if not isinstance(call.func, ast.Name) or call.func.id not in facts.class_names:
        return False
    cache = facts.__dict__.setdefault("_field_sinks", {})
    name = call.func.id
    if name not in cache:
        cache[name] = False  # in progress: a class building itself proves nothing
        cache[name] = any(_method_reads_reach_sink(facts, m) for m in _methods_of(facts, name))
    return cache[name]


def _helper_reaches_sink(facts, name: str) -> bool:
    """Can a parameter of a def named `name` reach a sink inside it? Generous: any parameter, any
    def of that name."""
    cache = facts.__dict__.setdefault("_helper_sinks", {})
    if name not in cache:
        cache[name] = False  # in progress: a def calling itself proves nothing
        cache[name] = any(parameter_reaches_sink(facts, d) for d in facts.defs_by_name.get(name, ()))
    return cache[name]


def _methods_of(facts, class_name: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    classes = [n for n in facts.nodes if isinstance(n, ast.ClassDef) and n.name == class_name]
    return [f for c in classes for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _method_reads_reach_sink(facts, method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    positional = [*method.args.posonlyargs, *method.args.args]
    if not positional:
        return False
    receiver = positional[0].arg
    index = _index(facts, method)
    return any(
        isinstance(parent, ast.Attribute) and _climb(facts, index, parent, 1, {})
        for read in index.loads.get(receiver, ())
        if isinstance(parent := index.parents.get(read), ast.Attribute)
    )


#: What a module that differentiates in reverse mode says (`vocabulary.REVERSE_MODE`, under any alias:
#: the import line holds the name).
_REVERSE_MODE_WORDS = ("grad", "vjp", "jacrev", "jacobian", "hessian")


def sink_call(facts, call: ast.Call, position: int | None, keyword: str | None) -> bool:
    """Does `call` need the argument at `position` (or `keyword=`) concrete, as `sinks.size_argument`
    and the Follower judge it? Both None: a starred argument, whose place is unknown."""
    func = call.func
    layer = func.func if isinstance(func, ast.Call) else func
    if isinstance(layer, (ast.Name, ast.Attribute)) and any(q in LINEN_SWITCHES for q in qualified_spellings(facts, layer)):
        return True  # any argument of a flax Dropout or BatchNorm (generous: `sinks.linen_switch`)
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name is None:
        return False
    if name in facts.static_jitted_names:
        return True  # a static parameter of a jit: the screen does not know which slots
    if isinstance(func, ast.Name) and _helper_reaches_sink(facts, func.id):
        return True  # a def of the module takes it on (`sinks.Follower._helper_parameter`)
    spellings = qualified_spellings(facts, func)
    if not spellings:
        if isinstance(func, ast.Attribute):  # a method: `x.reshape(...)`'s shape, `x.repeat(...)`'s counts
            if name == "repeat":
                return keyword in (None, "repeats") and position in (0, None)  # generous: the total not looked at
            return name == "reshape" and keyword in (None, "shape", "newshape")
        spellings = frozenset({f"builtins.{name}"})
    for qualified in spellings:
        if numpy_function(qualified):
            return True  # NumPy converts a tracer with `__array__` (`sinks.numpy_function`)
        if qualified in CONVERSIONS or (qualified in VALUE_SHAPED and position in (VALUE_SIZED[qualified][0], None)):
            return True  # a value-shaped call's sizing argument (generous: its bound not looked at)
        if qualified in COMPARING and keyword is None:
            return True  # Python's `min`/`max`/`sorted` compare what they are given
        if qualified in DIFFERENTIATION and (position in (1, None) if keyword is None else keyword == "argnums"):
            return True  # `grad(f, i)`: argnums (`sinks.argument_sink`)
        if qualified.startswith("jax.numpy.") and qualified.rsplit(".", 1)[-1] in AXIS_SECOND and (
            position in (1, None) and keyword is None or keyword in ("axis", "axes")
        ):
            return True  # the axis (`sinks.axis_argument`)
        if qualified == FORI_LOOP and (position in (0, 1, None) if keyword is None else keyword in ("lower", "upper")):
            if any(facts.lines_containing(word) for word in _REVERSE_MODE_WORDS):
                return True  # a bound of a loop reverse-mode grad may run (`ConcreteUses._differentiated_bound`)
        entry = SIZE_ARGUMENTS.get(qualified)
        if entry is None:
            continue
        _, positions, keywords = entry
        if position is None and keyword is None:
            return True
        if keyword is not None and keyword in keywords:
            return True
        if position is not None and (positions == ALL or position in positions):  # type: ignore[operator]
            return True
    return False

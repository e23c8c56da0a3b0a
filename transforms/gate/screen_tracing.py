"""Which values may hold a tracer: `tracedness`'s rules, over-approximated on the stdlib ast.

JAX301 reports a loop count only when `tracedness` proves it traced. This
module answers "could it prove that?" before libcst ever runs, following the
same rules with every doubt resolved towards "yes", so that a module in which
no count can be proven traced is never parsed by libcst. It mirrors:

* a name is followed only to its one binding in the function that binds it
  (a parameter, or a single assignment); a loop variable, or a name bound
  twice, proves nothing;
* an attribute or subscript of a traced value is traced, except array
  metadata (``.shape``, ``.ndim``, ``.size``, ``.dtype``); arithmetic and
  comparisons of a traced value are traced; a call is traced when it converts
  one (``.item()``, ``int()``, ``operator.index()``, ``.astype()``), is a
  method of one, or is a function of the jax package given one;
* a parameter is traced through a route to a transform: a decorator spelled
  like one, the function handed to a call spelled like one (``jax.vmap(f)``,
  ``lax.switch(i, [f, g])``), an alias (``g = f``), or a direct call whose
  argument for it is traced in the caller. A decorator that is not spelled
  like a transform hides every route; so does handing the function to code
  that is not (both are routes `tracing` cannot follow either).

Names are matched by spelling, not resolved: a name that could mean a jax
module (an import that mentions jax) is taken to be one.
"""

from __future__ import annotations

import ast
import weakref

from jaxfix.transforms.gate.astwalk import child_nodes
from jaxfix.transforms.gate.screen import (
    TRACING_WORDS,
    Facts,
    StaticSlots,
    _defs_around,
    _own_nodes,
    _params,
    _static_calls,
    lines_mentioning,
    qualified_spellings,
    spelled_name,
)
from jaxfix.transforms.semantics.array_api import ARRAY_ATTRIBUTES, ARRAY_METHODS, JAX_ARRAY_MODULES

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
_MAX_DEPTH = 24
_METADATA = frozenset({"shape", "ndim", "size", "dtype"})
_NEUTRAL = frozenset({"staticmethod", "classmethod"})
_CONVERSIONS = frozenset({"item", "astype", "int", "index", "float", "tolist"})


class TracedParams:
    def __init__(self, facts: Facts) -> None:
        # Held weakly: the tracer is memoized on its Facts (`traced_params`), and that cycle
        # kept the module's whole ast tree alive until the collector traversed it.
        self._facts = weakref.ref(facts)
        self._params: dict[tuple[int, str], bool] = {}
        self._bindings: dict[int, dict[str, list[ast.AST]]] = {}

    @property
    def facts(self) -> Facts:
        facts = self._facts()
        assert facts is not None, "a TracedParams outlived its Facts"
        return facts

    # -- expressions -------------------------------------------------------------------
    def expression(self, expr: ast.AST, line: int, depth: int = 0) -> bool:
        """Could `tracedness` prove `expr`, written on `line`, traced?"""
        if depth > _MAX_DEPTH:
            return True
        deeper = depth + 1
        if isinstance(expr, ast.Name):
            return self._name(expr.id, line, deeper)
        if isinstance(expr, ast.Attribute):
            # A field of a NamedTuple or pytree dataclass parameter is a leaf, traced with it
            # (`namedtuple_parameter`, `traced_values._data_field`).
            field = isinstance(expr.value, ast.Name) and _defines_field_classes(self.facts)
            return (expr.attr in ARRAY_ATTRIBUTES or field) and self.expression(expr.value, line, deeper)
        if isinstance(expr, ast.Subscript):
            if isinstance(expr.value, ast.Attribute) and expr.value.attr in _METADATA:
                return False
            indices = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
            # An array indexed by a tracer is a tracer (`traced_values` asks that of arrays only).
            return self.expression(expr.value, line, deeper) or any(self.expression(i, line, deeper) for i in indices)
        if isinstance(expr, ast.Call):
            return self._call(expr, line, deeper)
        if isinstance(expr, ast.UnaryOp):
            return self.expression(expr.operand, line, deeper)
        if isinstance(expr, ast.BinOp):
            return self.expression(expr.left, line, deeper) or self.expression(expr.right, line, deeper)
        if isinstance(expr, ast.BoolOp):
            return any(self.expression(v, line, deeper) for v in expr.values)
        if isinstance(expr, ast.Compare):
            return any(self.expression(v, line, deeper) for v in (expr.left, *expr.comparators))
        return False

    def _call(self, call: ast.Call, line: int, depth: int) -> bool:
        func = call.func
        name = spelled_name(func)
        if name in _CONVERSIONS:
            # ``x.item()``, ``x.astype(int)`` convert their receiver; ``int(x)``,
            # ``operator.index(x)`` their argument: follow both, whichever it is.
            operands = [*call.args[:1], *([func.value] if isinstance(func, ast.Attribute) else [])]
            if any(self.expression(o, line, depth) for o in operands):
                return True
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.facts.imported_names:
            if root.id in self._jax_names:
                return any(self.expression(a, line, depth) for a in (*call.args, *(k.value for k in call.keywords)))
            return False
        if isinstance(func, ast.Attribute):
            # An array method, or `d.get(k, default)` of a traced dict (`traced_values`: an item, as `d[k]`)
            item = func.attr == "get" and 1 <= len(call.args) + len(call.keywords) <= 2
            return (func.attr in ARRAY_METHODS or item) and self.expression(func.value, line, depth)
        arguments = (*call.args, *(k.value for k in call.keywords))
        if isinstance(func, ast.Name) and func.id in self._jax_names:
            return any(self.expression(a, line, depth) for a in arguments)
        if isinstance(func, ast.Call):
            return any(self.expression(a, line, depth) for a in arguments)  # ``nn.Dense(8)(x)``
        if isinstance(func, ast.Name):
            # A def of the module, read with the arguments this call passes (`_returned_source`),
            # or one nested in a function, whose returns may read that function's tracers.
            return any(self.expression(a, line, depth) for a in arguments) or bool(_defs_around(self.facts, line))
        return False

    @property
    def _jax_names(self) -> frozenset[str]:
        names = self.facts.__dict__.get("_jax_names")
        if names is None:
            # flax's names too: ``nn.softmax(x)``, ``nn.Dense(8)(x)`` give tracers (`array_api.linen_function`).
            lines = self.facts.lines_containing("import") & (self.facts.lines_containing("jax") | self.facts.lines_containing("flax"))
            found: set[str] = set()
            for node in self.facts.statements_on(lines):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found.update((a.asname or a.name).split(".")[0] for a in node.names)
            names = self.facts.__dict__["_jax_names"] = frozenset(found)
        return names

    def _name(self, name: str, line: int, depth: int) -> bool:
        """A name is followed to its one binding, in the innermost function that binds it."""
        lambdas = self._lambdas_around(line)
        if any(name in _params(lam) for lam in lambdas):
            return True  # a lambda's parameter: the lambda may be handed to a transform
        found = self.nearest_bindings(name, line)
        if found is None:
            return False  # a global, an import or a builtin
        owner, bindings = found
        # Bound more than once: the analysis follows the binding that reaches the read (a
        # parameter rebound later, the last straight-line assignment: `constants`) or every
        # binding (`traced_values._every_binding_source`); any of them may be the one.
        return any(self._binding(owner, name, b, line, depth) for b in bindings)

    def _binding(self, owner: FunctionNode, name: str, binding, line: int, depth: int) -> bool:
        if binding is _PARAMETER:
            return self.parameter(owner, name, depth)
        if binding is _OTHER:
            return False
        return self.expression(binding, getattr(binding, "lineno", line), depth)

    def nearest_bindings(self, name: str, line: int) -> tuple[FunctionNode, list] | None:
        """The innermost function around `line` that binds `name`, and its bindings of it."""
        for owner in reversed(_defs_around(self.facts, line)):
            bindings = self._bindings_of(owner).get(name)
            if bindings is not None:
                return owner, bindings
        return None

    def _lambdas_around(self, line: int) -> list[ast.Lambda]:
        return [
            n
            for stmt in self.facts.statements_on({line})
            for n in _own_nodes(stmt)
            if isinstance(n, ast.Lambda) and n.lineno <= line <= (n.end_lineno or n.lineno)
        ]

    def _bindings_of(self, function: FunctionNode) -> dict[str, list]:
        """Names a function binds -> one entry per binding: the value assigned,
        _PARAMETER, or _OTHER (a binding `tracedness` does not follow)."""
        key = id(function)
        if key not in self._bindings:
            out: dict[str, list] = {p: [_PARAMETER] for p in _params(function)}
            handled: set[int] = set()
            for node in _function_nodes(function):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if len(targets) == 1:
                        for target, value in _pairs(targets[0], node.value):
                            out.setdefault(target.id, []).append(value)
                            handled.add(id(target))
                elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in handled:
                    out.setdefault(node.id, []).append(_OTHER)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.setdefault(node.name, []).append(_OTHER)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    for alias in node.names:
                        out.setdefault((alias.asname or alias.name).split(".")[0], []).append(_OTHER)
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    out.setdefault(node.name, []).append(_OTHER)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    for name in node.names:
                        out.setdefault(name, []).extend([_OTHER, _OTHER])
            self._bindings[key] = out
        return self._bindings[key]

    # -- parameters --------------------------------------------------------------------
    def parameter(self, function: FunctionNode, name: str, depth: int = 0) -> bool:
        key = (id(function), name)
        if key not in self._params:
            self._params[key] = False  # in progress: a cycle of plain calls adds no tracer
            self._params[key] = depth > _MAX_DEPTH or self._parameter(function, name, depth)
        return self._params[key]

    def _parameter(self, function: FunctionNode, name: str, depth: int) -> bool:
        facts = self.facts
        if id(function) in facts.linen_calls:
            return True  # a flax linen Module's, run by `apply` and `init` (`tracing._linen_entries`)
        static_here = False
        for decorator in function.decorator_list:
            words = {spelled_name(n) for n in ast.walk(decorator)}
            if words & _NEUTRAL:
                continue
            if not words & TRACING_WORDS:
                return False  # a decorator `tracing` does not know: every route escapes
            if words & TRACING_WORDS <= {"jit", "partial"} and _static_on(decorator, function, name):
                static_here = True  # static on its jit: traced only if fed a tracer or an array
                continue
            return True
        for line in sorted(lines_mentioning(facts, [function.name]) - {function.lineno}):
            statements = facts.statements_on({line})
            if not statements:
                continue
            statement = statements[-1]
            parents = _parents(statement)
            for node in parents:
                if spelled_name(node) != function.name or getattr(node, "lineno", 0) != line:
                    continue
                if isinstance(node, ast.Attribute) and node.value is None:
                    continue
                found = self._use(node, parents, function, name, line, static_here, depth)
                if found:
                    return True
        return False

    def _use(self, node, parents, function, name, line, static_here, depth) -> bool:
        """One use of the function's name: does it give the parameter a tracer?"""
        parent = parents.get(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            argument = _argument(parent, function, name)
            if argument is _UNKNOWN:
                return True
            if argument is None:
                return False  # its default
            if static_here:
                # Static on its jit: traced only when fed a tracer or a jax array (`tracedness`).
                return self.expression(argument, line, depth + 1) or self._may_be_jax_array(argument, line)
            if not _defs_around(self.facts, line) and not self._lambdas_around(line):
                return False  # a call at module level runs on concrete values
            return self.expression(argument, line, depth + 1)
        # Handed to a call: a transform traces it; anything else is a route not followed.
        holder = parent
        while isinstance(holder, (ast.List, ast.Tuple, ast.keyword, ast.Starred)):
            holder = parents.get(holder)
        if isinstance(holder, ast.Call) and holder.func is not node:
            if spelled_name(holder.func) == "partial":
                # Through ``partial(f, ...)`` `tracing` follows one route: a jit that makes nothing
                # static right around it (``jax.jit(partial(f, x))``) traces what the partial leaves
                # open (`traced_values._left_to_a_plain_jit`); no other proves a parameter traced.
                outer = parents.get(holder)
                return isinstance(outer, ast.Call) and outer.func is not holder and spelled_name(outer.func) == "jit"
            # a def of the module may hand its parameter on to a transform (`tracing._parameter_reads`)
            return spelled_name(holder.func) in TRACING_WORDS or spelled_name(holder.func) in self.facts.defs_by_name
        if isinstance(parent, (ast.Assign, ast.AnnAssign)):
            return True  # an alias: the new name may be traced anywhere
        return False

    def _may_be_jax_array(self, expr: ast.expr, line: int, depth: int = 0) -> bool:
        """Could `tracedness.is_array` call it a jax array (a ``jnp``/``jax.random``/``jax.lax``
        result, a slice of one, or a name bound to one)?"""
        if depth > 8:
            return True
        if isinstance(expr, ast.Call):
            return any(q.startswith(JAX_ARRAY_MODULES) for q in qualified_spellings(self.facts, expr.func))
        if isinstance(expr, ast.Subscript):
            return self._may_be_jax_array(expr.value, line, depth + 1)
        if isinstance(expr, ast.Name):
            values = name_values(self.facts, expr.id, line)
            if values is None:
                return True
            return any(
                isinstance(v, ast.AST) and self._may_be_jax_array(v, getattr(v, "lineno", line), depth + 1) for v in values
            )
        return False


_PARAMETER = object()
_OTHER = object()
_UNKNOWN = object()


def _pairs(target: ast.expr, value: ast.expr):
    """(Name, value) for ``n = v``, and for ``a, b = x, y`` element by element (as `constants` follows);
    a name unpacked from anything else may hold a part of it (``h, c = carry``): the whole value."""
    if isinstance(target, ast.Name):
        yield target, value
    elif isinstance(target, (ast.Tuple, ast.List)):
        same = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
        literal = isinstance(value, (ast.Tuple, ast.List))
        for i, element in enumerate(target.elts):
            if isinstance(element, ast.Name):
                if same and not isinstance(value.elts[i], ast.Starred):
                    yield element, value.elts[i]
                else:
                    yield element, _OTHER if literal else value


def _function_nodes(function: FunctionNode):
    """A function's own nodes: not those of the functions and classes nested in it."""
    stack: list[ast.AST] = [*function.body]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(child_nodes(node))


def _parents(statement: ast.stmt) -> dict:
    """Parent of each of the statement's own nodes."""
    out: dict = {}
    for node in _own_nodes(statement):
        for child in child_nodes(node):
            out[child] = node
    out.setdefault(statement, None)
    return out


def _static_on(decorator: ast.expr, function: FunctionNode, name: str) -> bool:
    """Does this jit decorator's literal static_argnums/static_argnames cover the parameter?"""
    for call in _static_calls(decorator):
        slots = StaticSlots.read(call, function)
        if slots is not None and name in slots.names:
            return True
    return False


def _argument(call: ast.Call, function: FunctionNode, name: str):
    """The expression a call passes for a parameter; None for its default; _UNKNOWN if unclear."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return _UNKNOWN
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    args = list(call.args)
    if isinstance(call.func, ast.Attribute) and positional and positional[0] in ("self", "cls"):
        if name == positional[0]:
            return call.func.value  # the receiver is the bound instance
        positional = positional[1:]
    if name in positional:
        index = positional.index(name)
        return args[index] if index < len(args) else None
    if function.args.vararg is not None and function.args.vararg.arg == name:
        return _UNKNOWN if len(args) > len(positional) else None
    return None



def name_values(facts: Facts, name: str, line: int) -> list | None:
    """What the bindings of a name visible at `line` give it: values (ast nodes), True (a
    binding that may be anything, e.g. a parameter that is rebound or a loop target), or
    False (an unrebound parameter: whatever callers pass). None: the module binds it
    in a way we do not list (it is then taken to be anything)."""
    found = traced_params(facts).nearest_bindings(name, line)
    if found is not None:
        _, bindings = found
        if bindings == [_PARAMETER]:
            return [False]
        return [True if b is _PARAMETER or b is _OTHER else b for b in bindings]
    values: list = []
    for statement in facts.statements_on(lines_mentioning(facts, [name])):
        if facts.scope_of(statement) is not None:
            continue  # inside some function: not a module-level binding
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if len(targets) == 1:
                values.extend(v if v is not _OTHER else True for t, v in _pairs(targets[0], statement.value) if t.id == name)
                continue
            values.append(True)
        elif isinstance(statement, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.AugAssign)):
            if name in {n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}:
                values.append(True)
    return values


def rebound_in_function(facts: Facts, name: str, line: int) -> bool:
    """Is `name`, read on `line`, bound more than once in the function whose scope holds it,
    as libcst's scopes count bindings?

    False when not sure: a module-level name, a name a comprehension binds (libcst gives
    each comprehension its own scope), one deleted or declared global or nonlocal, or a
    read in a class body inside the function.
    """
    found = traced_params(facts).nearest_bindings(name, line)
    if found is None:
        return False
    owner, bindings = found
    if len(bindings) < 2:
        return False
    for statement in facts.statements_on({line}):
        if isinstance(statement, ast.ClassDef) and owner.lineno < statement.lineno <= (owner.end_lineno or 0):
            return False
    for node in _function_nodes(owner):
        if isinstance(node, ast.comprehension) and any(
            isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.target)
        ):
            return False
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Del):
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
    return True


def traced_params(facts: Facts) -> TracedParams:
    """The module's `TracedParams`, built once per `Facts` (its answers are memoized)."""
    tracer = facts.__dict__.get("_traced_params")
    if tracer is None:
        tracer = facts.__dict__["_traced_params"] = TracedParams(facts)
    return tracer


def count_may_be_traced(facts: Facts, call: ast.Call, counts: list[ast.expr]) -> bool:
    """A necessary condition for a traced loop count (see screen_tracing)."""
    tracer = traced_params(facts)
    return any(tracer.expression(count, call.lineno) for count in counts)


def _defines_field_classes(facts: Facts) -> bool:
    """Does the module define a class whose fields a traced instance holds as leaves: a
    ``class ...(NamedTuple)``, or one with a base or a decorator at all (a ``flax.struct``
    dataclass, an ``equinox.Module``, a registered dataclass: `traced_values._data_field`)? By
    spelling, generously."""
    found = facts.__dict__.get("_defines_field_classes")
    if found is None:
        found = facts.__dict__["_defines_field_classes"] = any(
            isinstance(n, ast.ClassDef) and (n.bases or n.decorator_list) for n in facts.nodes
        )
    return found

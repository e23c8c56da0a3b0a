"""JAX302's screen: the functions a jit may trace that have a parameter the analysis could find.

JAX302 reports a parameter of a jitted function when (a) one of its reads
needs a Python value (`concrete_uses.ConcreteUses`, strict) and a call passes
one, or (b) a call through the jit passes it something jit cannot trace (a
function, an object, a string: `python_values`). Seeding the whole module for
every file that says ``jit`` made libcst parse nearly every JAX file; this
screen answers both questions on the stdlib ast, saying yes wherever the
analysis might:

* a function may be jitted when it is decorated, or its name is used as a
  value anywhere (``jax.jit(f)``, ``self.f = jit(self._f)``);
* (a) mirrors ConcreteUses' climb read by read (the same stops, the same
  needs), with positions matched by spelling through the imports, helpers of
  the module followed, and anything unsure counted as a need;
* (b) looks at every call whose callee mentions a name the function may be
  bound to (its own, and names assigned from an expression mentioning one)
  and counts any argument that is not plainly a number or an array.

Held to the analysis by the golden cases, their alias variants and the
valid look-alikes: `tests/test_fast_path.py` and `tests/test_alias_variants.py`
require the same findings on both paths.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxfix.transforms.gate.astwalk import child_nodes, own_returns
from jaxfix.transforms.gate.screen import Facts, StaticSlots, qualified_spellings
from jaxfix.transforms.gate.screen_sinks import sink_call
from jaxfix.transforms.semantics.array_api import metadata_call
from jaxfix.transforms.semantics.concrete_uses import (
    CONVERSION_ATTRIBUTES,
    METADATA_ATTRIBUTES,
    STATIC_BUILTINS,
    STATIC_JNP_KEYWORDS,
)
from jaxfix.transforms.semantics.hashability import ARRAY_METADATA
from jaxfix.transforms.semantics.sinks import ARRAY_MODULES, AXIS_FIRST_METHODS, AXIS_SECOND
from jaxfix.transforms.semantics.vocabulary import STATIC_KEYWORDS

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEPTH = 8


def seeds(facts: Facts) -> list[ast.AST]:
    """The functions (and the calls into them) where JAX302 could find something."""
    index = _index(facts)
    out: list[ast.AST] = []
    for fn in _maybe_jitted(facts, index):
        declared = _declared_static(facts, index, fn)
        params = [p for p in _positional(fn) + [a.arg for a in fn.args.kwonlyargs] if p not in declared]
        if any(_needed(facts, index, fn, p, 0) for p in params):
            out.append(fn)
            out.extend(_calls_into(facts, index, fn))  # what each passes is the fix's proof (``self.topK``)
            continue
        calls = [c for c in _calls_into(facts, index, fn) if any(_untraceable(facts, index, a) for a in _arguments(c))]
        if calls:
            out.append(fn)
            out.extend(calls)
    out.extend(_named_lambdas(facts, index))
    return out


def _named_lambdas(facts: Facts, index: _Index) -> list[ast.AST]:
    """Lambdas a jit may trace, which JAX302 judges too: ``conv = lambda a, k, s: ...`` jitted by name
    (``jit(conv)(...)``), and a lambda written inside the jit (``jax.jit(lambda n: ...)(3)``, ``g =
    jax.jit(lambda n: ...)``). Generous: no static declaration is read; the lambda and the calls that
    may run it are kept when a parameter may be needed or a call may pass what jit cannot trace."""
    out: list[ast.AST] = []
    for node in facts.nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) and len(node.targets) == 1:
            lam, target = node.value, node.targets[0]
            if not isinstance(target, ast.Name):
                continue
            calls = _calls_spelling(facts, index, target.id)
            if not any("jit" in index.callee_spelled[id(c)] or "jit" in _spelled(c.func) for c in calls):
                continue
        elif isinstance(node, ast.Call) and "jit" in _spelled(node.func):
            lam = next((a for a in (*node.args, *(k.value for k in node.keywords)) if isinstance(a, ast.Lambda)), None)
            if lam is None:
                continue
            calls = [node, *_jitted_calls(facts, index, node)]
        else:
            continue
        params = [a.arg for a in (*lam.args.posonlyargs, *lam.args.args, *lam.args.kwonlyargs)]
        needed = any(_needed(facts, index, lam, p, 0) for p in params)
        if needed or any(_untraceable(facts, index, a) for c in calls for a in _arguments(c)):
            out.extend([lam, *calls])
    return out


def _calls_spelling(facts: Facts, index: _Index, name: str) -> list[ast.Call]:
    found = {id(c) for c in (*index.calls_spelling([name]), *index.calls_spelling([name], in_arguments=True))}
    return [c for c in facts.calls if id(c) in found]


def _jitted_calls(facts: Facts, index: _Index, jit_call: ast.Call) -> list[ast.Call]:
    """The calls that run ``jax.jit(lambda ...)``: itself called (``jax.jit(lambda n: ...)(3)``), or
    the name it is bound to called (``g = jax.jit(lambda ...)`` then ``g(3)``)."""
    parent = index.parents.get(jit_call)
    if isinstance(parent, ast.Call) and parent.func is jit_call:
        return [parent]
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return _calls_spelling(facts, index, parent.targets[0].id)
    return []


class _Index:
    """The module's nodes: each node's parent, the function it is written in (a nested def or
    lambda owns its own; the module owns the rest), and each scope's reads and bindings by name."""

    def __init__(self, tree: ast.Module, calls: list[ast.Call]) -> None:
        self.parents: dict[ast.AST, ast.AST] = {}
        self.owner: dict[ast.AST, ast.AST] = {}
        self.loads: dict[tuple[int, str], list[ast.Name]] = {}
        #: (scope, name) -> the nodes that bind it there (a Name store's parent, a def, an import).
        self.binds: dict[tuple[int, str], list[ast.AST]] = {}
        #: Names (and attribute names) read other than as the callee of a call.
        self.values: set[str] = set()
        callees: set[int] = set()
        stack: list[tuple[ast.AST, ast.AST]] = [(tree, tree)]
        while stack:
            node, owner = stack.pop()
            self.owner[node] = owner
            if isinstance(node, ast.Call):
                callees.add(id(node.func))
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self.loads.setdefault((id(owner), node.id), []).append(node)
                    if id(node) not in callees:
                        self.values.add(node.id)
                else:
                    self.binds.setdefault((id(owner), node.id), []).append(self.parents.get(node, node))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and id(node) not in callees:
                self.values.add(node.attr)
            elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
                self.binds.setdefault((id(owner), node.name), []).append(node)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self.binds.setdefault((id(owner), (alias.asname or alias.name).split(".")[0]), []).append(node)
            inner = node if isinstance(node, (*_FUNCTIONS, ast.Lambda)) else owner
            for child in child_nodes(node):
                self.parents[child] = node
                stack.append((child, inner))
        #: Each call's callee and arguments, as the names they spell.
        self.callee_spelled: dict[int, frozenset[str]] = {}
        self.arguments_spelled: dict[int, frozenset[str]] = {}
        for node in self.owner:
            if isinstance(node, ast.Call):
                self.callee_spelled[id(node)] = _spelled(node.func)
                self.arguments_spelled[id(node)] = frozenset().union(*(_spelled(a) for a in (*node.args, *node.keywords)))
        #: Every name some call's callee spells.
        self.callee_names: frozenset[str] = frozenset().union(*self.callee_spelled.values())
        #: Each name -> the calls whose callee (or whose arguments) spell it, in the module's order:
        #: each function's calls are looked up by its names (a scan of every call per function
        #: was quadratic in a big test module).
        self.by_callee: dict[str, list[ast.Call]] = {}
        self.by_argument: dict[str, list[ast.Call]] = {}
        self._order = {id(call): n for n, call in enumerate(calls)}
        for call in calls:
            for name in self.callee_spelled[id(call)]:
                self.by_callee.setdefault(name, []).append(call)
            for name in self.arguments_spelled[id(call)]:
                self.by_argument.setdefault(name, []).append(call)
        #: (value, names it binds) for assignments of a reference or a call: what a function may go by.
        self.assignments: list[tuple[frozenset[str], frozenset[str]]] = []
        #: (names spelled, names bound) for `g = f`, `self.g = f` and `g = jax.jit(f, ...)`.
        self.jit_bindings: list[tuple[frozenset[str], frozenset[str]]] = []
        for node in self.owner:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound = frozenset(name for t in targets for name in _spelled(t))
                self.assignments.append((_spelled(node.value), bound))
                value = node.value
                if _is_reference(value) or (isinstance(value, ast.Call) and "jit" in _spelled(value.func)):
                    self.jit_bindings.append((_spelled(value), bound))

    def reads(self, fn: ast.AST, name: str) -> list[ast.Name]:
        return self.loads.get((id(fn), name), [])

    def calls_spelling(self, names: Iterable[str], *, in_arguments: bool = False) -> list[ast.Call]:
        """The calls whose callee spells one of `names` (or, `in_arguments`, whose arguments do),
        in the module's order, each once."""
        table = self.by_argument if in_arguments else self.by_callee
        found = {id(call): call for name in names for call in table.get(name, ())}
        return sorted(found.values(), key=lambda call: self._order[id(call)])


def _index(facts: Facts) -> _Index:
    if "_param_index" not in facts.__dict__:
        facts.__dict__["_param_index"] = _Index(facts.tree, facts.calls)
    return facts.__dict__["_param_index"]


def _spelled(node: ast.AST) -> frozenset[str]:
    return frozenset(n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute)))


# -- which functions a jit may trace ----------------------------------------------------------
def _maybe_jitted(facts: Facts, index: _Index) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    handed = _handed_instances(facts, index)
    return [
        n for n in facts.nodes
        if isinstance(n, _FUNCTIONS)
        and (
            n.name in index.values
            or any(_may_jit(facts, d) for d in n.decorator_list)
            or id(n) in facts.linen_calls
            or (n.name == "__call__" and getattr(index.parents.get(n), "name", None) in handed)
        )
    ]


def _handed_instances(facts: Facts, index: _Index) -> frozenset[str]:
    """Classes of the module an instance of which is handed on (``jax.jit(model)`` with ``model =
    Model()``, or ``jax.jit(Model())``): its ``__call__`` may run under the layer it is handed to
    (`TraceIndex._instance_calls`). Generous: any use of the name as a value counts."""
    found: set[str] = set()
    for node in facts.nodes:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in facts.class_names):
            continue
        parent = index.parents.get(node)
        if isinstance(parent, ast.Assign) and any(isinstance(t, ast.Name) and t.id in index.values for t in parent.targets):
            found.add(node.func.id)
        elif isinstance(parent, ast.Call) and node in parent.args:
            found.add(node.func.id)
        elif isinstance(parent, ast.Return):
            found.add(node.func.id)  # `def make_loader(): return Loader(...)`: the call's value is the instance
    return frozenset(found)


#: Packages whose decorators never jit (a test's parameters, a property, a context manager, ...).
_PLAIN_DECORATOR_PACKAGES = (
    "absl", "parameterized", "pytest", "unittest", "typing", "typing_extensions", "dataclasses", "abc",
    "contextlib", "enum", "warnings", "deprecation", "flax.linen.compact", "flax.linen.nowrap",
)
_PLAIN_DECORATORS = frozenset({"property", "staticmethod", "classmethod", "cached_property", "wraps", "cache", "lru_cache", "overload"})


def _may_jit(facts: Facts, decorator: ast.AST) -> bool:
    """Could this decorator put a jit around the function? Yes unless it plainly cannot: one of
    Python's own, or one imported from a package that has nothing to do with JAX."""
    if "jit" in _spelled(decorator):
        return True
    head = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(head, (ast.Name, ast.Attribute)) and not isinstance(decorator, ast.Call) or isinstance(head, (ast.Name, ast.Attribute)):
        last = head.id if isinstance(head, ast.Name) else head.attr
        spellings = qualified_spellings(facts, head)
        if not spellings and isinstance(head, ast.Name) and last in _PLAIN_DECORATORS and last not in facts.defs_by_name:
            return False
        if spellings and all(q.startswith(_PLAIN_DECORATOR_PACKAGES) or q.rsplit(".", 1)[-1] in _PLAIN_DECORATORS for q in spellings):
            return False
    return True


def _positional(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]


def _declared_static(facts: Facts, index: _Index, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """Parameters the jits spelled around the function make static (`screen.StaticSlots`, as jit
    infers names and positions from each other); a spec it cannot read declares nothing (more is
    screened in, never less)."""
    specs = [d for d in fn.decorator_list if "jit" in _spelled(d)]
    specs += [c for c in index.calls_spelling(["jit"]) if fn.name in index.arguments_spelled[id(c)]]
    declared: set[str] = set()
    for spec in specs:
        for call in (n for n in ast.walk(spec) if isinstance(n, ast.Call) and any(k.arg in STATIC_KEYWORDS for k in n.keywords)):
            slots = StaticSlots.read(call, fn)
            if slots is None:
                return frozenset()
            declared |= slots.names
    return frozenset(declared)


# -- (a) a read that needs a Python value ------------------------------------------------------
def _needed(facts: Facts, index: _Index, fn: ast.AST, param: str, depth: int) -> bool:
    return any(_read_needs(facts, index, owner, read, depth) for owner, read in _reads_within(index, fn, param))


def _reads_within(index: _Index, fn: ast.AST, name: str) -> list[tuple[ast.AST, ast.Name]]:
    """(the function it is read in, the read) for `name` in fn and the functions nested in it: what
    a closure does with a value is a use of it (ConcreteUses follows it there)."""
    owners = [fn, *(n for n in ast.walk(fn) if n is not fn and isinstance(n, (*_FUNCTIONS, ast.Lambda)))]
    return [(owner, read) for owner in owners for read in index.reads(owner, name)]


def _read_needs(
    facts: Facts, index: _Index, fn: ast.AST, node: ast.AST, depth: int, followed: set[int] | None = None
) -> bool:
    """ConcreteUses' climb from one read (of `fn`'s own, or of a function nested in it)."""
    if depth > _DEPTH:
        return True
    parents = index.parents
    while True:
        parent = parents.get(node)
        if parent is None:
            return False
        if isinstance(parent, ast.Call) and parent.func is node:
            return True  # called: it must be a Python function
        if isinstance(parent, ast.Attribute):
            if parent.attr in facts.tuple_fields:
                node = parent  # maybe a NamedTuple's field, a leaf (`ConcreteUses._tuple_field`)
                continue
            if parent.attr in METADATA_ATTRIBUTES:
                return False
            if parent.attr not in CONVERSION_ATTRIBUTES:
                return False  # a field or an array method: JAX computes the rest
            outer = parents.get(parent)
            if isinstance(outer, ast.Call) and outer.func is parent:
                return True
            node = parent
            continue
        if isinstance(parent, ast.Compare):
            if all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
                return False
            node = parent
            continue
        if isinstance(parent, ast.BinOp):
            node = parent
            continue
        if isinstance(parent, ast.UnaryOp):
            if isinstance(parent.op, ast.Not):
                return True
            node = parent
            continue
        if isinstance(parent, ast.Subscript):
            if parent.value is node:
                node = parent
                continue
            return facts.python_sequence(parent.value)  # a gather takes a tracer; a Python list does not
        if isinstance(parent, ast.Slice):
            return True
        if isinstance(parent, (ast.Tuple, ast.List)):
            above = parents.get(parent)
            if isinstance(above, ast.Subscript) and above.slice is parent:
                return False  # x[w, 0]: an index
            node = parent
            continue
        if isinstance(parent, ast.keyword) or (isinstance(parent, ast.Call) and node in parent.args):
            call = parent if isinstance(parent, ast.Call) else parents.get(parent)
            if not isinstance(call, ast.Call):
                return True
            verdict = _argument(facts, index, call, node, parent if isinstance(parent, ast.keyword) else None, depth)
            if verdict is None:
                node = call
                continue
            return verdict
        if isinstance(parent, ast.Starred):
            return True
        if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is node:
            return True
        if isinstance(parent, ast.BoolOp):
            if parent.values[-1] is node:
                node = parent
                continue
            return True
        if isinstance(parent, ast.Dict) and any(k is node for k in parent.keys):
            return True
        if isinstance(parent, ast.Set):
            return True
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and parent.value is node:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            if len(targets) != 1:
                return False  # stored twice: the analysis stops there
            target = targets[0]
            names = [target] if isinstance(target, ast.Name) else list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else []
            if not names or not all(isinstance(n, ast.Name) for n in names):
                return False  # stored: the analysis stops there
            # Unpacked (`k, sub = split(k)`) or bound more than once (a read the binding dominates
            # is followed): every read of each name, more than the analysis follows. An assignment
            # met again on the way (`y = f(y)` in a loop) adds no read: it is not walked twice.
            followed = set() if followed is None else followed
            if id(parent) in followed:
                return False
            followed.add(id(parent))
            return any(
                _read_needs(facts, index, owner, read, depth + 1, followed)
                for n in names
                for owner, read in _reads_within(index, fn, n.id)
            )
        return False


def _argument(facts: Facts, index: _Index, call: ast.Call, node: ast.AST, keyword: ast.keyword | None, depth: int) -> bool | None:
    """Does passing the value to `call` need it concrete? None: the call's result carries it on."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    spellings = qualified_spellings(facts, func)
    is_method = isinstance(func, ast.Attribute) and not spellings
    position = None if keyword is not None else call.args.index(node)
    if name is not None and name in facts.static_jitted_names:
        return _to_jitted(facts, index, func, call, position, keyword)
    if sink_call(facts, call, position, keyword.arg if keyword is not None else None):
        return True  # a size, a conversion, a static parameter of a jit
    if any(metadata_call(q) is not None for q in spellings):
        return False
    if isinstance(func, ast.Name) and not spellings and f"builtins.{func.id}" in STATIC_BUILTINS:
        return False
    jax_call = any(q.startswith(ARRAY_MODULES) for q in spellings)
    if keyword is not None and keyword.arg in STATIC_JNP_KEYWORDS and (jax_call or is_method):
        return True
    if position == 1 and name in AXIS_SECOND and any(q.startswith("jax.numpy.") for q in spellings):
        return True
    if position == 0 and is_method and name in AXIS_FIRST_METHODS:
        return True
    if any(q.startswith("numpy.") for q in spellings):
        return True
    if jax_call:
        return False  # what JAX computes from it is a tracer under jit: the analysis stops there
    if isinstance(func, ast.Name) and func.id in facts.class_names:
        return True  # `Problem(cost, tau=tau)`: ConcreteUses follows it into `__init__` and the fields it sets
    helper = _helper(facts, func)
    if helper is not None:
        param = _receiving(helper, call, position, keyword)
        if param is None or _needed(facts, index, helper, param, depth + 1):
            return True
        return None
    if isinstance(func, ast.Name) and (func.id in facts.defs_by_name or any(func.id in b for _, b in index.assignments)):
        return None  # a function of the module (a jitted one passes a traced slot's value on)
    if is_method and func.attr in facts.defs_by_name:
        return True  # ``self.m(...)``, ``Model.m(...)``: ConcreteUses follows a method of the module
    return False


def _to_jitted(facts: Facts, index: _Index, func: ast.AST, call: ast.Call, position: int | None, keyword) -> bool | None:
    """A function of the module jitted with static arguments: a static slot is JAX404's (False),
    another slot passes the value on (None); a callee we cannot place may need it (True)."""
    defs = facts.defs_by_name.get(func.id if isinstance(func, ast.Name) else "", [])
    if len(defs) != 1:
        return True
    param = _receiving(defs[0], call, position, keyword)
    if param is None:
        return True
    return False if param in _declared_static(facts, index, defs[0]) else None


def _helper(facts: Facts, func: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The one undecorated def a plain call's name can reach (what ConcreteUses follows)."""
    if not isinstance(func, ast.Name):
        return None
    defs = facts.defs_by_name.get(func.id, [])
    return defs[0] if len(defs) == 1 and not defs[0].decorator_list else None


def _receiving(fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, position: int | None, keyword) -> str | None:
    if keyword is not None:
        return keyword.arg
    if any(isinstance(a, ast.Starred) for a in call.args[: (position or 0) + 1]):
        return None
    positional = _positional(fn)
    return positional[position] if position is not None and position < len(positional) else None


# -- (b) a call through the jit that passes what jit cannot trace ------------------------------
def _calls_into(facts: Facts, index: _Index, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Call]:
    """Calls that may go through the function's jit (JAX302 judges only those): by its own name
    when it is decorated, by a name bound to it or to a jit of it (``g = f``, ``g = jax.jit(f)``,
    ``self.g = jit(self.f)``), and inline (``jax.jit(f)(x)``)."""
    names = {fn.name} if fn.decorator_list else set()
    reached = {fn.name}
    for _ in range(4):
        grown = set(names)
        for spelled, bound in index.jit_bindings:
            if spelled & reached:
                grown |= bound
        if grown == names:
            break
        names = grown
        reached = names | {fn.name}
    out = []
    for call in index.calls_spelling(reached):
        spelled = index.callee_spelled[id(call)]
        func = call.func
        inline = isinstance(func, ast.Call) and "jit" in spelled and fn.name in spelled
        if inline or (_is_reference(func) and spelled & names):
            out.append(call)
    return out


def _is_reference(node: ast.AST) -> bool:
    """A plain name or attribute chain (``f``, ``self.f``, ``mod.f``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _arguments(call: ast.Call) -> Iterable[ast.AST]:
    yield from call.args
    for keyword in call.keywords:
        yield keyword.value if keyword.arg is not None else ast.Starred(keyword.value)


def _untraceable(facts: Facts, index: _Index, node: ast.AST, depth: int = 0) -> bool:
    """Might `python_values` find a function, an object or a string here (what jit refuses)?
    No only where its classifier cannot: numbers, arrays, containers it calls mutable, calls
    of anything but a class, ``partial`` or a dtype."""
    if depth > _DEPTH:
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, bytes))
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.Compare)):
        return False  # mutable (JAX201's) or a bool
    if isinstance(node, ast.UnaryOp):
        return _untraceable(facts, index, node.operand, depth + 1)
    if isinstance(node, ast.BinOp):
        return _untraceable(facts, index, node.left, depth + 1) or _untraceable(facts, index, node.right, depth + 1)
    if isinstance(node, ast.IfExp):
        return _untraceable(facts, index, node.body, depth + 1) or _untraceable(facts, index, node.orelse, depth + 1)
    if isinstance(node, ast.BoolOp):
        return any(_untraceable(facts, index, v, depth + 1) for v in node.values)
    if isinstance(node, ast.Tuple):
        return any(_untraceable(facts, index, e, depth + 1) for e in node.elts)
    if isinstance(node, ast.Call):
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if "partial" in _spelled(func) or last in facts.class_names:
            return True
        if isinstance(func, ast.Name) and last in facts.defs_by_name:
            # `grid = make_grid()`: what a helper of the module returns
            return any(
                r.value is not None and _untraceable(facts, index, r.value, depth + 1)
                for fn in facts.defs_by_name[last] for r in own_returns(fn)
            )
        return any(metadata_call(q) is False for q in qualified_spellings(facts, func))  # jnp.dtype(...)
    if isinstance(node, ast.Attribute):
        return node.attr not in ARRAY_METADATA  # `.dtype` is an object to the classifier
    if isinstance(node, ast.Subscript):
        return _untraceable(facts, index, node.value, depth + 1)
    if isinstance(node, ast.Name):
        return _name_untraceable(facts, index, node, depth)
    return True


def _name_untraceable(facts: Facts, index: _Index, name: ast.Name, depth: int) -> bool:
    """A name bound once, by an assignment of a plainly traceable value, is not; nor is a
    parameter of a function the module never calls or hands on (no caller's value flows in)."""
    scope = index.owner.get(name)
    if isinstance(scope, _FUNCTIONS) and name.id in {a.arg for a in (*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs)}:
        # `arguments.passed_to` reads what the callers pass only when every use of the function
        # is a plain call: a function also used as a value hands its parameters nothing we know.
        if scope.name in index.values or scope.name not in index.callee_names:
            return False
        return _passed_untraceable(facts, index, scope, name.id, depth)
    if isinstance(scope, ast.Lambda):
        return True
    binds = index.binds.get((id(scope), name.id), [])
    if not binds and scope is not facts.tree:
        binds = index.binds.get((id(facts.tree), name.id), [])  # a module-level name read in a function
    if not binds or any(isinstance(b, (ast.Import, ast.ImportFrom, *_FUNCTIONS, ast.ClassDef)) for b in binds):
        return True  # a builtin, an import, a function or a class: objects to the classifier
    if len(binds) > 1:
        return False  # bound more than once: the classifier follows none of them
    (bind,) = binds
    if isinstance(bind, (ast.Tuple, ast.List)):
        return True  # unpacked from a call whose results it may know (`init_fn, apply_fn = ...`)
    if isinstance(bind, ast.Assign):
        return _untraceable(facts, index, bind.value, depth + 1)
    if isinstance(bind, ast.AnnAssign) and bind.value is not None:
        return _untraceable(facts, index, bind.value, depth + 1)
    return False  # a loop variable, a `with` target: not a value the classifier follows


def _passed_untraceable(facts: Facts, index: _Index, fn: ast.FunctionDef | ast.AsyncFunctionDef, param: str, depth: int) -> bool:
    """What the module's calls of `fn` pass `param` (or its default): might one be an object?"""
    positional = _positional(fn)
    defaults = dict(zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults))
    defaults |= {a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None}
    for call in index.calls_spelling([fn.name]):
        if not _is_reference(call.func) or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return True  # through a layer, or arguments we cannot place
        given = next((k.value for k in call.keywords if k.arg == param), None)
        if given is None and param in positional:
            bound_self = (
                isinstance(call.func, ast.Attribute) and positional[:1] == ["self"]
                and not (isinstance(call.func.value, ast.Name) and call.func.value.id in facts.class_names)
            )
            place = positional.index(param) - (1 if bound_self else 0)
            given = call.args[place] if 0 <= place < len(call.args) else None
        given = given if given is not None else defaults.get(param)
        if given is None or _untraceable(facts, index, given, depth + 1):
            return True
    return False

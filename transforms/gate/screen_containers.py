"""JAX201's screen: can an argument in a static slot hold a dict, list, set or other unhashable value?

A necessary condition, generous on purpose: a container written out, a
builder call, a loader, an array maker, a name bound to one of those, a
value from another module of the project (JAX201 follows it there).
"""

from __future__ import annotations

import ast

from jaxfix.transforms.gate.astwalk import own_returns
from jaxfix.transforms.gate.screen import Facts, plainly_hashable, qualified_spellings, spelled_name
from jaxfix.transforms.gate.screen_tracing import name_values, rebound_in_function
from jaxfix.transforms.semantics.array_api import makes_array
from jaxfix.transforms.semantics.namespace_types import NAMESPACES
from jaxfix.transforms.semantics.vocabulary import ARRAY_CONVERTERS, LIBRARY_LINEN_MODULES, TREE_MAPS


def may_hold_unhashable(facts: Facts, call: ast.Call, argument: ast.expr) -> bool:
    """Could JAX201 find this argument to be a container, an array or a run-time config?

    Mirrors `config_origin`, generously: displays and comprehensions;
    calls that build or load data (builtins, ``json``/``yaml``/``toml``,
    ``parse_args``, numpy or jax constructors, a function of this module);
    names followed to what every binding of them in the function around the
    call, or at module level, is given; ``x.name`` to every ``.name = value``
    of the module. A parameter the function never rebinds, a subscript,
    another module's function: nothing says they are containers, and JAX201
    reports nothing for them.
    """
    return _may_hold(facts, argument, call.lineno, 0)


#: config_origin's plain-data loaders (its array makers: `array_members.makes_array`).
_LOADER_NAMES = frozenset({"json.load", "json.loads", "yaml.safe_load", "tomllib.load", "tomllib.loads", "toml.load", "toml.loads"})
_BUILTIN_BUILDERS = frozenset({"dict", "list", "set", "sorted", "vars"})


def _maps_to_arrays(facts: Facts, expr: ast.expr | None) -> bool:
    """``tree_map(np.asarray, tree)``: a tree of arrays (`container_origin._maps_to_arrays`)."""
    if not isinstance(expr, ast.Call) or len(expr.args) < 2 or isinstance(expr.args[0], ast.Starred):
        return False
    return bool(qualified_spellings(facts, expr.func) & TREE_MAPS) and bool(
        qualified_spellings(facts, expr.args[0]) & ARRAY_CONVERTERS
    )


def _returns_containers(facts: Facts, function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool = False) -> bool:
    """An undecorated function (any def, generously, when called as a `method`) whose every
    return writes out a dict, list or set (or returns a name bound to one, or to a tree of
    arrays)."""
    if function.decorator_list and not method:
        return False
    returns = own_returns(function)
    if len(returns) == 1 and isinstance(returns[0].value, ast.Name):
        # `kwargs = dict(...)` ... `return kwargs` (`container_origin._returned` follows the name).
        name = returns[0].value.id
        return any(
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and (
                _written_container(node.value)
                or isinstance(node.value, (ast.ListComp, ast.SetComp, ast.DictComp))
                or _builds_namespace(node.value)
                or _maps_to_arrays(facts, node.value)
            )
            for node in ast.walk(function)
        )
    return bool(returns) and all(
        _written_container(r.value) or _builds_namespace(r.value) or _maps_to_arrays(facts, r.value) for r in returns
    )


def _returns_tuple(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool = False) -> bool:
    """``return params, memory``: a caller unpacking it may get a container built there
    (`container_origin._unpacked`; generous: any tuple, any decorator for a `method`)."""
    return (method or not function.decorator_list) and any(isinstance(r.value, ast.Tuple) for r in own_returns(function))


def _builds_namespace(expr: ast.expr) -> bool:
    """``Namespace(...)``, ``SimpleNamespace(...)``, ``parser.parse_args()``, by spelling (generous)."""
    return isinstance(expr, ast.Call) and spelled_name(expr.func) in ("Namespace", "SimpleNamespace", "parse_args")


def _returns_instance(facts: Facts, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """An undecorated function that returns ``Config(...)`` of a class of this module (a field of
    the instance may be a container: `config_origin._field`)."""
    if function.decorator_list:
        return False
    return any(
        isinstance(node, ast.Return)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id in facts.class_names
        for node in ast.walk(function)
    )


def _written_container(expr: ast.expr | None) -> bool:
    """A dict, list or set written out: a display, or ``dict(...)``/``list(...)``/``set(...)``."""
    if isinstance(expr, (ast.Dict, ast.List, ast.Set)):
        return True
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("dict", "list", "set")


def _writes_container(facts: Facts, expr: ast.expr) -> bool:
    """Could `literal_config` read a dict, list or set written out in `expr` (a display, or
    ``dict(...)``/``list(...)``/``set(...)``, at any depth)?"""
    for node in ast.walk(expr):
        if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
            return True
        if isinstance(node, ast.Call) and (
            spelled_name(node.func) in _CONTAINER_BUILDERS
            or (
                isinstance(node.func, ast.Name)
                and any(module == "builtins" for module, _, _ in facts.import_table.get(node.func.id, ()))
            )
        ):
            return True
    return False


_CONTAINER_BUILDERS = frozenset({"dict", "list", "set"})


def _from_project(facts: Facts, expr: ast.expr) -> bool:
    """A name (or ``module.name``) an import brings in from another module of the project."""
    project = facts.project
    if project is None or project.ref is None:
        return False
    root = expr
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id not in facts.import_table:
        return False
    from jaxfix.transforms.project.repository import resolve

    return any(
        resolve(project.repo, project.ref, module, attribute, level) is not None
        for module, attribute, level in facts.import_table[root.id]
    )


def _may_hold(facts: Facts, expr: ast.expr, line: int, depth: int) -> bool:
    if depth > 12:
        return True
    if plainly_hashable(expr):
        return False
    if isinstance(expr, (ast.Dict, ast.List, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return True
    if isinstance(expr, ast.Tuple):
        return any(_may_hold(facts, e, line, depth + 1) for e in expr.elts)
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Name) and func.id in _BUILTIN_BUILDERS:
            return True
        if isinstance(func, ast.Name) and any(
            _returns_containers(facts, d) or _returns_instance(facts, d) or _returns_tuple(d)
            for d in facts.defs_by_name.get(func.id, ())
        ):
            return True
        if isinstance(func, ast.Attribute) and any(
            _returns_containers(facts, d, method=True) or _returns_tuple(d, method=True)
            for d in facts.defs_by_name.get(func.attr, ())
        ):
            return True  # `Model.make_config()`, a static method (`container_origin._plain_function`)
        if isinstance(func, ast.Name) and func.id in facts.class_names:
            return True  # an instance of the module's own class: JAX201 asks how Python hashes it
        if spelled_name(func) == "parse_args" or _maps_to_arrays(facts, expr):
            return True
        qualified = qualified_spellings(facts, func)
        if any(makes_array(q) or q in _LOADER_NAMES or q in NAMESPACES for q in qualified):
            return True
        if qualified & LIBRARY_LINEN_MODULES:  # `nnx.bridge.ToLinen(..., kwargs={...})`: its field (`_library_field`)
            return any(_may_hold(facts, a, line, depth + 1) for a in (*expr.args, *(k.value for k in expr.keywords)))
        if qualified & {"copy.copy", "copy.deepcopy"} and expr.args:
            return _may_hold(facts, expr.args[0], line, depth + 1)
        return False
    if isinstance(expr, (ast.Name, ast.Attribute)) and _from_project(facts, expr):
        return True  # built in another module of the project: JAX201 follows it there
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        # `self.config`, followed to what `__init__` gives it (`instance_attributes`).
        stored = facts.attribute_stores.get(expr.attr, ())
        return any(_may_hold(facts, v, getattr(v, "lineno", line), depth + 1) for v in stored)
    if isinstance(expr, ast.Name):
        values = name_values(facts, expr.id, line)
        if values is None:
            return True  # bindings we cannot list: assume the worst
        if len(values) > 1 and rebound_in_function(facts, expr.id, line):
            # A name bound more than once is followed only to a container one of its
            # bindings writes out (`config_origin`'s REBOUND), never through calls.
            return any(isinstance(v, ast.AST) and _writes_container(facts, v) for v in values)
        # A parameter (False) holds what its callers pass, which JAX201 follows to them (`arguments.passed_to`).
        return any(v is True or v is False or _may_hold(facts, v, getattr(v, "lineno", line), depth + 1) for v in values)
    if isinstance(expr, (ast.BinOp, ast.BoolOp, ast.IfExp)):
        return any(_may_hold(facts, e, line, depth + 1) for e in ast.iter_child_nodes(expr) if isinstance(e, ast.expr))
    return False

"""``self.config``: a value an object is given once, in ``__init__``, and that only its methods read.

Real code keeps its config on the object (``self.config = {...}`` in
``__init__``, then ``self.step(x, self.config)``). Such an attribute is one
value with known uses only where the module shows every place that can touch
it, so it is followed only when

* the class is defined once, at module level or in a function, with no base class, no
  subclass here and no decorator, and no other module of the project imports
  it (their code could read the attribute);
* every ``.name`` in the module is either the one store ``self.name = value``,
  a statement of ``__init__`` itself, or a read ``self.name`` in a method of
  the class (``self`` being the method's first parameter; the method plain or
  jitted), or ``self.name`` in a method of another class that cannot derive
  from this one (its own attribute of that name);
* no code of the module reaches attributes by string or by ``__dict__``
  (``setattr``, ``getattr``, ``delattr``, ``vars``);
* every instance stays where its uses are seen: each ``Model(...)`` is used
  only to call a method (``Model(...).run(x)``, or ``Model(...)(x)`` where it
  defines ``__call__``), or is bound to a name used only that way (``m =
  Model(); m.run(x)``).

Anything else: None, and the callers treat the attribute as unknown.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment, FunctionScope, GlobalScope

from jaxfix.transforms.semantics.class_hashing import instance_class, written_bases
from jaxfix.transforms.semantics.constants import methods, own_returns, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info, read_jit_wrapper
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument

#: Builtins that reach attributes by name, out of our sight.
_BY_STRING = frozenset({"setattr", "getattr", "delattr", "vars"})


@dataclass(frozen=True)
class InstanceAttribute:
    cls: cst.ClassDef
    name: str
    #: ``self.name`` as the target of the assignment in ``__init__``.
    store: cst.Attribute
    #: What ``__init__`` gives it.
    value: cst.BaseExpression
    #: Every other ``self.name`` in the methods of the class: the reads.
    reads: tuple[cst.Attribute, ...]


def read_attribute(ctx: ModuleContext, expr: cst.Attribute) -> InstanceAttribute | None:
    """`expr` reads ``self.name`` of an attribute set once in ``__init__`` (see the module docstring)."""
    cls = _method_class(ctx, expr)
    return _attribute(ctx, cls, expr.attr.value) if cls is not None else None


def stored_attribute(ctx: ModuleContext, target: cst.Attribute) -> InstanceAttribute | None:
    """`target` is the store ``self.name = ...`` of such an attribute."""
    found = read_attribute(ctx, target)
    return found if found is not None and found.store is target else None


def _method_class(ctx: ModuleContext, expr: cst.Attribute) -> cst.ClassDef | None:
    """The class whose method's first parameter `expr` is read on."""
    if not isinstance(expr.value, cst.Name):
        return None
    param = single_binding(ctx, expr.value)
    if not isinstance(param, cst.Param):
        return None
    method = ctx.parent(ctx.parent(param))
    if not isinstance(method, cst.FunctionDef):
        return None
    positional = [*method.params.posonly_params, *method.params.params]
    if not positional or positional[0] is not param:
        return None
    if any(read_jit_wrapper(ctx, d.decorator) is None for d in method.decorators):
        return None  # staticmethod, classmethod, property, or a wrapper we do not know
    body = ctx.parent(method)
    cls = ctx.parent(body)
    return cls if isinstance(body, cst.IndentedBlock) and isinstance(cls, cst.ClassDef) else None


def _attribute(ctx: ModuleContext, cls: cst.ClassDef, name: str) -> InstanceAttribute | None:
    if written_bases(ctx, cls) or cls.decorators or not kept_alone(ctx, cls):
        return None
    store: cst.Attribute | None = None
    value: cst.BaseExpression | None = None
    reads: list[cst.Attribute] = []
    for node in ctx.attributes_named(name):
        owner = _method_class(ctx, node)
        if owner is not cls:
            if owner is not None and not _related(ctx, owner, cls):
                continue  # ``self.name`` in a method of another class, no kin of this one: its own
            return None  # another object's `.name`, or a read we cannot place
        assigned = init_assignment(ctx, cls, node)
        if assigned is not None:
            if store is not None:
                return None
            store, value = node, assigned
        elif _plain_read(ctx, node):
            reads.append(node)
        else:
            return None  # stored, deleted or augmented elsewhere
    if store is None or value is None or not _instances_kept(ctx, cls):
        return None
    return InstanceAttribute(cls, name, store, value, tuple(reads))


def _related(ctx: ModuleContext, other: cst.ClassDef, cls: cst.ClassDef) -> bool:
    """Could an instance of `other` be one of `cls`? `cls` has no base class (`_attribute` asks), so
    only when `other` may derive from it: it names `cls` among its bases, or has a base we cannot see."""
    for base in other.bases:
        if base.keyword is None and _outside_project(ctx, base.value):
            continue  # ``Mapping`` of collections.abc derives from no class of this project
        if not isinstance(base.value, cst.Name) or base.keyword is not None:
            return True
        bound = single_binding(ctx, base.value)
        if bound is cls or not isinstance(bound, cst.ClassDef):
            return True
        if _related(ctx, bound, cls):
            return True
    return False


#: Libraries whose classes derive from no class of the project being checked.
_LIBRARIES = frozenset({"jax", "jaxlib", "flax", "equinox", "optax", "numpy", "scipy", "chex", "typing_extensions"})


def _outside_project(ctx: ModuleContext, base: cst.BaseExpression) -> bool:
    """`base` names a class of the standard library or of a library the project imports."""
    qualified = ctx.names.qualified_name(base) or ""
    root = qualified.partition(".")[0]
    return bool(root) and (root in sys.stdlib_module_names or root in _LIBRARIES)


def init_assignment(ctx: ModuleContext, cls: cst.ClassDef, node: cst.Attribute) -> cst.BaseExpression | None:
    """The value of ``self.name = value`` when that is a statement of ``__init__``'s own body; of
    ``self.low, self.high = low, high`` (numpyro's style), the element in the same place."""
    target = ctx.parent(node)
    element = None
    if isinstance(target, cst.Element) and isinstance(ctx.parent(target), (cst.Tuple, cst.List)):
        element, target = target, ctx.parent(ctx.parent(target))
    assign = ctx.parent(target) if isinstance(target, cst.AssignTarget) else None
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
        return None
    value = assign.value if element is None else _element_value(assign, element)
    if value is None:
        return None
    line = ctx.parent(assign)
    block = ctx.parent(line)
    method = ctx.parent(block)
    if not (isinstance(line, cst.SimpleStatementLine) and isinstance(method, cst.FunctionDef)):
        return None
    if method.name.value != "__init__" or ctx.parent(ctx.parent(method)) is not cls:
        return None
    return value


def _element_value(assign: cst.Assign, element: cst.Element) -> cst.BaseExpression | None:
    """The part of ``a, b = x, y`` that `element` of the target takes: the element in the same
    place of a tuple or list of as many, none starred."""
    names = assign.targets[0].target
    values = assign.value
    if not isinstance(names, (cst.Tuple, cst.List)) or not isinstance(values, (cst.Tuple, cst.List)):
        return None
    if len(names.elements) != len(values.elements) or any(not isinstance(e, cst.Element) for e in (*names.elements, *values.elements)):
        return None
    return values.elements[list(names.elements).index(element)].value  # type: ignore[union-attr]


def _plain_read(ctx: ModuleContext, node: cst.Attribute) -> bool:
    parent = ctx.parent(node)
    if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.Del, cst.AnnAssign)):
        return False
    return not (isinstance(parent, (cst.Element, cst.Tuple, cst.List)) and _in_store(ctx, parent))


def _in_store(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    while isinstance(node, (cst.Element, cst.Tuple, cst.List, cst.StarredElement)):
        node = ctx.parent(node)  # type: ignore[assignment]
    return isinstance(node, (cst.AssignTarget, cst.For, cst.CompFor, cst.Del))


def kept_alone(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """Defined once at module level (or in a function, whose code alone can see it), subclassed
    nowhere here, read by no string, imported by no other module of the project."""
    scope = ctx.scope(cls)
    if not isinstance(scope, (GlobalScope, FunctionScope)) or single_binding(ctx, cls.name) is not cls:
        return False
    for call in ctx.calls:
        if isinstance(call.func, cst.Name) and call.func.value in _BY_STRING:
            return False
    if ctx.attributes_named("__dict__"):
        return False
    if ctx.repo is not None:
        from jaxfix.transforms.semantics.importers import here, used_elsewhere

        definition = here(ctx, cls.name.value)
        if used_elsewhere(ctx, definition):
            return False
    return True


def _method_names(cls: cst.ClassDef) -> set[str]:
    return {method.name.value for method in methods(cls)}


def _instances_kept(ctx: ModuleContext, cls: cst.ClassDef) -> bool:
    """Every use of the class is ``Model(...)`` whose result only calls a method."""
    scope = ctx.scope(cls)
    names = _method_names(cls)
    if scope is None:
        return False
    for assignment in scope.assignments[cls.name.value]:
        if not isinstance(assignment, Assignment):
            return False
        for access in assignment.references:
            call = ctx.parent(access.node)
            if not (isinstance(call, cst.Call) and call.func is access.node):
                return False
            if not _only_methods_called(ctx, call, names):
                return False
    return True


def _only_methods_called(ctx: ModuleContext, expr: cst.CSTNode, names: set[str]) -> bool:
    """`expr`, an instance, is only used to call a method: ``m.run(x)``, or ``m(x)`` of a class
    that defines ``__call__`` (objax#204's layer)."""
    parent = ctx.parent(expr)
    if isinstance(parent, cst.Attribute) and parent.value is expr:
        return parent.attr.value in names and isinstance(ctx.parent(parent), cst.Call)
    if isinstance(parent, cst.Call) and parent.func is expr:
        return "__call__" in names
    if isinstance(parent, cst.Return) and parent.value is expr:
        return _helper_calls_only_call_methods(ctx, parent, names)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        target = parent.targets[0].target
        scope = ctx.scope(target)
        if scope is None:
            return False
        for assignment in scope.assignments[target.value]:
            if not (isinstance(assignment, Assignment) and _same_construction(ctx, assignment.node, expr)):
                return False  # the name is bound to something else too
            for access in assignment.references:
                if not _only_methods_called(ctx, access.node, names):
                    return False
        return True
    return False


def _helper_calls_only_call_methods(ctx: ModuleContext, returned: cst.Return, names: set[str]) -> bool:
    """``def make_agent(): return Agent(...)``: the helper's one return, and every use of the helper
    a call whose result only calls a method."""
    helper = ctx.enclosing_function(returned)
    if not isinstance(helper, cst.FunctionDef) or helper.decorators or own_returns(helper) != [returned]:
        return False
    scope = ctx.scope(helper)
    if scope is None:
        return False
    assignments = scope.assignments[helper.name.value]
    if len(assignments) != 1 or not all(isinstance(a, Assignment) and a.node is helper for a in assignments):
        return False
    for assignment in assignments:
        for access in assignment.references:
            call = ctx.parent(access.node)
            if not (isinstance(call, cst.Call) and call.func is access.node and _only_methods_called(ctx, call, names)):
                return False
    return True


def _same_construction(ctx: ModuleContext, node: cst.CSTNode, built: cst.CSTNode) -> bool:
    """`node` binds the name to a construction of the class `built` constructs (``c = A(2)`` then
    ``c = A(3)``, jit_method_self_arg's shape): each binding's reads are instances of it too."""
    if not isinstance(node, cst.Name) or not isinstance(built, cst.Call):
        return False
    assign_target = ctx.parent(node)
    assign = ctx.parent(assign_target) if isinstance(assign_target, cst.AssignTarget) else None
    value = assign.value if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
    if not isinstance(value, cst.Call):
        return False
    if ctx.code(value.func) == ctx.code(built.func):
        return True
    # `c = make_c()` then `c = make_c1()`: two helpers (or a helper and the class) building one class
    first, second = instance_class(ctx, value), instance_class(ctx, built)
    return first is not None and second is not None and first[0] is second[0]


def stored_value(init: cst.FunctionDef, attribute: str) -> cst.BaseExpression | None:
    """The value the one statement of ``__init__``'s own body storing ``self.<attribute>`` gives it."""
    positional = [*init.params.posonly_params, *init.params.params]
    if not positional:
        return None
    receiver = positional[0].name.value
    stored: list[cst.BaseExpression] = []
    for line in init.body.body if isinstance(init.body, cst.IndentedBlock) else ():
        for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    node = target.target
                    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == receiver and node.attr.value == attribute:
                        stored.append(small.value)
    return stored[0] if len(stored) == 1 else None


def stored_parameter(init: cst.FunctionDef, attribute: str) -> str | None:
    """The parameter of ``__init__`` that a statement of its own body stores as ``self.<attribute>``
    (the only store of that attribute there): what a construction passes it, the attribute holds
    right after. Unlike `read_attribute`, it does not prove nothing else stores it: a report of
    what a construction gives (JAX202's aux_data, JAX403's hashed attributes) needs no more."""
    value = stored_value(init, attribute)
    if not isinstance(value, cst.Name):
        return None
    names = {p.name.value for p in (*init.params.posonly_params, *init.params.params, *init.params.kwonly_params)}
    positional = [*init.params.posonly_params, *init.params.params]
    return value.value if value.value in names and value.value != positional[0].name.value else None


def constructed_value(ctx: ModuleContext, init: cst.FunctionDef, made: cst.Call, attribute: str) -> cst.BaseExpression | None:
    """What the construction `made` passes the ``__init__`` parameter stored as ``self.<attribute>``
    (`stored_parameter`), as written at the call; None when that cannot be read."""
    param = stored_parameter(init, attribute)
    value = call_argument(made, function_info(ctx, init).signature, param, bound=True, ctx=ctx) if param is not None else None
    return value if isinstance(value, cst.BaseExpression) else None


def receiver_reads(method: cst.FunctionDef, node: cst.CSTNode) -> list[cst.Attribute]:
    """Every ``self.name`` inside `node`, ``self`` being the method's first parameter."""
    positional = [*method.params.posonly_params, *method.params.params]
    if not positional:
        return []
    receiver = positional[0].name.value
    found: list[cst.Attribute] = []

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if isinstance(attribute.value, cst.Name) and attribute.value.value == receiver:
                found.append(attribute)

    node.visit(Reads())
    return found

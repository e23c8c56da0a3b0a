"""Which classes of this module an object may be an instance of, and what their ``__init__`` stores.

dynalang#10: ``space = self.act_space[key]`` then ``_one_hot(value, space.high)``. ``self.act_space``
is what ``Agent.__init__`` is given; every construction of ``Agent`` passes a dict display, each
of whose values is ``Space(...)``; so ``space`` is a ``Space``, and ``space.high`` is what
``Space.__init__`` stores there, ``np.array(high, dtype)``: an array, which no static slot takes.

`instance_classes` follows an expression to the constructions it may be: a name to the binding
that reaches it, a parameter to what every call passes (`arguments.passed_to`), ``self.x`` of an
attribute set once in ``__init__`` (`instance_attributes.read_attribute`), an item of a dict,
list or tuple display (every value the display holds, where nothing in the module changes a
display of that name or attribute). `stored_in_init` is the value of ``.name`` on an instance of a
class: the one store of ``.name`` anywhere in the module, ``self.name = value`` in that class's
``__init__``, the class alone (`instance_attributes` conditions: defined once, no base class, no
subclass, no decorator, no attribute read by string). Anything else: None (unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.semantics.arguments import passed_to
from jaxfix.transforms.semantics.callables import changed_in_place
from jaxfix.transforms.semantics.class_hashing import instance_class, subclass_of
from jaxfix.transforms.semantics.constants import assigned_value, display_items, reaching_binding
from jaxfix.transforms.semantics.instance_attributes import init_assignment, kept_alone, read_attribute
from jaxfix.transforms.semantics.reads import reads

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis

#: How many steps (names, parameters, attributes, items) a value is followed through.
_MAX_DEPTH = 8


def instance_classes(analysis: Analysis, expr: cst.BaseExpression, _depth: int = 0) -> frozenset[cst.ClassDef] | None:
    """The classes of this module `expr` is surely an instance of one of; None when unknown."""
    found: set[cst.ClassDef] = set()
    for value in _values(analysis, expr, _depth):
        if isinstance(value, cst.Subscript):
            held = _held(analysis, value.value, _depth + 1)
            classes = _union(analysis, held, _depth + 1) if held is not None else None
        else:
            built = instance_class(analysis.ctx, value) if isinstance(value, cst.Call) else None
            classes = frozenset({built[0]}) if built is not None else None
        if classes is None:
            return None
        found |= classes
    return frozenset(found) or None


def stored_in_init(analysis: Analysis, cls: cst.ClassDef, name: str) -> cst.BaseExpression | None:
    """What ``.name`` of an instance of `cls` holds: the value of the one store of ``.name`` in the
    module, ``self.name = value`` in ``cls.__init__``; None when that is not sure."""
    ctx = analysis.ctx
    if cls.bases or cls.decorators or subclass_of(ctx, cls) is not None or not kept_alone(ctx, cls):
        return None
    value: cst.BaseExpression | None = None
    for node in ctx.attributes_named(name):
        if not _stored(ctx, node):
            continue
        assigned = init_assignment(ctx, cls, node)
        if assigned is None or value is not None:
            return None  # stored elsewhere too (another object's `.name` may be this one's)
        value = assigned
    return value


def _values(analysis: Analysis, expr: cst.BaseExpression, depth: int) -> list[cst.BaseExpression]:
    """The expressions `expr` may be, followed through names, parameters and ``self.x``: each a
    construction, an item, or something not followed further (then the callers answer None)."""
    ctx = analysis.ctx
    if depth > _MAX_DEPTH:
        return [expr]
    if isinstance(expr, cst.Name):
        binding = reaching_binding(ctx, expr)
        if isinstance(binding, cst.Param):
            passed = passed_to(analysis, binding)
            return [v for p in passed for v in _values(analysis, p, depth + 1)] if passed else [expr]
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return _values(analysis, value, depth + 1) if value is not None else [expr]
    if isinstance(expr, cst.Attribute):
        attribute = read_attribute(ctx, expr)
        return _values(analysis, attribute.value, depth + 1) if attribute is not None else [expr]
    return [expr]


def _held(analysis: Analysis, container: cst.BaseExpression, depth: int) -> list[cst.BaseExpression] | None:
    """Every value the displays `container` may be hold (a dict's values, a list's or tuple's
    elements); None when it may be anything else, or may be changed."""
    if _changed(analysis, container):
        return None
    out: list[cst.BaseExpression] = []
    for display in _values(analysis, container, depth):
        items = display_items(display)  # None for `**other`, `*rest`, or no display
        if items is None:
            return None
        out.extend(items)
    return out


def _changed(analysis: Analysis, container: cst.BaseExpression) -> bool:
    """May code of the module change what the display read as `container` holds: an item stored or
    deleted, or a changing method called, on any name or attribute spelled as `container` is?"""
    ctx = analysis.ctx
    if isinstance(container, cst.Attribute):
        spelled = ctx.attributes_named(container.attr.value)
    elif isinstance(container, cst.Name):
        binding = reaching_binding(ctx, container)
        binding = binding.name if isinstance(binding, cst.Param) else binding
        if not isinstance(binding, cst.Name):
            return True
        spelled = reads(ctx, binding)
    else:
        return True
    return any(changed_in_place(ctx, node) for node in spelled)


def _union(analysis: Analysis, values: list[cst.BaseExpression], depth: int) -> frozenset[cst.ClassDef] | None:
    found: set[cst.ClassDef] = set()
    for value in values:
        classes = instance_classes(analysis, value, depth + 1)
        if classes is None:
            return None
        found |= classes
    return frozenset(found) or None


def _stored(ctx, node: cst.Attribute) -> bool:
    """`node` is the target of a store or a deletion (``x.name = ...``, ``x.name += ...``, in an
    unpacking, ``del x.name``)."""
    parent = ctx.parent(node)
    while isinstance(parent, (cst.Element, cst.Tuple, cst.List, cst.StarredElement)):
        parent = ctx.parent(parent)
    if isinstance(parent, (cst.AnnAssign, cst.AugAssign)):
        return parent.target is node or parent.target is ctx.parent(node)
    return isinstance(parent, (cst.AssignTarget, cst.Del, cst.For, cst.CompFor))

"""Move an array out of a custom pytree's aux_data into its children (jax#14718).

`aux_data` tells the edits: flatten's one return ``(children, self.key)``
becomes ``((*children, self.key), None)``, and the unflatten's read of its
aux_data parameter becomes ``children[n]``, the place the value now holds.
Proven only where the two functions are written so that nothing else
changes meaning:

* flatten returns a tuple display of children and, as the whole aux_data,
  the one attribute read, or a tuple of it alone (``(self.y,)``, jax#28659:
  the aux_data becomes ``()`` and its read ``(children[n],)``);
* the unflatten (register_pytree_node's third argument, or the class's
  ``tree_unflatten``) reads its aux_data parameter once, whole, and its
  children parameter only by constant index, or unpacks it whole once
  (``(x,) = children`` becomes ``(x,) = children[:1]``: it would no longer
  match the one child more).

Always unsafe: the value becomes a leaf, traced under jit like the others
(code that needs it as a Python value fails), and it is a leaf for every tree
function: a ``vmap`` over instances maps it too, ``tree_leaves`` counts it.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.constants import own_returns
from jaxfix.transforms.semantics.custom_pytrees import unflatten_parameters
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import parameter_reads


def aux_into_children(ctx: ModuleContext, cls: cst.ClassDef, flatten: cst.FunctionDef, read: cst.Attribute) -> tuple[Edit, ...] | str:
    """The edits moving `read`, flatten's whole aux_data, among the children; else why not."""
    returns = own_returns(flatten)
    value = returns[0].value if len(returns) == 1 else None
    aux = value.elements[1].value if isinstance(value, cst.Tuple) and len(value.elements) == 2 else None
    # `(self.y,)`: a tuple of that one attribute (jax#28659), read back whole in the unflatten
    wrapped = isinstance(aux, cst.Tuple) and len(aux.elements) == 1 and aux.elements[0].value is read
    if aux is not read and not wrapped:
        return "the aux_data is not that attribute alone (or in a tuple of its own), in flatten's one return"
    children = value.elements[0].value
    if not isinstance(children, cst.Tuple) or not all(isinstance(e, cst.Element) for e in children.elements):
        return "the children are not a tuple written in the return"
    unflatten = unflatten_parameters(ctx, cls)
    if isinstance(unflatten, str):
        return unflatten
    function, aux_name, children_name = unflatten
    aux_reads = parameter_reads(ctx, function, aux_name)
    if len(aux_reads) != 1:
        return f"`{function.name.value}` reads `{aux_name}` more than once, or not at all"
    elements = [ctx.code(e.value) for e in children.elements]  # type: ignore[union-attr]
    edits: list[Edit] = []
    for child_read in parameter_reads(ctx, function, children_name):
        parent = ctx.parent(child_read)
        indexed = (
            isinstance(parent, cst.Subscript)
            and parent.value is child_read
            and len(parent.slice) == 1
            and isinstance(parent.slice[0].slice, cst.Index)
            and isinstance(parent.slice[0].slice.value, cst.Integer)
        )
        if indexed:
            continue
        if _unpacked_whole(parent, child_read, len(elements)):
            # `(x,) = children` would meet one child more: it unpacks the ones it had
            edits.append(ctx.replace(child_read, f"{children_name}[:{len(elements)}]"))
            continue
        return f"`{function.name.value}` reads `{children_name}` other than by a constant index or one unpacking"
    moved = [*elements, ctx.code(read)]
    new_aux = "()" if wrapped else "None"
    got = f"{children_name}[{len(elements)}]"
    return (
        ctx.replace(value, f"({', '.join(moved)},), {new_aux}" if len(moved) == 1 else f"({', '.join(moved)}), {new_aux}"),
        ctx.replace(aux_reads[0], f"({got},)" if wrapped else got),
        *edits,
    )


def _unpacked_whole(statement: cst.CSTNode | None, read: cst.CSTNode, count: int) -> bool:
    """``(x,) = children`` / ``x, y = children``: an assignment unpacking the read whole into
    `count` plain targets (no star)."""
    if not isinstance(statement, cst.Assign) or statement.value is not read or len(statement.targets) != 1:
        return False
    target = statement.targets[0].target
    return (
        isinstance(target, (cst.Tuple, cst.List))
        and len(target.elements) == count
        and not any(isinstance(e, cst.StarredElement) for e in target.elements)
    )

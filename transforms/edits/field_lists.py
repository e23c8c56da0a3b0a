"""Moving a field between the lists of ``register_dataclass(Cls, data_fields=[...], meta_fields=[...])``.

JAX306 makes a data field static (into ``meta_fields``), JAX202 a static one ordinary (into
``data_fields``). Each list is rewritten whole, in its own quotes, when it is written on one line;
a list spread over lines (with comments, perhaps) is left to a person.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import FieldLists


def move_field(ctx: ModuleContext, lists: FieldLists, name: str, *, to_meta: bool) -> tuple[tuple[Edit, ...], str] | str:
    """The edits moving `name` into ``meta_fields`` (`to_meta`) or ``data_fields``, and the lists as
    they will read; or why not."""
    source, target = (lists.data, lists.meta) if to_meta else (lists.meta, lists.data)
    if any("\n" in ctx.code(listed) for listed in (source, target)):
        return "its `data_fields`/`meta_fields` lists are written over several lines"
    kept = [e.value for e in source.elements if e.value.evaluated_value != name]  # type: ignore[union-attr]
    moved = next(e.value for e in source.elements if e.value.evaluated_value == name)  # type: ignore[union-attr]
    grown = [e.value for e in target.elements] + [moved]
    source_text, target_text = _listed(ctx, source, kept), _listed(ctx, target, grown)
    edits = (ctx.replace(source, source_text), ctx.replace(target, target_text))
    data, meta = (source_text, target_text) if to_meta else (target_text, source_text)
    return edits, f"data_fields={data}, meta_fields={meta}"


def _listed(ctx: ModuleContext, like: cst.List | cst.Tuple, items: list[cst.BaseExpression]) -> str:
    inner = ", ".join(ctx.code(i) for i in items)
    if isinstance(like, cst.List):
        return f"[{inner}]"
    return f"({inner},)" if len(items) == 1 else f"({inner})"

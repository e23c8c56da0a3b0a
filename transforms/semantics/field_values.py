"""What a field of a pytree class may hold: the values the module shows it is given.

A field of a pytree dataclass (`pytree_classes`) holds its default, what each
``Model(...)`` passes for it (by keyword or by position), or, in an equinox
module with its own ``__init__``, what each ``self.f = value`` statement of that
``__init__`` sets (`pytree_classes.init_stores`). A rule asks two questions of
them: are all of them hashable Python values (JAX306, which needs every one),
and is one of them an array (JAX202, which needs one). `field_values` answers
with the values seen and, when the module may build an instance where it
cannot see, why the list may be incomplete.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.class_hashing import constructions
from jaxfix.transforms.semantics.importers import here, used_elsewhere
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import PytreeClass, PytreeField, init_stores, method_named


@dataclass(frozen=True)
class GivenValue:
    #: The expression the field is given.
    value: cst.BaseExpression
    #: Where: the construction call, the ``self.f = ...`` statement, or the field's declaration.
    site: cst.CSTNode
    #: "the default", "`Model(2.0, 3)` (line 9)", "line 12": how a message names the site.
    described: str


@dataclass(frozen=True)
class FieldValues:
    given: tuple[GivenValue, ...]
    #: Why else some value may be missing from `given` (None: the module shows every one).
    unseen: str | None
    #: The values are the ``self.f = ...`` stores of an equinox ``__init__`` (`init_stores`).
    set_in_init: bool
    ctx: ModuleContext = dataclasses.field(repr=False, compare=False)
    cls: cst.ClassDef = dataclasses.field(repr=False, compare=False)

    @cached_property
    def elsewhere(self) -> str | None:
        """Another module uses the class, and may build instances (None: none does). Asked only
        when a rule needs it: answering parses every module whose imports may reach the class."""
        name = self.cls.name.value
        definition = here(self.ctx, name)
        if used_elsewhere(self.ctx, definition):
            return f"another module uses `{name}`, and what it builds is not checked"
        return None


def field_values(ctx: ModuleContext, tree: PytreeClass, field: PytreeField) -> FieldValues:
    """The values the module shows `field` is given, and whether those are all."""
    name = tree.cls.name.value
    given: list[GivenValue] = []
    unseen: list[str] = []
    stores = init_stores(ctx, tree, field)
    if field.default is not None and stores is None:
        given.append(GivenValue(field.default, field.statement, "its default"))
    own = [m for m in ("__init__", "__post_init__") if method_named(tree.cls, m) is not None]
    if stores is not None:
        given.extend(GivenValue(s.value, s, f"line {ctx.span(s).start.line}") for s in stores)
        if not stores:
            unseen.append(f"`{name}.__init__` does not set it")
    if own and not (own == ["__init__"] and stores is not None):
        unseen.append(f"`{name}` sets its fields in its own `{own[-1]}`, which jaxfix does not follow")
    built = constructions(ctx, tree.cls)
    if built is None:
        unseen.append(f"`{name}` is used where jaxfix cannot see every instance it builds")
    for call in () if own else (built or ()):  # with its own `__init__`, a call passes its parameters
        where = f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line})"
        value = given_by(call, tree, field)
        if value is STARRED:
            unseen.append(f"{where} passes fields jaxfix cannot list")
        elif value is not None:
            given.append(GivenValue(value, call, where))  # type: ignore[arg-type]
    for replaced in ctx.attributes_named("replace"):
        call = ctx.parent(replaced)
        if isinstance(call, cst.Call) and any(a.keyword is not None and a.keyword.value == field.name for a in call.args):
            unseen.append(f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) builds one by `replace`")
    return FieldValues(tuple(given), unseen[0] if unseen else None, stores is not None, ctx, tree.cls)


#: `given_by`'s answer for a construction that passes ``*args`` or ``**kwargs`` and not the field by name.
STARRED = object()


def given_by(call: cst.Call, tree: PytreeClass, field: PytreeField) -> cst.BaseExpression | object | None:
    """What the construction `call` (the dataclass ``__init__``) passes for `field`: by keyword, else
    at the field's position; None when it leaves it to the default; `STARRED` when it cannot tell."""
    keyword = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == field.name), None)
    if keyword is not None:
        return keyword
    if any(a.star for a in call.args):
        return STARRED
    position = next(i for i, f in enumerate(tree.fields) if f is field)
    positional = [a for a in call.args if a.keyword is None]
    return positional[position].value if position < len(positional) else None


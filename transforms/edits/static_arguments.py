"""Add a parameter to, or drop one from, a jit's static arguments, in the user's style.

The user's spelling is kept: argnums stay argnums, argnames stay argnames, a
tuple stays a tuple (a list a list, a set a set, a lone int or str becomes a
tuple when it grows). Where both keywords are written, jit infers neither
from the other, so a positional-or-keyword parameter goes into both; where
only static_argnums is written and a keyword-only parameter must join, the
names argnums implied are written out too, so nothing that was static stops
being static. A spec held in a named constant is not edited (other code may
share it): that is a refusal, returned as a reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core import identifiers
from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.core.identifiers import Names
from jaxfix.transforms.core.textedit import apply_edits
from jaxfix.transforms.edits.call_arguments import remove_args
from jaxfix.transforms.edits.imports import Spelling
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value
from jaxfix.transforms.semantics.jit_signature import Kind, Signature, StaticSpec
from jaxfix.transforms.semantics.jit_wrappers import JitWrapper
from jaxfix.transforms.semantics.module import ModuleContext


@dataclass(frozen=True)
class SpecEdit:
    edits: tuple[Edit, ...]
    #: The spec after the edit, for messages ("static_argnames=('N', 'x')").
    description: str


def _keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def _quote(ctx: ModuleContext, node: cst.BaseExpression | None) -> str:
    text = ctx.code(node) if node is not None else ""
    return "'" if text.lstrip("rRuU").startswith("'") else '"'


def _render(kind: type, items: list[str]) -> str:
    if kind is cst.List:
        return "[" + ", ".join(items) + "]"
    if kind is cst.Set and items:
        return "{" + ", ".join(items) + "}"
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def _element_texts(ctx: ModuleContext, value: cst.BaseExpression) -> list[str]:
    if isinstance(value, (cst.Tuple, cst.List, cst.Set)):
        return [ctx.code(e.value) for e in value.elements]  # type: ignore[union-attr]
    return [ctx.code(value)]


def _new_value(ctx: ModuleContext, arg: cst.Arg, keep: list[str], add: list[str]) -> str:
    """The keyword's new value: kept element texts plus added ones, in the original container."""
    kind = type(arg.value) if isinstance(arg.value, (cst.Tuple, cst.List, cst.Set)) else cst.Tuple
    items = keep + add
    if len(items) == 1 and not isinstance(arg.value, (cst.Tuple, cst.List, cst.Set)):
        return items[0]
    return _render(kind, items)


class StaticEditor:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx

    # -- adding ----------------------------------------------------------------
    def add(
        self,
        wrapper: JitWrapper,
        jit_node: cst.CSTNode,
        sig: Signature,
        params: Names,
        partial: Spelling | None,
    ) -> SpecEdit | str:
        """Edits making `params` static; a reason string when that cannot be done in place."""
        params = identifiers.names(params)
        spec = wrapper.spec
        if spec is None:
            return "its static arguments cannot be read"
        for param in params:
            p = sig.param(param)
            if p is None or p.kind in (Kind.VAR_POSITIONAL, Kind.VAR_KEYWORD):
                return f"`{param}` is not a plain parameter"
        declared = spec.declared_static(sig)
        params = tuple(p for p in dict.fromkeys(params) if p not in declared)
        if not params:
            return SpecEdit((), "already static")
        if wrapper.call is None:
            return self._wrap_bare(jit_node, params, partial)
        call = wrapper.call
        nums_arg = _keyword_arg(call, "static_argnums")
        names_arg = _keyword_arg(call, "static_argnames")
        for arg in (nums_arg, names_arg):
            if arg is not None and not isinstance(
                arg.value, (cst.Integer, cst.UnaryOperation, cst.SimpleString, cst.Tuple, cst.List, cst.Set)
            ):
                return f"`{self.ctx.code(arg.value)}` holds the static arguments; edit it by hand"
        nums, names = spec.resolved(sig)
        add_nums: list[str] = []
        add_names: list[str] = []
        for param in params:
            kind = sig.param(param).kind  # type: ignore[union-attr]
            index = sig.positional_index(param)
            if index is not None and spec.argnums is not None and index not in nums:
                add_nums.append(str(index))
            wants_name = spec.argnames is not None or spec.argnums is None or index is None
            if kind is not Kind.POSITIONAL_ONLY and wants_name and param not in names:
                add_names.append(param)
        edits: list[Edit] = []
        if add_nums:
            edits.append(self._extend(call, nums_arg, "static_argnums", add_nums))
        if add_names:
            if names_arg is None and spec.argnums is not None:
                # Writing argnames turns off jit's inference of names from argnums:
                # spell out the names argnums implied, so keyword calls stay static.
                edits.append(self._extend(call, None, "static_argnames", [f'"{n}"' for n in (*names, *add_names)]))
            else:
                quote = _quote(self.ctx, _first_string(names_arg))
                edits.append(self._extend(call, names_arg, "static_argnames", [f"{quote}{n}{quote}" for n in add_names]))
        return SpecEdit(tuple(edits), self._describe(call, edits))

    def extend(self, call: cst.Call, keyword: str, add: list[str]) -> Edit | str:
        """Add items (as source texts) to a keyword of any call (``static_argnums`` of make_jaxpr,
        ``static_broadcasted_argnums`` of pmap), in its spelling; a reason when it is not a literal."""
        arg = _keyword_arg(call, keyword)
        if arg is not None and not isinstance(arg.value, (cst.Integer, cst.SimpleString, cst.Tuple, cst.List, cst.Set)):
            return f"`{self.ctx.code(arg.value)}` holds `{keyword}`; edit it by hand"
        return self._extend(call, arg, keyword, add)

    def _extend(self, call: cst.Call, arg: cst.Arg | None, keyword: str, add: list[str]) -> Edit:
        ctx = self.ctx
        if arg is None:
            last = call.args[-1]
            text = f", {keyword}={_render(cst.Tuple, add)}"
            at = ctx.end(last.value)
            return Edit(at, at, text)
        return ctx.replace(arg.value, _new_value(ctx, arg, _element_texts(ctx, arg.value), add))

    def _wrap_bare(self, jit_node: cst.CSTNode, params: Names, partial: Spelling | None) -> SpecEdit | str:
        """``@jax.jit`` becomes ``@partial(jax.jit, static_argnames=("N",))``."""
        if not isinstance(jit_node, cst.Decorator):
            return "the jit is not a decorator we can extend"
        if partial is None:
            return "no name for functools.partial is free in this module"
        jit_text = self.ctx.code(jit_node.decorator)
        names = _render(cst.Tuple, [f'"{p}"' for p in params])
        new = f"{partial.text}({jit_text}, static_argnames={names})"
        edits = [self.ctx.replace(jit_node.decorator, new)]
        if partial.edit is not None:
            edits.append(partial.edit)
        return SpecEdit(tuple(edits), new)

    def _describe(self, call: cst.Call, edits: list[Edit]) -> str:
        """The jit call as it reads after the edits."""
        start, end = self.ctx.start(call), self.ctx.end(call)
        inside = [e for e in edits if start <= e.start and e.end <= end]
        shifted = [Edit(e.start - start, e.end - start, e.content) for e in inside]
        return apply_edits(self.ctx.text[start:end], shifted)

    # -- dropping ---------------------------------------------------------------
    def drop(self, wrapper: JitWrapper, jit_node: cst.CSTNode, sig: Signature, param: str) -> SpecEdit | str:
        """Edits making `param` dynamic again; the whole keyword goes when it empties."""
        return self.drop_entries(wrapper, jit_node, sig, frozenset({param}), frozenset())

    def drop_entries(
        self, wrapper: JitWrapper, jit_node: cst.CSTNode, sig: Signature, names: frozenset[str], numbers: frozenset[int]
    ) -> SpecEdit | str:
        """Edits removing the parameters `names` (from static_argnames, and their positions from
        static_argnums) and the written positions `numbers` (from static_argnums, as written):
        the whole keyword goes when it empties."""
        ctx = self.ctx
        spec = wrapper.spec
        call = wrapper.call
        if spec is None:
            return "its static arguments cannot be read"
        if call is None:
            return "the jit has no static arguments written"
        indices = {i for i in (sig.positional_index(n) for n in names) if i is not None}
        param = ", ".join(sorted(names | {str(n) for n in numbers}))
        n_positional = len(sig.positional)
        edits: list[Edit] = []
        remaining = StaticSpec(spec.argnums, spec.argnames)
        for keyword in ("static_argnums", "static_argnames"):
            arg = _keyword_arg(call, keyword)
            if arg is None:
                continue
            value = constant_value(ctx, arg.value)
            if value is NOT_CONSTANT or not isinstance(arg.value, (cst.Integer, cst.UnaryOperation, cst.SimpleString, cst.ConcatenatedString, cst.Tuple, cst.List, cst.Set)):
                return f"`{ctx.code(arg.value)}` holds the static arguments; edit it by hand"
            items = list(value) if isinstance(value, tuple) else [value]
            texts = _element_texts(ctx, arg.value)
            if keyword == "static_argnums":
                drop = {i for i, v in enumerate(items) if v in numbers or v in indices or v + n_positional in indices}
            else:
                drop = {i for i, v in enumerate(items) if v in names}
            if not drop:
                continue
            edits.extend(self._keeping(call, arg, [t for i, t in enumerate(texts) if i not in drop]))
            kept_values = tuple(v for i, v in enumerate(items) if i not in drop)
            if keyword == "static_argnums":
                remaining = StaticSpec(kept_values or None, remaining.argnames)
            else:
                remaining = StaticSpec(remaining.argnums, kept_values or None)
        if not edits:
            return f"`{param}` is not among the static arguments written here"
        if remaining.argnums is None and remaining.argnames is None:
            collapsed = self._collapse(call, jit_node)
            if collapsed is not None:
                return SpecEdit((collapsed,), "jit without static arguments")
        return SpecEdit(tuple(edits), "static arguments without " + param)

    def drop_numbers(self, call: cst.Call, keyword: str, numbers: frozenset[int]) -> tuple[Edit, ...] | str:
        """Edits removing `numbers` from a literal positions keyword of any call (pmap's
        ``static_broadcasted_argnums``); the keyword goes when it empties. A reason otherwise."""
        ctx = self.ctx
        arg = _keyword_arg(call, keyword)
        if arg is None:
            return f"`{keyword}` is not written here"
        value = constant_value(ctx, arg.value)
        if value is NOT_CONSTANT or not isinstance(arg.value, (cst.Integer, cst.Tuple, cst.List, cst.Set)):
            return f"`{ctx.code(arg.value)}` holds `{keyword}`; edit it by hand"
        items = list(value) if isinstance(value, tuple) else [value]
        keep = [t for v, t in zip(items, _element_texts(ctx, arg.value)) if v not in numbers]
        if len(keep) == len(items):
            return f"`{keyword}` does not list {', '.join(map(str, sorted(numbers)))}"
        return tuple(self._keeping(call, arg, keep))

    def _keeping(self, call: cst.Call, arg: cst.Arg, keep: list[str]) -> list[Edit]:
        """The keyword's value with only the entries `keep` (their texts); the whole keyword goes
        when none is left."""
        if keep:
            return [self.ctx.replace(arg.value, _new_value(self.ctx, arg, keep, []))]
        return self._remove_keyword(call, arg)

    def _remove_keyword(self, call: cst.Call, arg: cst.Arg) -> list[Edit]:
        return remove_args(self.ctx, call, [list(call.args).index(arg)])

    def _collapse(self, call: cst.Call, jit_node: cst.CSTNode) -> Edit | None:
        """``partial(jax.jit, static_argnums=0)`` / ``jax.jit(static_argnums=0)`` -> ``jax.jit``."""
        ctx = self.ctx
        others = [a for a in call.args if a.keyword is None or a.keyword.value not in ("static_argnums", "static_argnames")]
        if isinstance(jit_node, cst.Decorator) and jit_node.decorator is call:
            if len(others) == 1 and others[0].keyword is None:  # partial(jax.jit, <statics>)
                return ctx.replace(call, ctx.code(others[0].value))
            if not others and ctx.names.qualified_name(call.func) == "jax.jit":  # jax.jit(<statics>)
                return ctx.replace(call, ctx.code(call.func))
        return None


def _first_string(arg: cst.Arg | None) -> cst.BaseExpression | None:
    if arg is None:
        return None
    value = arg.value
    if isinstance(value, (cst.Tuple, cst.List, cst.Set)) and value.elements:
        return value.elements[0].value  # type: ignore[union-attr]
    return value

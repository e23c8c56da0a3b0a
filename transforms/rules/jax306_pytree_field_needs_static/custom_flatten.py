"""JAX306 for a class with its own ``tree_flatten``: a Python value among its children, read where
Python needs it.

What ``tree_flatten`` returns first are the children: leaves jit, vmap and the
lax primitives trace, whatever they held (`custom_pytrees`). A count or flag put
there (ott's ``WassersteinSolver`` returned ``[self.epsilon, self.rank, ...]``)
arrives as a tracer in traced code, and fails where Python needs its value:
``if self.rank > 0:`` (TracerBoolConversionError), a shape, a ``range``. The fix
ott made (commit d62c6482, "Fix rank being traced") moves it into the aux_data,
which jit keeps static, hashed and compared with ``==`` (docs/jax306-behaviour.md).

Found: a child ``self.f`` of the flatten's children display, read as ``p.f`` of a
parameter a trace hands an instance (annotated with the class or a subclass), or
as ``self.f`` in a method or property such code runs on it (``solver.is_low_rank``
returning ``self.rank > 0``, then its result tested by an ``if``), where the
read needs a concrete value (`concrete_uses`).

Moved where the edit is proven: the aux_data is a ``dict(...)`` call or a dict
display the unflatten passes whole as ``cls(..., **aux_data)``, and the unflatten
unpacks the children once into names, the one for ``f`` passed only as the
keyword ``k=name`` of that call: the child goes, the key ``k`` joins the aux_data
(``k=self.f``), and the unflatten's keyword goes (the aux_data gives it). A
``**`` in the aux_data must be the constructor's own ``**kwargs`` stored on
``self``, which cannot hold ``k`` (a named parameter). Every value ``f`` holds
must be a hashable Python value: the ``__init__`` stores a parameter, every
construction of the class (and its subclasses) in the module passes a number,
bool, string or None or leaves the default, no other module uses the class,
and nothing else assigns the field. Otherwise reported, with the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import constructions
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need, Use
from jaxfix.transforms.semantics.custom_pytrees import (
    Flattened,
    flatten_method,
    flattened,
    inherited_method,
    module_base,
    unflatten_parameters,
)
from jaxfix.transforms.semantics.instance_attributes import stored_parameter, stored_value
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.python_values import NotStatic, ValueKind, python_value
from jaxfix.transforms.semantics.pytree_classes import named_class
from jaxfix.transforms.semantics.pytree_values import TracedInstances
from jaxfix.transforms.semantics.reads import first_parameter, parameter, parameter_reads
from jaxfix.transforms.semantics.traced_values import Taint

CODE = "JAX306"


@dataclass(frozen=True)
class _Reached:
    """A method run on a traced instance, with the reads that run it (``solver.is_low_rank``)."""

    method: cst.FunctionDef
    accesses: tuple[tuple[cst.Attribute, FunctionNode], ...]


class ChildFields:
    """One module's JAX306 findings for classes that flatten themselves."""

    def __init__(self, analysis: Analysis, uses: ConcreteUses) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = uses
        #: What traced parameters are handed, counting the classes that flatten themselves.
        self.instances = TracedInstances(analysis, registered=lambda cls: flatten_method(self.ctx, cls) is not None)

    def findings(self) -> Iterator[Finding]:
        ctx = self.ctx
        families: dict[int, tuple[cst.FunctionDef, list[cst.ClassDef]]] = {}
        for cls in ctx.nodes_of(cst.ClassDef):
            flatten = flatten_method(ctx, cls)
            if flatten is not None and ctx.enclosing_class(flatten) is not None:
                families.setdefault(id(flatten), (flatten, []))[1].append(cls)
        for flatten, classes in families.values():
            parts = flattened(ctx, flatten)
            if parts is None or not isinstance(parts.children, (cst.List, cst.Tuple)):
                continue
            children = _child_fields(flatten, parts.children)
            if not children:
                continue
            reads, reached = self._traced_reads(classes)
            for name in children:
                found = self._first_need(name, reads, reached)
                if found is not None:
                    yield self._finding(flatten, parts, classes, name, *found)

    # -- where a traced instance's child is read --------------------------------------------
    def _traced_reads(
        self, classes: list[cst.ClassDef]
    ) -> tuple[list[tuple[cst.Attribute, FunctionNode, str]], dict[int, _Reached]]:
        """Each ``p.attr`` of a parameter a trace hands an instance of one of `classes` (why), and
        the methods such an instance runs (through ``self.m`` in them too)."""
        ctx = self.ctx
        reads: list[tuple[cst.Attribute, FunctionNode, str]] = []
        reached: dict[int, _Reached] = {}
        work: list[tuple[cst.FunctionDef, str]] = []

        def visit(instance_reads: list[cst.CSTNode], cls: cst.ClassDef, why: str) -> None:
            for read in instance_reads:
                attribute = ctx.parent(read)
                if not (isinstance(attribute, cst.Attribute) and attribute.value is read):
                    continue
                fn = ctx.enclosing_function(attribute)
                if fn is None:
                    continue
                reads.append((attribute, fn, why))
                method = inherited_method(ctx, cls, attribute.attr.value)
                if method is None:
                    continue
                entry = reached.get(id(method))
                if entry is None:
                    work.append((method, why))
                    reached[id(method)] = _Reached(method, ((attribute, fn),))
                else:
                    reached[id(method)] = _Reached(method, (*entry.accesses, (attribute, fn)))

        for fn in ctx.nodes_of(cst.FunctionDef):
            for param in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params):
                annotated = named_class(ctx, param.annotation.annotation) if param.annotation is not None else None
                cls = annotated or self.instances.instance_of(fn, param.name.value)
                if cls is None or cls not in classes:
                    continue
                source = self.analysis.traced.param_source(fn, param.name.value)
                if source is None or source.taint is not Taint.TRACED or source.keeps_value:
                    continue
                visit(parameter_reads(ctx, fn, param.name.value), cls, source.reason)
        while work:
            method, why = work.pop()
            receiver = first_parameter(method)
            owner = ctx.enclosing_class(method)
            if receiver is None or owner is None:
                continue
            visit(parameter_reads(ctx, method, receiver), owner, why)
        return reads, reached

    def _first_need(
        self, name: str, reads: list[tuple[cst.Attribute, FunctionNode, str]], reached: dict[int, _Reached]
    ) -> tuple[cst.Attribute, str, Use] | None:
        for read, fn, why in reads:
            if read.attr.value != name:
                continue
            use = self.uses.need_of(read, fn)
            if use is None and _returned(self.ctx, read, fn):
                use = self._result_need(fn, reached, set())
            if use is not None and use.need is Need.NEEDS:
                return read, why, use
        return None

    def _result_need(self, method: FunctionNode, reached: dict[int, _Reached], seen: set[int]) -> Use | None:
        """Where what a method run on the traced instance returns is needed: at each of its
        accesses (a property's read, a method's call), and on through a method returning it."""
        ctx = self.ctx
        entry = reached.get(id(method))
        if entry is None or id(method) in seen:
            return None
        seen.add(id(method))
        prop = any(ctx.names.qualified_name(d.decorator) == "builtins.property" for d in entry.method.decorators)
        for access, fn in entry.accesses:
            result: cst.CSTNode = access
            if not prop:
                call = ctx.parent(access)
                if not (isinstance(call, cst.Call) and call.func is access):
                    continue
                result = call
            use = self.uses.need_of(result, fn)
            if use is None and _returned(ctx, result, fn):
                use = self._result_need(fn, reached, seen)
            if use is not None and use.need is Need.NEEDS:
                return use
        return None

    # -- the finding ---------------------------------------------------------------------------
    def _finding(
        self,
        flatten: cst.FunctionDef,
        parts: Flattened,
        classes: list[cst.ClassDef],
        name: str,
        read: cst.Attribute,
        why: str,
        use: Use,
    ) -> Finding:
        ctx = self.ctx
        owner = ctx.enclosing_class(flatten)
        shown = owner.name.value if owner is not None else flatten.name.value
        head = (
            f"`{ctx.code(read)}` is among the children `{shown}.{flatten.name.value}` returns, so it is a leaf, traced "
            f"({why}); {use.reason}"
        )
        plan = self._plan(flatten, parts, classes, name)
        if isinstance(plan, str):
            return ctx.finding(
                CODE,
                read,
                f"{head}; not rewritten: {plan}",
                notes=(
                    f"option: return `self.{name}` in the aux_data (`{flatten.name.value}`'s second value) and read it back "
                    "from there when unflattening, when it holds a hashable Python value",
                    "option: pass the value as a static argument of its own",
                ),
            )
        edits, how = plan
        return ctx.finding(
            CODE,
            read,
            f"{head}; `self.{name}` moves into the aux_data ({how}), which jit keeps static, and the unflatten takes "
            "it from there",
            edits,
            Applicability.SAFE,
            description=f"move `self.{name}` into the aux_data",
            notes=(
                f"aux_data is part of the tree's structure: each value of `{name}` compiles once, and tree operations "
                f"(`tree_map`, `tree_leaves`) no longer visit it",
            ),
        )

    # -- the fix -------------------------------------------------------------------------------
    def _plan(
        self, flatten: cst.FunctionDef, parts: Flattened, classes: list[cst.ClassDef], name: str
    ) -> tuple[tuple[Edit, ...], str] | str:
        ctx = self.ctx
        owner = ctx.enclosing_class(flatten)
        if owner is None:
            return "the flatten is no method of the class"
        unflatten = unflatten_parameters(ctx, owner)
        if isinstance(unflatten, str):
            return unflatten
        function, aux_name, children_name = unflatten
        children = parts.children
        assert isinstance(children, (cst.List, cst.Tuple))
        index = next(i for i, e in enumerate(children.elements) if _self_field(flatten, e) == name)
        unpacked = _unpacking(ctx, function, children_name, len(children.elements))
        if isinstance(unpacked, str):
            return unpacked
        target = unpacked.elements[index].value
        if not isinstance(target, cst.Name):
            return f"`{function.name.value}` unpacks the child into `{ctx.code(target)}`, not a name"
        unproven = self._values_unproven(owner, classes, name, function)
        if unproven is not None:
            return unproven
        removals = (_element_removal(ctx, children.elements, index), _element_removal(ctx, unpacked.elements, index))
        passed = _keyword_passing(ctx, function, target, aux_name)
        if not isinstance(passed, str):
            # `cls(..., rank=rank, **aux_data)`: the aux_data dict gives the keyword once it holds it
            keyword, keyword_arg = passed
            added = _aux_addition(ctx, flatten, parts.aux, keyword.value, name)
            if isinstance(added, str):
                return added
            return (*removals, _argument_removal(ctx, keyword_arg), added), f"`{keyword.value}=self.{name}`"
        # otherwise the unflatten reads the aux_data by index or key: the name is bound from there
        appended = _aux_appended(ctx, flatten, parts.aux, name)
        if isinstance(appended, str):
            return f"{passed}; and {appended}"
        added, key, shown = appended
        if not _read_by_constant(ctx, function, aux_name, none_before=isinstance(parts.aux, cst.Name)):
            return f"`{function.name.value}` reads `{aux_name}` otherwise than by a constant index or key"
        statement = ctx.statement_of(unpacked)
        line_end = ctx.text.find("\n", ctx.end(statement)) + 1  # after the line, its comment included
        if line_end == 0:
            return "the unpacking of the children ends the file"
        bound = Edit(line_end, line_end, f"{ctx.indent_of(statement)}{target.value} = {aux_name}[{key}]\n")
        return (*removals, added, bound), f"{shown}, read back as `{aux_name}[{key}]`"

    def _values_unproven(
        self, owner: cst.ClassDef, classes: list[cst.ClassDef], name: str, unflatten: cst.FunctionDef
    ) -> str | None:
        """Why some value the field may hold is not shown to be a hashable Python value."""
        ctx = self.ctx
        family = _family(ctx, owner, classes)
        if ctx.repo is not None:
            from jaxfix.transforms.semantics.importers import module_using  # reads other modules: only with a project

            for cls in family:
                other = module_using(ctx, cls.name.value)
                if other is not None:
                    return f"`{cls.name.value}` is used by `{other}` too, where jaxfix does not check what it is given"
        inits: set[int] = set()
        for cls in family:
            init = inherited_method(ctx, cls, "__init__")
            param = stored_parameter(init, name) if init is not None else None
            if init is None or param is None:
                return f"`{cls.name.value}`'s `__init__` does not store a parameter as `self.{name}`"
            inits.add(id(init))
            declared = parameter(init, param)
            built = constructions(ctx, cls, subclasses=family)
            if built is None:
                return f"`{cls.name.value}` is used where jaxfix cannot see every instance it builds"
            for made in built:
                given = call_argument(made, function_info(ctx, init).signature, param, bound=True, ctx=ctx)
                if given is DEFAULT:
                    given = declared.default if declared is not None else None
                if not isinstance(given, cst.BaseExpression):
                    return f"`{shorten(ctx.code(made), 50)}` (line {ctx.span(made).start.line}) gives `{name}` a value jaxfix cannot read"
                why = _not_hashable_python(self.analysis, given)
                if why is not None:
                    return f"`{shorten(ctx.code(made), 50)}` (line {ctx.span(made).start.line}) gives `{name}` `{shorten(ctx.code(given), 30)}`, which {why}"
        for node in ctx.attributes_named(name):
            target = ctx.parent(node)
            stored = isinstance(target, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)) or (
                isinstance(target, cst.Element) and isinstance(ctx.parent(target), (cst.Tuple, cst.List))
                and isinstance(ctx.parent(ctx.parent(target)), cst.AssignTarget)
            )
            if not stored:
                continue
            fn = ctx.enclosing_function(node)
            if isinstance(fn, cst.FunctionDef) and (id(fn) in inits or fn is unflatten):
                continue
            holder = ctx.enclosing_class(fn) if isinstance(fn, cst.FunctionDef) else None
            receiver = first_parameter(fn) if isinstance(fn, cst.FunctionDef) else None
            mine = isinstance(node.value, cst.Name) and node.value.value == receiver
            if mine and holder is not None and holder not in family:
                continue  # another class's own attribute of that name
            return f"line {ctx.span(node).start.line} assigns `{ctx.code(node)}`"
        return None


def _self_field(flatten: cst.FunctionDef, element: cst.BaseElement) -> str | None:
    receiver = first_parameter(flatten)
    value = element.value if isinstance(element, cst.Element) else None
    if receiver is None or not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
        return None
    return value.attr.value if value.value.value == receiver else None


def _child_fields(flatten: cst.FunctionDef, children: cst.List | cst.Tuple) -> list[str]:
    """The fields the children display holds as ``self.f``, each once (no starred element)."""
    if any(not isinstance(e, cst.Element) for e in children.elements):
        return []
    names = [n for e in children.elements if (n := _self_field(flatten, e)) is not None]
    return [n for n in names if names.count(n) == 1]


def _returned(ctx, node: cst.CSTNode, fn: FunctionNode) -> bool:
    """`node` is inside the value a ``return`` of `fn` itself gives (``return self.rank > 0``)."""
    for ancestor in ctx.ancestors(node):
        if isinstance(ancestor, cst.Return):
            return ctx.enclosing_function(ancestor) is fn
        if isinstance(ancestor, (cst.BaseStatement, cst.BaseSmallStatement, cst.Lambda)):
            return False
    return False


def _family(ctx, owner: cst.ClassDef, classes: list[cst.ClassDef]) -> list[cst.ClassDef]:
    """The class that writes the flatten and every class of the module below it."""
    out = [owner]
    changed = True
    while changed:
        changed = False
        for cls in ctx.nodes_of(cst.ClassDef):
            if cls not in out and module_base(ctx, cls) in out:
                out.append(cls)
                changed = True
    return out + [c for c in classes if c not in out]


def _not_hashable_python(analysis: Analysis, expr: cst.BaseExpression) -> str | None:
    value = python_value(analysis, expr)
    if isinstance(value, NotStatic):
        return f"is not shown to be a Python value: {value.reason}"
    if value.kind is not ValueKind.NUMBER:
        return "is not a number, string or bool"
    return None


def _unpacking(ctx, function: cst.FunctionDef, children_name: str, count: int) -> cst.Tuple | cst.List | str:
    """The one ``a, b, c = children`` of the unflatten: its only read of the children."""
    reads = parameter_reads(ctx, function, children_name)
    statement = ctx.parent(reads[0]) if len(reads) == 1 else None
    if not isinstance(statement, cst.Assign) or statement.value is not reads[0] or len(statement.targets) != 1:
        return f"`{function.name.value}` does not unpack `{children_name}` once into names"
    target = statement.targets[0].target
    if not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != count:
        return f"`{function.name.value}` does not unpack `{children_name}` once into names"
    if any(not isinstance(e, cst.Element) for e in target.elements):
        return f"`{function.name.value}` unpacks `{children_name}` with a star"
    return target


def _keyword_passing(ctx, function: cst.FunctionDef, target: cst.Name, aux_name: str) -> tuple[cst.Name, cst.Arg] | str:
    """The one read of the unpacked name, as ``k=name`` in a call that also passes ``**aux_data``."""
    reads = [r for r in ctx.descendants(function, cst.Name) if r.value == target.value and r is not target]
    reads = [r for r in reads if not isinstance(ctx.parent(r), cst.Arg) or ctx.parent(r).keyword is not r]  # type: ignore[union-attr]
    if len(reads) != 1:
        return f"`{function.name.value}` reads `{target.value}` other than once"
    arg = ctx.parent(reads[0])
    call = ctx.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call) or arg.keyword is None or arg.value is not reads[0]:  # type: ignore[union-attr]
        return f"`{function.name.value}` does not pass `{target.value}` as a keyword argument"
    spread = [a for a in call.args if a.star == "**" and isinstance(a.value, cst.Name) and a.value.value == aux_name]
    if len(spread) != 1:
        return f"`{function.name.value}` does not pass its aux_data `**{aux_name}` to the same call"
    return arg.keyword, arg  # type: ignore[return-value]


def _aux_addition(ctx, flatten: cst.FunctionDef, aux: cst.BaseExpression, key: str, name: str) -> Edit | str:
    """The edit adding ``key=self.<name>`` to the aux_data dict the flatten returns."""
    receiver = first_parameter(flatten)
    me = receiver or "self"
    if isinstance(aux, cst.Dict):
        if not all(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) for e in aux.elements):
            return "the aux_data dict has keys jaxfix cannot read"
        if any(e.key.evaluated_value == key for e in aux.elements):  # type: ignore[union-attr]
            return f"the aux_data already has a `{key}`"
        if not aux.elements:
            return Edit(ctx.start(aux) + 1, ctx.start(aux) + 1, f'"{key}": {me}.{name}')
        return _inserted_before(ctx, aux.elements[0], f'"{key}": {me}.{name},')
    if isinstance(aux, cst.Call) and ctx.names.qualified_name(aux.func) == "builtins.dict":
        for arg in aux.args:
            if arg.keyword is not None:
                if arg.keyword.value == key:
                    return f"the aux_data already has a `{key}`"
                continue
            if arg.star != "**" or not _own_kwargs(ctx, flatten, arg.value, key):
                return f"the aux_data `dict(...)` takes `{shorten(ctx.code(arg), 30)}`, which may hold `{key}`"
        if not aux.args:
            return Edit(ctx.end(aux) - 1, ctx.end(aux) - 1, f"{key}={me}.{name}")
        return _inserted_before(ctx, aux.args[0], f"{key}={me}.{name},")
    return "the aux_data is not a dict the unflatten passes on whole"


def _aux_appended(ctx, flatten: cst.FunctionDef, aux: cst.BaseExpression, name: str) -> tuple[Edit, str, str] | str:
    """The edit adding ``self.<name>`` to the aux_data display, the index or key the unflatten
    reads it back by, and the change in words: a tuple display (written out again, the value
    last), a dict one, or None (a tuple of the one value)."""
    me = first_parameter(flatten) or "self"
    if isinstance(aux, cst.Name) and aux.value == "None":
        text = f"({me}.{name},)"
        return ctx.replace(aux, text), "0", f"the aux_data becomes `{text}`"
    if isinstance(aux, cst.Tuple) and all(isinstance(e, cst.Element) for e in aux.elements):
        items = [ctx.code(e.value) for e in aux.elements]
        text = f"({', '.join([*items, f'{me}.{name}'])})"
        return ctx.replace(aux, text), str(len(items)), f"the aux_data becomes `{text}`"
    if isinstance(aux, cst.Dict) and all(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) for e in aux.elements):
        if any(e.key.evaluated_value == name for e in aux.elements):  # type: ignore[union-attr]
            return f"the aux_data already has a `{name}`"
        item = f'"{name}": {me}.{name}'
        if not aux.elements:
            return Edit(ctx.start(aux) + 1, ctx.start(aux) + 1, item), f'"{name}"', f"the aux_data gains `{item}`"
        return _inserted_before(ctx, aux.elements[0], f"{item},"), f'"{name}"', f"the aux_data gains `{item}`"
    return "the aux_data is no tuple or dict display jaxfix can extend"


def _inserted_before(ctx, first: cst.CSTNode, item: str) -> Edit:
    """`item` (with its comma) put before the first argument or element: on a line of its own
    when that one starts its line, as the others then do."""
    start = ctx.start(first)
    line_start = ctx.text.rfind("\n", 0, start) + 1
    indent = ctx.text[line_start:start]
    if indent.strip() == "" and line_start > 0:
        return Edit(start, start, f"{item}\n{indent}")
    return Edit(start, start, f"{item} ")


def _read_by_constant(ctx, function: cst.FunctionDef, aux_name: str, none_before: bool) -> bool:
    """Every read of the unflatten's aux_data parameter is ``aux[0]`` or ``aux["key"]``: one more
    item changes none of them. An aux_data that was None (`none_before`) must not be read at all."""
    reads = parameter_reads(ctx, function, aux_name)
    if none_before:
        return not reads
    for read in reads:
        subscript = ctx.parent(read)
        if not (isinstance(subscript, cst.Subscript) and subscript.value is read and len(subscript.slice) == 1):
            return False
        index = subscript.slice[0].slice
        if not (isinstance(index, cst.Index) and isinstance(index.value, (cst.Integer, cst.SimpleString))):
            return False
    return True


def _own_kwargs(ctx, flatten: cst.FunctionDef, expr: cst.BaseExpression, key: str) -> bool:
    """``**self._kwargs`` where the class's ``__init__`` stores its ``**kwargs`` as ``self._kwargs``
    and names `key` as a parameter of its own: the dict cannot hold `key`."""
    owner = ctx.enclosing_class(flatten)
    init = inherited_method(ctx, owner, "__init__") if owner is not None else None
    star = init.params.star_kwarg if init is not None else None
    if init is None or not isinstance(star, cst.Param) or not isinstance(expr, cst.Attribute):
        return False
    named = {p.name.value for p in (*init.params.posonly_params, *init.params.params, *init.params.kwonly_params)}
    stored = stored_value(init, expr.attr.value)
    return key in named and isinstance(stored, cst.Name) and stored.value == star.name.value


def _element_removal(ctx, elements, index: int) -> Edit:
    """Delete element `index` of a display or unpacking, with the comma that joins it; one left
    keeps a comma (``x, = children``, ``(x,)``), so that a tuple stays a tuple."""
    element = elements[index]
    if len(elements) == 2:
        kept = elements[1 - index]
        return Edit(ctx.start(elements[0].value), ctx.end(elements[1].value), f"{ctx.code(kept.value)},")
    if index + 1 < len(elements):
        return Edit(ctx.start(element.value), ctx.start(elements[index + 1].value), "")
    if index > 0:
        return Edit(ctx.end(elements[index - 1].value), ctx.end(element.value), "")
    return Edit(ctx.start(element.value), ctx.end(element.value), "")


def _argument_removal(ctx, arg: cst.Arg) -> Edit:
    """Delete a keyword argument with the comma that joins it to the next (or previous) one."""
    call = ctx.parent(arg)
    args = list(call.args)  # type: ignore[union-attr]
    index = next(i for i, a in enumerate(args) if a is arg)
    if index + 1 < len(args):
        return Edit(ctx.start(arg), ctx.start(args[index + 1]), "")
    return Edit(ctx.end(args[index - 1].value), ctx.end(arg.value), "") if index > 0 else Edit(ctx.start(arg), ctx.end(arg.value), "")

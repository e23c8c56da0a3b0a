"""Systematic re-spellings of a program that must not change jaxfix's verdict.

A rule that passes only its own golden spelling is not done: users import JAX
under aliases (``import jax as j``, ``from jax import vmap as batch``), call
``lax.cond`` as ``c`` after ``from jax.lax import cond as c``, and name
``functools.partial`` ``p``. Each function here rewrites a program's text into
one such variant with libcst, resolving names through scopes (only what the
import binds is renamed, never a local that happens to share its spelling),
and keeps every line where it was, so findings keep their line numbers.

Variants refuse (return None) when they do not apply to a program, so a test
can tell "not applicable" from "applied and kept the verdict".

The metamorphic variants (issue 19, tests/test_metamorphic.py) re-spell what
the rules reason about rather than how names are imported:

    renamed_parameters     every parameter renamed (`n` -> `n_value`), with its reads, the keywords
                           of calls that reach it and the strings of static_argnames naming it
    jit_by_assignment      `@partial(jax.jit, ...)` on a def as `f = jax.jit(f, ...)` right after it
    positional_to_keyword  `f(a, b, c)` as `f(a, b=b, c=c)` for module-level functions (not ones
                           jitted with static_argnums, which count positions)
    moved_into_class       module-level functions as @staticmethods of `class Model`, read as `Model.f`
    configs_from_helpers   each module-level `NAME = <literal, or an instance of a module class>` as
                           `NAME = make_name()` of a helper right above it that returns the value

Each refuses where the re-spelling could change what the program does (a
keyword it cannot attribute, `**kwargs`, reflection, a def rebound at module
level ...); `why_not` says why. Each was checked by running every variant
of every golden program: it fails as the original fails (moved_into_class
changes only the `__qualname__` in JAX's messages) or prints what it prints.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.core.options import Options
from jaxfix.transforms.semantics.module import ModuleContext

#: `import MODULE` (exactly) -> the alias the variant gives it.
MODULE_ALIASES = {"jax": "j", "functools": "ft"}
#: `from MODULE import NAME` -> the alias the variant gives NAME.
FROM_ALIASES = {
    ("jax", "jit"): "A",
    ("jax", "vmap"): "B",
    ("jax", "grad"): "C",
    ("jax", "lax"): "L",
    ("jax", "numpy"): "jnp_",
    ("jax", "value_and_grad"): "D",
    ("jax", "jacrev"): "E",
    ("jax", "jacfwd"): "F",
    ("jax", "checkpoint"): "G",
    ("jax", "make_jaxpr"): "H",
    ("jax", "pmap"): "K",
    ("functools", "partial"): "p",
    ("jax.lax", "cond"): "c",
    ("jax.lax", "switch"): "s",
    ("jax.lax", "scan"): "sc",
    ("jax.lax", "fori_loop"): "fl",
    ("jax.lax", "while_loop"): "wl",
}
#: `import jax.lax as lax` and the like -> a new alias.
DOTTED_ALIASES = {"jax.lax": "L", "jax.numpy": "jnp_"}
#: Attribute calls `lax.cond(...)` that the variant spells through a new from-import.
ATTRIBUTE_TO_IMPORT = {"jax.lax.cond": "c", "jax.lax.switch": "s", "jax.lax.scan": "sc", "jax.lax.fori_loop": "fl"}


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _scoped(text: str) -> ModuleContext:
    """One parse of the program with its scopes, parents and qualified names: jaxfix's own maps,
    which tests/test_nodemaps.py holds equal to libcst's providers, at a third of their cost
    (the variants are built for every golden program on every run of the suite)."""
    return ModuleContext(text, cst.parse_module(text), Options(), None, None, None)


def _qualified_names(ctx: ModuleContext, node: cst.CSTNode) -> set:
    """What libcst's QualifiedNameProvider gives `node`: its scope's qualified names for it."""
    scope = ctx.scope(node)
    return scope.get_qualified_names_for(node) if scope is not None else set()


def _free_name(module: cst.Module, wanted: str, taken: set[str]) -> str:
    name = wanted
    i = 1
    while name in taken:
        name = f"{wanted}{i}"
        i += 1
    taken.add(name)
    return name


def _all_names(module: cst.Module) -> set[str]:
    names: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.add(node.value)

    module.visit(Collect())
    return names


class _Renamer(cst.CSTTransformer):
    """Renames import bindings (the alias written in the import) and every access of them."""

    def __init__(self, aliases: dict[cst.ImportAlias, str], accesses: dict[cst.CSTNode, str]) -> None:
        self.aliases = aliases
        self.accesses = accesses

    def leave_ImportAlias(self, original: cst.ImportAlias, updated: cst.ImportAlias) -> cst.ImportAlias:
        new = self.aliases.get(original)
        if new is None:
            return updated
        return updated.with_changes(asname=cst.AsName(name=cst.Name(new)))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        new = self.accesses.get(original)
        return updated.with_changes(value=new) if new is not None else updated


def alias_imports(
    text: str,
    module_aliases: dict[str, str] = MODULE_ALIASES,
    from_aliases: dict[tuple[str, str], str] = FROM_ALIASES,
    dotted_aliases: dict[str, str] = DOTTED_ALIASES,
) -> str | None:
    """Every import of a JAX or functools name re-bound under another local name."""
    ctx = _scoped(text)
    module = ctx.module
    taken = {n.value for n in ctx.nodes_of(cst.Name)}
    aliases: dict[cst.ImportAlias, str] = {}
    accesses: dict[cst.CSTNode, str] = {}

    class Find(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                full = _dotted(alias.name)
                bound = alias.asname.name.value if isinstance(alias.asname, cst.AsName) else None
                if bound is None and full in module_aliases:
                    self._rename(node, alias, full, module_aliases[full])
                elif bound is not None and full in dotted_aliases:
                    self._rename(node, alias, bound, dotted_aliases[full])

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if isinstance(node.names, cst.ImportStar) or node.relative or node.module is None:
                return
            source = _dotted(node.module)
            for alias in node.names:
                name = alias.name.value if isinstance(alias.name, cst.Name) else ""
                wanted = from_aliases.get((source, name))
                if wanted is not None:
                    bound = alias.asname.name.value if isinstance(alias.asname, cst.AsName) else name  # type: ignore[union-attr]
                    self._rename(node, alias, bound, wanted)

        def _rename(self, statement: cst.CSTNode, alias: cst.ImportAlias, bound: str, wanted: str) -> None:
            scope = ctx.scope(statement)
            if scope is None:
                return
            assignments = [a for a in scope.assignments[bound] if getattr(a, "node", None) is statement]
            if not assignments:
                return
            # A name bound by this import and by anything else is left alone: renaming would split it.
            if len(scope.assignments[bound]) != 1:
                return
            references = [r.node for r in assignments[0].references]
            if not all(isinstance(r, cst.Name) for r in references):
                return
            new = _free_name(module, wanted, taken)
            aliases[alias] = new
            for ref in references:
                accesses[ref] = new

    module.visit(Find())
    if not aliases:
        return None
    return module.visit(_Renamer(aliases, accesses)).code


class _AttributeToName(cst.CSTTransformer):
    def __init__(self, replaced: dict[cst.Attribute, str], import_line: cst.SimpleStatementLine, added: str) -> None:
        self.replaced = replaced
        self.import_line = import_line
        self.added = added

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        new = self.replaced.get(original)
        return cst.Name(new) if new is not None else updated

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if original is not self.import_line:
            return updated
        extra = cst.parse_statement(self.added + "\n")
        assert isinstance(extra, cst.SimpleStatementLine)
        body = [*updated.body]
        body[-1] = body[-1].with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated.with_changes(body=[*body, *extra.body])


@functools.lru_cache(maxsize=1024)
def primitives_imported_by_name(text: str) -> str | None:
    """``lax.cond(...)`` becomes ``c(...)`` with ``from jax.lax import cond as c`` on the first import line."""
    ctx = _scoped(text)
    module = ctx.module
    taken = {n.value for n in ctx.nodes_of(cst.Name)}
    chosen: dict[str, str] = {}
    replaced: dict[cst.Attribute, str] = {}

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            qualified = _qualified_names(ctx, node)
            if len(qualified) != 1:
                return
            (q,) = qualified
            if q.name in ATTRIBUTE_TO_IMPORT:
                if q.name not in chosen:
                    chosen[q.name] = _free_name(module, ATTRIBUTE_TO_IMPORT[q.name], taken)
                replaced[node] = chosen[q.name]

    module.visit(Find())
    first_import = next(
        (
            s
            for s in module.body
            if isinstance(s, cst.SimpleStatementLine) and any(isinstance(b, (cst.Import, cst.ImportFrom)) for b in s.body)
        ),
        None,
    )
    if not replaced or first_import is None:
        return None
    added = "; ".join(f"from jax.lax import {q.rsplit('.', 1)[1]} as {local}" for q, local in sorted(chosen.items()))
    return module.visit(_AttributeToName(replaced, first_import, added)).code


#: Each variant by name: a program's text -> its re-spelled text, or None when it does not apply.
ALIAS_VARIANTS: dict[str, Callable[[str], str | None]] = {
    "aliased_imports": alias_imports,
    "primitives_by_name": primitives_imported_by_name,
    "both": lambda text: alias_imports(primitives_imported_by_name(text) or text),
    # Real code often writes `import jax.numpy as np` (and never imports NumPy itself).
    "jax_numpy_as_np": functools.partial(
        alias_imports, module_aliases={}, from_aliases={("jax", "numpy"): "np"}, dotted_aliases={"jax.numpy": "np"}
    ),
}


# --- Metamorphic variants (issue 19): re-spellings beyond import aliases ---------------------------
#
# Each raw transform below raises NotApplicable(reason) where it does not apply to a program or
# cannot re-spell it safely (the program would mean something else); the public functions return
# None then, as the alias variants do, and `why_not` tells the reason.


class NotApplicable(Exception):
    """The variant does not apply to this program, or cannot be made without changing its meaning."""


#: Callables that wrap their first argument, a function: keywords of a call of what they return
#: reach that function by name (`jax.jit(f)(x, n=3)`, `g = jax.vmap(f); g(x, n=3)`).
_WRAPPERS = frozenset(
    {
        "jax.jit",
        "jax.vmap",
        "jax.pmap",
        "jax.checkpoint",
        "jax.remat",
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacrev",
        "jax.jacfwd",
        "jax.hessian",
        "jax.make_jaxpr",
        "functools.partial",
        "jax.tree_util.Partial",
    }
)
#: Of those, the ones whose own keyword arguments go on to the function (partial's bound keywords).
_PASS_KEYWORDS = frozenset({"functools.partial", "jax.tree_util.Partial", "jax.eval_shape"})
#: Keyword arguments of jit that name parameters in strings.
_ARGNAMES = ("static_argnames", "donate_argnames")
_ARGNUMS = ("static_argnums", "donate_argnums")
#: Reflection that can reach a parameter by its name in a string.
_REFLECTION = frozenset({"getattr", "setattr", "hasattr", "delattr", "locals", "vars", "signature", "__code__"})

_Function = cst.FunctionDef | cst.Lambda


class _Facts:
    """One parse of a program with the metadata every variant needs: scopes, every name's access,
    qualified names, parents."""

    def __init__(self, text: str) -> None:
        self.ctx = _scoped(text)
        self.module = self.ctx.module
        self.access_of: dict[cst.CSTNode, object] = {}
        for scope in self.ctx.scopes():
            for access in scope.accesses:
                self.access_of[access.node] = access
        # every node but the module, in the order libcst's ParentNodeProvider lists them: the
        # children of each node as the walk leaves it
        nodes = _children_as_left(self.module)
        self.taken = {n.value for n in nodes if isinstance(n, cst.Name)}
        self.functions: list[_Function] = [n for n in nodes if isinstance(n, (cst.FunctionDef, cst.Lambda))]
        self.classes: list[cst.ClassDef] = [n for n in nodes if isinstance(n, cst.ClassDef)]

    def qualified(self, node: cst.CSTNode) -> set[str]:
        return {q.name for q in _qualified_names(self.ctx, node)}

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.ctx.parent(node)

    def scope(self, node: cst.CSTNode):
        return self.ctx.scope(node)

    def is_jit(self, node: cst.CSTNode) -> bool:
        return "jax.jit" in self.qualified(node)

    def referents(self, name: cst.CSTNode) -> set:
        access = self.access_of.get(name)
        return set(access.referents) if access is not None else set()  # type: ignore[attr-defined]

    def is_external(self, node: cst.BaseExpression) -> bool:
        """A name (or the root of an attribute chain) bound only by imports or builtins."""
        from libcst.metadata import BuiltinAssignment

        while isinstance(node, cst.Attribute):
            node = node.value
        if not isinstance(node, cst.Name):
            return False
        referents = self.referents(node)
        return bool(referents) and all(
            isinstance(r, BuiltinAssignment) or isinstance(getattr(r, "node", None), (cst.Import, cst.ImportFrom))
            for r in referents
        )

    def methods(self, name: str) -> list[cst.FunctionDef]:
        return [s for c in self.classes for s in c.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name]

    def in_class_body(self, node: cst.FunctionDef) -> bool:
        block = self.parent(node)
        return isinstance(block, cst.IndentedBlock) and isinstance(self.parent(block), cst.ClassDef)

    def resolve(self, expr: cst.BaseExpression, seen: frozenset = frozenset()) -> _Function | cst.ClassDef | None:
        """The local function (or class) a call through `expr` reaches, or None where that cannot be told."""
        if isinstance(expr, cst.Lambda):
            return expr
        if isinstance(expr, cst.Name):
            if self.is_external(expr):
                return None
            found: set = set()
            for referent in self.referents(expr):
                node = getattr(referent, "node", None)
                if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                    found.add(node)
                elif isinstance(node, cst.Name) and node not in seen:
                    assign = self.parent(self.parent(node))
                    if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
                        target = self.resolve(assign.value, seen | {node})
                        if target is None:
                            return None
                        found.add(target)
                    else:
                        return None
                elif node in seen:
                    continue
                else:
                    return None
            return found.pop() if len(found) == 1 else None
        if isinstance(expr, cst.Call):
            func = expr.func
            # partial(jax.jit, ...)(f): the jit applied to f
            if isinstance(func, cst.Call) and "functools.partial" in self.qualified(func.func):
                positional = [a for a in func.args if a.keyword is None and not a.star]
                if positional and self.qualified(positional[0].value) & _WRAPPERS:
                    first = [a for a in expr.args if a.keyword is None and not a.star]
                    return self.resolve(first[0].value, seen) if first else None
            if self.qualified(func) & _WRAPPERS:
                first = [a for a in expr.args if a.keyword is None and not a.star]
                return self.resolve(first[0].value, seen) if first else None
            return None
        if isinstance(expr, cst.Attribute):
            if self.is_external(expr):
                return None
            methods = self.methods(expr.attr.value)
            return methods[0] if len(methods) == 1 else None
        return None

    def callee(self, call: cst.Call) -> tuple[str, _Function | cst.ClassDef | None]:
        """Where a call's keyword arguments go: ("local", the function or class), ("external", None)
        (a library's callable: its keywords are its own), or ("unknown", None)."""
        func = call.func
        qualified = self.qualified(func)
        if qualified & _PASS_KEYWORDS:
            first = [a for a in call.args if a.keyword is None and not a.star]
            target = self.resolve(first[0].value) if first else None
            return ("local", target) if target is not None else ("unknown", None)
        if isinstance(func, cst.Attribute) and not self.is_external(func):
            methods = self.methods(func.attr.value)
            if not methods:
                return "external", None
            return ("local", methods[0]) if len(methods) == 1 else ("unknown", None)
        if self.is_external(func):
            return "external", None
        target = self.resolve(func)
        return ("local", target) if target is not None else ("unknown", None)


@functools.lru_cache(maxsize=256)
def _children_as_left(module: cst.Module) -> list[cst.CSTNode]:
    """Each node's children, node by node in the order a walk leaves them (post-order)."""
    out: list[cst.CSTNode] = []
    stack: list[tuple[cst.CSTNode, bool]] = [(module, False)]
    while stack:
        node, left = stack.pop()
        if left:
            out.extend(node.children)
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.children))
    return out


def _facts(text: str) -> _Facts:
    """One parse per program, shared by the variants (each only reads it: rewrites make new trees)."""
    return _Facts(text)


def _parameters(function: _Function | cst.ClassDef) -> list[cst.Param]:
    """The parameters a call's keywords can bind: a class's are its __init__'s (none: fields)."""
    if isinstance(function, cst.ClassDef):
        init = [s for s in function.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"]
        return _parameters(init[0]) if init else []
    p = function.params
    star = [p.star_arg] if isinstance(p.star_arg, cst.Param) else []
    kwargs = [p.star_kwarg] if p.star_kwarg is not None else []
    return [*p.posonly_params, *p.params, *star, *p.kwonly_params, *kwargs]


def _keyword_parameters(function: _Function | cst.ClassDef) -> set[str]:
    """The names a keyword argument at a call can mean (positional-only ones included: a keyword
    naming one is renamed with it, so a call that fails keeps failing the same way)."""
    params = _parameters(function)
    return {q.name.value for q in params if q.star == "" or isinstance(q.star, cst.MaybeSentinel)}


def _string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _argnames_strings(value: cst.BaseExpression) -> list[cst.SimpleString]:
    """The strings of `static_argnames=` ("n", ["n", "m"], ("n",), {"n"}); anything else refuses."""
    if isinstance(value, cst.SimpleString):
        return [value]
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        out = []
        for element in value.elements:
            if not isinstance(element, cst.Element) or _string_value(element.value) is None:
                raise NotApplicable("static_argnames holds something other than string literals")
            out.append(element.value)
        return out
    raise NotApplicable("static_argnames is not written out as string literals")


def _argnames_target(call: cst.Call, facts: _Facts) -> _Function | cst.ClassDef | None:
    """The function whose parameters a jit call's static_argnames name."""
    parent = facts.parent(call)
    if isinstance(parent, cst.Decorator):
        return facts.parent(parent)  # type: ignore[return-value]
    if "functools.partial" in facts.qualified(call.func):
        # partial(jax.jit, static_argnames=...)(f)
        if isinstance(parent, cst.Call) and parent.func is call:
            first = [a for a in parent.args if a.keyword is None and not a.star]
            return facts.resolve(first[0].value) if first else None
        return None
    first = [a for a in call.args if a.keyword is None and not a.star]
    return facts.resolve(first[0].value) if first else None


class _Rewriter(cst.CSTTransformer):
    """Renames given Name nodes, and replaces given nodes: by a node, or by what a function makes
    of the node as rewritten inside (so rewrites nested in one another all apply)."""

    def __init__(
        self,
        names: dict[cst.CSTNode, str] | None = None,
        nodes: dict[cst.CSTNode, cst.CSTNode | Callable[[cst.CSTNode], cst.CSTNode]] | None = None,
    ) -> None:
        self.names = names or {}
        self.nodes = nodes or {}

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        new = self.names.get(original)
        return updated.with_changes(value=new) if new is not None else updated

    def on_leave(self, original, updated):  # type: ignore[override]
        result = super().on_leave(original, updated)
        replacement = self.nodes.get(original)
        if replacement is None:
            return result
        return replacement(result) if callable(replacement) else replacement


def _new_parameter_name(old: str, taken: set[str]) -> str:
    base = old.strip("_") or "unused"
    return _free_name(cst.Module([]), f"{base}_value", taken)


def _rename_parameters(text: str) -> str:
    facts = _facts(text)
    if facts.taken & _REFLECTION:
        raise NotApplicable("the program reflects on names (getattr, locals, signature ...)")
    taken = set(facts.taken)  # the shared facts stay as parsed

    class Declared(cst.CSTVisitor):
        def __init__(self) -> None:
            self.names: set[str] = set()

        def visit_Global(self, node: cst.Global) -> None:
            self.names |= {n.name.value for n in node.names}

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            self.names |= {n.name.value for n in node.names}

    declared = Declared()
    facts.module.visit(declared)

    renamed: dict[str, str] = {}
    names: dict[cst.CSTNode, str] = {}
    for function in facts.functions:
        params = _parameters(function)
        for index, param in enumerate(params):
            old = param.name.value
            if (
                index == 0
                and isinstance(function, cst.FunctionDef)
                and facts.in_class_body(function)
                and old in ("self", "cls")
            ):
                continue  # the instance by convention: methods are told by position, not by name
            if old in declared.names:
                raise NotApplicable(f"{old} is declared global or nonlocal")
            new = renamed.setdefault(old, _new_parameter_name(old, taken))
            scope = facts.scope(param)
            assignments = set(scope.assignments[old])
            for assignment in assignments:
                node = getattr(assignment, "node", None)
                if not isinstance(node, (cst.Param, cst.Name)):
                    raise NotApplicable(f"{old} is also bound by a {type(node).__name__} in its function")
                names[node.name if isinstance(node, cst.Param) else node] = new
                for reference in assignment.references:
                    if not isinstance(reference.node, cst.Name):
                        raise NotApplicable(f"{old} is read other than by its name")
                    if not set(reference.referents) <= assignments:
                        raise NotApplicable(f"a read of {old} may also mean another binding")
                    names[reference.node] = new
    if not renamed:
        raise NotApplicable("no function has a parameter")

    strings: dict[cst.CSTNode, cst.CSTNode] = {}

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            kind, target = facts.callee(call)
            for arg in call.args:
                if arg.star == "**" and kind != "external":
                    raise NotApplicable("keywords are forwarded with ** to a local function")
                if arg.keyword is None:
                    continue
                word = arg.keyword.value
                if word in _ARGNAMES:
                    self._argnames(call, arg)
                if kind == "local":
                    assert target is not None
                    if word in _keyword_parameters(target):
                        names[arg.keyword] = renamed[word]
                elif kind == "unknown" and word in renamed:
                    raise NotApplicable(f"cannot tell which function the keyword {word}= at a call reaches")
                elif word in renamed and isinstance(call.func, cst.Attribute) and call.func.attr.value in ("init", "apply"):
                    # flax's `model.init`/`model.apply` hand their keywords on to the module's method
                    raise NotApplicable(f"the keyword {word}= at `.{call.func.attr.value}(...)` may reach a module's method")

        def _argnames(self, call: cst.Call, arg: cst.Arg) -> None:
            target = _argnames_target(call, facts)
            strings_here = _argnames_strings(arg.value)
            if target is None:
                if any(_string_value(s) in renamed for s in strings_here):
                    raise NotApplicable("cannot tell which function static_argnames names the parameters of")
                return
            own = {p.name.value for p in _parameters(target)}
            for string in strings_here:
                value = _string_value(string)
                if value in own:
                    quote = string.quote
                    strings[string] = string.with_changes(value=f"{string.prefix}{quote}{renamed[value]}{quote}")

    facts.module.visit(Calls())
    return facts.module.visit(_Rewriter(names, strings)).code


def _lines(node: cst.CSTNode) -> int:
    return cst.Module([]).code_for_node(node).count("\n")


def _blank(line: cst.EmptyLine) -> bool:
    return line.comment is None


class _BodyRewriter(cst.CSTTransformer):
    """Rewrites each statement sequence (the module's, every block's) with `rewrite(statements)`."""

    def __init__(self, rewrite: Callable[[list[cst.BaseStatement]], list[cst.BaseStatement]]) -> None:
        self.rewrite = rewrite

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return updated.with_changes(body=self.rewrite(list(updated.body)))

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated.with_changes(body=self.rewrite(list(updated.body)))


def _jit_decorator_as_call(decorator: cst.Decorator, name: str, facts: _Facts) -> cst.Call | None:
    """`@jax.jit`, `@jax.jit(static_argnames=...)`, `@partial(jax.jit, ...)` as the call
    `jax.jit(name, ...)` that applies the same jit; None for any other decorator."""
    expr = decorator.decorator
    first = cst.Arg(cst.Name(name))
    if isinstance(expr, (cst.Name, cst.Attribute)) and facts.is_jit(expr):
        return cst.Call(func=expr, args=[first])
    if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
        return None
    if facts.is_jit(expr.func) and all(a.keyword is not None for a in expr.args):
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if expr.args else cst.MaybeSentinel.DEFAULT
        return expr.with_changes(args=[first.with_changes(comma=comma), *expr.args])
    if "functools.partial" in facts.qualified(expr.func) and expr.args:
        jit, *rest = expr.args
        if jit.keyword is None and facts.is_jit(jit.value) and all(a.keyword is not None for a in rest):
            return cst.Call(func=jit.value, args=[first.with_changes(comma=jit.comma), *rest])
    return None


def _jit_by_assignment(text: str) -> str:
    facts = _facts(text)
    # Found on the original tree (the metadata's), applied to the same nodes as the rewriter meets them.
    plans: dict[cst.FunctionDef, cst.Call] = {}
    for function in facts.functions:
        if isinstance(function, cst.FunctionDef) and len(function.decorators) == 1:
            call = _jit_decorator_as_call(function.decorators[0], function.name.value, facts)
            if call is not None:
                plans[function] = call
    if not plans:
        raise NotApplicable("no function is decorated with jit alone")

    class Undecorate(cst.CSTTransformer):
        """Replaces each planned decorator by as many blank lines (its comments kept), so the def
        keeps its line; marks the def for the assignment that follows it."""

        def __init__(self) -> None:
            self.assignments: dict[cst.FunctionDef, tuple[cst.SimpleStatementLine, int]] = {}

        def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
            call = plans.get(original)
            if call is None:
                return updated
            (decorator,) = original.decorators
            height = _lines(decorator) - len(decorator.leading_lines)
            filler = [*decorator.leading_lines, *[cst.EmptyLine(indent=False)] * height]
            new = updated.with_changes(decorators=[], leading_lines=[*updated.leading_lines, *filler])
            statement = cst.SimpleStatementLine(
                body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(original.name.value))], value=call)],
                trailing_whitespace=decorator.trailing_whitespace,
            )
            self.assignments[new] = (statement, _lines(statement))
            return new

    undecorate = Undecorate()

    def place(statements: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        pending: tuple[cst.SimpleStatementLine, int] | None = None
        for statement in statements:
            follows = undecorate.assignments.get(statement)  # type: ignore[call-overload]
            if pending is not None:
                assignment, height = pending
                leading = list(statement.leading_lines)
                # the assignment takes the place of blank lines before the next statement, where there are
                while height and leading and _blank(leading[0]):
                    leading.pop(0)
                    height -= 1
                out.append(assignment)
                statement = statement.with_changes(leading_lines=leading)
                pending = None
            out.append(statement)
            pending = follows
        if pending is not None:
            out.append(pending[0])
        return out

    class Place(_BodyRewriter):
        def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
            # keep the identity the first pass recorded: a def whose body changed is re-keyed
            if original in undecorate.assignments and updated is not original:
                undecorate.assignments[updated] = undecorate.assignments.pop(original)
            return updated

    undecorated = facts.module.visit(undecorate)
    return undecorated.visit(Place(place)).code


def _jit_keywords(call: cst.Call | None) -> set[str]:
    return {a.keyword.value for a in call.args if a.keyword is not None} if call is not None else set()


def _as_keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )


def _positional_to_keyword(text: str) -> str:
    facts = _facts(text)
    module_functions = {s for s in facts.module.body if isinstance(s, cst.FunctionDef)}

    def jit_of(node: cst.BaseExpression) -> cst.Call | None:
        """The jit call (`jax.jit(f, ...)`, or a decorator's equivalent) an expression is, else None."""
        if isinstance(node, cst.Call) and facts.is_jit(node.func):
            return node
        return None

    def reached(function: cst.FunctionDef) -> bool:
        """Whether a call by name reaches `function` with the arguments as written: undecorated, or
        jitted without positions (static_argnums, donate_argnums count positions)."""
        for decorator in function.decorators:
            call = _jit_decorator_as_call(decorator, function.name.value, facts)
            if call is None or _jit_keywords(call) & set(_ARGNUMS):
                return False
        return True

    def target(func: cst.BaseExpression) -> cst.FunctionDef | None:
        """The module-level function a call of `func` (a name) reaches by its own parameters."""
        if not isinstance(func, cst.Name):
            return None
        found = set()
        for referent in facts.referents(func):
            node = getattr(referent, "node", None)
            if isinstance(node, cst.FunctionDef) and node in module_functions and reached(node):
                found.add(node)
                continue
            # f = jax.jit(f) or g = jax.jit(f, static_argnames=...), at module level
            assign = facts.parent(facts.parent(node)) if isinstance(node, cst.Name) else None
            jit = jit_of(assign.value) if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
            if (
                jit is None
                or facts.parent(facts.parent(assign)) is not facts.module
                or _jit_keywords(jit) & set(_ARGNUMS)
            ):
                return None
            # the function itself, not through another transform (vmap maps keywords other than positions)
            first = [a for a in jit.args if a.keyword is None and not a.star]
            inner = {getattr(r, "node", None) for r in facts.referents(first[0].value)} if first else set()
            inner = {n for n in inner if n is not node}  # f = jax.jit(f): the def, not this assignment
            if len(inner) != 1:
                return None
            (wrapped,) = inner
            if not (isinstance(wrapped, cst.FunctionDef) and wrapped in module_functions and reached(wrapped)):
                return None
            found.add(wrapped)
        return found.pop() if len(found) == 1 else None

    rewritten: dict[cst.CSTNode, cst.CSTNode] = {}

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            function = target(call.func)
            if function is None or any(a.star for a in call.args):
                return
            p = function.params
            if isinstance(p.star_arg, cst.Param):
                return  # *args take what is positional
            slots = [*[None] * len(p.posonly_params), *(q.name.value for q in p.params)]
            given = {a.keyword.value for a in call.args if a.keyword is not None}
            positional = [a for a in call.args if a.keyword is None]
            if len(positional) > len(slots):
                return
            if given & {name for name in slots[1 : len(positional)] if name is not None}:
                return  # a name given twice: the call fails as written, and must keep failing so
            for index, arg in enumerate(positional[1:], start=1):
                name = slots[index]
                if name is None:
                    continue  # positional-only
                rewritten[arg] = functools.partial(_as_keyword, name=name)

    facts.module.visit(Calls())
    if not rewritten:
        raise NotApplicable("no call of a module-level function passes a second positional argument it can name")
    return facts.module.visit(_Rewriter(nodes=rewritten)).code


def _deferred(node: cst.CSTNode, facts: _Facts) -> bool:
    """Whether code at `node` runs only when some function is called (inside a def or lambda body),
    not while the module is executed."""
    from libcst.metadata import FunctionScope

    scope = facts.scope(node)
    while scope is not None and scope is not scope.parent:
        if isinstance(scope, FunctionScope):
            return True
        scope = scope.parent
    return False


def _top_statement(node: cst.CSTNode, facts: _Facts) -> cst.CSTNode:
    while facts.parent(node) is not facts.module:
        node = facts.parent(node)
    return node


def _moved_into_class(text: str) -> str:
    facts = _facts(text)
    body = list(facts.module.body)
    defs = [s for s in body if isinstance(s, cst.FunctionDef)]
    if not defs:
        raise NotApplicable("no module-level function")
    first, last = body.index(defs[0]), body.index(defs[-1])
    between = [s for s in body[first : last + 1] if not isinstance(s, cst.FunctionDef)]
    module_scope = facts.scope(facts.module)
    owner = _free_name(facts.module, "Model", set(facts.taken))
    references: dict[cst.CSTNode, cst.CSTNode] = {}
    for function in defs:
        name = function.name.value
        if len(module_scope.assignments[name]) != 1:
            raise NotApplicable(f"{name} is bound again at module level: which binding a read sees depends on when")
        (assignment,) = module_scope.assignments[name]
        for reference in assignment.references:
            node = reference.node
            if not isinstance(node, cst.Name):
                raise NotApplicable(f"{name} is read other than by its name")
            top = _top_statement(node, facts)
            if not _deferred(node, facts):
                # read while the module runs: it must run after the class exists
                if top in defs:
                    raise NotApplicable(f"{name} is read while a function is defined (a decorator or default)")
                if body.index(top) < first:
                    raise NotApplicable(f"{name} is read before it is defined")
            references[node] = cst.Attribute(value=cst.Name(owner), attr=cst.Name(name))

    class Mangled(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value.startswith("__") and not node.value.endswith("__"):
                raise NotApplicable("a name inside would be mangled in a class body")
            if node.value in ("super", "__class__"):
                raise NotApplicable("a function uses super() or __class__")

    for function in defs:
        function.visit(Mangled())
    # What the statements moved past the functions bind must not be needed while they are defined.
    bound_between = {
        a.name
        for a in module_scope.assignments
        if isinstance(getattr(a, "node", None), cst.CSTNode) and _top_statement(a.node, facts) in between
    }
    needed_by_defs: set[str] = set()
    for function in defs:
        for part in (*function.decorators, function.params, *([function.returns] if function.returns else [])):
            part.visit(_NameCollector(needed_by_defs))
    if bound_between & needed_by_defs:
        raise NotApplicable("a statement between the functions binds a name a decorator or default needs")

    rewritten = facts.module.visit(_Rewriter(nodes=references))
    new_body = list(rewritten.body)
    new_defs = [new_body[body.index(d)] for d in defs]
    new_between = [new_body[body.index(s)] for s in between]
    methods = []
    for original, function in zip(defs, new_defs):
        assert isinstance(function, cst.FunctionDef)
        leading = [
            line.with_changes(indent=False) if _blank(line) else line
            for line in (function.leading_lines if original is not defs[0] else ())
        ]
        methods.append(
            function.with_changes(
                decorators=[cst.Decorator(cst.Name("staticmethod")), *function.decorators], leading_lines=leading
            )
        )
    model = cst.ClassDef(
        name=cst.Name(owner),
        body=cst.IndentedBlock(body=methods),
        leading_lines=new_defs[0].leading_lines,
    )
    after = new_between
    if after and not after[0].leading_lines:
        after[0] = after[0].with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
    tail = new_body[last + 1 :]
    return rewritten.with_changes(body=[*new_body[:first], model, *after, *tail]).code


class _NameCollector(cst.CSTVisitor):
    """Names read by a part of a def that runs when the def runs (decorators, defaults, annotations),
    lambdas' bodies left out (they run later)."""

    def __init__(self, out: set[str]) -> None:
        self.out = out

    def visit_Name(self, node: cst.Name) -> None:
        self.out.add(node.value)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _inside_main(text: str) -> str:
    """Everything after the imports moved into ``def main():`` and run by ``main()``: scripts often
    read that way, and the program's functions become nested functions closing over its values."""
    module = cst.parse_module(text)
    if re.search(r"\b(global|nonlocal|__name__|locals|globals)\b", text):
        raise NotApplicable("the program uses global, nonlocal, __name__ or reflects on its namespace")
    body = list(module.body)
    head = 0
    while head < len(body):
        stmt = body[head]
        simple = isinstance(stmt, cst.SimpleStatementLine)
        if simple and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body):
            head += 1
        elif simple and head == 0 and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr) and isinstance(
            stmt.body[0].value, cst.SimpleString
        ):
            head += 1  # the module docstring
        else:
            break
    rest = body[head:]
    if not rest or any(isinstance(s, (cst.Import, cst.ImportFrom)) for line in rest if isinstance(line, cst.SimpleStatementLine) for s in line.body):
        raise NotApplicable("nothing after the imports, or imports further down")
    taken = _all_names(module)
    name = "main" if "main" not in taken else _free_name(module, "main_", taken)
    first = rest[0]
    main = cst.FunctionDef(
        name=cst.Name(name),
        params=cst.Parameters(),
        body=cst.IndentedBlock(body=[first.with_changes(leading_lines=[]), *rest[1:]]),
        leading_lines=first.leading_lines,
    )
    call = cst.parse_statement(f"{name}()\n")
    return module.with_changes(body=[*body[:head], main, call.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])]).code


#: Values a program writes out as configuration: what the rules reason about when it is static
#: (a dict, a tuple of sizes, a step count, a dataclass instance).
_CONFIG_VALUES = (cst.Dict, cst.List, cst.Tuple, cst.Set, cst.Integer, cst.Float, cst.SimpleString)


def _configs_from_helpers(text: str) -> str:
    """Each module-level ``NAME = <literal or instance of a module class>`` becomes ``NAME =
    make_NAME()`` of a helper defined right above it that returns the value: researchers build
    configs in functions, and a value's origin then is a call's return."""
    facts = _facts(text)
    module = facts.module
    classes = {s.name.value for s in module.body if isinstance(s, cst.ClassDef)}
    taken = set(facts.taken)
    new_body: list[cst.CSTNode] = []
    changed = False
    for statement in module.body:
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        value = small.value if isinstance(small, cst.Assign) else None
        config = isinstance(value, _CONFIG_VALUES) or (
            isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in classes
        )
        if not isinstance(target, cst.Name) or target.value.startswith("__") or not config or _mentions_walrus_or_yield(value):
            new_body.append(statement)
            continue
        helper = _free_name(module, f"make_{target.value.lower()}", taken)
        taken.add(helper)
        function = cst.FunctionDef(
            name=cst.Name(helper),
            params=cst.Parameters(),
            body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Return(value=value)])]),
            leading_lines=statement.leading_lines,
        )
        call = small.with_changes(value=cst.Call(func=cst.Name(helper)))
        new_body += [function, statement.with_changes(body=[call], leading_lines=[cst.EmptyLine(), cst.EmptyLine()])]
        changed = True
    if not changed:
        raise NotApplicable("no module-level configuration value")
    return module.with_changes(body=new_body).code


def _mentions_walrus_or_yield(value: cst.CSTNode) -> bool:
    """A value that binds a name or yields: moved into a function, it would bind or yield there."""
    found = []

    class Finder(cst.CSTVisitor):
        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            found.append(node)

        def visit_Yield(self, node: cst.Yield) -> None:
            found.append(node)

        def visit_Await(self, node: cst.Await) -> None:
            found.append(node)

    value.visit(Finder())
    return bool(found)


#: The primitives that call the functions handed to them (branches, loop bodies).
_CALLING_PRIMITIVES = frozenset(
    {"jax.lax.cond", "jax.lax.switch", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.scan", "jax.lax.map"}
)


def _functions_through_helpers(text: str) -> str:
    """Each call of a control-flow primitive that names a function of the program (``lax.cond(p,
    grow, shrink, n, x)``) goes through a module-level helper of its own that takes every argument
    as a parameter, the functions included (``def cond_via_1(pred, grow_fn, shrink_fn, arg3,
    arg4): return lax.cond(pred, grow_fn, shrink_fn, arg3, arg4)``): researchers wrap primitives
    in helpers, and the function then reaches the primitive through a parameter."""
    facts = _facts(text)
    module = facts.module
    taken = set(facts.taken)
    selected: list[cst.Call] = []
    for node in _children_as_left(module):
        if not isinstance(node, cst.Call) or not (facts.qualified(node.func) & _CALLING_PRIMITIVES):
            continue
        if any(a.star for a in node.args) or not facts.is_external(node.func):
            continue
        if not any(a.keyword is None and isinstance(a.value, cst.Name) and isinstance(facts.resolve(a.value), cst.FunctionDef) for a in node.args):
            continue
        if any(_inside(facts, node, other) or _inside(facts, other, node) for other in selected):
            continue
        selected.append(node)
    if not selected:
        raise NotApplicable("no control-flow primitive is handed a function of the program by name")
    body = list(module.body)
    first = min(i for i, s in enumerate(body) if any(c is s or _inside(facts, c, s) for c in selected))
    if any(
        isinstance(small, (cst.Import, cst.ImportFrom))
        for statement in body[first:]
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
    ):
        raise NotApplicable("an import after the first primitive call")
    helpers: list[cst.FunctionDef] = []
    replacements: dict[cst.Call, cst.Call] = {}
    for number, call in enumerate(selected, 1):
        primitive = sorted(facts.qualified(call.func) & _CALLING_PRIMITIVES)[0].rsplit(".", 1)[1]
        helper = _free_name(module, f"{primitive}_via_{number}", taken)
        taken.add(helper)
        params: list[cst.Param] = []
        inner_args: list[cst.Arg] = []
        for position, arg in enumerate(call.args):
            function = arg.keyword is None and isinstance(arg.value, cst.Name) and isinstance(facts.resolve(arg.value), cst.FunctionDef)
            wanted = arg.keyword.value if arg.keyword is not None else (f"{arg.value.value}_fn" if function else f"arg{position}")
            name = wanted if arg.keyword is not None else _free_name(module, wanted, taken | {p.name.value for p in params})
            params.append(cst.Param(cst.Name(name)))
            inner_args.append(arg.with_changes(value=cst.Name(name)))
        inner = call.with_changes(args=inner_args)
        helpers.append(
            cst.FunctionDef(
                name=cst.Name(helper),
                params=cst.Parameters(params=params),
                body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Return(value=inner)])]),
                leading_lines=[cst.EmptyLine(), cst.EmptyLine()],
            )
        )
        replacements[call] = call.with_changes(func=cst.Name(helper))

    class Swap(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            new = replacements.get(original)
            return updated.with_changes(func=new.func) if new is not None else updated

    rewritten = module.visit(Swap())
    new_body = list(rewritten.body)
    return rewritten.with_changes(body=[*new_body[:first], *helpers, *new_body[first:]]).code


def _inside(facts: _Facts, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    """Is `outer` around `node` (an ancestor of it)?"""
    return any(a is outer for a in facts.ctx.ancestors(node))


#: Each metamorphic variant by name: a program's text -> its re-spelled text, or None when it does not apply.
_RAW_VARIANTS: dict[str, Callable[[str], str]] = {
    "renamed_parameters": _rename_parameters,
    "jit_by_assignment": _jit_by_assignment,
    "positional_to_keyword": _positional_to_keyword,
    "moved_into_class": _moved_into_class,
    "inside_main": _inside_main,
    "configs_from_helpers": _configs_from_helpers,
    "functions_through_helpers": _functions_through_helpers,
}


@functools.lru_cache(maxsize=1024)
def _attempt(variant: str, text: str) -> tuple[str | None, str]:
    try:
        return _RAW_VARIANTS[variant](text), ""
    except NotApplicable as reason:
        return None, str(reason)


def _applied(variant: str, text: str) -> str | None:
    return _attempt(variant, text)[0]


def why_not(variant: str, text: str) -> str:
    """Why a metamorphic variant does not apply to a program ('' when it does)."""
    return _attempt(variant, text)[1]


renamed_parameters = functools.partial(_applied, "renamed_parameters")
jit_by_assignment = functools.partial(_applied, "jit_by_assignment")
positional_to_keyword = functools.partial(_applied, "positional_to_keyword")
moved_into_class = functools.partial(_applied, "moved_into_class")
inside_main = functools.partial(_applied, "inside_main")
configs_from_helpers = functools.partial(_applied, "configs_from_helpers")
functions_through_helpers = functools.partial(_applied, "functions_through_helpers")

METAMORPHIC_VARIANTS: dict[str, Callable[[str], str | None]] = {
    "renamed_parameters": renamed_parameters,
    "jit_by_assignment": jit_by_assignment,
    "positional_to_keyword": positional_to_keyword,
    "moved_into_class": moved_into_class,
    "inside_main": inside_main,
    "configs_from_helpers": configs_from_helpers,
    "functions_through_helpers": functions_through_helpers,
}

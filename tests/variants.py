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
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
from libcst.metadata import MetadataWrapper, QualifiedNameProvider, ScopeProvider

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


def alias_imports(text: str) -> str | None:
    """Every import of a JAX or functools name re-bound under another local name."""
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module)
    scopes = wrapper.resolve(ScopeProvider)
    module = wrapper.module
    taken = _all_names(module)
    aliases: dict[cst.ImportAlias, str] = {}
    accesses: dict[cst.CSTNode, str] = {}

    class Find(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                full = _dotted(alias.name)
                bound = alias.asname.name.value if isinstance(alias.asname, cst.AsName) else None
                if bound is None and full in MODULE_ALIASES:
                    self._rename(node, alias, full, MODULE_ALIASES[full])
                elif bound is not None and full in DOTTED_ALIASES:
                    self._rename(node, alias, bound, DOTTED_ALIASES[full])

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if isinstance(node.names, cst.ImportStar) or node.relative or node.module is None:
                return
            source = _dotted(node.module)
            for alias in node.names:
                name = alias.name.value if isinstance(alias.name, cst.Name) else ""
                wanted = FROM_ALIASES.get((source, name))
                if wanted is not None:
                    bound = alias.asname.name.value if isinstance(alias.asname, cst.AsName) else name  # type: ignore[union-attr]
                    self._rename(node, alias, bound, wanted)

        def _rename(self, statement: cst.CSTNode, alias: cst.ImportAlias, bound: str, wanted: str) -> None:
            scope = scopes.get(statement)
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


def primitives_imported_by_name(text: str) -> str | None:
    """``lax.cond(...)`` becomes ``c(...)`` with ``from jax.lax import cond as c`` on the first import line."""
    wrapper = MetadataWrapper(cst.parse_module(text))
    module = wrapper.module
    taken = _all_names(module)
    chosen: dict[str, str] = {}
    replaced: dict[cst.Attribute, str] = {}

    class Find(cst.CSTVisitor):
        METADATA_DEPENDENCIES = (QualifiedNameProvider,)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            qualified = self.get_metadata(QualifiedNameProvider, node, set())
            if len(qualified) != 1:
                return
            (q,) = qualified
            if q.name in ATTRIBUTE_TO_IMPORT:
                if q.name not in chosen:
                    chosen[q.name] = _free_name(module, ATTRIBUTE_TO_IMPORT[q.name], taken)
                replaced[node] = chosen[q.name]

    wrapper.visit(Find())
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
}

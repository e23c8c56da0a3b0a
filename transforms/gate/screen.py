"""The second pre-filter: cheap facts from the standard library's ast.

libcst with scope and position metadata costs tens of times more than
``ast.parse``, and most files that pass the byte pre-filter (they mention
``static_argnums`` somewhere) still cannot hold a finding. Each rule states,
from these facts, a *necessary* condition for a finding; a file for which no
selected rule's condition holds is never given to libcst.

The facts over-approximate on purpose: names are matched by spelling, not
resolved, so a condition can only be too generous, never too strict. Tests
check every golden case passes its rule's screen.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from jaxfix.transforms.core import identifiers
from jaxfix.transforms.core.stdlib_ast import import_pairs
from jaxfix.transforms.core.textedit import line_starts, plain_breaks
from jaxfix.transforms.gate.astwalk import child_nodes, own_returns
from jaxfix.transforms.semantics.vocabulary import ARRAY_NAMESPACE, ARRAY_NAMESPACE_GETTERS, STATIC_KEYWORDS

#: What ends a line for Python's tokenizer (and so for ast's line numbers).
_NEWLINE = re.compile(r"\r\n|\r|\n")
#: ASCII identifier characters: a word is whole when none touches it ("" at the text's end).
_IDENTIFIER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
#: Above this many words, one regex pass beats a find per word.
_FIND_WORDS_AT_MOST = 24
#: Packages whose functions the screens recognise by name (see `Facts.respells_api_names`).
_SPELLED_PACKAGES = frozenset({"jax", "jaxlib", "functools", "flax", "equinox", "haiku", "optax", "numpyro", "diffrax"})
def _spelled_by_screens(name: str) -> bool:
    """Could a screen match this imported name by its spelling? Not a submodule (its functions keep
    their names), nor a class (``PartitionSpec as P``, ``NamedSharding as NS``: no screen looks for
    one, and jax's own tests alias them everywhere), but for the two classes screens do name."""
    if name in _MODULE_NAMES:
        return False
    return not name[:1].isupper() or name in _SPELLED_CLASSES


#: Classes a screen looks for by name (JAX401's ``Partial``, JAX403's ``Array``).
_SPELLED_CLASSES = frozenset({"Partial", "Array"})
#: Submodules of those packages: importing one under an alias keeps its functions' names.
_MODULE_NAMES = frozenset(
    {
        "numpy", "lax", "random", "nn", "scipy", "tree", "tree_util", "debug", "sharding", "experimental",
        "dtypes", "image", "ops", "profiler", "stages", "export", "errors", "linen", "struct", "core",
        "training", "serialization", "nnx", "typing", "api_util", "util", "config", "distributed",
    }
)  # fmt: skip
CONTROL_FLOW = frozenset({"cond", "switch", "fori_loop", "while_loop", "scan"})


def has_static_keyword(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and any(k.arg in STATIC_KEYWORDS for k in n.keywords) for n in ast.walk(node)
    )


_BODY_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _own_nodes(stmt: ast.stmt):
    """The nodes of a statement, leaving out the statements nested in its bodies."""
    yield stmt
    stack = child_nodes(stmt, _BODY_FIELDS)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child_nodes(node))


def spelled_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


#: Displays of containers a name may hold: what `sinks.python_sequence`/`python_mapping` read.
_DISPLAYS = (ast.List, ast.Tuple, ast.ListComp, ast.Dict, ast.DictComp)


class Facts:
    """Facts about one module, each computed at most once."""

    def __init__(self, tree: ast.Module, text: str = "", project=None) -> None:
        self.tree = tree
        self.text = text
        #: The project around the module (`repository.Project`), for imported functions.
        self.project = project

    @cached_property
    def nodes(self) -> list[ast.AST]:
        return list(ast.walk(self.tree))

    @cached_property
    def calls(self) -> list[ast.Call]:
        return [n for n in self.nodes if isinstance(n, ast.Call)]

    @cached_property
    def linen_calls(self) -> frozenset[int]:
        """The ``__call__`` defs (their ids) of classes with a base, in a module that mentions
        flax: a linen Module's (its base comes from a flax import), which ``model.apply`` runs
        (traced under a jit around it) or a traced caller of ``Sub(...)(x)`` does
        (`tracing._linen_entries`); generous, as a screen must be."""
        if not self.lines_containing("flax"):
            return frozenset()
        return frozenset(
            id(f)
            for n in self.nodes
            if isinstance(n, ast.ClassDef) and n.bases
            for f in n.body
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == "__call__"
        )

    @cached_property
    def optimizer_updates(self) -> list[ast.AST]:
        """Every ``x.update(...)`` or ``x.apply_gradients(...)`` call and every ``x.update`` handed on, in
        a module that mentions optax: where `optax_schedules.traced_update` looks for the evidence that
        a schedule runs traced. A rule that may judge a schedule seeds them, so the slice keeps the
        jitted step that holds them; generous, as a screen must be."""
        if not self.lines_containing("optax"):
            return []
        out: list[ast.AST] = []
        for node in self.nodes:
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in ("update", "apply_gradients"):
                    out.append(node)
                out.extend(a for a in node.args if isinstance(a, ast.Attribute) and a.attr == "update")
        return out

    @cached_property
    def tuple_fields(self) -> frozenset[str]:
        """The field names a NamedTuple of the module may have: those annotated in the body of
        any class with a base (``class COO(NamedTuple)``, however the base is imported), and
        those ``namedtuple(...)`` calls name; generous, as a screen must be
        (`traced_values.namedtuple_parameter` proves fewer)."""
        out: set[str] = set()
        for node in self.nodes:
            if isinstance(node, ast.ClassDef) and node.bases:
                out.update(s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name))
            elif isinstance(node, ast.Call) and spelled_name(node.func) == "namedtuple" and len(node.args) > 1:
                fields = node.args[1]
                if isinstance(fields, ast.Constant) and isinstance(fields.value, str):
                    out.update(fields.value.replace(",", " ").split())
                elif isinstance(fields, (ast.List, ast.Tuple)):
                    out.update(e.value for e in fields.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
        return frozenset(out)

    @cached_property
    def lax_aliases(self) -> dict[str, str]:
        """Local names bound by ``from jax.lax import cond as c``: local -> primitive."""
        out: dict[str, str] = {}
        lines = self.lines_containing("lax") & self.lines_containing("import")
        for node in self.statements_on(lines):
            if isinstance(node, ast.ImportFrom) and node.module in ("jax.lax", "jax._src.lax.control_flow"):
                for alias in node.names:
                    if alias.name in CONTROL_FLOW:
                        out[alias.asname or alias.name] = alias.name
        return out

    @cached_property
    def respells_api_names(self) -> bool:
        """Some import binds a JAX or functools function under another name
        (``from jax import vmap as batch``, ``from functools import partial as p``).

        The screens recognise functions by their own names, so such a module is
        left whole to the analysis, which resolves every name through its imports
        (issue 17.3). Aliasing a module (``from jax import numpy as jnp``) keeps
        the names of the functions called through it, so it does not count.
        """
        for node in self.statements_on(self.lines_containing("import")):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] not in _SPELLED_PACKAGES:
                    continue
                if any(a.asname not in (None, a.name) and _spelled_by_screens(a.name) for a in node.names):
                    return True
        return False

    def control_flow_name(self, call: ast.Call) -> str | None:
        """'cond', 'switch', ... when the call is spelled like a lax primitive."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in CONTROL_FLOW:
            return func.attr
        if isinstance(func, ast.Name):
            if func.id in CONTROL_FLOW:
                return func.id
            return self.lax_aliases.get(func.id)
        return None

    @cached_property
    def control_flow_calls(self) -> list[ast.Call]:
        names = CONTROL_FLOW | set(self.lax_aliases)
        lines = set().union(*map(self.lines_containing, names))
        return [
            n
            for stmt in self.statements_on(lines)
            for n in _own_nodes(stmt)
            if isinstance(n, ast.Call) and self.control_flow_name(n) is not None
        ]

    @cached_property
    def lines(self) -> list[str]:
        """The module's lines as Python numbers them. Only ``\\n``, ``\\r\\n`` and ``\\r``
        end one; ``str.splitlines`` also splits at a form feed, ``\\x85`` or ``\\u2028``
        (which a string literal may hold), and every later line would then be off by
        one from ast's numbers. Such texts are rare: they alone pay for the regex."""
        return self.text.splitlines() if plain_breaks(self.text) else _NEWLINE.split(self.text)

    def lines_containing(self, word: str) -> frozenset[int]:
        """The lines whose text holds `word`: a search of the text, not a scan of every line
        (the same lines, since a word holds no line break)."""
        known = self._lines_containing
        if word not in known:
            text, starts = self.text, self._line_starts
            out: set[int] = set()
            at = text.find(word)
            while at >= 0:
                line = bisect.bisect_right(starts, at)
                out.add(line)
                at = text.find(word, starts[line]) if line < len(starts) else -1  # on from the next line
            known[word] = frozenset(out)
        return known[word]

    @cached_property
    def _lines_containing(self) -> dict[str, frozenset[int]]:
        return {}

    @cached_property
    def static_lines(self) -> frozenset[int]:
        """Lines whose text mentions static_argnums/static_argnames."""
        return self.lines_containing("static_arg")

    def statements_on(self, lines: set[int] | frozenset[int]) -> list[ast.stmt]:
        """Every statement, at any depth, whose own lines hold one of `lines`.

        A targeted descent instead of a walk of the whole tree: big modules
        cost only the statements around the lines the byte filter pointed at.
        Each line's statements are found once (bisecting each body by line)
        and remembered.
        """
        seen: set[int] = set()
        out: list[ast.stmt] = []
        for line in sorted(lines):
            for stmt in self._statements_at(line):
                if id(stmt) not in seen:
                    seen.add(id(stmt))
                    out.append(stmt)
        return out

    def _statements_at(self, line: int) -> tuple[ast.stmt, ...]:
        cache = self._at_line
        if line not in cache:
            found: list[ast.stmt] = []
            bodies = [self.tree.body]
            while bodies:
                body = bodies.pop()
                firsts, lasts = self._bounds(body)
                i = bisect.bisect_right(firsts, line) - 1  # the one statement starting at or before it
                if i < 0 or lasts[i] < line:
                    continue
                stmt = body[i]
                found.append(stmt)
                bodies.extend(self._inner_bodies(stmt))
            cache[line] = tuple(sorted(found, key=lambda s: (s.lineno, -(s.end_lineno or s.lineno))))
        return cache[line]

    def _inner_bodies(self, stmt: ast.stmt) -> list[list[ast.stmt]]:
        """The statement lists nested directly in a statement (bodies, handlers, cases), once each."""
        cache = self._bodies_of
        key = id(stmt)
        if key not in cache:
            out: list[list[ast.stmt]] = []
            for field in _BODY_FIELDS:
                children = getattr(stmt, field, None) or []
                statements = [c for c in children if isinstance(c, ast.stmt)]
                if statements:
                    out.append(statements)
                out.extend(c.body for c in children if not isinstance(c, ast.stmt) and hasattr(c, "body"))
            cache[key] = out
        return cache[key]

    @cached_property
    def _bodies_of(self) -> dict[int, list[list[ast.stmt]]]:
        return {}

    def own_calls(self, stmt: ast.stmt) -> list[ast.Call]:
        """The calls written in a statement itself, not in the statements nested in it (once each)."""
        cache = self._calls_of
        key = id(stmt)
        if key not in cache:
            cache[key] = [n for n in _own_nodes(stmt) if isinstance(n, ast.Call)]
        return cache[key]

    @cached_property
    def _calls_of(self) -> dict[int, list[ast.Call]]:
        return {}

    @cached_property
    def _at_line(self) -> dict[int, tuple[ast.stmt, ...]]:
        return {}

    def _bounds(self, body: list[ast.stmt]) -> tuple[list[int], list[int]]:
        key = id(body[0]) if body else 0
        cache = self._body_bounds
        if key not in cache:
            firsts = [min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", []))]) for s in body]
            cache[key] = (firsts, [s.end_lineno or s.lineno for s in body])
        return cache[key]

    @cached_property
    def _body_bounds(self) -> dict[int, tuple[list[int], list[int]]]:
        return {}

    @cached_property
    def _line_starts(self) -> list[int]:
        return line_starts(self.text)

    def lines_of_words(self, words: Iterable[str]) -> set[int]:
        """The lines where one of the words appears as a whole identifier (one search of the text)."""
        words = sorted(set(identifiers.names(words)))
        if not words:
            return set()
        text, starts = self.text, self._line_starts
        if len(words) > _FIND_WORDS_AT_MOST:
            pattern = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, words)) + r")(?![A-Za-z0-9_])")
            return {bisect.bisect_right(starts, m.start()) for m in pattern.finditer(text)}
        # One str.find pass per word is several times faster than the alternation
        # regex for a few words (it has no literal prefix to search for).
        out: set[int] = set()
        for word in words:
            at = text.find(word)
            while at >= 0:
                end = at + len(word)
                if (at == 0 or text[at - 1] not in _IDENTIFIER_CHARS) and text[end : end + 1] not in _IDENTIFIER_CHARS:
                    out.add(bisect.bisect_right(starts, at))
                at = text.find(word, end)
        return out

    @cached_property
    def static_slots(self) -> dict[str, list[tuple[ast.AST | None, StaticSlots | None]]]:
        """Names that may be jitted with static arguments -> (the def whose scope binds the name,
        or None at module or class level; where the static arguments go).

        None for the slots stands for "cannot tell" (static arguments not written
        as literals, a signature not in this module): every argument may be static.
        """
        out: dict[str, list[tuple[ast.AST | None, StaticSlots | None]]] = {}
        defs = self.defs_by_name
        for name, slots in self._imported_slots().items():
            out.setdefault(name, []).extend((None, s) for s in slots)
        for node in self.statements_on(self.static_lines):
            scope = self.scope_of(node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    for call in _static_calls(decorator):
                        out.setdefault(node.name, []).append((scope, StaticSlots.read(call, node)))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for call in _static_calls(node.value):
                    wrapped = [a for a in ast.walk(node.value) if isinstance(a, ast.Name) and a.id in defs]
                    signature = defs[wrapped[0].id][0] if len(wrapped) == 1 and len(defs[wrapped[0].id]) == 1 else None
                    for name in filter(None, map(spelled_name, targets)):
                        out.setdefault(name, []).append((scope, StaticSlots.read(call, signature)))
        return out

    def _imported_slots(self) -> dict[str, list[StaticSlots | None]]:
        """Functions this module imports from the project that are jitted with static arguments."""
        project = self.project
        if project is None or project.ref is None:
            return {}
        from jaxfix.transforms.project.repository import resolve

        out: dict[str, list[StaticSlots | None]] = {}
        for local, bindings in self.import_table.items():
            for module, attribute, level in bindings:
                definition = resolve(project.repo, project.ref, module, attribute, level)
                if definition is None or not _declares_static(project.repo, definition.module):
                    continue
                if definition.attribute is None:
                    # A module of the project: its jitted functions may be called as `m.f`.
                    for name, summary in project.repo.summary(definition.module).jitted.items():
                        out.setdefault(name, []).append(StaticSlots.of_summary(summary))
                    continue
                summary = definition.jitted(project.repo)
                if summary is not None:
                    out.setdefault(local, []).append(StaticSlots.of_summary(summary))
        return out

    def module_alias_slots(self, call: ast.Call) -> list[StaticSlots | None] | None:
        """``m.step(...)`` where ``m`` names a module of the project: step's slots (None: not that)."""
        project = self.project
        func = call.func
        if project is None or project.ref is None or not isinstance(func, ast.Attribute):
            return None
        chain: list[str] = []
        root: ast.expr = func
        while isinstance(root, ast.Attribute):
            chain.append(root.attr)
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in self.import_table:
            return None
        key = (root.id, *chain)
        memo = self._alias_slots
        if key not in memo:
            memo[key] = self._module_alias_slots(project, root.id, chain)
        return memo[key]

    @cached_property
    def _alias_slots(self) -> dict[tuple[str, ...], list[StaticSlots | None] | None]:
        return {}

    def _module_alias_slots(self, project, root: str, chain: list[str]) -> list[StaticSlots | None] | None:
        """`module_alias_slots` for ``root.<chain reversed>``, once per spelling in a module."""
        from jaxfix.transforms.project.repository import module_attribute, resolve

        found: list[StaticSlots | None] | None = None
        for module, attribute, level in self.import_table[root]:
            definition = resolve(project.repo, project.ref, module, attribute, level)
            for part in reversed(chain):
                if definition is None:
                    break
                definition = module_attribute(project.repo, definition, part)
            else:
                found = found or []
                if definition is not None and _declares_static(project.repo, definition.module):
                    summary = definition.jitted(project.repo)
                    if summary is not None:
                        found.append(StaticSlots.of_summary(summary))
        return found

    @cached_property
    def import_table(self) -> dict[str, list[tuple[str, str | None, int]]]:
        """Every import of the module (any depth): local name -> each (module, attribute,
        level) an import binds it to. A name imported in two places (a fallback in
        ``except ImportError``, a function's own import) may mean either."""
        lines = self.lines_containing("import")
        out: dict[str, list[tuple[str, str | None, int]]] = {}
        for local, binding in import_pairs(self.statements_on(lines)):
            if binding not in out.setdefault(local, []):
                out[local].append(binding)
        return out

    def scope_of(self, node: ast.AST) -> ast.AST | None:
        """The innermost def around a statement (None at module or class level)."""
        around = [d for d in _defs_around(self, node.lineno) if d is not node]
        return around[-1] if around else None

    def slots_for_call(self, call: ast.Call) -> list[StaticSlots | None]:
        """The static slots of what a call may call, resolved by scope for plain names."""
        if isinstance(call.func, ast.Call) and (factory := spelled_name(call.func.func)) in self.factory_slots:
            # `make_run(step)(x)`: the jitted def the factory returns (`tracing._factory_calls`).
            return self.factory_slots[factory]
        name = spelled_name(call.func)
        entries = self.static_slots.get(name or "", [])
        if not entries:
            through_module = self.module_alias_slots(call)
            return through_module or []
        if not isinstance(call.func, ast.Name):
            through_module = self.module_alias_slots(call)
            if through_module is not None:
                return through_module
            root = call.func
            while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                root = root.value if not isinstance(root, ast.Call) else root.func
            if isinstance(root, ast.Name) and root.id in self.imported_names:
                return []  # an attribute of an imported module: another module's function
            return [slots for _, slots in entries]
        chain = self.scopes_around(call.lineno)
        visible = [(chain.index(scope), slots) for scope, slots in entries if scope in chain]
        if not visible:
            # A factory's `return run`: its calls hand the jitted def out (`tracing._factory_calls`),
            # to `make(...)(x)` or to a name bound to `make(...)`.
            return [
                slots
                for scope, slots in entries
                if scope is not None and _returns_name(scope, name) and self._factory_result(call.func, getattr(scope, "name", ""))
            ]
        nearest = max(depth for depth, _ in visible)
        return [slots for depth, slots in visible if depth == nearest]

    @cached_property
    def factory_slots(self) -> dict[str, list[StaticSlots | None]]:
        """Name of a def that returns a def jitted with static arguments (``return run``) -> the
        static slots of what it returns."""
        out: dict[str, list[StaticSlots | None]] = {}
        for name, entries in self.static_slots.items():
            for scope, slots in entries:
                if scope is not None and _returns_name(scope, name):
                    out.setdefault(getattr(scope, "name", ""), []).append(slots)
        return out

    @property
    def jit_factories(self) -> frozenset[str]:
        """Names of defs that return a def jitted with static arguments."""
        return frozenset(self.factory_slots)

    def _factory_result(self, func: ast.expr, factory: str) -> bool:
        """`func` (a call's callee) is ``factory(...)`` or a name some assignment binds to it."""
        if isinstance(func, ast.Call):
            return spelled_name(func.func) == factory
        return isinstance(func, ast.Name) and func.id in self.factory_results.get(factory, ())

    @cached_property
    def factory_results(self) -> dict[str, frozenset[str]]:
        """Function name -> the names assignments bind to a call of it (``run = make_run(step)``)."""
        out: dict[str, set[str]] = {}
        for node in self.nodes:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                callee = spelled_name(node.value.func)
                if callee:
                    out.setdefault(callee, set()).update(t.id for t in node.targets if isinstance(t, ast.Name))
        return {k: frozenset(v) for k, v in out.items()}

    def static_jitted_at(self, name: str, line: int) -> bool:
        """Is a plain `name` read on `line` possibly jitted with static arguments: bound so
        by the module, or by a def around the line (a test file jits an ``f`` in every test)?"""
        entries = self.static_slots.get(name, ())
        if not entries:
            return False
        around = self.scopes_around(line)
        return any(scope in around for scope, _ in entries)

    def scopes_around(self, line: int) -> list[ast.AST | None]:
        """The scopes a plain name read on `line` may be bound in: the module (None), then
        each def around the line, outermost first (as `scope_of` names them)."""
        return [None, *_defs_around(self, line)]

    @cached_property
    def static_jitted_names(self) -> frozenset[str]:
        """Names (of defs, or assignment targets) that may be jitted with static arguments
        (once per module: a module alias brings in every jitted function of its module)."""
        return frozenset(self.static_slots)

    @cached_property
    def static_jitted_handed_on(self) -> list[ast.Call]:
        """Calls handing a name that may be jitted with static arguments to a function as an
        argument (``choose(flag, grow, shrink, x)``): the function may call it through its
        parameter (`callables.passed_target`), and the call shows what the parameter holds."""
        names = self.static_jitted_names
        if not names:
            return []
        return [
            call
            for call in calls_on(self, self.lines_of_words(names))
            if any(isinstance(a, ast.Name) and a.id in names for a in (*call.args, *(k.value for k in call.keywords)))
        ]

    @cached_property
    def imported_names(self) -> frozenset[str]:
        """Names the module's import statements bind."""
        return frozenset(self.import_table)

    @cached_property
    def import_targets(self) -> dict[str, frozenset[str]]:
        """Local names bound by absolute imports -> the dotted names they may stand for."""
        out: dict[str, frozenset[str]] = {}
        for name, bindings in self.import_table.items():
            dotted = frozenset(
                f"{module}.{attribute}" if attribute is not None else module
                for module, attribute, level in bindings
                if not level
            )
            if dotted:
                out[name] = dotted
        # `xp = array_api_compat.array_namespace(x)`: jax.numpy where JAX traces (`NameResolver._namespace`)
        for node in self.statements_on(self.lines_containing("namespace")):
            for assign in ast.walk(node):
                if not (isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Call) and len(assign.targets) == 1):
                    continue
                target, func = assign.targets[0], assign.value.func
                called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
                if isinstance(target, ast.Name) and called in ARRAY_NAMESPACE_GETTERS:
                    out[target.id] = out.get(target.id, frozenset()) | {ARRAY_NAMESPACE}
        return out

    @cached_property
    def imported_jax_numpy(self) -> frozenset[str]:
        """Names bound by imports that mention jax or numpy (array makers)."""
        lines = self.lines_containing("import") & (self.lines_containing("jax") | self.lines_containing("numpy"))
        out: set[str] = set()
        for node in self.statements_on(lines):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                out.update((a.asname or a.name).split(".")[0] for a in node.names)
        return frozenset(out)

    @cached_property
    def defs_by_name(self) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
        """Every def in the module, by name (found from the lines that say ``def``)."""
        pattern = re.compile(r"^\s*(?:async\s+)?def\s")
        lines = {i for i in self.lines_containing("def") if pattern.match(self.lines[i - 1])}
        out: dict[str, list] = {}
        for node in self.statements_on(lines):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.setdefault(node.name, []).append(node)
        return out

    @cached_property
    def class_names(self) -> frozenset[str]:
        """The names of the module's classes (found from the lines that say ``class``)."""
        pattern = re.compile(r"^\s*class\s")
        lines = {i for i in self.lines_containing("class") if pattern.match(self.lines[i - 1])}
        return frozenset(n.name for n in self.statements_on(lines) if isinstance(n, ast.ClassDef))

    @cached_property
    def attribute_stores(self) -> dict[str, list[ast.expr]]:
        """``x.name = value`` anywhere in the module: name -> the values (an attribute an object
        is given in ``__init__`` is followed there: `instance_attributes`)."""
        out: dict[str, list[ast.expr]] = {}
        for node in self.nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        out.setdefault(target.attr, []).append(node.value)
                    elif (
                        isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List))
                        and len(target.elts) == len(node.value.elts)
                    ):  # ``self.low, self.high = low, high``: each element its own store
                        for name, value in zip(target.elts, node.value.elts):
                            if isinstance(name, ast.Attribute):
                                out.setdefault(name.attr, []).append(value)
        return out

    @cached_property
    def sequence_names(self) -> frozenset[str]:
        """Names some assignment gives a list, tuple or dict display or a list or dict comprehension:
        what `sinks.python_sequence` may call a Python sequence (a traced index fails there), or
        `sinks.python_mapping` a dict (a traced key fails there); also a call of a helper of the module
        that returns one (``TABLE = make_table()``)."""
        made = self.display_helpers
        return frozenset(
            target.id
            for node in self.nodes
            if isinstance(node, ast.Assign)
            and (
                isinstance(node.value, _DISPLAYS)
                or (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id in made)
            )
            for target in node.targets
            if isinstance(target, ast.Name)
        )

    @cached_property
    def display_helpers(self) -> dict[str, list[ast.expr]]:
        """Defs of the module that return a display (``def make_table(): return [f, g]``) -> those
        displays: the screen's twin of `constants.helper_return`, generous (any such return)."""
        found: dict[str, list[ast.expr]] = {}
        for name, defs in self.defs_by_name.items():
            returned = [r.value for d in defs for r in own_returns(d) if isinstance(r.value, _DISPLAYS)]
            if returned:
                found[name] = returned
        return found

    def python_sequence(self, expr: ast.AST) -> bool:
        """May `expr` be a Python list, tuple or dict (the screen twin of `sinks.python_sequence` and
        `sinks.python_mapping`)?"""
        if isinstance(expr, (ast.List, ast.Tuple, ast.ListComp, ast.Dict, ast.DictComp)):
            return True
        return isinstance(expr, ast.Name) and expr.id in self.sequence_names

    @cached_property
    def sequences(self) -> dict[str, set[str]]:
        """Names assigned a list or tuple display (``branches = [f, g]``), or a call of a helper that
        returns one, -> names inside it."""
        opening = re.compile(r"=\s*[\[(]")
        # Where the text matches (a match may run over a line break), then each line's own test.
        found = {bisect.bisect_right(self._line_starts, m.start()) for m in opening.finditer(self.text)}
        lines = {i for i in found if opening.search(self.lines[i - 1])}
        out: dict[str, set[str]] = {}
        for node in self.statements_on(lines):
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Tuple)):
                inner = {n for n in map(spelled_name, ast.walk(node.value)) if n}
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        out.setdefault(target.id, set()).update(inner)
        # `branches = make_branches()` of a helper that returns a display (`constants.helper_return`)
        made = {
            name: {n for v in values if isinstance(v, (ast.List, ast.Tuple)) for n in map(spelled_name, ast.walk(v)) if n}
            for name, values in self.display_helpers.items()
            if any(isinstance(v, (ast.List, ast.Tuple)) for v in values)
        }
        if made:
            calling = re.compile(r"=\s*(?:" + "|".join(map(re.escape, made)) + r")\s*\(")
            found = {bisect.bisect_right(self._line_starts, m.start()) for m in calling.finditer(self.text)}
            for node in self.statements_on(found):
                call = node.value if isinstance(node, ast.Assign) else None
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in made:
                    for target in node.targets:  # type: ignore[union-attr]
                        if isinstance(target, ast.Name):
                            out.setdefault(target.id, set()).update(made[call.func.id])
        return out


def _static_calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and any(k.arg in STATIC_KEYWORDS for k in n.keywords)]


@dataclass(frozen=True)
class StaticSlots:
    """Where a jit's static arguments go: positions (negative ones count from the end) and names."""

    positions: frozenset[int]
    names: frozenset[str]

    @classmethod
    def read(cls, call: ast.Call, function: ast.FunctionDef | ast.AsyncFunctionDef | None) -> StaticSlots | None:
        """From ``static_argnums``/``static_argnames`` literals; both ways, as jit infers them."""
        positions: set[int] = set()
        names: set[str] = set()
        for keyword in call.keywords:
            if keyword.arg not in STATIC_KEYWORDS:
                continue
            try:
                value = ast.literal_eval(keyword.value)
            except (ValueError, SyntaxError, TypeError):
                return None
            items = value if isinstance(value, (tuple, list, set, frozenset)) else (value,)
            for item in items:
                if keyword.arg == "static_argnums" and isinstance(item, int):
                    positions.add(item)
                elif keyword.arg == "static_argnames" and isinstance(item, str):
                    names.add(item)
                elif item is not None:
                    return None
        if function is None:
            return None if names and not positions else cls(frozenset(positions), frozenset(names))
        params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        positions |= {i for i, p in enumerate(params) if p in names}
        names |= {params[i] for i in positions if 0 <= i < len(params)}
        return cls(frozenset(positions), frozenset(names))

    @classmethod
    def of_summary(cls, summary) -> StaticSlots | None:
        """From another module's `repo_index.JittedSummary` (both ways, as jit infers them)."""
        if not summary.readable:
            return None
        params = [p.name for p in summary.params if p.kind in ("posonly", "pos")]
        positions = set(summary.argnums or ())
        names = set(summary.argnames or ())
        positions |= {i for i, p in enumerate(params) if p in names}
        names |= {params[i] for i in positions if 0 <= i < len(params)}
        return cls(frozenset(positions), frozenset(names))

    def arguments(self, call: ast.Call) -> list[ast.expr]:
        """The arguments of a call that may land in a static slot (self may or may not be bound)."""
        positional = call.args
        out = [k.value for k in call.keywords if k.arg is None or k.arg in self.names]
        for shift in (0, 1) if isinstance(call.func, ast.Attribute) else (0,):
            count = len(positional) + shift
            for i, arg in enumerate(positional):
                index = i + shift
                if isinstance(arg, ast.Starred) or index in self.positions or index - count in self.positions:
                    out.append(arg)
        return out


def plainly_hashable(node: ast.AST) -> bool:
    """A literal that certainly hashes: never something to freeze."""
    if isinstance(node, (ast.Constant, ast.JoinedStr, ast.Lambda)):
        return True
    if isinstance(node, ast.Tuple):
        return all(plainly_hashable(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return plainly_hashable(node.operand)
    if isinstance(node, ast.BinOp):
        return plainly_hashable(node.left) and plainly_hashable(node.right)
    return False


def _returns_name(function: ast.AST, name: str | None) -> bool:
    """Does `function` (a def) hold ``return name`` outside its nested defs?"""
    return any(isinstance(r.value, ast.Name) and r.value.id == name for r in own_returns(function))


def qualified_spellings(facts: Facts, func: ast.expr) -> frozenset[str]:
    """``jnp.ones`` -> {``jax.numpy.ones``} through the module's imports (spelling only):
    every dotted name libcst's resolution could give (it gives one of them, or none)."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return frozenset()
    tail = "".join(f".{part}" for part in reversed(parts))
    return frozenset(base + tail for base in facts.import_targets.get(func.id, ()))


def calls_on(facts: Facts, lines: set[int] | frozenset[int]) -> list[ast.Call]:
    """Every call written on the statements that hold these lines."""
    return [call for stmt in facts.statements_on(lines) for call in facts.own_calls(stmt)]


def lines_mentioning(facts: Facts, words: Iterable[str]) -> set[int]:
    """Lines where one of the words appears as a whole identifier."""
    return facts.lines_of_words(words)


_STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "size"})
#: Functions whose result is a Python int even for a tracer (array metadata).
_STATIC_FUNCTIONS = frozenset({"len", "ndim", "shape", "size", "prod"})


def _metadata_call(call: ast.Call) -> bool:
    """``len(x)``, ``np.ndim(x)``, ``np.shape(x)``, ``math.prod(x.shape)``: static whatever x is."""
    name = spelled_name(call.func)
    if name == "prod":
        return all(plainly_static(a) for a in call.args)
    return True


def plainly_static(node: ast.AST) -> bool:
    """Literals, len(), array metadata and arithmetic on them: never a tracer."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return plainly_static(node.operand)
    if isinstance(node, ast.BinOp):
        return plainly_static(node.left) and plainly_static(node.right)
    if isinstance(node, ast.Call) and spelled_name(node.func) in _STATIC_FUNCTIONS:
        return all(plainly_static(a) or _metadata_call(node) for a in node.args)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        return all(plainly_static(a) for a in node.args)
    if isinstance(node, ast.Attribute) and node.attr in _STATIC_ATTRIBUTES:
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Subscript):
        return plainly_static(node.value)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(plainly_static(e) for e in node.elts)
    return False


#: Words in a decorator or call that may trace a function (over-approximated by spelling).
TRACING_WORDS = frozenset(
    {
        "jit", "pjit", "vmap", "pmap", "xmap", "grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian", "jvp",
        "vjp", "linearize", "checkpoint", "remat", "custom_jvp", "custom_vjp", "named_call", "shard_map",
        "eval_shape", "make_jaxpr", "scan", "fori_loop", "while_loop", "cond", "switch", "map",
        "associative_scan", "partial", "filter_jit", "filter_vmap", "filter_grad",
    }
)


def _defs_around(facts: Facts, line: int) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [
        s
        for s in facts.statements_on({line})
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.lineno <= line <= (s.end_lineno or s.lineno)
    ]


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    a = node.args
    names = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    names |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
    return names


def _names(nodes: Iterable[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
    ast.With, ast.AsyncWith, ast.Try, ast.Match,
)


def handed_defs(facts: Facts, node: ast.AST) -> tuple[list[ast.AST], list[ast.Call]]:
    """For `node`, a name a parameter of a def around it may bind (``scan_body_fn`` in ``def
    scan_via(scan_body_fn, init, xs)``): the module's defs that calls of that def may hand it
    (every def a plain name among their arguments spells), and those calls; empty otherwise.
    Over-approximated: positions are not matched (`tracing._parameter_reads` does)."""
    if not isinstance(node, ast.Name):
        return [], []
    owners = [fn for fn in _defs_around(facts, node.lineno) if node.id in _params(fn)]
    defs: list[ast.AST] = []
    calls: list[ast.Call] = []
    for owner in owners:
        for call in calls_on(facts, facts.lines_of_words([owner.name])):
            if spelled_name(call.func) != owner.name:
                continue
            calls.append(call)
            for arg in (*call.args, *(k.value for k in call.keywords)):
                if isinstance(arg, ast.Name):
                    defs.extend(facts.defs_by_name.get(arg.id, ()))
    return defs, calls


def reads_parameter(facts: Facts, node: ast.AST) -> bool:
    """Is `node` a plain name that a parameter of a def around it may bind?"""
    return isinstance(node, ast.Name) and any(node.id in _params(fn) for fn in _defs_around(facts, node.lineno))


def mentions_static_jitted(facts: Facts, node: ast.AST) -> bool:
    """Does the expression name something jitted with static arguments (or jit it inline)?

    A bare name is also followed to a list or tuple it was assigned
    (``lax.switch(i, branches, ...)``), and a parameter may hold one a call hands over
    (`Facts.static_jitted_handed_on`).
    """
    names = facts.static_jitted_names
    if isinstance(node, ast.Name) and names & facts.sequences.get(node.id, set()):
        return True
    if facts.static_jitted_handed_on and reads_parameter(facts, node):
        return True
    stack = [node]
    while stack:
        inner = stack.pop()
        if spelled_name(inner) in names:
            return True
        if isinstance(inner, ast.Call) and any(k.arg in STATIC_KEYWORDS for k in inner.keywords):
            return True
        stack.extend(child_nodes(inner))
    return False


def _declares_static(repo, module) -> bool:
    """Does another module say ``static_arg`` at all? Without it none of its jits has static
    arguments the rules can read (`external.external_target` skips the rest), so its
    jitted functions give the screen nothing to look for."""
    return repo.summary(module).declares_static

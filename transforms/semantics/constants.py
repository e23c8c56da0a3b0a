"""Values the source states outright: literals, and names bound once to literals.

Used to read static_argnums/static_argnames and to follow a name back to the
one place it was bound. A name counts only when exactly one binding of it can
reach the use and that binding is a plain ``NAME = value`` (or annotated)
assignment; anything else (two bindings, a loop target, a parameter, global
rebinding from a function) is not a constant.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
from libcst.metadata import Assignment, ComprehensionScope, FunctionScope

from jaxfix.transforms.semantics.module import ModuleContext

NOT_CONSTANT = object()


def single_binding(ctx: ModuleContext, name: cst.Name) -> cst.CSTNode | None:
    """The node that binds `name` at this use, when exactly one binding reaches it.

    Returns the FunctionDef, ClassDef, Param, Import/ImportFrom, or the Name
    target of an assignment.
    """
    scope = ctx.scope(name)
    if scope is None:
        return None
    assignments = scope[name.value]
    if len(assignments) != 1:
        return None
    (assignment,) = assignments
    return assignment.node if isinstance(assignment, Assignment) else None


def reaching_parameter(ctx: ModuleContext, name: cst.Name) -> cst.Param | None:
    """The parameter a read sees when the name is bound again only later in its function
    (``thing = thing[thing > 0]``: the right side reads the parameter): `reaching_binding`, when
    what reaches the read is the parameter."""
    found = reaching_binding(ctx, name)
    return found if isinstance(found, cst.Param) else None


def reaching_binding(ctx: ModuleContext, name: cst.Name) -> cst.CSTNode | None:
    """The one binding a read sees in straight-line code (`single_binding` when there is one):
    ``tsave = jnp.asarray(tsave)`` then ``tsave = tuple(tsave.tolist())`` (dynamiqs#1015). No
    loop around the read in its function; every binding before the read's statement is a plain
    ``name = ...`` target whose statement sits in a block around the read (so it surely ran), and
    the last of them is the one; with none, the parameter. None when that cannot be shown."""
    single = single_binding(ctx, name)
    if single is not None:
        return single
    scope = ctx.scope(name)
    if scope is None:
        return None
    assignments = scope[name.value]
    if not assignments or not all(isinstance(a, Assignment) for a in assignments):
        return None
    fn = ctx.enclosing_function(name)
    read: cst.CSTNode = name
    closure = False
    if fn is not None and not any(ctx.enclosing_function(a.node) is fn for a in assignments):  # type: ignore[union-attr]
        # A closure's read (``lax.cond(k >= 0, lambda: zero, lambda: k)``): it sees what the name
        # holds when it runs, which is after its definition; with every binding of the outer
        # function before that definition, it is the last of them.
        read, fn, closure = fn, ctx.enclosing_function(fn), True
    around = ctx.ancestors_within(read, fn)
    path = [read, *around]
    if any(
        isinstance(a, (cst.For, cst.While)) and not (isinstance(a, cst.For) and path[i] is a.iter)
        for i, a in enumerate(around)
    ):
        # (module-level code, fn None, runs top to bottom as a function's does); a `for` loop's
        # iterable is read once, before its body runs (`range(state.n)` then `state = ...`). A
        # comprehension repeats its reads, but nothing in it rebinds a name of the function but a
        # walrus, which sits in the read's own statement (refused below)
        return None
    statement = ctx.statement_of(read)
    param: cst.CSTNode | None = None
    before: list[cst.Name] = []
    for assignment in assignments:
        node = assignment.node  # type: ignore[union-attr]
        if isinstance(node, cst.Param) and ctx.enclosing_function(node) is fn:
            param = node
            continue
        if not isinstance(node, cst.Name) or ctx.enclosing_function(node) is not fn:
            return None
        holder = ctx.statement_of(node)
        if holder is statement:
            if closure or not _assignment_target(ctx, node):
                return None  # a walrus or a loop target in the read's own statement
            continue  # bound after the right side is read
        if ctx.start(holder) > ctx.start(statement):
            if closure:
                return None  # bound again after the closure is made: it may run after that
            continue  # later: no loop brings it back
        if not _assignment_target(ctx, node) or ctx.parent(holder) not in around:
            return None  # conditional, or a target unpacked in ways not followed
        before.append(node)
    if before:
        return max(before, key=ctx.start)
    return param


def every_binding(ctx: ModuleContext, name: cst.Name) -> list[cst.CSTNode] | None:
    """Every node that binds `name` in the scope this use reads it from (any of them may reach
    it); None when one is not a binding of this module (a builtin, a name it cannot see)."""
    scope = ctx.scope(name)
    if scope is None:
        return None
    assignments = scope[name.value]
    if not assignments or not all(isinstance(a, Assignment) for a in assignments):
        return None
    return [a.node for a in assignments]  # type: ignore[union-attr]


def assigned_value(ctx: ModuleContext, target: cst.CSTNode) -> cst.BaseExpression | None:
    """For the Name target of `target = value` (single target), the value.

    Unpacking of a literal (``N, M = 3, 2``) gives the matching element.
    """
    parent = ctx.parent(target)
    if isinstance(parent, cst.AssignTarget):
        stmt = ctx.parent(parent)
        if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1:
            return stmt.value
    if isinstance(parent, cst.AnnAssign) and parent.target is target:
        return parent.value
    if isinstance(parent, cst.Element):
        packed = ctx.parent(parent)
        if isinstance(packed, (cst.Tuple, cst.List)) and all(isinstance(e, cst.Element) for e in packed.elements):
            value = assigned_value(ctx, packed)
            if value is not None:
                return literal_element(value, packed.elements.index(parent), len(packed.elements))
    return None


def literal_element(packed: cst.BaseExpression, index: int, size: int) -> cst.BaseExpression | None:
    """The element at `index` of a tuple or list literal of `size` elements, none starred."""
    if not isinstance(packed, (cst.Tuple, cst.List)) or len(packed.elements) != size:
        return None
    if any(not isinstance(e, cst.Element) for e in packed.elements):
        return None
    return packed.elements[index].value


def binding_value(ctx: ModuleContext, name: cst.Name) -> cst.BaseExpression | None:
    """The value of the one `name = value` assignment that reaches this use; for ``STEPS =
    make_steps()``, the constant the helper returns (`returned_constant`)."""
    node = single_binding(ctx, name)
    value = assigned_value(ctx, node) if isinstance(node, cst.Name) else None
    if isinstance(value, cst.Call):
        return returned_constant(ctx, value) or value
    return value


#: Literals whose every copy is the same value: a helper returning one returns it at every call.
_IMMUTABLE_LITERALS = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.UnaryOperation, cst.Tuple)


def returned_constant(ctx: ModuleContext, call: cst.Call) -> cst.BaseExpression | None:
    """What a call of a module-level function of no parameters returns when that is an immutable
    literal (a number, a string, a tuple of them: `helper_return`): researchers build a config's
    numbers in helpers (``STEPS = make_steps()``). Every call gives the same value, so the literal
    stands for the call wherever a value is read."""
    value = helper_return(ctx, call)
    if not isinstance(value, _IMMUTABLE_LITERALS) or constant_value(ctx, value) is NOT_CONSTANT:
        return None
    return value


def helper_return(ctx: ModuleContext, call: cst.Call) -> cst.BaseExpression | None:
    """The expression a call of a module-level function of no parameters surely returns: its one
    ``return``, the last statement of its body (no decorator; nothing else returns). Each call
    evaluates it afresh: its structure (a tuple of a number and an empty list) is every call's."""
    if call.args or not isinstance(call.func, cst.Name):
        return None
    function = single_binding(ctx, call.func)
    if not isinstance(function, cst.FunctionDef) or function.decorators or not parameterless_module_def(ctx, function):
        return None
    if not isinstance(function.body, cst.IndentedBlock):
        return None
    returns = own_returns(function)
    last = function.body.body[-1] if function.body.body else None
    if len(returns) != 1 or not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and last.body[0] is returns[0]):
        return None  # a return inside an `if` may be skipped
    return returns[0].value


def parameterless_module_def(ctx: ModuleContext, function: cst.FunctionDef) -> bool:
    """A def at module level that takes no parameter at all: every call of it is ``f()``."""
    params = function.params
    if params.params or params.posonly_params or params.kwonly_params or params.star_kwarg is not None:
        return False
    return isinstance(params.star_arg, cst.MaybeSentinel) and isinstance(ctx.parent(function), cst.Module)


def written_out(ctx: ModuleContext, value: cst.BaseExpression) -> cst.BaseExpression:
    """What `value` writes out: itself, or for a call of a parameterless helper the expression it
    returns (`helper_return`: ``TABLE = make_table()`` holds a fresh list, a list still)."""
    returned = helper_return(ctx, value) if isinstance(value, cst.Call) else None
    return returned if returned is not None else value


def display_items(display: cst.BaseExpression | None) -> list[cst.BaseExpression] | None:
    """The values a dict display holds, or the elements of a list or tuple display; None for
    anything else, or a display that unpacks another (``**base``, ``*rest``)."""
    if isinstance(display, cst.Dict):
        entries = [e for e in display.elements if isinstance(e, cst.DictElement)]
        return [e.value for e in entries] if len(entries) == len(display.elements) else None
    if isinstance(display, (cst.List, cst.Tuple)):
        elements = [e for e in display.elements if isinstance(e, cst.Element)]
        return [e.value for e in elements] if len(elements) == len(display.elements) else None
    return None


def own_returns(function: cst.FunctionDef) -> list[cst.Return]:
    """The return statements of `function` itself (not of the functions or classes nested in it),
    in source order.

    A return is a statement, so only the statements are walked (`_own_statements`): libcst's
    ``visit`` rebuilds every node of the body, expressions included, and that walk was a
    twentieth of a golden module's analysis."""
    return [s for s in _own_statements(function.body) if isinstance(s, cst.Return)]


def _own_statements(suite: cst.BaseSuite) -> Iterator[cst.BaseSmallStatement | cst.BaseCompoundStatement]:
    """Every statement of a suite and of the suites nested in its compound statements, in source
    order; a nested def or class is given, not entered."""
    body = suite.body
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        elif isinstance(statement, cst.BaseSmallStatement):
            yield statement  # the body of a SimpleStatementSuite (``if x: return 1``)
        else:
            yield statement
            if not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                for part in _clauses(statement):
                    yield from _own_statements(part)


def _clauses(statement: cst.CSTNode) -> Iterator[cst.BaseSuite]:
    """The suites of a compound statement, in source order (``if``/``elif``/``else``, ``try``'s
    handlers, ``match``'s cases)."""
    if not isinstance(statement, cst.Match):
        yield statement.body  # type: ignore[attr-defined]
    for handler in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
        yield handler.body
    orelse = getattr(statement, "orelse", None)
    if isinstance(orelse, cst.If):
        yield from _clauses(orelse)
    elif orelse is not None:
        yield orelse.body
    final = getattr(statement, "finalbody", None)
    if final is not None:
        yield final.body


def unpacked_value(ctx: ModuleContext, target: cst.CSTNode) -> tuple[cst.BaseExpression, int, int] | None:
    """``a, b = value`` with `target` one of the names and `value` not a literal (``_, state =
    inputs``): (the value, the name's position, how many names); None for any other binding, or a
    starred name among them."""
    element = ctx.parent(target)
    packed = ctx.parent(element) if isinstance(element, cst.Element) else None
    holder = ctx.parent(packed) if isinstance(packed, (cst.Tuple, cst.List)) else None
    assign = ctx.parent(holder) if isinstance(holder, cst.AssignTarget) else None
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1 or isinstance(assign.value, (cst.Tuple, cst.List)):
        return None
    elements = packed.elements  # type: ignore[union-attr]
    if any(isinstance(e, cst.StarredElement) for e in elements):
        return None
    return assign.value, elements.index(element), len(elements)  # type: ignore[arg-type]


def unpacked_from(ctx: ModuleContext, target: cst.Name) -> tuple[cst.Call, int, int] | None:
    """``a, b = f(...)`` with `target` one of the names: (the call, the name's position, how many
    names); None for any other binding, or a starred name among them."""
    found = unpacked_value(ctx, target)
    return found if found is not None and isinstance(found[0], cst.Call) else None  # type: ignore[return-value]


def returned_element(ctx: ModuleContext, name: cst.Name) -> cst.BaseExpression | None:
    """``f1, f2 = make_heads()`` read at `name`: the element of the tuple the helper returns at the
    name's position, when the helper is an undecorated def of the module whose one ``return``
    gives a tuple literal of that size. The expression belongs to the helper's scope: it says what
    the value is, and is never code to copy where `name` is read."""
    binding = single_binding(ctx, name)
    found = unpacked_from(ctx, binding) if isinstance(binding, cst.Name) else None
    if found is None:
        return None
    call, index, size = found
    helper = single_binding(ctx, call.func) if isinstance(call.func, cst.Name) else None
    if not isinstance(helper, cst.FunctionDef) or helper.decorators:
        return None
    returns = own_returns(helper)
    if len(returns) != 1 or returns[0].value is None:
        return None
    return literal_element(returns[0].value, index, size)


def _assignment_target(ctx: ModuleContext, name: cst.Name) -> bool:
    """`name` is bound by its statement's ``=`` (``x = ...``, ``x, y = ...``, ``x: T = ...``),
    which runs after the right side is read."""
    node: cst.CSTNode = name
    parent = ctx.parent(node)
    while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        node, parent = parent, ctx.parent(parent)
    return isinstance(parent, (cst.AssignTarget, cst.AnnAssign))


def local_bindings(ctx: ModuleContext, name: cst.Name) -> list[cst.Param | cst.BaseExpression] | None:
    """What every binding of `name` in its own function gives it: the parameter, or the value of a
    one-target assignment ``name = value`` (``if T is None: T = self.T`` after the parameter ``T``).
    None when a binding is anything else, or the name is bound in an enclosing scope (a module's
    global, a closure's), which any function may rebind at any time."""
    scope = ctx.scope(name)
    while isinstance(scope, ComprehensionScope) and not any(a.scope is scope for a in scope[name.value]):
        scope = scope.parent  # `[s[axis] for s in shapes]`: `axis` is the function's
    if not isinstance(scope, FunctionScope) or name.value not in scope:
        return None
    assignments = list(scope[name.value])
    if not assignments or any(getattr(a, "scope", None) is not scope for a in assignments):
        return None
    found: list[cst.Param | cst.BaseExpression] = []
    for assignment in assignments:
        node = getattr(assignment, "node", None)
        value = assigned_value(ctx, node) if isinstance(node, cst.Name) and isinstance(ctx.parent(node), cst.AssignTarget) else None
        if isinstance(node, cst.Param):
            found.append(node)
        elif value is not None:
            found.append(value)
        else:
            return None
    return found


def bound_after(ctx: ModuleContext, value: cst.BaseExpression, read: cst.CSTNode) -> bool:
    """The binding whose value is `value` (a `local_bindings` entry) comes after `read` runs, and no
    loop brings it round: its statement starts at or after the read's (``x = f(x)`` binds after
    reading), so the read never sees it."""
    fn = ctx.enclosing_function(read)
    if any(isinstance(a, (cst.For, cst.While)) for a in ctx.ancestors_within(read, fn)):
        return False
    return ctx.start(ctx.statement_of(value)) >= ctx.start(ctx.statement_of(read))


def dominating_binding(ctx: ModuleContext, name: cst.Name) -> cst.Name | None:
    """The Name target of the last assignment to `name` written before the use in the use's own
    block (``rng, sub = split(rng)`` ... ``return rng``): straight-line code runs it right before
    the use, whatever other bindings the name has. None when that block has none before the use."""
    scope = ctx.scope(name)
    if scope is None:
        return None
    return binding_before(ctx, scope, name.value, ctx.statement_of(name))


def first_run_binding(ctx: ModuleContext, name: cst.Name) -> cst.Name | None:
    """What a read in a ``for`` loop's body holds on the loop's first run, when the body binds the
    name only at or after the read's statement (``state = step(state)``): the binding before the
    loop (`binding_before`). None when that cannot be shown."""
    scope = ctx.scope(name)
    statement = ctx.statement_of(name)
    block = ctx.parent(statement)
    loop = ctx.parent(block) if isinstance(block, cst.IndentedBlock) else None
    if scope is None or not isinstance(loop, cst.For) or loop.body is not block:
        return None
    if any(isinstance(n, cst.Name) and n.value == name.value for n in _target_names(loop.target)):
        return None
    start, end = ctx.start(statement), ctx.start(loop.body)
    for assignment in scope[name.value]:
        node = getattr(assignment, "node", None)
        if node is None:
            return None
        inside = any(a is loop for a in ctx.ancestors(node))
        if inside and ctx.start(node) < start and ctx.start(node) >= end:
            return None  # bound in the body before the read
    return binding_before(ctx, scope, name.value, loop)


def binding_before(ctx: ModuleContext, scope, name: str, statement: cst.CSTNode) -> cst.Name | None:
    """`dominating_binding` for what `name` holds right before `statement` runs, in `scope`."""
    block = ctx.parent(statement)
    body = getattr(block, "body", None)
    if not isinstance(body, (list, tuple)) or statement not in body:
        return None
    best = _last_held(ctx, scope, name, block, before=body.index(statement))
    if best is None or not isinstance(best[1], cst.Name):
        return None
    holder = body[best[0]]
    if isinstance(holder, cst.SimpleStatementLine):
        return best[1]
    if isinstance(holder, cst.For) and _runs_through(ctx, holder, name):
        # ``total = 0`` then ``for b in range(4): total += f(b)``: after the loop, what the loop
        # body's last binding gave.
        return _last_binding_in(ctx, scope, holder.body, name)
    return None  # the last binding above is inside a branch (or a loop that may not run): it may not run


def _runs_through(ctx: ModuleContext, loop: cst.For, name: str) -> bool:
    """The loop body runs at least once, to its end each time: ``range`` of int literals that is
    not empty, or a non-empty list or tuple literal; no ``break`` or ``continue`` of its own; and
    its target is not `name`."""
    if any(isinstance(n, cst.Name) and n.value == name for n in _target_names(loop.target)) or loop.orelse is not None:
        return False
    it = loop.iter
    if isinstance(it, (cst.List, cst.Tuple)):
        nonempty = bool(it.elements) and not any(isinstance(e, cst.StarredElement) for e in it.elements)
    elif isinstance(it, cst.Call) and ctx.names.qualified_name(it.func) == "builtins.range" and 1 <= len(it.args) <= 2:
        bounds = [constant_value(ctx, a.value) for a in it.args]
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds) or any(a.keyword or a.star for a in it.args):
            return False
        start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
        nonempty = stop > start  # type: ignore[operator]
    else:
        return False
    return nonempty and not _jumps_out(loop.body)


def _target_names(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _target_names(e.value)]
    return [target]


def _jumps_out(block: cst.CSTNode) -> bool:
    """A ``break`` or ``continue`` of this loop (not of a loop or function nested in it)."""
    found: list[bool] = []

    class Jumps(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> bool:
            return False

        def visit_While(self, node: cst.While) -> bool:
            return False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Break(self, node: cst.Break) -> None:
            found.append(True)

        def visit_Continue(self, node: cst.Continue) -> None:
            found.append(True)

    block.visit(Jumps())
    return bool(found)


def _last_binding_in(ctx: ModuleContext, scope, block: cst.BaseSuite, name: str) -> cst.Name | None:
    """The Name target of the last statement of `block` binding `name`, when that statement is a
    simple one (it runs each time the block does); None otherwise."""
    best = _last_held(ctx, scope, name, block)
    if best is None or not isinstance(best[1], cst.Name) or not isinstance(block.body[best[0]], cst.SimpleStatementLine):  # type: ignore[index]
        return None
    return best[1]


def _last_held(
    ctx: ModuleContext, scope, name: str, block: cst.CSTNode, before: int | None = None
) -> tuple[int, cst.CSTNode] | None:
    """(its statement's index, the binding node) for the binding of `name` whose statement of
    `block` (itself, or a loop or if around it) comes last, before index `before` if given."""
    body = getattr(block, "body", None)
    if not isinstance(body, (list, tuple)):
        return None
    limit = len(body) if before is None else before
    best: tuple[int, cst.CSTNode] | None = None
    for assignment in scope[name]:
        node = getattr(assignment, "node", None)
        holder = next((a for a in (node, *ctx.ancestors(node)) if ctx.parent(a) is block), None) if node is not None else None
        if holder is None or holder not in body:
            continue
        at = body.index(holder)
        if at < limit and (best is None or at > best[0]):
            best = (at, node)
    return best


def class_members(ctx: ModuleContext, attr: cst.Attribute) -> list[cst.CSTNode] | None:
    """``Model.f``: the statements of the class body that bind ``f`` (defs and one-target
    assignments), for a class this module defines once; None when ``Model`` is not one."""
    if not isinstance(attr.value, cst.Name):
        return None
    cls = single_binding(ctx, attr.value)
    if not isinstance(cls, cst.ClassDef):
        return None
    return members_named(cls, attr.attr.value)


def methods(cls: cst.ClassDef) -> list[cst.FunctionDef]:
    """The defs of the class body."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return [s for s in body if isinstance(s, cst.FunctionDef)]


def members_named(cls: cst.ClassDef, name: str) -> list[cst.CSTNode]:
    """The statements of the class body that bind `name` (defs and one-target assignments)."""
    return [s for s in cls.body.body if binds_in_class(s, name)]


def declared_annotation(cls: cst.ClassDef, name: str) -> cst.BaseExpression | None:
    """The annotation of the field ``name: T`` the class body declares (a dataclass's, an equinox or
    flax module's field), or None."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for line in body:
        statement = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if isinstance(statement, cst.AnnAssign) and isinstance(statement.target, cst.Name) and statement.target.value == name:
            return statement.annotation.annotation
    return None


def binds_in_class(stmt: cst.CSTNode, name: str) -> bool:
    """Does this statement of a class body bind `name` (``def name`` or ``name = ...``)?"""
    if isinstance(stmt, cst.FunctionDef):
        return stmt.name.value == name
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            return isinstance(target, cst.Name) and target.value == name
    return False


def constant_value(ctx: ModuleContext, expr: cst.BaseExpression, _depth: int = 0) -> object:
    """The Python value of a literal expression, or NOT_CONSTANT."""
    if _depth > 8:
        return NOT_CONSTANT
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if isinstance(expr, cst.Float):
        return float(expr.evaluated_value)
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else NOT_CONSTANT
    if isinstance(expr, cst.ConcatenatedString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else NOT_CONSTANT
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        inner = constant_value(ctx, expr.expression, _depth + 1)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(expr.operator, cst.Minus) else inner
        return NOT_CONSTANT
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        items = []
        for element in expr.elements:
            if not isinstance(element, cst.Element):
                return NOT_CONSTANT
            value = constant_value(ctx, element.value, _depth + 1)
            if value is NOT_CONSTANT:
                return NOT_CONSTANT
            items.append(value)
        return tuple(items)
    if isinstance(expr, cst.Name):
        if expr.value in ("True", "False", "None") and ctx.names.qualified_name(expr) == f"builtins.{expr.value}":
            return {"True": True, "False": False, "None": None}[expr.value]
        value = binding_value(ctx, expr)
        if value is not None:
            return constant_value(ctx, value, _depth + 1)
    return NOT_CONSTANT

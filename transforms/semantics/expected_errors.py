"""Code that a test runs in order to watch it fail.

Test suites call the pitfalls on purpose: ``with self.assertRaisesRegex(
ConcretizationTypeError, ...): f(3, 1.)`` checks JAX's error message (jax's
own tests do, in api_test, lax_numpy_test, lax_control_flow_test). The
finding is real there, but a rewrite would make the call succeed and the
test fail, so such code is set apart and counted, never reported as a
finding by default, and never rewritten. A node expects a
failure when it sits in the body of a ``with`` over ``assertRaises*``,
``assertWarns*``, ``pytest.raises`` or ``pytest.warns``, inside the arguments of such a call
(``self.assertRaises(TypeError, lambda: f(3., 3))``), or in the body of a
``try`` whose ``except`` names the error (``ConcretizationTypeError``, the
other tracer conversion errors, ``TypeError``); a bare ``except`` or
``except Exception`` is a fallback, not a test, and does not count. A test
marked to be skipped or to fail whatever happens (``@unittest.skip(...)``,
``@unittest.expectedFailure``, ``@pytest.mark.skip``, ``@pytest.mark.xfail``)
is such code too: its authors know it does not work (jax's api_test keeps
``int(jax.jit(f)(3))`` inside a jit that way, a skipped TODO); a conditional
``skipIf`` is not, since the test runs elsewhere.

Two guards use this: `expected_failure` for a rule that knows the call a
rewrite would change (JAX301 follows a loop's function to its calls), and
`split_expected`, applied to every rule's findings: a finding in such code,
or whose fix's edits land there (JAX101 rebinding the cond a test expects
to fail, JAX201 freezing the dict a test passes to see the hashing error),
is set apart and counted, not reported.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, Span, shorten
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.tracing import Route

#: Qualified names of the context managers and functions that expect an exception (or a warning:
#: equinox's tests build a module with an array in a static field under ``pytest.warns``).
_RAISES = frozenset({"pytest.raises", "pytest.warns", "numpy.testing.assert_raises", "numpy.testing.assert_raises_regex"})
#: Decorators that mark a test as known not to work, whatever the platform.
_KNOWN_FAILING = frozenset({"unittest.skip", "unittest.expectedFailure", "pytest.mark.skip", "pytest.mark.xfail"})
#: Exceptions whose handler shows a ``try`` body runs these pitfalls to see them fail
#: (the concrete-value errors subclass TypeError, as does the hashing error).
_CAUGHT = frozenset(
    {
        "TypeError",
        "ConcretizationTypeError",
        "TracerIntegerConversionError",
        "TracerBoolConversionError",
        "TracerArrayConversionError",
        "NonConcreteBooleanIndexError",
        "UnexpectedTracerError",
    }
)


def _catches_pitfall(ctx: ModuleContext, try_: cst.Try) -> bool:
    for handler in try_.handlers:
        kind = handler.type
        kinds = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind] if kind is not None else []
        for k in kinds:
            name = k.attr.value if isinstance(k, cst.Attribute) else k.value if isinstance(k, cst.Name) else None
            if name in _CAUGHT:
                return True
    return False


def _expects_exception(ctx: ModuleContext, call: cst.BaseExpression) -> bool:
    if not isinstance(call, cst.Call):
        return False
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value.startswith(("assertRaises", "assertWarns")):
        return True  # unittest's and absltest's assertRaises, assertRaisesRegex, assertWarns, ...
    if ctx.names.qualified_name(func) in _RAISES:
        return True
    # A test helper handed the error it expects and the code to run: ``get_exception(TypeError, f)``.
    return any(a.keyword is None and _names_an_error(a.value) for a in call.args) and any(
        a.keyword is None and isinstance(a.value, (cst.Name, cst.Lambda)) and not _names_an_error(a.value)
        for a in call.args
    )


def _names_an_error(expr: cst.BaseExpression) -> bool:
    name = expr.attr.value if isinstance(expr, cst.Attribute) else expr.value if isinstance(expr, cst.Name) else ""
    return name in _CAUGHT or (name.endswith(("Error", "Exception")) and name[:1].isupper())


def expected_failure(ctx: ModuleContext, node: cst.CSTNode) -> cst.Call | None:
    """The ``assertRaises``/``pytest.raises`` call under which `node` runs, if any."""
    child = node
    for ancestor in ctx.ancestors(node):
        if isinstance(ancestor, cst.Call) and child is not ancestor.func and _expects_exception(ctx, ancestor):
            return ancestor
        if isinstance(ancestor, (cst.With)) and child is ancestor.body:
            for item in ancestor.items:
                if _expects_exception(ctx, item.item):
                    return item.item  # type: ignore[return-value]
        child = ancestor
    return None


@dataclass(frozen=True)
class _Region:
    """Code run under an expected exception: its offsets in ctx's text, its span in the file."""

    start: int
    end: int
    span: Span
    #: The ``assertRaises``/``pytest.raises`` call, or the ``except`` clause that catches the error.
    expecting: cst.Call | cst.ExceptHandler | cst.Decorator

    def holds_edit(self, edit: Edit) -> bool:
        if edit.file:
            return False
        if edit.start == edit.end:  # an insertion
            return self.start <= edit.start < self.end
        return edit.start < self.end and self.start < edit.end

    def holds_span(self, span: Span) -> bool:
        return _at(self.span.start) <= _at(span.start) and _at(span.end) <= _at(self.span.end)


def _at(position) -> tuple[int, int]:
    return (position.line, position.column)


def _regions(ctx: ModuleContext) -> list[_Region]:
    out: list[_Region] = []
    for try_ in ctx.nodes_of(cst.Try):
        if _catches_pitfall(ctx, try_):
            handler = try_.handlers[0]
            out.append(_Region(ctx.start(try_.body), ctx.end(try_.body), ctx.span(try_.body), handler))  # type: ignore[arg-type]
    for fn in ctx.nodes_of(cst.FunctionDef):
        marked = next((d for d in fn.decorators if _marks_known_failing(ctx, d)), None)
        if marked is not None:
            out.append(_Region(ctx.start(fn.body), ctx.end(fn.body), ctx.span(fn.body), marked))
    for with_ in ctx.nodes_of(cst.With):
        call = next((i.item for i in with_.items if _expects_exception(ctx, i.item)), None)
        if call is not None:
            body = with_.body
            out.append(_Region(ctx.start(body), ctx.end(body), ctx.span(body), call))  # type: ignore[arg-type]
    for call in ctx.calls:
        if _expects_exception(ctx, call) and call.args:
            first = call.args[0].value
            span = Span(ctx.span(first).start, ctx.span(call).end)
            out.append(_Region(ctx.start(first), ctx.end(call), span, call))
    return out


def _behaviour(finding: Finding) -> set[Edit]:
    """The fix's edits that change what code does: an added import statement does not."""
    return {e for e in finding.fix.edits if not _only_imports(e.content)} if finding.fix else set()


def _only_imports(text: str) -> bool:
    try:
        body = ast.parse(text.strip()).body if text.strip() else []
    except SyntaxError:
        return False
    return bool(body) and all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body)


def split_expected(
    ctx: ModuleContext,
    findings: list[Finding],
    routes_of: Callable[[FunctionNode], Iterable[Route] | None] | None = None,
    *,
    keep_expected: bool = False,
) -> tuple[list[Finding], list[Finding]]:
    """(the findings to report, the findings in code that expects their error).

    A finding is in such code when it sits there (the call a test expects to
    fail), one of its fix's edits lands there, or a function around it is
    called or handed on from there (`routes_of`: a jitted ``f`` defined above
    ``with self.assertRaises(...): f()``). Those are not findings: the test
    wants the error, and reporting it fails every pre-merge check on a test
    suite (issue 17.4). With `keep_expected` they are reported, without a fix.
    A fix sharing a behaviour-changing edit with such a finding is withdrawn
    too (one frozen dict serves both a test's failing call and an ordinary
    call; a shared added import does not count), and its finding stays, saying
    why. Edits are offsets in ctx's text, spans are the file's (before a
    slice's findings move back).
    """
    regions = _regions(ctx) if findings else []
    if not regions:
        return findings, []
    why: dict[int, _Region] = {}
    for i, finding in enumerate(findings):
        hit = next((r for r in regions if r.holds_span(finding.span)), None)
        if finding.fix is not None:
            hit = hit or next((r for r in regions for e in finding.fix.edits if r.holds_edit(e)), None)
        hit = hit or (_run_from(ctx, regions, finding.span, routes_of) if routes_of is not None else None)
        if hit is not None:
            why[i] = hit
    shared = {e: i for i in why for e in _behaviour(findings[i])}
    withdrawn: dict[int, _Region] = {}
    for i, finding in enumerate(findings):
        if i not in why and finding.fix is not None:
            j = next((shared[e] for e in _behaviour(finding) if e in shared), None)
            if j is not None:
                withdrawn[i] = why[j]
    kept: list[Finding] = []
    expected: list[Finding] = []
    for i, finding in enumerate(findings):
        region = why.get(i) or withdrawn.get(i)
        if region is None:
            kept.append(finding)
            continue
        message = finding.message
        if "expects this error" not in message:  # a rule that knows the test may have said so
            message = (
                f"{message}; not rewritten: the rewrite would change code run inside "
                f"{_expecting(ctx, region.expecting)}: the code expects this error, "
                "and a rewrite would make that test fail"
            )
        reported = replace(finding, message=message, fix=None, notes=() if finding.fix else finding.notes)
        if i not in why or keep_expected:
            kept.append(reported)
        else:
            expected.append(reported)
    return kept, expected


def _marks_known_failing(ctx: ModuleContext, decorator: cst.Decorator) -> bool:
    expr = decorator.decorator
    target = expr.func if isinstance(expr, cst.Call) else expr
    return ctx.names.qualified_name(target) in _KNOWN_FAILING


def _expecting(ctx: ModuleContext, node: cst.Call | cst.ExceptHandler | cst.Decorator) -> str:
    line = ctx.span(node).start.line
    if isinstance(node, cst.Decorator):
        return f"a test marked `@{shorten(ctx.code(node.decorator))}` (line {line}), known not to work"
    if isinstance(node, cst.ExceptHandler):
        return f"a `try` whose `except {ctx.code(node.type) if node.type else ''}` (line {line}) catches it"
    return f"`{ctx.code(node.func)}(...)` (line {line})"


def _run_from(
    ctx: ModuleContext,
    regions: list[_Region],
    span: Span,
    routes_of: Callable[[FunctionNode], Iterable[Route] | None],
    _depth: int = 0,
) -> _Region | None:
    """The region from which a function around `span` is called or handed on, if any: directly,
    or through the functions that call it (a test's ``g`` calls the jitted ``f`` that fails)."""
    if _depth > 3:
        return None
    for fn in (*ctx.nodes_of(cst.FunctionDef), *ctx.nodes_of(cst.Lambda)):
        around = ctx.span(fn)
        if not (_at(around.start) <= _at(span.start) and _at(span.end) <= _at(around.end)):
            continue
        for route in routes_of(fn) or ():
            for node in (route.ref, route.call):
                if node is not None:
                    used = ctx.span(node)
                    hit = next((r for r in regions if r.holds_span(used)), None)
                    if hit is None and node is route.call and ctx.enclosing_function(node) not in (None, fn):
                        hit = _run_from(ctx, regions, used, routes_of, _depth + 1)
                    if hit is not None:
                        return hit
    return None

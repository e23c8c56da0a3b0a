"""Code that a test runs in order to watch it fail.

Test suites call the pitfalls on purpose: ``with self.assertRaisesRegex(
ConcretizationTypeError, ...): f(3, 1.)`` checks JAX's error message. The
finding is real there, but a rewrite would make the call succeed and the
test fail, so such code is reported, never rewritten. A node expects a
failure when it sits in the body of a ``with`` over ``assertRaises*`` or
``pytest.raises``, or inside the arguments of such a call
(``self.assertRaises(TypeError, lambda: f(3., 3))``).
"""

from __future__ import annotations

import libcst as cst

from .context import ModuleContext

#: Qualified names of the context managers and functions that expect an exception.
_RAISES = frozenset({"pytest.raises", "numpy.testing.assert_raises", "numpy.testing.assert_raises_regex"})


def _expects_exception(ctx: ModuleContext, call: cst.BaseExpression) -> bool:
    if not isinstance(call, cst.Call):
        return False
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value.startswith("assertRaises"):
        return True  # unittest's and absltest's assertRaises, assertRaisesRegex, ...
    return ctx.names.qualified_name(func) in _RAISES


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

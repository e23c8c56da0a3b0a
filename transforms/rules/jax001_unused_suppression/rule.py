"""JAX001 unused-suppression: its findings come from the suppression pass, not from an analysis.

Whether a directive silences something is known only once every other rule
has run on the module, so `transforms.check` asks `core.suppression.unused`
after them; this class gives the code its name, documentation and place in
``select``/``ignore``, ``jaxfix rules`` and ``explain``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.core.suppression import UNUSED_CODE


class UnusedSuppression(Rule):
    """A suppression comment that names a code no rule has, or silences nothing.

    ``# jaxfix: ignore[JAX101]`` and ``# noqa: JAX101`` silence findings on
    their line (and on the next one when the comment stands alone). One that
    names a code matching no rule (``JAX999``, or a prefix such as ``JAX1``:
    suppression takes whole codes) or a rule that finds nothing on the lines
    it covers hides nothing today and would hide a new finding tomorrow, as
    ruff's RUF100 says of ``# noqa``::

        y = jax.lax.cond(p, a, b, 3, x)  # jaxfix: ignore[JAX201]   (the finding here is JAX101)

    The fix (safe: comments only) drops the codes that silence nothing, or the
    directive, or the whole comment when nothing else is in it. Codes of other
    tools in a noqa list (``# noqa: E501, JAX101``) are kept, and a bare
    ``# noqa`` is never reported: it serves other linters too. A code is
    judged only when its rule ran on the file (selected, not ignored for it);
    a bare ``# jaxfix: ignore`` only when every rule did.

    ruff's RUF100 reports ``# noqa: JAX101`` as an unknown code unless
    ``lint.external = ["JAX"]`` is set; ``jaxfix check --add-noqa`` writes
    ``# jaxfix: ignore[...]``, which ruff never reads.
    """

    code = UNUSED_CODE
    name = "unused-suppression"
    summary = "a suppression comment names a code no rule has, or silences nothing"
    #: A directive says `jaxfix`, or `noqa` with one of our codes.
    required = (("jaxfix", "noqa", "NOQA", "NoQA"), ("jaxfix", "JAX"))

    @classmethod
    def seeds(cls, facts) -> list[ast.AST]:
        return []  # never analysed with libcst: `transforms.check` runs the suppression pass

    def check(self, analysis) -> Iterable[Finding]:
        return ()

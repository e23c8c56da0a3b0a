"""The shape of a rule: identity, documentation, pre-filter, and its check."""

from __future__ import annotations

import abc
import ast
import inspect
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar

from jaxfix.transforms.core.findings import Applicability, Finding

if TYPE_CHECKING:  # the contract names the model and the screen's facts; core depends on neither
    from jaxfix.transforms.gate.screen import Facts
    from jaxfix.transforms.semantics.analysis import Analysis

#: In a rule's `required` group: "the name of a function the project jits with
#: static arguments" (a module may use one it imports, and never say static_arg).
STATIC_JITTED = "<a function jitted with static arguments>"


class Haystack:
    """A file's text or bytes, asked whether it holds many substrings: the rules' pre-filters
    share words ("static_arg", "jax", "jit"), and a word a file lacks costs a whole scan."""

    def __init__(self, content: str | bytes) -> None:
        self.content = content
        self._encode = isinstance(content, bytes)
        self._found: dict[str, bool] = {}
        #: Words found absent: a word that contains one is absent too, without a scan
        #: (no "static_arg", so no "static_argnums").
        self._absent: list[str] = []

    def __contains__(self, word: str) -> bool:
        found = self._found.get(word)
        if found is None:
            if any(absent in word for absent in self._absent):
                found = False
            else:
                found = (word.encode() if self._encode else word) in self.content
            self._found[word] = found
            if not found:
                self._absent.append(word)
        return found


def required_words_match(
    required: tuple[tuple[str, ...], ...],
    text: str | bytes | Haystack,
    imports_static_jitted: bool | Callable[[], bool] = False,
) -> bool:
    """Every group of `required` has one of its words in the text (`Rule.may_match`); here, so
    that the engine can ask it of `catalogue` cards without importing the rules."""
    haystack = text if isinstance(text, Haystack) else Haystack(text)
    return all(
        any(s in haystack for s in group if s != STATIC_JITTED)
        or (
            STATIC_JITTED in group
            and (imports_static_jitted() if callable(imports_static_jitted) else imports_static_jitted)
        )
        for group in required
    )


class Rule(abc.ABC):
    """A rule's docstring is its documentation (``jaxfix explain CODE``)."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    #: The class of the fix when the rule is sure; a rule may downgrade one finding to unsafe.
    fix_class: ClassVar[Applicability] = Applicability.SAFE
    #: The rule never proposes a fix: it reports, with the options.
    report_only: ClassVar[bool] = False
    #: Text a file must contain for the rule to possibly match: every group
    #: needs at least one of its substrings. Checked before any parse.
    required: ClassVar[tuple[tuple[str, ...], ...]] = ()

    @abc.abstractmethod
    def check(self, analysis: Analysis) -> Iterable[Finding]:
        """Findings for one module. Never reads or writes files."""

    @classmethod
    def fix_label(cls) -> str:
        """How `jaxfix rules` and `explain` name the fix: its class, or "report" for a report-only rule."""
        return "report" if cls.report_only else cls.fix_class.value

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def may_match(
        cls, text: str | bytes | Haystack, imports_static_jitted: bool | Callable[[], bool] = False
    ) -> bool:
        """The pre-filter; `imports_static_jitted`: the file may use a function another
        module jits with static arguments (`project_names.StaticNames.admitted`), or
        a function that tells, called only when a group's words are all absent. Give
        every rule the same `Haystack` and each substring is searched for once."""
        return required_words_match(cls.required, text, imports_static_jitted)

    #: The rule follows values into the functions its seeds' functions call
    #: (so the slice keeps those bodies too).
    follows_callees: ClassVar[bool] = False

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Where a finding could be, from stdlib-ast facts (see screen.py and slicing.py).

        Empty: no finding is possible, libcst never runs for this rule. The
        module itself: the rule needs all of it. Otherwise the nodes a finding
        would start from; the module is sliced down to what they can reach.
        """
        return [facts.tree]

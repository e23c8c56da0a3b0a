"""The shape of a rule: identity, documentation, pre-filter, and its check."""

from __future__ import annotations

import abc
import inspect
from collections.abc import Iterable
from typing import ClassVar

from .analysis import Analysis
from .findings import Applicability, Finding


class Rule(abc.ABC):
    """A rule's docstring is its documentation (``jaxfix explain CODE``)."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    #: The class of the fix when the rule is sure; a rule may downgrade one finding to unsafe.
    fix_class: ClassVar[Applicability] = Applicability.SAFE
    #: Text a file must contain for the rule to possibly match: every group
    #: needs at least one of its substrings. Checked before any parse.
    required: ClassVar[tuple[tuple[str, ...], ...]] = ()

    @abc.abstractmethod
    def check(self, analysis: Analysis) -> Iterable[Finding]:
        """Findings for one module. Never reads or writes files."""

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def may_match(cls, text: str) -> bool:
        return all(any(s in text for s in group) for group in cls.required)

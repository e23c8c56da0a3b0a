"""Which arguments of a jitted call are static: jax.jit's rule, simulated.

jax.jit decides staticness per call (jax/_src/api_util.py,
``infer_argnums_and_argnames``; jax-behaviour.md 1k, 1l):

* when only one of static_argnums / static_argnames is given, the other is
  inferred from the signature, for positional-or-keyword parameters only;
  when both are given, neither is inferred;
* a positional argument is static when its index is in static_argnums, a
  negative index counting back from the end of *that call's* positional
  arguments;
* a keyword argument is static when its name is in static_argnames.

Rules do not pattern-match parameter layouts; they build candidate call shapes
and keep the first one whose simulated binding is what the author meant. The
table in jax-behaviour.md 1k is the test oracle for this module.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import libcst as cst


class Kind(enum.Enum):
    POSITIONAL_ONLY = "positional-only"
    POSITIONAL_OR_KEYWORD = "positional-or-keyword"
    VAR_POSITIONAL = "var-positional"
    KEYWORD_ONLY = "keyword-only"
    VAR_KEYWORD = "var-keyword"


_POSITIONAL = (Kind.POSITIONAL_ONLY, Kind.POSITIONAL_OR_KEYWORD)


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind
    has_default: bool = False


@dataclass(frozen=True)
class Signature:
    params: tuple[Param, ...]

    @classmethod
    def from_cst(cls, params: cst.Parameters) -> Signature:
        out: list[Param] = []
        for p in params.posonly_params:
            out.append(Param(p.name.value, Kind.POSITIONAL_ONLY, p.default is not None))
        for p in params.params:
            out.append(Param(p.name.value, Kind.POSITIONAL_OR_KEYWORD, p.default is not None))
        if isinstance(params.star_arg, cst.Param):
            out.append(Param(params.star_arg.name.value, Kind.VAR_POSITIONAL))
        for p in params.kwonly_params:
            out.append(Param(p.name.value, Kind.KEYWORD_ONLY, p.default is not None))
        if params.star_kwarg is not None:
            out.append(Param(params.star_kwarg.name.value, Kind.VAR_KEYWORD))
        return cls(tuple(out))

    @property
    def positional(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.kind in _POSITIONAL)

    @property
    def has_var_positional(self) -> bool:
        return any(p.kind is Kind.VAR_POSITIONAL for p in self.params)

    @property
    def has_var_keyword(self) -> bool:
        return any(p.kind is Kind.VAR_KEYWORD for p in self.params)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def without_first(self) -> Signature | None:
        """What a bound method takes: the first positional parameter is the receiver."""
        if not self.params or self.params[0].kind not in _POSITIONAL:
            return None
        return Signature(self.params[1:])

    def positional_index(self, name: str) -> int | None:
        return next((i for i, p in enumerate(self.positional) if p.name == name), None)


@dataclass(frozen=True)
class StaticSpec:
    """static_argnums / static_argnames as written (None: the keyword is absent)."""

    argnums: tuple[int, ...] | None = None
    argnames: tuple[str, ...] | None = None

    @property
    def is_empty(self) -> bool:
        return not self.argnums and not self.argnames

    def resolved(self, sig: Signature) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """jax's infer_argnums_and_argnames, on our signature model."""
        if self.argnums is None and self.argnames is None:
            return (), ()
        if self.argnums is not None and self.argnames is not None:
            return self.argnums, self.argnames
        if self.argnums is None:
            names = self.argnames or ()
            nums = tuple(
                i
                for i, p in enumerate(sig.params)
                if p.kind is Kind.POSITIONAL_OR_KEYWORD and p.name in names
            )
            return nums, names
        nums = self.argnums
        names = tuple(
            p.name
            for i, p in enumerate(sig.params)
            if p.kind is Kind.POSITIONAL_OR_KEYWORD and i in nums
        )
        return nums, names

    def declared_static(self, sig: Signature) -> frozenset[str]:
        """The parameters the author meant to be static.

        A negative index is read against the signature's positional parameters,
        its natural meaning; whether a given call really makes that parameter
        static is for `bind_call` to say (1l).
        """
        nums, names = self.resolved(sig)
        positional = sig.positional
        out = {p.name for p in sig.params if p.name in names and p.kind is not Kind.VAR_KEYWORD}
        for i in nums:
            j = i + len(positional) if i < 0 and not sig.has_var_positional else i
            if 0 <= j < len(positional):
                out.add(positional[j].name)
        return frozenset(out)


class BindError(Exception):
    """The call raises TypeError in Python before jit sees it."""


@dataclass(frozen=True)
class Bound:
    source: Hashable
    static: bool


def bind_call(
    sig: Signature,
    spec: StaticSpec,
    positional: Sequence[Hashable],
    keywords: Mapping[str, Hashable],
) -> dict[str, Bound]:
    """Bind a call as Python does, and mark what jit treats as static.

    Returns {parameter name: Bound(source, static)}; extra positional or keyword
    arguments caught by *args/**kwargs are keyed "*NAME[i]" and "**NAME[key]".
    Raises BindError where Python would raise TypeError.
    """
    nums, names = spec.resolved(sig)
    n = len(positional)
    static_index = {i if i >= 0 else i + n for i in nums}
    out: dict[str, Bound] = {}
    params = sig.positional
    star = next((p for p in sig.params if p.kind is Kind.VAR_POSITIONAL), None)
    for i, source in enumerate(positional):
        static = i in static_index
        if i < len(params):
            out[params[i].name] = Bound(source, static)
        elif star is not None:
            out[f"*{star.name}[{i - len(params)}]"] = Bound(source, static)
        else:
            raise BindError(f"takes {len(params)} positional arguments but {n} were given")
    kwstar = next((p for p in sig.params if p.kind is Kind.VAR_KEYWORD), None)
    for name, source in keywords.items():
        param = sig.param(name)
        if param is not None and param.kind in (Kind.POSITIONAL_OR_KEYWORD, Kind.KEYWORD_ONLY):
            if name in out:
                raise BindError(f"got multiple values for argument {name!r}")
            out[name] = Bound(source, name in names)
        elif kwstar is not None:
            out[f"**{kwstar.name}[{name}]"] = Bound(source, name in names)
        else:
            raise BindError(f"got an unexpected keyword argument {name!r}")
    for p in sig.params:
        if p.kind in (Kind.VAR_POSITIONAL, Kind.VAR_KEYWORD) or p.has_default:
            continue
        if p.name not in out:
            raise BindError(f"missing a required argument: {p.name!r}")
    return out

"""JAX403 for an object jit hashes whose own ``__hash__`` hashes an array attribute.

A static argument is hashed to key jit's cache. An object of a class with its own ``__hash__``
(``hash((self.x, self.mul))``) is hashable only while every attribute that hash reads is: a
construction that gives ``self.x`` an array makes the call fail, "Non-hashable static arguments
are not supported ... unhashable type: 'jaxlib._jax.ArrayImpl'" (jax#39858: a method jitted with
``static_argnums=0`` hashes ``self``). Reported, never rewritten: the ways out are a redesign
(register the class as a pytree, the array a child and the rest aux data, and jit without
``static_argnums``; or keep a hashable form of the array), and which one the class's other code
allows is for a person.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.class_hashing import instance_class
from jaxfix.transforms.semantics.instance_attributes import stored_parameter
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.pytree_classes import method_named
from jaxfix.transforms.semantics.vocabulary import JIT


def seeds(facts: Facts) -> list[ast.AST]:
    """The module, when one of its classes defines ``__hash__`` (its constructions and the jitted
    calls may be anywhere)."""
    has_hash = any(
        isinstance(node, ast.ClassDef)
        and any(isinstance(s, ast.FunctionDef) and s.name == "__hash__" for s in node.body)
        for node in ast.walk(facts.tree)
    ) if "__hash__" in facts.text else False
    return [facts.tree] if has_hash else []


def hashed_array_findings(analysis: Analysis) -> Iterator[Finding]:
    ctx = analysis.ctx
    seen: set[int] = set()
    for fn in ctx.nodes_of(cst.FunctionDef):
        sig = function_info(ctx, fn).signature
        for route in analysis.traces.routes(fn) or ():
            jits = [w for w in route.wraps if w.name == JIT and w.jit is not None and w.jit.spec is not None]
            if route.call is None or route.escapes or len(jits) != 1:
                continue
            for name in jits[0].jit.spec.declared_static(sig):  # type: ignore[union-attr]
                given = _argument(route, sig, name)
                built = instance_class(ctx, given) if given is not None else None
                if built is None or id(built[1]) in seen:
                    continue
                found = _hashed_array(analysis, *built)
                if found is None:
                    continue
                seen.add(id(built[1]))
                read, value, origin = found
                cls, made = built
                yield ctx.finding(
                    "JAX403",
                    route.call,
                    f"`{name}` is static on the jit of `{fn.name.value}`, so jit hashes `{ctx.code(given)}`, a "  # type: ignore[arg-type]
                    f"`{cls.name.value}`, whose `__hash__` hashes `{ctx.code(read)}`; `{shorten(ctx.code(made), 60)}` "
                    f"(line {ctx.span(made).start.line}) gives it `{shorten(ctx.code(value), 40)}` ({origin}), and no array "
                    "is hashable; not rewritten: the class must change",
                    notes=(
                        f"option: register `{cls.name.value}` as a pytree (the array a child, the rest aux data) and jit "
                        "without the static argument: the array is then traced",
                        "option: keep a hashable form where the hash reads it (a tuple of Python numbers), when the code "
                        "needs it static",
                    ),
                )


def _argument(route, sig, name: str) -> cst.BaseExpression | None:
    """What the route's call passes `name`; the receiver for a bound method's first parameter."""
    if route.bound and sig.params and sig.params[0].name == name:
        func = route.call.func
        return func.value if isinstance(func, cst.Attribute) else None
    argument = call_argument(route.call, sig, name, bound=route.bound, consumed=route.consumed)
    return argument if isinstance(argument, cst.BaseExpression) else None


def _hashed_array(analysis: Analysis, cls: cst.ClassDef, made: cst.Call) -> tuple[cst.Attribute, cst.BaseExpression, str] | None:
    """(the read in ``__hash__``, the value the construction gives it, why it is an array)."""
    ctx = analysis.ctx
    hashing = method_named(cls, "__hash__")
    init = method_named(cls, "__init__")
    positional = [*hashing.params.params] if hashing is not None else []
    if hashing is None or init is None or not positional:
        return None
    receiver = positional[0].name.value
    reads: list[cst.Attribute] = []

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == receiver:
                reads.append(node)

    hashing.body.visit(Reads())
    init_sig = function_info(ctx, init).signature
    for read in reads:
        param = stored_parameter(init, read.attr.value)
        value = call_argument(made, init_sig, param, bound=True, ctx=ctx) if param is not None else None
        origin = array_origin(analysis, value) if isinstance(value, cst.BaseExpression) else None
        if origin is not None:
            return read, value, origin  # type: ignore[return-value]
    return None

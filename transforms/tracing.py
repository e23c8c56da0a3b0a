"""Which functions of a module run traced, and under which jit.

A parameter's value is static only where we can see how the function is
entered. Two cases are provable from one module:

* the function is jitted (decorator, or ``g = jax.jit(f, ...)`` as its only
  use): its declared static parameters are static, the others are tracers;
* the function is *eager*: no decorator but staticmethod/classmethod, every
  reference to it is a direct call, and every such call runs eagerly (at
  module level, or in another eager function). Its parameters hold whatever
  Python values callers pass.

Anything else (passed to vmap or grad, stored, returned, nested in traced
code) is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment

from .context import FunctionNode, ModuleContext
from .jaxapi import NEUTRAL_DECORATORS
from .jitted import JitWrapper, function_info, read_jit_application


@dataclass(frozen=True)
class JitEntry:
    """How a function is entered through jit: the wrapper and where it is written."""

    wrapper: JitWrapper
    node: cst.CSTNode


class TraceIndex:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self._eager: dict[FunctionNode, bool] = {}

    def references(self, fn: FunctionNode) -> list[cst.CSTNode] | None:
        """Every expression in the module that refers to fn; None if unknowable."""
        if isinstance(fn, cst.Lambda):
            return None
        ctx = self.ctx
        if isinstance(ctx.parent(ctx.parent(fn)), cst.ClassDef):
            name = fn.name.value
            return [a for a in ctx.nodes_of(cst.Attribute) if a.attr.value == name]
        scope = ctx.scope(fn)
        if scope is None:
            return None
        refs: list[cst.CSTNode] = []
        for assignment in scope.assignments[fn.name.value]:
            if not isinstance(assignment, Assignment):
                return None
            refs.extend(access.node for access in assignment.references)
        return refs

    def _direct_call(self, ref: cst.CSTNode) -> cst.Call | None:
        parent = self.ctx.parent(ref)
        return parent if isinstance(parent, cst.Call) and parent.func is ref else None

    def jit_entry(self, fn: FunctionNode) -> JitEntry | None:
        """The jit every entry into fn goes through, if there is exactly one."""
        info = function_info(self.ctx, fn)
        if info.opaque:
            return None
        if info.jit is not None:
            return JitEntry(info.jit, info.jit_node)  # type: ignore[arg-type]
        refs = self.references(fn)
        if not refs or len(refs) != 1:
            return None
        parent = self.ctx.parent(self.ctx.parent(refs[0]))
        if isinstance(parent, cst.Call):
            applied = read_jit_application(self.ctx, parent)
            if applied is not None and applied[1] is refs[0]:
                return JitEntry(applied[0], parent)
        return None

    def is_eager(self, fn: FunctionNode) -> bool:
        if fn not in self._eager:
            self._eager[fn] = True  # optimistic while in progress: recursion stays eager
            self._eager[fn] = self._compute_eager(fn)
        return self._eager[fn]

    def _compute_eager(self, fn: FunctionNode) -> bool:
        if isinstance(fn, cst.Lambda):
            return False
        ctx = self.ctx
        for decorator in fn.decorators:
            if ctx.names.qualified_name(decorator.decorator) not in NEUTRAL_DECORATORS:
                return False
        outer = ctx.enclosing_function(fn)
        if outer is not None and not self.is_eager(outer):
            return False
        refs = self.references(fn)
        if refs is None:
            return False
        for ref in refs:
            call = self._direct_call(ref)
            if call is None:
                return False
            caller = ctx.enclosing_function(call)
            if caller is not None and not self.is_eager(caller):
                return False
        return True

"""Does anything see a pytree class's instances as a whole, or only read their fields?

Turning a static field of a pytree class into a data field (JAX202's fix)
changes what the tree is: one more leaf. Code that only reads fields
(``p.scale * p.bar``), directly or inside a function a plain ``jax.jit`` traces,
computes the same numbers from a leaf (the array arrives as a tracer of the
same values). Code that takes the instance whole may not: ``tree_map`` and
``tree_leaves`` visit the new leaf, ``jax.grad`` returns a gradient for it,
``vmap`` maps it, a jit returning the instance returns a JAX array where a NumPy
array was, ``print`` shows another value. `only_fields_read` proves the first
kind: every instance the module builds goes only to names, to field reads, and
to parameters of the module's functions (called plainly or through ``jax.jit``
alone) used the same way.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import constructions
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.reads import parameter, reads
from jaxfix.transforms.semantics.tracing import Route
from jaxfix.transforms.semantics.vocabulary import JIT

#: How many functions deep an instance is followed.
_MAX_DEPTH = 4


def only_fields_read(analysis: Analysis, cls: cst.ClassDef, fields: frozenset[str]) -> str | None:
    """Why some instance of `cls` may be used whole (None: every use reads one of `fields`)."""
    built = constructions(analysis.ctx, cls)
    if built is None:
        return f"`{cls.name.value}` is used where jaxfix cannot see every instance it builds"
    follower = _Follower(analysis, fields)
    for call in built:
        why = follower.value(call, 0)
        if why is not None:
            return why
    return None


class _Follower:
    def __init__(self, analysis: Analysis, fields: frozenset[str]) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.fields = fields
        self._seen: set[cst.CSTNode] = set()
        self._by_call: dict[cst.Call, tuple[FunctionNode, Route]] | None = None

    def value(self, expr: cst.BaseExpression, depth: int) -> str | None:
        """Where the value of `expr` (an instance) goes."""
        ctx = self.ctx
        parent = ctx.parent(expr)
        if isinstance(parent, cst.Attribute) and parent.value is expr:
            return self._field_read(parent)
        if isinstance(parent, cst.Arg) and not parent.star:
            call = ctx.parent(parent)
            if isinstance(call, cst.Call):
                return self._argument(call, parent, depth)
        if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Name):
                return self._name(target, depth)
        return self._whole(expr, parent)

    def _field_read(self, read: cst.Attribute) -> str | None:
        ctx = self.ctx
        outer = ctx.parent(read)
        stored = isinstance(outer, (cst.AssignTarget, cst.Del)) or (
            isinstance(outer, (cst.AugAssign, cst.AnnAssign)) and outer.target is read
        )
        called = isinstance(outer, cst.Call) and outer.func is read
        if read.attr.value in self.fields and not stored and not called:
            return None
        return f"`{shorten(ctx.code(outer if called else read))}` (line {ctx.span(read).start.line}) uses more than a field"

    def _name(self, target: cst.Name, depth: int) -> str | None:
        if target in self._seen:
            return None
        self._seen.add(target)
        for read in reads(self.ctx, target):
            if isinstance(read, cst.BaseExpression):
                why = self.value(read, depth)
                if why is not None:
                    return why
        return None

    def _argument(self, call: cst.Call, arg: cst.Arg, depth: int) -> str | None:
        """An instance passed to a function of the module: followed into its parameter, when the
        call runs it plainly or through jit alone (no grad, vmap or tree operation sees it)."""
        ctx = self.ctx
        found = self._routes().get(call)
        if found is None:
            return self._whole(arg.value, call)
        fn, route = found
        if route.escapes or route.uncertain or any(w.name != JIT for w in route.wraps) or depth >= _MAX_DEPTH:
            return f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) passes it where jaxfix does not follow it"
        sig = function_info(ctx, fn).signature
        name = next(
            (p.name for p in sig.params if call_argument(call, sig, p.name, bound=route.bound, consumed=route.consumed) is arg.value), None
        )
        param = parameter(fn, name) if name is not None else None
        if param is None:
            return f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) passes it where jaxfix cannot bind it"
        if any(w.jit is not None and w.jit.spec is not None and name in w.jit.spec.declared_static(sig) for w in route.wraps):
            return f"`{shorten(ctx.code(call))}` (line {ctx.span(call).start.line}) passes it as a static argument"
        return self._name(param.name, depth + 1)

    def _routes(self) -> dict[cst.Call, tuple[FunctionNode, Route]]:
        """Each call of a module function that runs it, with the function and the route."""
        if self._by_call is None:
            self._by_call = {}
            for fn in self.ctx.nodes_of(cst.FunctionDef):
                for route in self.analysis.traces.routes(fn) or ():
                    if route.call is not None:
                        self._by_call.setdefault(route.call, (fn, route))
        return self._by_call

    def _whole(self, expr: cst.BaseExpression, parent: cst.CSTNode | None) -> str:
        ctx = self.ctx
        shown = parent if isinstance(parent, cst.BaseExpression) else expr
        return f"`{shorten(ctx.code(shown))}` (line {ctx.span(expr).start.line}) uses the instance whole"

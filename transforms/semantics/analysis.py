"""The model of one module that every rule queries, each part built at most once per module."""

from __future__ import annotations

import weakref
from functools import cached_property

from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.static_values import StaticnessChecker
from jaxfix.transforms.semantics.traced_values import TracedValues
from jaxfix.transforms.semantics.tracing import TraceIndex


class Analysis:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        #: Results one rule computes for another (JAX101 and JAX102 share one pass).
        self.memo: dict[str, object] = {}
        # Name resolution asks the trace index which function a parameter holds; held weakly,
        # so that the context does not keep its analysis (and the tree) alive in a cycle.
        this = weakref.ref(self)
        ctx.trace_index = lambda: analysis.traces if (analysis := this()) is not None else None

    @cached_property
    def traces(self) -> TraceIndex:
        return TraceIndex(self.ctx)

    @cached_property
    def staticness(self) -> StaticnessChecker:
        return StaticnessChecker(self.ctx, self.traces)

    @cached_property
    def traced(self) -> TracedValues:
        return TracedValues(self.ctx, self.traces)


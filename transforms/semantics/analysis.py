"""The model of one module that every rule queries, each part built at most once per module."""

from __future__ import annotations

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

    @cached_property
    def traces(self) -> TraceIndex:
        return TraceIndex(self.ctx)

    @cached_property
    def staticness(self) -> StaticnessChecker:
        return StaticnessChecker(self.ctx, self.traces)

    @cached_property
    def traced(self) -> TracedValues:
        return TracedValues(self.ctx, self.traces)


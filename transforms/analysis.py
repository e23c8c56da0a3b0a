"""Per-module helpers shared by the rules, each built at most once per module."""

from __future__ import annotations

from functools import cached_property

from .context import ModuleContext
from .imports import ImportPlanner
from .staticness import StaticnessChecker
from .tracedness import TracedValues
from .tracing import TraceIndex


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

    @cached_property
    def imports(self) -> ImportPlanner:
        return ImportPlanner(self.ctx)

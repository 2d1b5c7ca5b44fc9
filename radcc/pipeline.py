"""Transitional: the old ``radcc.pipeline`` names over the pass manager
(radcc/passes/manager.py), for the drivers and tests that still import them while
the drivers move (issue 10); removed when they use the manager directly."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TextIO

from radcc.ir.program import Program
from radcc.passes.manager import (
    PIPELINE,
    PassSpec,
    PipelineResult,
    gc_paused,
    pass_names,
)
from radcc.passes.manager import run_pipeline as _run_pipeline
from radcc.passes.options import DebugFlag
from radcc.passes.options import DebugOptions as _Options

__all__ = ["PIPELINE", "PassSpec", "PipelineResult", "gc_paused", "DebugOptions",
           "available_passes", "run_pipeline"]


@dataclass
class DebugOptions:
    flags: set[str] = field(default_factory=set)
    print_after: set[str] = field(default_factory=set)
    print_before: set[str] = field(default_factory=set)
    unknown: list[str] = field(default_factory=list)

    def has(self, flag: str | DebugFlag) -> bool:
        return (flag.value if isinstance(flag, DebugFlag) else flag) in self.flags

    @staticmethod
    def parse(text: str | None) -> DebugOptions:
        o = _Options.parse(text)
        return DebugOptions({f.value for f in o.flags}, set(o.print_after),
                            set(o.print_before), list(o.unknown))

    @staticmethod
    def from_env() -> DebugOptions:
        return DebugOptions.parse(os.environ.get("RADCC_DEBUG"))

    def typed(self) -> _Options:
        return _Options(frozenset(DebugFlag(f) for f in self.flags),
                        frozenset(self.print_after), frozenset(self.print_before),
                        tuple(self.unknown))


def available_passes() -> list[tuple[PassSpec, object]]:
    return [(s, s.run) for s in PIPELINE]


def run_pipeline(program: Program, options: DebugOptions | _Options | None = None, *,
                 stop_after: str | None = None, stream: TextIO | None = None,
                 start_after: str | None = None) -> PipelineResult:
    opts = options if options is not None else DebugOptions.from_env()
    if isinstance(opts, DebugOptions):
        opts = opts.typed()
    if stop_after is not None and stop_after not in pass_names():
        stop_after = None
    return _run_pipeline(program, opts, stop_after=stop_after, stream=stream,
                         start_after=start_after)

"""The back half of the compiler: ACO's phases in order, with debug switches.

Seed: seeds/001 "Compilation phases" (the order below) and "How to debug"
(ACO_DEBUG). `PIPELINE` lists every phase after instruction selection, in the
seed's order; a phase runs when its module ``radcc.passes.<module>`` exists
and defines ``<function>(program) -> None``. Phases nobody has written yet are
simply absent from `available_passes()`: there are no stubs that pretend.

``dominance`` (`dominator_tree`) is not a phase of the seed list but the
analysis value numbering walks; it runs right before value numbering.

Debug options (``RADCC_DEBUG=a,b,...`` or `DebugOptions.parse`):

- ``validateir``: `validate_ir` on the selected program and after every pass
  up to register allocation (SSA form; SGPR dominance is not required
  before repair_ssa has run, as repair_ssa exists to restore it);
- ``validatera``: `validate_ra` after register allocation;
- ``force-waitcnt``, ``perfwarn``: read by the passes they concern
  (`get_debug_options(program)`, `perf_warning`);
- ``novn``, ``noopt`` (optimizer and optimizer_postra), ``nosched`` (pre-RA
  scheduler and the ILP scheduler, as ACO's), ``nosched-ilp``,
  ``nosched-vopd``: skip those phases;
- ``print-after=PASS`` / ``print-before=PASS`` (``all`` for every pass;
  repeat the option for several passes): print the IR to stderr;
- ``time``: print the time of each pass to stderr (always recorded in the
  `PipelineResult`).
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import sys
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from radcc.ir.printer import print_program
from radcc.ir.program import Program
from radcc.ir.validate import validate_ir, validate_ra

FLAGS = ("validateir", "validatera", "force-waitcnt", "novn", "noopt", "nosched", "nosched-ilp",
         "nosched-vopd", "perfwarn", "time")


@dataclass(frozen=True, slots=True)
class PassSpec:
    name: str  # phase name (also the print-after spelling)
    module: str  # radcc.passes.<module>
    function: str
    skipped_by: tuple[str, ...] = ()  # debug flags that disable it


PIPELINE: tuple[PassSpec, ...] = (
    PassSpec("repair_ssa", "repair_ssa", "repair_ssa"),
    PassSpec("lower_phis", "lower_phis", "lower_phis"),
    PassSpec("lower_subdword", "lower_subdword", "lower_subdword"),
    PassSpec("dominance", "dominance", "dominator_tree"),
    PassSpec("value_numbering", "value_numbering", "value_numbering", ("novn",)),
    PassSpec("optimizer", "optimizer", "optimize", ("noopt",)),
    PassSpec("repair_ssa_after_opt", "repair_ssa", "repair_ssa"),
    PassSpec("reduce_assign", "reduce_assign", "setup_reduce_temp"),
    PassSpec("insert_exec_mask", "insert_exec_mask", "insert_exec_mask"),
    PassSpec("live_var_analysis", "live_var_analysis", "live_var_analysis"),
    PassSpec("lower_to_cssa", "lower_to_cssa", "lower_to_cssa"),
    PassSpec("spill", "spill", "spill"),
    PassSpec("scheduler", "scheduler", "schedule_program", ("nosched",)),
    PassSpec("register_allocation", "register_allocation", "register_allocation"),
    PassSpec("optimizer_postra", "optimizer_postra", "optimize_postra", ("noopt",)),
    PassSpec("ssa_elimination", "ssa_elimination", "ssa_elimination"),
    PassSpec("jump_threading", "jump_threading", "jump_threading"),
    PassSpec("lower_to_hw", "lower_to_hw", "lower_to_hw"),
    PassSpec("schedule_vopd", "schedule_vopd", "schedule_vopd", ("nosched-vopd",)),
    PassSpec("scheduler_ilp", "scheduler_ilp", "schedule_ilp", ("nosched", "nosched-ilp")),
    PassSpec("insert_waitcnt", "insert_waitcnt", "insert_waitcnt"),
    PassSpec("insert_nops", "insert_nops", "insert_nops"),
    PassSpec("insert_delay_alu", "insert_delay_alu", "insert_delay_alu"),
    PassSpec("form_hard_clauses", "form_hard_clauses", "form_hard_clauses"),
)

# Passes after which the program is no longer in SSA form validate_ir checks.
_LAST_SSA_PASS = "register_allocation"
_FIRST_DOMINANCE_PASS = "repair_ssa"


@dataclass
class DebugOptions:
    flags: set[str] = field(default_factory=set)
    print_after: set[str] = field(default_factory=set)  # pass names or "all"
    print_before: set[str] = field(default_factory=set)
    unknown: list[str] = field(default_factory=list)

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @staticmethod
    def parse(text: str | None) -> DebugOptions:
        """Parse ``a,b,print-after=x`` (unknown options are kept in `unknown`)."""
        opts = DebugOptions()
        for item in (text or "").split(","):
            item = item.strip()
            if not item:
                continue
            key, _, value = item.partition("=")
            if key in ("print-after", "print-before") and value:
                (opts.print_after if key == "print-after" else opts.print_before).add(value)
            elif item in FLAGS:
                opts.flags.add(item)
            else:
                opts.unknown.append(item)
        return opts

    @staticmethod
    def from_env() -> DebugOptions:
        return DebugOptions.parse(os.environ.get("RADCC_DEBUG"))


_OPTIONS: weakref.WeakKeyDictionary[Program, DebugOptions] = weakref.WeakKeyDictionary()


def get_debug_options(program: Program) -> DebugOptions:
    """The options the pipeline runs `program` with (RADCC_DEBUG otherwise)."""
    return _OPTIONS.get(program) or DebugOptions.from_env()


def perf_warning(program: Program, message: str, stream: TextIO | None = None) -> None:
    """Report a performance problem when ``perfwarn`` is on (ACO's perfwarn)."""
    if get_debug_options(program).has("perfwarn"):
        print(f"radcc: performance warning: {message}", file=stream or sys.stderr)


def _resolve(spec: PassSpec) -> Callable[[Program], None] | None:
    modname = f"radcc.passes.{spec.module}"
    if importlib.util.find_spec(modname) is None:
        return None
    module = importlib.import_module(modname)
    fn = getattr(module, spec.function, None)
    if fn is None:
        raise ImportError(f"{modname} does not define {spec.function}()")
    return fn


def available_passes() -> list[tuple[PassSpec, Callable[[Program], None]]]:
    """The phases of `PIPELINE` that exist, in order."""
    out = []
    for spec in PIPELINE:
        fn = _resolve(spec)
        if fn is not None:
            out.append((spec, fn))
    return out


@dataclass
class PipelineResult:
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # disabled by a debug option
    timings: dict[str, float] = field(default_factory=dict)  # seconds per pass


def run_pipeline(program: Program, options: DebugOptions | None = None, *,
                 stop_after: str | None = None, stream: TextIO | None = None) -> PipelineResult:
    """Run the available phases on a selected program (see module docstring).

    Python's cyclic garbage collector is off while the passes run: its full
    collections scan the whole (growing) heap of IR objects, which made large
    compiles superlinear; the passes create few reference cycles, and they are
    collected once the collector is back on (it is restored as it was found)."""
    with gc_paused():
        return _run_pipeline(program, options, stop_after, stream)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off inside (restored as it was found)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _run_pipeline(program: Program, options: DebugOptions | None, stop_after: str | None,
                  stream: TextIO | None) -> PipelineResult:
    opts = options if options is not None else DebugOptions.from_env()
    out = stream or sys.stderr
    for u in opts.unknown:
        print(f"radcc: warning: unknown RADCC_DEBUG option '{u}'", file=out)
    _OPTIONS[program] = opts
    result = PipelineResult()
    in_ssa = True
    dominance_ok = False
    if opts.has("validateir"):
        validate_ir(program, "isel", check_dominance=False)
    for spec, fn in available_passes():
        if any(opts.has(f) for f in spec.skipped_by):
            result.skipped.append(spec.name)
            continue
        if {"all", spec.name} & opts.print_before:
            print(f"// IR before {spec.name}\n{print_program(program)}", file=out)
        t0 = time.perf_counter()
        try:
            fn(program)
        finally:
            result.timings[spec.name] = result.timings.get(spec.name, 0.0) + (
                time.perf_counter() - t0)
        result.ran.append(spec.name)
        if spec.module == _FIRST_DOMINANCE_PASS:
            dominance_ok = True
        if spec.name == "optimizer":
            dominance_ok = False  # may move SGPR uses; repair_ssa runs again
        if opts.has("validateir") and in_ssa:
            validate_ir(program, spec.name, check_dominance=dominance_ok)
        if spec.name == _LAST_SSA_PASS:
            in_ssa = False
            if opts.has("validatera"):
                validate_ra(program, spec.name)
        if {"all", spec.name} & opts.print_after:
            print(f"// IR after {spec.name}\n{print_program(program)}", file=out)
        if stop_after is not None and spec.name == stop_after:
            break
    if opts.has("time"):
        for name, secs in result.timings.items():
            print(f"radcc: {name:<22} {secs * 1000:9.3f} ms", file=out)
    return result

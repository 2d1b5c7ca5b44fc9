"""The pass manager: ACO's phases after instruction selection, in order.

`PIPELINE` lists every phase in the order of ACO's "Compilation phases"
(docs/architecture.md; mesa src/amd/compiler/README.md and aco_interface.cpp's
``aco_postprocess_shader``/``aco_compile_shader``). Each entry names the phase's
function, imported here: a listed phase that does not exist is an import error.
``dominance`` (`require_dominance`) is no phase of ACO's list but the analysis value
numbering walks; it runs right before value numbering, and computes the dominator
trees only when they are not current (repair_ssa has computed them, and the phases
since it keep the CFG).

ACO's "Lower Subdword" phase (aco_lower_subdword.cpp) is not listed: ACO runs it on
GFX6 and GFX7 only, to turn sub-dword temps and pseudo instructions into dword ones
on generations without SDWA; radcc's targets are GFX10.1 and later (radcc/target.py),
and its instruction selection keeps 8- and 16-bit values in whole dwords (the
sub-dword classes of radcc/ir/regclass.py, ``v1b``/``v2b``, are refused by
register allocation), so there is nothing for it to do.

`run_pipeline(program, options)` guarantees:

- the phases run in `PIPELINE`'s order (from after ``start_after`` to
  ``stop_after`` when given), except those a flag of `options` disables
  (`PassSpec.skipped_by`); each phase gets the options it takes as keyword
  arguments (`PassSpec.options`: insert_waitcnt's ``force_waitcnt``,
  scheduler_ilp's ``vopd``) and nothing else: options come only from the
  `DebugOptions` argument (radcc/passes/options.py; the CLI parses
  ``RADCC_DEBUG``);
- analyses (liveness, dominance: `Program.analyses`, radcc/ir/analyses.py) that
  a phase does not declare preserved (`PassSpec.preserves`) are invalidated after
  it; phases read them on demand (`get_live_vars`, `require_dominance`), so they
  are computed again only when something may have changed them. With
  ``validateir`` a declaration is checked: a preserved analysis that is no
  longer exact is a `ValidationError` naming the phase;
- ``validateir``: `validate_ir` on the input (unless started after a phase) and
  after every phase while the program is in SSA form (SGPR dominance checked
  once repair_ssa has run, until the optimizer may have moved uses);
  ``validatera``: `validate_ra` after register allocation;
- ``print-before``/``print-after`` print the IR to `stream` (stderr), ``time``
  the time of each phase (always recorded in the `PipelineResult`); a name that
  is no phase is refused before anything runs (`check_pass_names`).

``radcc llc`` and ``radcc compile`` both run their back end through
`run_pipeline`; there is no other loop over the phases.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from radcc.ir.analyses import Analysis
from radcc.ir.dominance import dominance_is_exact, require_dominance
from radcc.ir.printer import print_program
from radcc.ir.program import Program
from radcc.ir.validate import Issue, ValidationError, validate_ir, validate_ra
from radcc.passes.form_hard_clauses import form_hard_clauses
from radcc.passes.insert_delay_alu import insert_delay_alu
from radcc.passes.insert_exec_mask import insert_exec_mask
from radcc.passes.insert_nops import insert_nops
from radcc.passes.insert_waitcnt import insert_waitcnt
from radcc.passes.jump_threading import jump_threading
from radcc.passes.live_var_analysis import live_var_analysis, liveness_is_exact
from radcc.passes.lower_phis import lower_phis
from radcc.passes.lower_to_cssa import lower_to_cssa
from radcc.passes.lower_to_hw import lower_to_hw
from radcc.passes.optimizer import optimize
from radcc.passes.optimizer_postra import optimize_postra
from radcc.passes.options import DebugFlag, DebugOptions
from radcc.passes.reduce_assign import setup_reduce_temp
from radcc.passes.register_allocation import register_allocation
from radcc.passes.repair_ssa import repair_ssa
from radcc.passes.schedule_vopd import schedule_vopd
from radcc.passes.scheduler import schedule_program
from radcc.passes.scheduler_ilp import schedule_ilp
from radcc.passes.spill import spill
from radcc.passes.ssa_elimination import ssa_elimination
from radcc.passes.value_numbering import value_numbering

F = DebugFlag
LIVENESS, DOMINANCE = Analysis.LIVENESS, Analysis.DOMINANCE
_NONE: frozenset[Analysis] = frozenset()
_CFG = frozenset({DOMINANCE})  # the phase does not change the CFG
_ALL = frozenset(Analysis)  # the phase changes nothing analyses read


@dataclass(frozen=True)
class PassSpec:
    """One phase: its name (also the print-after spelling), function, the flags
    that skip it, the analyses it leaves exact, the keyword arguments it takes from
    the options, and what it does to the invariants `validate_ir` checks."""

    name: str
    run: Callable[..., None]
    skipped_by: frozenset[DebugFlag] = frozenset()
    preserves: frozenset[Analysis] = _NONE
    options: Callable[[DebugOptions], dict[str, bool]] | None = None
    # True: SGPR definitions dominate their uses afterwards (repair_ssa); False:
    # they may not (the optimizer moves uses); None: as before
    sgpr_dominance: bool | None = None
    leaves_ssa: bool = False  # the program is no longer in SSA form afterwards


PIPELINE: tuple[PassSpec, ...] = (
    PassSpec("repair_ssa", repair_ssa, preserves=_CFG, sgpr_dominance=True),
    PassSpec("lower_phis", lower_phis, preserves=_CFG),
    PassSpec("dominance", require_dominance, preserves=_ALL),
    PassSpec("value_numbering", value_numbering, frozenset({F.NO_VN}), _CFG),
    PassSpec("optimizer", optimize, frozenset({F.NO_OPT}), _CFG, sgpr_dominance=False),
    PassSpec("repair_ssa_after_opt", repair_ssa, preserves=_CFG, sgpr_dominance=True),
    PassSpec("reduce_assign", setup_reduce_temp, preserves=_CFG),
    PassSpec("insert_exec_mask", insert_exec_mask, preserves=_CFG),
    PassSpec("live_var_analysis", live_var_analysis, preserves=_ALL),
    # the next three recompute liveness after changing the program
    PassSpec("lower_to_cssa", lower_to_cssa, preserves=_ALL),
    PassSpec("spill", spill, preserves=_ALL),
    PassSpec("scheduler", schedule_program, frozenset({F.NO_SCHED}), _ALL),
    PassSpec("register_allocation", register_allocation, preserves=_CFG, leaves_ssa=True),
    PassSpec("optimizer_postra", optimize_postra, frozenset({F.NO_OPT}), _CFG),
    PassSpec("ssa_elimination", ssa_elimination),
    PassSpec("jump_threading", jump_threading),
    PassSpec("lower_to_hw", lower_to_hw),
    PassSpec("schedule_vopd", schedule_vopd, frozenset({F.NO_SCHED_VOPD}), _CFG),
    PassSpec("scheduler_ilp", schedule_ilp, frozenset({F.NO_SCHED, F.NO_SCHED_ILP}), _CFG,
             options=lambda o: {"vopd": not o.has(F.NO_SCHED_VOPD)}),
    PassSpec("insert_waitcnt", insert_waitcnt, preserves=_CFG,
             options=lambda o: {"force_waitcnt": o.has(F.FORCE_WAITCNT)}),
    PassSpec("insert_nops", insert_nops, preserves=_CFG),
    PassSpec("insert_delay_alu", insert_delay_alu, preserves=_CFG),
    PassSpec("form_hard_clauses", form_hard_clauses, preserves=_CFG),
)


def pass_names(passes: Sequence[PassSpec] = PIPELINE) -> list[str]:
    """The phases' names, in order."""
    return [s.name for s in passes]


class UnknownPassError(ValueError):
    """A print-after/print-before (or start/stop) name that is no phase."""


def check_pass_names(names: Sequence[str] | frozenset[str], option: str,
                     passes: Sequence[PassSpec] = PIPELINE,
                     extra: Sequence[str] = ()) -> None:
    """Refuse a name for `option` that is no phase of `passes`, ``all`` or one of
    `extra` (the driver's other stages); the message lists the valid names."""
    known = ["all", *extra, *pass_names(passes)]
    for n in sorted(names):
        if n not in known:
            raise UnknownPassError(f"{option} '{n}': no such pass ({', '.join(sorted(known))})")


@dataclass
class PipelineResult:
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # disabled by a debug flag
    timings: dict[str, float] = field(default_factory=dict)  # seconds per pass


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


def run_pipeline(program: Program, options: DebugOptions | None = None, *,
                 passes: Sequence[PassSpec] = PIPELINE, start_after: str | None = None,
                 stop_after: str | None = None,
                 stream: TextIO | None = None) -> PipelineResult:
    """Run the phases on a selected program (see module docstring); `options`
    None means no debug options.

    Python's cyclic garbage collector is off while the passes run: its full
    collections scan the whole (growing) heap of IR objects, which made large
    compiles superlinear; the passes create few reference cycles, and they are
    collected once the collector is back on (it is restored as it was found)."""
    opts = options if options is not None else DebugOptions()
    for name, option in ((start_after, "start after"), (stop_after, "stop after")):
        if name is not None:
            check_pass_names([name], option, passes)
    check_pass_names(opts.print_after, "print-after", passes)
    check_pass_names(opts.print_before, "print-before", passes)
    with gc_paused():
        return _run(program, opts, passes, start_after, stop_after, stream or sys.stderr)


def _run(program: Program, opts: DebugOptions, passes: Sequence[PassSpec],
         start_after: str | None, stop_after: str | None, out: TextIO) -> PipelineResult:
    for u in opts.unknown:
        print(f"radcc: warning: unknown RADCC_DEBUG option '{u}'", file=out)
    result = PipelineResult()
    todo = list(passes)
    in_ssa = True
    sgpr_dominance = False
    if start_after is not None:
        k = pass_names(passes).index(start_after)
        for spec in todo[:k + 1]:
            in_ssa = in_ssa and not spec.leaves_ssa
            if spec.sgpr_dominance is not None:
                sgpr_dominance = spec.sgpr_dominance
        todo = todo[k + 1:]
    validate = opts.has(F.VALIDATE_IR)
    if validate and in_ssa and start_after is None:
        validate_ir(program, "isel", check_dominance=False)
    for spec in todo:
        if spec.skipped_by & opts.flags:
            result.skipped.append(spec.name)
            continue
        if opts.print_before and {"all", spec.name} & opts.print_before:
            print(f"// IR before {spec.name}\n{print_program(program)}", file=out)
        kwargs = spec.options(opts) if spec.options is not None else {}
        t0 = time.perf_counter()
        try:
            spec.run(program, **kwargs)
        finally:
            result.timings[spec.name] = result.timings.get(spec.name, 0.0) + (
                time.perf_counter() - t0)
        result.ran.append(spec.name)
        if validate:
            _check_preserved(program, spec)
        program.analyses.invalidate(keep=spec.preserves)
        if spec.sgpr_dominance is not None:
            sgpr_dominance = spec.sgpr_dominance
        if validate and in_ssa:
            validate_ir(program, spec.name, check_dominance=sgpr_dominance)
        if spec.leaves_ssa:
            in_ssa = False
            if opts.has(F.VALIDATE_RA):
                validate_ra(program, spec.name)
        if opts.print_after and {"all", spec.name} & opts.print_after:
            print(f"// IR after {spec.name}\n{print_program(program)}", file=out)
        if stop_after is not None and spec.name == stop_after:
            break
    if opts.has(F.TIME):
        for name, secs in result.timings.items():
            print(f"radcc: {name:<22} {secs * 1000:9.3f} ms", file=out)
    return result


def _check_preserved(program: Program, spec: PassSpec) -> None:
    """A phase that declares an analysis preserved must have left it exact."""
    wrong = []
    if LIVENESS in spec.preserves and not liveness_is_exact(program):
        wrong.append("liveness")
    if DOMINANCE in spec.preserves and not dominance_is_exact(program):
        wrong.append("dominance")
    if wrong:
        raise ValidationError(spec.name, [Issue(-1, -1, "", f"the phase declares {a} "
                                                f"preserved but changed it") for a in wrong])

"""The back end's debug options (ACO's ``ACO_DEBUG``), as a typed value.

A `DebugOptions` is made by the command line (`DebugOptions.parse` of the
``RADCC_DEBUG`` text; the CLI is the only reader of the environment), passed to
the driver (`compile_spirv`, ``radcc llc``'s) and from there to the pass manager
(`radcc.passes.manager.run_pipeline`), which skips the phases a flag disables,
prints and validates between phases, and hands each phase the options it takes
as parameters (insert_waitcnt's ``force_waitcnt``, scheduler_ilp's ``vopd``).
No phase reads options from anywhere else.

Flags (`DebugFlag`; spelt as in ``RADCC_DEBUG=a,b,...``):

- ``validateir``: `validate_ir` on the selected program and after every pass up
  to register allocation; also checks that a phase which declares an analysis
  preserved left it exact (docs/architecture.md, "The pass manager");
- ``validatera``: `validate_ra` after register allocation;
- ``force-waitcnt``: insert_waitcnt waits for every counter after every
  instruction that increments one;
- ``perfwarn``: `perf_warning` reports (ACO's perfwarn; no phase calls it yet);
- ``novn``, ``noopt`` (optimizer and optimizer_postra), ``nosched`` (pre-RA
  scheduler and the ILP scheduler, as ACO's), ``nosched-ilp``, ``nosched-vopd``
  (schedule_vopd, and VOPD pairing inside the ILP scheduler): skip those;
- ``time``: print the time of each pass to stderr (always recorded in the
  `PipelineResult`).

``print-after=PASS`` / ``print-before=PASS`` (``all`` for every pass; repeat the
option for several passes) print the IR to the manager's stream.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum
from typing import TextIO


class DebugFlag(Enum):
    VALIDATE_IR = "validateir"
    VALIDATE_RA = "validatera"
    FORCE_WAITCNT = "force-waitcnt"
    NO_VN = "novn"
    NO_OPT = "noopt"
    NO_SCHED = "nosched"
    NO_SCHED_ILP = "nosched-ilp"
    NO_SCHED_VOPD = "nosched-vopd"
    PERFWARN = "perfwarn"
    TIME = "time"


_BY_SPELLING = {f.value: f for f in DebugFlag}


@dataclass(frozen=True)
class DebugOptions:
    """Flags, print-after/before pass names (or ``all``), and the unknown items of
    the text it was parsed from (the manager warns about them)."""

    flags: frozenset[DebugFlag] = frozenset()
    print_after: frozenset[str] = frozenset()
    print_before: frozenset[str] = frozenset()
    unknown: tuple[str, ...] = ()

    def has(self, flag: DebugFlag) -> bool:
        return flag in self.flags

    @staticmethod
    def parse(text: str | None) -> DebugOptions:
        """Parse ``a,b,print-after=x`` (unknown items are kept in `unknown`)."""
        flags: set[DebugFlag] = set()
        after: set[str] = set()
        before: set[str] = set()
        unknown: list[str] = []
        for item in (text or "").split(","):
            item = item.strip()
            if not item:
                continue
            key, _, value = item.partition("=")
            if key in ("print-after", "print-before") and value:
                (after if key == "print-after" else before).add(value)
            elif item in _BY_SPELLING:
                flags.add(_BY_SPELLING[item])
            else:
                unknown.append(item)
        return DebugOptions(frozenset(flags), frozenset(after), frozenset(before),
                            tuple(unknown))

    def with_prints(self, after: set[str] | frozenset[str] = frozenset(),
                    before: set[str] | frozenset[str] = frozenset()) -> DebugOptions:
        """These options with more print-after/print-before pass names."""
        return DebugOptions(self.flags, self.print_after | frozenset(after),
                            self.print_before | frozenset(before), self.unknown)


def perf_warning(options: DebugOptions, message: str, stream: TextIO | None = None) -> None:
    """Report a performance problem when ``perfwarn`` is on (ACO's perfwarn; no phase
    reports one yet)."""
    if options.has(DebugFlag.PERFWARN):
        print(f"radcc: performance warning: {message}", file=stream or sys.stderr)

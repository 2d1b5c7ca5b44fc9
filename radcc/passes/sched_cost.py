"""What an order of a scheduling region costs once the later phases ran: the
post-RA schedulers (scheduler_ilp, schedule_vopd) compare candidate orders
with it and keep one that adds no instruction or code byte.

`RegionCoster(program)`; `cost(state, instrs, tail)` returns a `Cost` of the
run `instrs` followed by `tail` (instructions after the region, unchanged,
where its results are still read): the insert_delay_alu state at the run's
start is `state` (`DelaySim`) and the Latency model's is `clock` (`advance`
moves both through the block's chosen instructions), so the count is the pass's own
(seeds/001 "Insert delay_alu and form clauses"), merging included. Guarantees
of the figures:

- ``instructions``: hardware instructions of the run (a VOPD one), plus the
  s_delay_alu insert_delay_alu would add and the s_clause form_hard_clauses
  would add (runs of >= 2 memory instructions of one clause type that
  `should_form_clause` joins; ISA 5.2);
- ``bytes``: 4 per s_delay_alu / s_clause plus the size of every VALU
  instruction that has a VOPD form or is VOPD (VOP1/VOP2 4, VOP3 8, VOPD 8,
  a literal 4 more); other instructions are the same in every order of a
  region and left out;
- ``latency``: statistics.CYCLE_MODEL's in-order issue model (the
  ``Latency`` statistic) over the run and tail with their s_delay_alu and
  s_clause, from `clock`: cycles until the last issue or result;
- ``clause_members``: memory instructions inside those clauses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from radcc.ir.program import Instruction, Program
from radcc.ir.validate import is_inline_constant
from radcc.passes.form_hard_clauses import clause_type, should_form_clause
from radcc.passes.insert_delay_alu import DelaySim, DelayState
from radcc.passes.instr_class import AccessCache
from radcc.passes.schedule_vopd import dual_half
from radcc.passes.statistics import CYCLE_MODEL

__all__ = ["Clock", "Cost", "RegionCoster"]


@dataclass(frozen=True, slots=True)
class Cost:
    instructions: int
    bytes: int
    latency: int
    clause_members: int


@dataclass(frozen=True, slots=True)
class Clock:
    """The Latency model's state: the issue cycle and when registers are ready."""

    t: int = 0
    ready: dict[int, int] = field(default_factory=dict)


class RegionCoster:
    """Costs of candidate orders of regions of one program (module docstring)."""

    def __init__(self, program: Program, access: AccessCache | None = None) -> None:
        self.program = program
        self.access = access or AccessCache(program)
        self.delays = DelaySim(program)
        self._bytes: dict[int, tuple[Instruction, int]] = {}
        self._wave64 = program.wave_size == 64

    def _size(self, instr: Instruction) -> int:
        e = self._bytes.get(id(instr))
        if e is not None:
            return e[1]
        n = 0
        if instr.format == "VOPD":
            n = 8 + (4 if "simm32" in instr.fields or any(
                o.const is not None and not is_inline_constant(o.const, 4, "f32")
                for o in instr.operands) else 0)
        else:
            h = dual_half(self.program, instr)
            if h is not None:
                n = (8 if instr.format == "VOP3" else 4) + (4 if h.literal() is not None else 0)
        self._bytes[id(instr)] = (instr, n)
        return n

    def cost(self, state: DelayState, clock: Clock, instrs: list[Instruction],
             tail: list[Instruction]) -> Cost:
        emitted, _ = self.delays.run(state, instrs + tail)
        acc = self.access
        n_delay = clauses = members = 0
        run = 0  # length of the current run of clause candidates
        prev: Instruction | None = None
        prev_type: str | None = None
        for ins in emitted:
            info = None if ins.opcode == "s_delay_alu" else acc(ins).info
            n_delay += ins.opcode == "s_delay_alu"
            ctype = None if info is None else clause_type(self.program, ins, info)
            if ctype is not None and ctype == prev_type and prev is not None:
                pinfo = acc(prev).info
                if pinfo is not None and info is not None and \
                        should_form_clause(prev, pinfo, ins, info):
                    run += 1
                    prev = ins
                    continue
            if run >= 2:
                clauses += 1
                members += run
            run = 1 if ctype is not None else 0
            prev = ins if ctype is not None else None
            prev_type = ctype
        if run >= 2:
            clauses += 1
            members += run
        size = sum(self._size(i) for i in instrs) + 4 * (n_delay + clauses)
        t, end = self._issue(emitted, clock.t, dict(clock.ready))
        return Cost(len(instrs) + n_delay + clauses, size,
                    max(t, end) - clock.t + clauses, members)

    def advance(self, clock: Clock, instrs: list[Instruction]) -> Clock:
        """`clock` after issuing `instrs` (the Latency model; a new Clock)."""
        ready = dict(clock.ready)
        t, end = self._issue(instrs, clock.t, ready)
        return Clock(t, ready)

    def _issue(self, instrs: list[Instruction], t: int, ready: dict[int, int]) -> tuple[int, int]:
        """Issue `instrs` from cycle `t` (updating `ready`): (issue end, last result)."""
        end = t
        acc = self.access
        for ins in instrs:
            a = acc(ins)
            cls = "valu" if ins.format == "VOPD" else (a.info.cls if a.info else "pseudo")
            if cls == "pseudo":
                continue
            unit, issue, lat = CYCLE_MODEL.get(cls, ("salu", 1, 1))
            if self._wave64 and unit in ("valu", "trans"):
                issue *= 2
            start = t
            for r in a.reads:
                x = ready.get(r, 0)
                if x > start:
                    start = x
            t = start + issue
            for r in a.writes:
                ready[r] = start + lat
            if start + lat > end:
                end = start + lat
        return t, end

"""What an order of a scheduling region costs once the later phases ran: the
post-RA schedulers (scheduler_ilp, schedule_vopd) compare candidate orders
with it and keep one that adds no instruction or code byte.

`RegionCoster(program)`; `cost(state, clock, instrs, tail)` returns a `Cost` of
the run `instrs` followed by `tail` (instructions after the region, unchanged,
where its results are still read), `costs(...)` those of several orders of one
region (identical ones priced once): the insert_delay_alu state at the run's
start is `state` (a `DelaySim` state or a `DelayCursor`, which `catch_up` moves
through the block's chosen instructions) and the Latency model's is `clock`
(`advance` moves it), so the count is the pass's own
(ACO's README.md "Insert delay_alu and form clauses"), merging included. Guarantees
of the figures:

- ``instructions``: hardware instructions of the run (a VOPD one), plus the
  s_delay_alu insert_delay_alu would add and the s_clause form_hard_clauses
  would add (runs of >= 2 memory instructions of one clause type that
  `should_form_clause` joins; ISA 5.2);
- ``bytes``: 4 per s_delay_alu / s_clause plus the size of every VALU
  instruction that has a VOPD form or is VOPD (VOP1/VOP2 4, VOP3 8, VOPD 8,
  a literal 4 more); other instructions are the same in every order of a
  region and left out;
- ``latency``: an in-order issue model with `statistics.instr_costs` (the
  generation's `radcc.isa.cycle_model`, as the ``Latency`` statistic) over the run and tail with their s_delay_alu and
  s_clause, from `clock`: cycles until the last issue or result;
- ``clause_members``: memory instructions inside those clauses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from radcc.ir.fields import SaluFields
from radcc.ir.program import Instruction, Program
from radcc.ir.validate import is_inline_constant
from radcc.isa.table import OpInfo
from radcc.passes.access import AccessCache
from radcc.passes.form_hard_clauses import clause_type, should_form_clause
from radcc.passes.insert_delay_alu import NONE, TRANS_MAX, VALU_MAX, DelaySim, DelayState
from radcc.passes.schedule_vopd import Half, dual_half
from radcc.passes.statistics import instr_costs

__all__ = ["Clock", "Cost", "DelayCursor", "RegionCoster"]


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


_GONE = -(1 << 40)
_CLAUSE_CLASSES = frozenset({"smem", "vmem", "flat"})  # index/cycle of an absent part of a dependency


class _Facts:
    """Everything `RegionCoster` uses of one instruction, derived once (its VOPD
    half when first asked: `RegionCoster.half`, its size when first priced)."""

    __slots__ = ("instr", "skip", "joins", "valu", "trans", "cycles", "clears", "va_vdst0",
                 "resets", "new_dep", "reads", "sel", "writes", "issues", "issue", "lat", "ctype",
                 "info", "size", "half", "half_known")

    def __init__(self, coster: RegionCoster, instr: Instruction) -> None:
        info = coster.access(instr).info
        rec = coster.delays.facts(instr)  # insert_delay_alu's facts (its AccessCache's)
        self.instr = instr
        self.skip = rec.skip
        self.valu, self.trans = rec.valu, rec.trans
        # whether its reads wait for pending producers (an ALU instruction, on a target
        # that inserts s_delay_alu)
        self.joins = rec.alu and coster.delays.enabled
        self.cycles, self.clears, self.new_dep = rec.cycles, rec.clears, rec.new_dep
        self.va_vdst0 = rec.va_vdst0
        self.resets = rec.clears or rec.va_vdst0
        self.reads = tuple(rec.reads)
        self.sel = rec.sel  # v_cndmask selects: SALU delays only
        self.writes = tuple(rec.writes)
        self.info = info
        cls = "valu" if instr.format == "VOPD" else (info.cls if info else "pseudo")
        self.issues = cls != "pseudo"
        self.issue, self.lat = instr_costs(coster.program, instr, info)
        # clause_type is None outside SMEM/VMEM/FLAT
        self.ctype = clause_type(coster.program, instr, info) \
            if info is not None and not self.skip and cls in _CLAUSE_CLASSES else None
        self.half: Half | None = None
        self.half_known = False
        self.size = -1 if coster._instr_bytes else 0  # -1: when first priced (`_sizes`)


class RegionCoster:
    """Costs of candidate orders of regions of one program (module docstring)."""

    def __init__(self, program: Program, access: AccessCache | None = None,
                 instr_bytes: bool = True) -> None:
        self.program = program
        # False: ``bytes`` leaves the instructions' own sizes out (for callers whose
        # orders of a region all hold the same instructions: only the s_delay_alu
        # and s_clause bytes differ between them then)
        self._instr_bytes = instr_bytes
        self.access = access or AccessCache(program)
        self.delays = DelaySim(program, self.access)
        self._wave64 = program.wave_size == 64
        self._facts: dict[int, _Facts] = {}  # by id; each keeps its instruction alive
        # the issue cycles and latency of an s_delay_alu (the table's class for it)
        delay = _Facts(self, Instruction("s_delay_alu", "SOPP", fields=SaluFields({"simm16": 0})))
        self._delay_issue = delay.issue if delay.issues else 0
        self._delay_lat = delay.lat if delay.issues else 0

    def facts(self, instr: Instruction) -> _Facts:
        """What the coster uses of `instr`, derived once per instruction."""
        f = self._facts.get(id(instr))
        if f is None:
            f = self._facts[id(instr)] = _Facts(self, instr)
        return f

    def instr_costs(self, instr: Instruction, info: OpInfo | None) -> tuple[int, int]:
        """`statistics.instr_costs` of `instr` (`info`: its table entry), computed once
        per instruction."""
        f = self.facts(instr)
        return f.issue, f.lat

    def half(self, instr: Instruction) -> Half | None:
        """`schedule_vopd.dual_half` of `instr`, computed once per instruction."""
        return self._half_of(self.facts(instr))

    def _half_of(self, f: _Facts) -> Half | None:
        if not f.half_known:
            f.half = dual_half(self.program, f.instr)
            f.half_known = True
        return f.half

    def issue_latency(self, instrs: list[Instruction]) -> list[tuple[int, int]]:
        """`instr_costs` of each of `instrs`."""
        return [(f.issue, f.lat) for f in self._facts_of(instrs)]

    def halves(self, instrs: list[Instruction]) -> list[Half | None]:
        """`half` of each of `instrs`."""
        half_of = self._half_of
        return [half_of(f) for f in self._facts_of(instrs)]

    def _size(self, instr: Instruction) -> int:
        """The bytes of `instr` that ``Cost.bytes`` counts (module docstring)."""
        return self._size_of(self.facts(instr))

    def _sizes(self, facts: list[_Facts]) -> int:
        """The sum of `_size_of` of `facts` (each derived once)."""
        total = 0
        for f in facts:
            n = f.size
            if n < 0:
                n = f.size = self._size_of(f)
            total += n
        return total

    def _size_of(self, f: _Facts) -> int:
        instr = f.instr
        if instr.format == "VOPD":
            return 8 + (4 if "simm32" in instr.fields or any(
                o.const is not None and not is_inline_constant(o.const, 4, "f32")
                for o in instr.operands) else 0)
        h = self._half_of(f)
        if h is None:
            return 0
        return (8 if instr.format == "VOP3" else 4) + (4 if h.lit is not None else 0)

    def _facts_of(self, instrs: list[Instruction]) -> list[_Facts]:
        m = self._facts
        fs = list(map(m.get, map(id, instrs)))
        if None in fs:  # some not derived yet
            for k, f in enumerate(fs):
                if f is None:
                    ins = instrs[k]
                    f = m.get(id(ins))  # derived at an earlier position
                    if f is None:
                        f = m[id(ins)] = _Facts(self, ins)
                    fs[k] = f
        return cast(list[_Facts], fs)

    def cost(self, state: DelayState | DelayCursor, clock: Clock, instrs: list[Instruction],
             tail: list[Instruction]) -> Cost:
        return self.costs(state, clock, [instrs], tail)[0]

    def costs(self, state: DelayState | DelayCursor, clock: Clock,
              orders: list[list[Instruction]], tail: list[Instruction]) -> list[Cost]:
        """`cost` of each order (the same `state`, `clock` and `tail`); orders
        made of the same instruction objects are priced once."""
        start = state if isinstance(state, DelayCursor) else DelayCursor.of(state)
        tail_facts = self._facts_of(tail)
        unique: list[list[Instruction]] = []
        which = []  # the index in `unique` of each order
        for instrs in orders:
            k = 0
            while k < len(unique) and unique[k] != instrs:  # (instructions compare by identity)
                k += 1
            if k == len(unique):
                unique.append(instrs)
            which.append(k)
        costs = [self._price(start, clock, self._facts_of(instrs), tail_facts)
                 for instrs in unique]
        return [costs[k] for k in which]

    def catch_up(self, cur: DelayCursor, instrs: list[Instruction]) -> None:
        """Move `cur` past `instrs` as insert_delay_alu's state would move (the
        delay part of `_price`; the same as `DelaySim.run`'s state after)."""
        regs = cur.regs
        nv, nt, cyc, fv, ft = cur.nv, cur.nt, cur.cyc, cur.fv, cur.ft
        for f in self._facts_of(instrs):
            if f.skip:
                continue
            if f.joins and regs:
                vi = ti = es = _GONE
                sel = f.sel
                for r in f.reads:
                    d = regs.get(r)
                    if d is None:
                        continue
                    v, ev, tr, et, s_ = d
                    if sel and r in sel:
                        v = tr = _GONE
                    if v > fv and nv - v < VALU_MAX and ev > cyc and v > vi:
                        vi = v
                    if tr > ft and nt - tr < TRANS_MAX and et > cyc and tr > ti:
                        ti = tr
                    if s_ > cyc and s_ > es:
                        es = s_
                if vi != _GONE and vi > fv:
                    fv = vi
                if ti != _GONE and ti > ft:
                    ft = ti
                if es != _GONE:
                    for r, d in list(regs.items()):
                        if cyc < d[4] <= es:
                            regs[r] = (d[0], d[1], d[2], d[3], _GONE)
            if f.resets:
                if f.clears:
                    regs.clear()
                if f.va_vdst0:
                    fv, ft = nv, nt
            nv += f.valu
            nt += f.trans
            cyc += f.cycles
            nd = f.new_dep
            if nd is not None:
                d_v, d_ev, d_t, d_et, d_s = nd
                dep = (nv if d_v != NONE else _GONE, cyc + d_ev,
                       nt if d_t != NONE else _GONE, cyc + d_et,
                       cyc + d_s if d_s > 0 else _GONE)
                for r in f.writes:
                    regs[r] = dep
        if len(regs) > _PRUNE:  # drop the registers whose dependencies all expired
            cur.regs = {r: d for r, d in regs.items()
                        if (d[0] > fv and nv - d[0] < VALU_MAX and d[1] > cyc)
                        or (d[2] > ft and nt - d[2] < TRANS_MAX and d[3] > cyc)
                        or d[4] > cyc}
        cur.nv, cur.nt, cur.cyc, cur.fv, cur.ft = nv, nt, cyc, fv, ft

    def _price(self, start: DelayCursor, clock: Clock,
               facts: list[_Facts], tail: list[_Facts]) -> Cost:
        """One pass over the run and tail: the s_delay_alu insert_delay_alu
        would emit (DelaySim's algorithm with absolute counters: a dependency
        is (VALU index, VALU expiry cycle, trans index, trans expiry, SALU
        expiry); a part is alive while fewer than VALU_MAX / TRANS_MAX newer
        VALUs / transcendentals issued, its cycle is not reached and no wait
        covered it), their merging, s_clause formation and the Latency model."""
        regs = dict(start.regs)
        nv, nt, cyc, fv, ft = start.nv, start.nt, start.cyc, start.fv, start.ft
        out_len = 0  # merged output so far
        prev_single = -1  # position of a mergeable single-field s_delay_alu
        n_delay = clauses = members = 0
        run = 0
        prev: _Facts | None = None
        prev_type: str | None = None
        base = clock.ready  # when registers are ready; `ready` what the run changed
        ready: dict[int, int] = {}
        t = end = clock.t
        d_issue, d_lat = self._delay_issue, self._delay_lat
        for f in facts + tail:
            if f.skip:
                continue
            if f.joins and regs:
                vi = ti = es = _GONE
                sel = f.sel
                for r in f.reads:
                    d = regs.get(r)
                    if d is None:
                        continue
                    v, ev, tr, et, s_ = d
                    if sel and r in sel:
                        v = tr = _GONE
                    if v > fv and nv - v < VALU_MAX and ev > cyc and v > vi:
                        vi = v
                    if tr > ft and nt - tr < TRANS_MAX and et > cyc and tr > ti:
                        ti = tr
                    if s_ > cyc and s_ > es:
                        es = s_
                n = (vi != _GONE) + (ti != _GONE) + (es != _GONE)
                if n:
                    if prev_single < 0 or n >= 2 or out_len - prev_single - 1 > MAX_SKIP:
                        prev_single = out_len if n == 1 else -1
                        out_len += 1
                        n_delay += 1
                        s0 = t
                        t = s0 + d_issue
                        if s0 + d_lat > end:
                            end = s0 + d_lat
                        if run:
                            if run >= 2:
                                clauses += 1
                                members += run
                            run = 0
                            prev = prev_type = None
                    else:
                        prev_single = -1  # merged into the earlier one
                    if vi != _GONE and vi > fv:
                        fv = vi
                    if ti != _GONE and ti > ft:
                        ft = ti
                    if es != _GONE:
                        for r, d in list(regs.items()):
                            if cyc < d[4] <= es:
                                regs[r] = (d[0], d[1], d[2], d[3], _GONE)
            out_len += 1
            # the Latency model
            if f.issues:
                s0 = t
                for r in f.reads:
                    try:
                        x = ready[r]
                    except KeyError:  # not written in the run: as before it
                        x = ready[r] = base.get(r, 0)
                    if x > s0:
                        s0 = x
                t = s0 + f.issue
                done = s0 + f.lat
                for r in f.writes:
                    ready[r] = done
                if done > end:
                    end = done
            # s_clause formation
            ctype = f.ctype
            if ctype is None:
                if run:  # (`prev` and `prev_type` are None while `run` is 0)
                    if run >= 2:
                        clauses += 1
                        members += run
                    run = 0
                    prev = prev_type = None
            else:
                joined = False
                if ctype == prev_type and prev is not None:
                    pinfo, info = prev.info, f.info
                    if pinfo is not None and info is not None and \
                            should_form_clause(prev.instr, pinfo, f.instr, info):
                        run += 1
                        prev = f
                        joined = True
                if not joined:
                    if run >= 2:
                        clauses += 1
                        members += run
                    run = 1
                    prev = f
                    prev_type = ctype
            # the delay state after the instruction
            if f.resets:
                if f.clears:
                    regs = {}
                if f.va_vdst0:
                    fv, ft = nv, nt
            nv += f.valu
            nt += f.trans
            cyc += f.cycles
            nd = f.new_dep
            if nd is not None:
                d_v, d_ev, d_t, d_et, d_s = nd
                dep = (nv if d_v != NONE else _GONE, cyc + d_ev,
                       nt if d_t != NONE else _GONE, cyc + d_et,
                       cyc + d_s if d_s > 0 else _GONE)
                for r in f.writes:
                    regs[r] = dep
        if run >= 2:
            clauses += 1
            members += run
        size = self._sizes(facts) + 4 * (n_delay + clauses)
        return Cost(len(facts) + n_delay + clauses, size,
                    max(t, end) - clock.t + clauses, members)

    def advance(self, clock: Clock, instrs: list[Instruction], in_place: bool = False) -> Clock:
        """`clock` after issuing `instrs` (the Latency model; a new Clock, which
        shares and updates `clock`'s register table if `in_place`)."""
        ready = clock.ready if in_place else dict(clock.ready)
        t, end = self._issue(instrs, clock.t, ready)
        return Clock(t, ready)

    def _issue(self, instrs: list[Instruction], t: int, ready: dict[int, int]) -> tuple[int, int]:
        """Issue `instrs` from cycle `t` (updating `ready`): (issue end, last result)."""
        end = t
        for f in self._facts_of(instrs):
            if f.info is None:
                continue
            start = t
            for r in f.reads:
                x = ready.get(r, 0)
                if x > start:
                    start = x
            t = start + f.issue
            done = start + f.lat
            for r in f.writes:
                ready[r] = done
            if done > end:
                end = done
        return t, end


MAX_SKIP = 5  # insert_delay_alu merges within InstSkip SKIP_4


_PRUNE = 48  # registers a DelayCursor keeps before dropping expired ones


class DelayCursor:
    """insert_delay_alu's state (`DelayState`) with absolute counters: VALUs
    (``nv``), transcendentals (``nt``) and cycles (``cyc``) issued so far, per
    register (VALU index, VALU expiry cycle, trans index, trans expiry, SALU
    expiry) of its pending producer, and the indices at or below which a wait
    covered VALU / trans producers (``fv``, ``ft``). Moved by
    `RegionCoster.catch_up`."""

    __slots__ = ("regs", "nv", "nt", "cyc", "fv", "ft")

    def __init__(self) -> None:
        self.regs: dict[int, tuple[int, int, int, int, int]] = {}
        self.nv = self.nt = self.cyc = 0
        self.fv = self.ft = _GONE

    @staticmethod
    def of(state: DelayState) -> DelayCursor:
        """`state` with the counters at 0."""
        cur = DelayCursor()
        for r, d in state.regs.items():
            cur.regs[r] = (1 - d.valu_n if d.valu_n != NONE else _GONE, d.valu_cyc,
                           1 - d.trans_n if d.trans_n != NONE else _GONE, d.trans_cyc,
                           d.salu_cyc if d.salu_cyc > 0 else _GONE)
        return cur

"""Insert s_delay_alu (GFX11): tell the hardware an ALU instruction depends on a
recent ALU result, so that it issues from another wave meanwhile.

ISA guide 16 (S_DELAY_ALU: InstID0 [3:0], InstSkip [6:4], InstID1 [10:7]);
a performance hint only, never needed for correctness. Which dependencies get
a delay follows LLVM's AMDGPUInsertDelayAlu (and ACO's insert_delay_alu, the
same algorithm): the producer latencies are `cycle_model(gfx).delay_alu` (LLVM's
GFX11 SchedModel: VALU 5, 64-bit VALU 6, quarter-rate 8, transcendental 10,
f64 38, SALU 2 cycles) and every instruction issues in one cycle, in wave32 and
wave64 (as clang-19 encodes them).

`insert_delay_alu(program)` guarantees, for targets with the ``delay_alu``
feature: before every VALU or SALU instruction that reads a register written
by a VALU, transcendental or SALU instruction whose result may not be
available yet, an ``s_delay_alu`` names the most recent such producer:

- ``VALU_DEP_k`` when the producer is the k-th most recent VALU (k <= 4;
  transcendentals are not counted, as LLVM counts them);
- ``TRANS32_DEP_k`` when it is the k-th most recent transcendental (k <= 3);
- ``SALU_CYCLE_n`` for an SALU result n (<= 3) cycles away.

A lane mask a VALU reads (v_cndmask's select, a carry-in) waits only for an
SALU producer: a VALU-written lane mask is forwarded (ACO's
lane_mask_forwarding; LLVM does not track these VCC reads either).

A producer stops mattering once its latency has elapsed (one cycle per issued
instruction), once more
VALUs/transcendentals than the field can name followed it, after a
VMEM/FLAT/DS/export instruction (they wait for VALU results themselves, as
ACO assumes) or an ``s_waitcnt_depctr depctr_va_vdst(0)``, or once an ``s_delay_alu`` already waited for it. With both a
transcendental and a VALU dependency the transcendental is InstID0 and the
VALU InstID1 of one instruction (InstSkip SAME); an SALU dependency is
dropped then (as ACO does). Finally a single-field ``s_delay_alu`` within 5
instructions after another single-field one is merged into it with
InstSkip (NEXT, SKIP_1..SKIP_4) and removed. ``s_delay_alu`` already in the program are recomputed.

State at a block entry is the join of its linear predecessors (the smallest
distances, the largest remaining cycles); loops are iterated to a fixed point.
"""

from __future__ import annotations

from functools import cache

from radcc.ir.fields import SaluFields
from radcc.ir.program import Block, Instruction, Program
from radcc.isa.cycle_model import InstrClass, cycle_model, instr_class
from radcc.isa.formats.scalar_fields import DELAY, INSTID
from radcc.isa.table import OpInfo
from radcc.passes.access import (
    VMEM_CLASSES,
    Access,
    AccessCache,
    depctr_of,
    is_ds,
    is_exp,
    is_salu,
    is_trans,
    is_valu,
    lane_mask_reads,
)
from radcc.passes.linear_dataflow import forward_fixpoint
from radcc.target import Feature, GfxLevel

__all__ = ["insert_delay_alu", "ISSUE_CYCLES", "DelaySim", "DelayState"]

# cycles one instruction takes to issue, in wave32 and wave64 (LLVM's
# AMDGPUInsertDelayAlu advances SIInstrInfo::getNumWaitStates = 1 per instruction)
ISSUE_CYCLES = 1
VALU_MAX = 4  # VALU_DEP_1..4
TRANS_MAX = 3  # TRANS32_DEP_1..3
SALU_MAX = 3  # SALU_CYCLE_1..3
NONE = 99

_ID = {name: i for i, name in enumerate(INSTID)}
_SHIFT = {k: v[0] for k, v in DELAY.items()}


class _Dep:
    """When a register's producer finishes: VALUs/transcendentals issued since
    (itself included) and cycles left per kind."""

    __slots__ = ("valu_n", "valu_cyc", "trans_n", "trans_cyc", "salu_cyc")

    def __init__(self, valu_n: int = NONE, valu_cyc: int = 0, trans_n: int = NONE,
                 trans_cyc: int = 0, salu_cyc: int = 0) -> None:
        self.valu_n = valu_n
        self.valu_cyc = valu_cyc
        self.trans_n = trans_n
        self.trans_cyc = trans_cyc
        self.salu_cyc = salu_cyc

    def key(self) -> tuple[int, int, int, int, int]:
        return (self.valu_n, self.valu_cyc, self.trans_n, self.trans_cyc, self.salu_cyc)

    def copy(self) -> _Dep:
        return _Dep(*self.key())

    def fixup(self) -> bool:
        """Drop expired parts; True if nothing is left."""
        if self.valu_n > VALU_MAX or self.valu_cyc <= 0:
            self.valu_n, self.valu_cyc = NONE, 0
        if self.trans_n > TRANS_MAX or self.trans_cyc <= 0:
            self.trans_n, self.trans_cyc = NONE, 0
        self.salu_cyc = max(self.salu_cyc, 0)
        return self.valu_n == NONE and self.trans_n == NONE and self.salu_cyc == 0

    def join(self, o: _Dep) -> None:
        self.valu_n = min(self.valu_n, o.valu_n)
        self.valu_cyc = max(self.valu_cyc, o.valu_cyc)
        self.trans_n = min(self.trans_n, o.trans_n)
        self.trans_cyc = max(self.trans_cyc, o.trans_cyc)
        self.salu_cyc = max(self.salu_cyc, o.salu_cyc)


class DelayState:
    __slots__ = ("regs",)

    def __init__(self) -> None:
        self.regs: dict[int, _Dep] = {}

    def copy(self) -> DelayState:
        s = DelayState()
        s.regs = {r: d.copy() for r, d in self.regs.items()}
        return s

    def __eq__(self, o: object) -> bool:
        return isinstance(o, DelayState) and {r: d.key() for r, d in self.regs.items()} == {
            r: d.key() for r, d in o.regs.items()}

    @staticmethod
    def join(states: list[DelayState]) -> DelayState:
        out = states[0].copy()
        for s in states[1:]:
            for r, d in s.regs.items():
                mine = out.regs.get(r)
                if mine is None:
                    out.regs[r] = d.copy()
                else:
                    mine.join(d)
        return out


def delay_imm(valu_n: int = NONE, trans_n: int = NONE, salu_cyc: int = 0) -> int:
    """The SIMM16 of the s_delay_alu for these dependencies (0: none)."""
    ids: list[int] = []
    if trans_n <= TRANS_MAX:
        ids.append(_ID[f"TRANS32_DEP_{trans_n}"])
    if valu_n <= VALU_MAX:
        ids.append(_ID[f"VALU_DEP_{valu_n}"])
    if salu_cyc > 0 and len(ids) < 2:
        ids.append(_ID[f"SALU_CYCLE_{min(salu_cyc, SALU_MAX)}"])
    imm = 0
    for i, v in enumerate(ids):
        imm |= v << _SHIFT["instid1" if i else "instid0"]
    return imm


_IMMS: dict[tuple[int, int, int], int] = {}  # `delay_imm` by its arguments (a pure function)


def _delay_imm_memo(valu_n: int, trans_n: int, salu_cyc: int) -> int:
    key = (valu_n, trans_n, salu_cyc)
    imm = _IMMS.get(key)
    if imm is None:
        imm = _IMMS[key] = delay_imm(valu_n, trans_n, salu_cyc)
    return imm


_ClassFacts = tuple[bool, bool, bool, int, bool, tuple[int, int, int, int, int] | None]


def _class_facts(info: OpInfo | None, delays: dict[InstrClass, int]) -> _ClassFacts:
    """(valu, trans, alu, issue cycles, clears, new dependency) of a table
    entry: the part of `_Rec` that depends on the opcode alone. `delays`: the
    generation's producer latencies (`CycleModel.delay_alu`)."""
    salu = is_salu(info)
    trans = is_trans(info)
    any_valu = is_valu(info)
    # VALU_DEP_n counts VALU instructions other than transcendentals, which
    # TRANS32_DEP_n counts (LLVM's AMDGPUInsertDelayAlu DelayInfo::advance)
    valu = any_valu and not trans
    clears = info is not None and (info.cls in VMEM_CLASSES or is_ds(info) or is_exp(info))
    new_dep = None
    lat = delays.get(instr_class(info), 0) if (any_valu or salu) else 0
    left = lat - ISSUE_CYCLES  # the producer's own issue cycle has passed
    if left > 0:
        if trans:
            d = _Dep(trans_n=1, trans_cyc=left)
        elif valu:
            d = _Dep(1, left)
        else:
            d = _Dep(salu_cyc=left)
        if not d.fixup():
            new_dep = d.key()
    return valu, trans, any_valu or salu, ISSUE_CYCLES, clears, new_dep


def _class_facts_memo(info: OpInfo | None, delays: dict[InstrClass, int],
                     by_info: dict[int, _ClassFacts] | None) -> _ClassFacts:
    """`_class_facts` of a table entry, kept in `by_info` by `OpInfo.uid` (0: none)."""
    if by_info is None:
        return _class_facts(info, delays)
    key = info.uid if info is not None else 0
    f = by_info.get(key)
    if f is None:
        f = by_info[key] = _class_facts(info, delays)
    return f


@cache
def _by_info(gfx: GfxLevel) -> dict[int, tuple]:
    """`_class_facts` by `OpInfo.uid` (0: none) for the generation, whose producer
    latencies (`CycleModel.delay_alu`) are fixed: kept for the process (a pure
    function of the entry, like `sched_regions`' entry kinds)."""
    return {}


_NO_SEL: frozenset[int] = frozenset()


class _Rec:
    """What the pass needs of one instruction (`a`: its `Access`), computed once per
    pass run (the analysis visits a block once or more)."""

    __slots__ = ("skip", "alu", "reads", "valu", "trans", "cycles", "clears", "va_vdst0",
                 "writes", "new_dep", "sel")

    def __init__(self, program: Program, a: Access, instr: Instruction,
                 delays: dict[InstrClass, int], by_info: dict[int, tuple] | None = None) -> None:
        info: OpInfo | None = a.info
        self.skip = instr.opcode == "s_delay_alu"
        f = _class_facts_memo(info, delays, by_info)
        self.valu, self.trans, self.alu, self.cycles, self.clears, self.new_dep = f
        self.reads = a.reads
        self.writes = a.writes
        # lane masks a VALU reads (v_cndmask's select, carry-ins): a VALU result
        # forwards to them without a delay (ACO's lane_mask_forwarding for
        # v_cndmask; LLVM tracks neither the VCC a VOPC writes nor a VCC carry-in);
        # an SALU result still needs one
        self.sel: frozenset[int] = _NO_SEL
        if info is not None and self.alu:
            sel = lane_mask_reads(program, instr, info)
            if sel:
                self.sel = frozenset(sel)
        self.va_vdst0 = False
        if instr.opcode == "s_waitcnt_depctr":
            dep = depctr_of(instr)
            self.va_vdst0 = dep is not None and dep["va_vdst"] == 0


class _Pass:
    def __init__(self, program: Program, access: AccessCache | None = None) -> None:
        self.p = program
        self.delays = cycle_model(program.gfx_level).delay_alu
        self.acc = access or AccessCache(program)
        self.recs: dict[int, list[_Rec]] = {}
        self.by_info: dict[int, tuple] = _by_info(program.gfx_level)
        # the instructions of each block's last analysis visit: that visit had the
        # block's final in-state, so the emission would compute the same list
        self.last: dict[int, list[Instruction]] = {}

    def plan(self, block: Block) -> list[_Rec]:
        """The records of the block's instructions, made on its first visit (each
        instruction is in one block: its `Access` is built by `acc.uncached`, not kept
        in `acc`)."""
        recs = self.recs.get(block.index)
        if recs is None:
            p = self.p
            uncached = self.acc.uncached
            recs = self.recs[block.index] = [
                _Rec(p, uncached(i), i, self.delays, self.by_info)
                for i in block.instructions]
        return recs

    def advance(self, st: DelayState, x: _Rec) -> None:
        """Account for one issued instruction (`_Dep.fixup` inline)."""
        valu = x.valu
        trans = x.trans
        cycles = x.cycles
        dead = []
        for r, d in st.regs.items():
            if valu and d.valu_n != NONE:
                d.valu_n += 1
            if trans and d.trans_n != NONE:
                d.trans_n += 1
            d.valu_cyc -= cycles
            d.trans_cyc -= cycles
            d.salu_cyc -= cycles
            if d.valu_n > VALU_MAX or d.valu_cyc <= 0:
                d.valu_n, d.valu_cyc = NONE, 0
            if d.trans_n > TRANS_MAX or d.trans_cyc <= 0:
                d.trans_n, d.trans_cyc = NONE, 0
            if d.salu_cyc < 0:
                d.salu_cyc = 0
            if d.valu_n == NONE and d.trans_n == NONE and d.salu_cyc == 0:
                dead.append(r)
        for r in dead:
            del st.regs[r]

    def block(self, block: Block, state: DelayState) -> DelayState:
        st = state.copy()
        self.last[block.index] = self.emit(st, block.instructions, self.plan(block))
        return st

    def emit(self, st: DelayState, instrs: list[Instruction],
             recs: list[_Rec]) -> list[Instruction]:
        """`instrs` with the s_delay_alu they need (unmerged); advances `st`."""
        out: list[Instruction] = []
        for instr, x in zip(instrs, recs, strict=True):
            if x.skip:
                continue  # recomputed
            regs = st.regs
            if x.alu and regs:
                # the join of the read registers' dependencies (`_Dep.join` from `_Dep()`;
                # a lane mask a VALU reads keeps its SALU part only)
                vn = tn = NONE
                sc = 0
                sel = x.sel
                for r in x.reads:
                    d = regs.get(r)
                    if d is None:
                        continue
                    if not (sel and r in sel):
                        if d.valu_n < vn:
                            vn = d.valu_n
                        if d.trans_n < tn:
                            tn = d.trans_n
                    if d.salu_cyc > sc:
                        sc = d.salu_cyc
                imm = _delay_imm_memo(vn, tn, sc)
                if imm:
                    out.append(Instruction("s_delay_alu", "SOPP", fields=SaluFields({"simm16": imm})))
                    self.waited(st, vn, tn, sc)
            out.append(instr)
            self.step(st, x)
        return out

    def waited(self, st: DelayState, valu_n: int, trans_n: int, salu_cyc: int) -> None:
        """An s_delay_alu waited for these dependencies."""
        dead = []
        for r, d in st.regs.items():
            if valu_n <= VALU_MAX and d.valu_n >= valu_n:
                d.valu_n, d.valu_cyc = NONE, 0
            if trans_n <= TRANS_MAX and d.trans_n >= trans_n:
                d.trans_n, d.trans_cyc = NONE, 0
            if salu_cyc > 0 and d.salu_cyc <= salu_cyc:
                d.salu_cyc = 0
            if d.fixup():
                dead.append(r)
        for r in dead:
            del st.regs[r]

    def step(self, st: DelayState, x: _Rec) -> None:
        if x.clears:
            st.regs.clear()
        if x.va_vdst0:
            for d in st.regs.values():
                d.valu_n = d.trans_n = NONE
            st.regs = {r: d for r, d in st.regs.items() if not d.fixup()}
        if st.regs:
            self.advance(st, x)
        nd = x.new_dep
        if nd is None:
            return
        for r in x.writes:
            st.regs[r] = _Dep(*nd)

    def run(self) -> None:
        forward_fixpoint(self.p, DelayState(), DelayState.join, self.block)
        for b in self.p.blocks:
            b.instructions = _merge(self.last[b.index])


_MAX_SKIP = 5  # InstSkip SKIP_4


def _merge(instrs: list[Instruction]) -> list[Instruction]:
    """Fold a single-field s_delay_alu into an earlier single-field one."""
    out: list[Instruction] = []
    prev = -1
    for instr in instrs:
        if instr.opcode != "s_delay_alu":
            out.append(instr)
            continue
        imm = int(instr.fields["simm16"])  # type: ignore[call-overload]
        skip = len(out) - prev - 1
        if prev < 0 or imm >> _SHIFT["instid1"] or skip > _MAX_SKIP:
            prev = len(out) if imm >> _SHIFT["instid1"] == 0 else -1
            out.append(instr)
            continue
        p = out[prev]
        p.fields["simm16"] = (int(p.fields["simm16"])  # type: ignore[call-overload]
                              | skip << _SHIFT["instskip"] | imm << _SHIFT["instid1"])
        prev = -1
    return out


def insert_delay_alu(program: Program) -> None:
    """Insert s_delay_alu hints (see module docstring); nothing without the
    target feature ``delay_alu``."""
    if not program.target.has(Feature.DelayAlu):
        return
    _Pass(program).run()


class DelaySim:
    """The s_delay_alu this pass would insert into a straight-line run of
    instructions, for the post-RA schedulers to compare orders
    (scheduler_ilp). `run(state, instrs)` returns the run with its
    s_delay_alu (merged as the pass merges them) and the state after it;
    `state` is not changed. Targets without ``delay_alu`` get no
    s_delay_alu. Per-instruction facts are cached by identity (`access`: an
    AccessCache to share): valid while the instructions given do not change."""

    def __init__(self, program: Program, access: AccessCache | None = None) -> None:
        self._pass = _Pass(program, access)
        self._on = program.target.has(Feature.DelayAlu)
        self._recs: dict[int, tuple[Instruction, _Rec]] = {}

    @property
    def enabled(self) -> bool:
        """Whether the target inserts s_delay_alu at all (``delay_alu``)."""
        return self._on

    def facts(self, instr: Instruction) -> _Rec:
        """What the pass uses of `instr` (reads, writes, VALU/trans/ALU flags,
        issue cycles, whether it clears the state, the dependency it creates as
        (valu_n, valu_cyc, trans_n, trans_cyc, salu_cyc) or None)."""
        return self._rec(instr)

    def _rec(self, instr: Instruction) -> _Rec:
        e = self._recs.get(id(instr))
        if e is None:
            p = self._pass
            e = self._recs[id(instr)] = (instr, _Rec(p.p, p.acc(instr), instr, p.delays,
                                                     p.by_info))
        return e[1]

    def run(self, state: DelayState,
            instrs: list[Instruction]) -> tuple[list[Instruction], DelayState]:
        st = state.copy()
        recs = [self._rec(i) for i in instrs]
        out = self._pass.emit(st, instrs, recs)
        if not self._on:
            return [i for i in out if i.opcode != "s_delay_alu"], st
        return _merge(out), st

"""Resolve hazards: insert wait states the hardware does not (ACO's insert_NOPs).

Source: ACO's README.md (Mesa src/amd/compiler) "Resolve hazards and insert NOPs" and README-ISA "RDNA3 /
GFX11 hazards"; each hazard is handled only when the target lists it
(`Target.has_hazard`). Runs after insert_waitcnt on hardware instructions
with `PhysReg`s. `insert_nops(program)` guarantees, on every path of the
linear CFG (state at a block's entry = join of its linear predecessors' exit
states, loops iterated to a fixed point; the two distance searches walk
backwards through predecessors as ACO's do, up to 256 instructions / 32
blocks, assuming a hazard beyond that; unlike ACO's they may pass a loop
header more than once, entering a block again whenever their state differs,
so a hazard reached by going once around a loop is seen):

- VcmpxPermlaneHazard: a ``v_permlane*`` never follows a compare writing EXEC
  (a VOPC opcode with EXEC among its writes) without a VALU other than
  ``v_nop`` in between; mitigation: ``v_mov_b32 vN, vN`` of the permlane's
  source (or destination) VGPR (the seed says v_nop does not count).
- LdsDirectVALUHazard: an LDSDIR's ``wait_vdst`` is at most the number of
  VALUs between it and the last VALU using (reading or writing) its
  destination, 0 if a transcendental is among them (the seed's preferred
  mitigation, the LDSDIR's own field; an absent field is 0, the encoding's
  default, and never needs lowering).
- LdsDirectVMEMHazard: an LDSDIR never writes a VGPR a VMEM/FLAT/DS
  instruction used while that instruction may not have read it yet: not
  after a VALU, an export, ``s_waitcnt_depctr vm_vsrc(0)``, or a wait for the
  instruction's counter at 0; mitigation ``s_waitcnt_depctr depctr_vm_vsrc(0)``.
- VALUTransUseHazard: a VALU/VINTERP never reads a VGPR written by a
  transcendental with fewer than 6 VALUs and fewer than 2 transcendentals in
  between; mitigation ``s_waitcnt_depctr depctr_va_vdst(0)``.
- VALUPartialForwardingHazard (wave64, as ACO and LLVM apply it): a VALU
  reading VGPRs A and B where A was written before an SALU write of EXEC and B
  after it, with fewer than 3 VALUs between the writes and fewer than 5
  between B's write and the read; mitigation ``depctr_va_vdst(0)``.
- VALUMaskWriteHazard (wave64, as ACO and LLVM apply it): an SGPR a VALU read
  as a lane mask (v_cndmask select, carry-in, v_div_fmas' VCC), with no VALU
  reading another non-EXEC SGPR since, then written by an SALU, is not read by
  an SALU or VALU before ``s_waitcnt_depctr depctr_sa_sdst(0)`` (ACO: written
  by a VALU instead, ``depctr_va_sdst(0)``, or ``depctr_va_vcc(0)`` for VCC).
- WMMAHazard (ISA guide 7.9; LLVM's GCNHazardRecognizer::fixWMMAHazards, ACO's
  insert_NOPs for GFX11): a WMMA never reads as A or B (its first two operands) a
  VGPR the D of the WMMA just before it wrote, with no other VALU or ``v_nop`` in
  between; mitigation ``v_nop``. (D as the next WMMA's C needs nothing.)

Mitigations already present (depctr fields, VALUs, waits, low ``wait_vdst``)
are recognised, so the pass is idempotent. Several depctr fields needed
before one instruction share one ``s_waitcnt_depctr``, placed before the
permlane's ``v_mov``. Before an indirect jump and at a program end that is
not ``s_endpgm`` everything pending is resolved (the continuation is
unknown). Values are built with the ISA layer's symbolic depctr fields
(`radcc.isa.formats.scalar_fields.DEPCTR`: ``depctr_vm_vsrc(0)`` = 0xff83,
``depctr_va_vdst(0)`` = 0x0f9f, ``depctr_sa_sdst(0)`` = 0xff9e, as llvm-mc
assembles them; the seed's 0xffe3/0x0fff/0xfffe differ only in unused bits).

The GFX10 hazards of the seed's "RDNA / GFX10 hazards" (VMEMtoScalarWrite,
SMEMtoVectorWrite, VcmpxExecWAR, LdsBranchVmemWAR, SMEM store then load) are
`radcc.passes.hazards_gfx10`'s: their state rides in the same `HazardState`
(``g10``, joined and iterated with the rest), their mitigations are inserted by
the same walk and resolved at a program end as above; VcmpxPermlaneHazard is
shared with GFX11. Bugs with no local fix on the target (InstFwdPrefetchBug,
FlatSegmentOffsetBug, LdsMisalignedBug, NSAClauseBug, NSAMaxSize5) make the pass
raise `HazardError` naming the hazard, block and instruction before anything
changes. Offset3fBug is `emit_program`'s (it depends on the layout).
`s_waitcnt` immediates are read with the target's layout (GFX10 or GFX11).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final, Generic, TypeVar

from radcc.ir.fields import SaluFields
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, VCC, VGPR_BASE, PhysReg, v1
from radcc.isa.table import OpInfo
from radcc.passes.access import (
    WAIT_OPCODES,
    Access,
    AccessCache,
    depctr_of,
    encode_depctr,
    info_of,
    is_ds,
    is_exp,
    is_flat,
    is_indirect_branch,
    is_ldsdir,
    is_nop,
    is_permlane,
    is_salu,
    is_trans,
    is_valu,
    is_valu_reader,
    is_vmem,
    is_vopc_op,
    lane_mask_reads,
    regs_of,
    returns_data,
    wait_of,
)
from radcc.passes.hazards_gfx10 import Gfx10Hazards, Gfx10Rec, Gfx10State, check_unmitigable
from radcc.passes.linear_dataflow import forward_fixpoint
from radcc.target import Hazard

__all__ = ["insert_nops"]

TRANS_VALU_WINDOW = 6  # VALUTransUseHazard: 6+ VALUs in between resolve it
TRANS_TRANS_WINDOW = 2  # ... or 2+ transcendentals
SEARCH_MAX_INSTRS = 256
SEARCH_MAX_BLOCKS = 32
MAX_ROUNDS = 4
VCC_REGS = frozenset({VCC, VCC + 1})
EXEC_REGS = frozenset({EXEC, EXEC + 1})
_SGPR_LIMIT = EXEC  # SGPRs, vcc and m0 (not exec) as ACO's lane-mask tracking


class HazardState:
    """Forward state of the GFX11 hazards at one program point."""

    __slots__ = ("vcmpx", "trans", "vm_load", "vm_store", "ds", "lanemask",
                 "mask_wr_salu", "mask_wr_valu", "wmma_dst", "g10")

    def __init__(self, g10: Gfx10State | None = None) -> None:
        self.g10 = g10  # the GFX10 hazards' part (None on targets without them)
        self.vcmpx = False
        self.trans: dict[int, tuple[int, int]] = {}  # vgpr -> (VALUs, trans since write)
        self.vm_load: set[int] = set()  # VGPRs used by VMEM loads (LdsDirectVMEM)
        self.vm_store: set[int] = set()
        self.ds: set[int] = set()
        self.lanemask: set[int] = set()
        self.mask_wr_salu: set[int] = set()
        self.mask_wr_valu: set[int] = set()
        self.wmma_dst: frozenset[int] = frozenset()  # D of a WMMA, no VALU since

    def copy(self) -> HazardState:
        s = HazardState.__new__(HazardState)
        s.vcmpx = self.vcmpx
        s.trans = dict(self.trans)
        s.vm_load = set(self.vm_load)
        s.vm_store = set(self.vm_store)
        s.ds = set(self.ds)
        s.lanemask = set(self.lanemask)
        s.mask_wr_salu = set(self.mask_wr_salu)
        s.mask_wr_valu = set(self.mask_wr_valu)
        s.wmma_dst = self.wmma_dst
        s.g10 = self.g10.copy() if self.g10 is not None else None
        return s

    def __eq__(self, o: object) -> bool:
        return (isinstance(o, HazardState) and self.vcmpx == o.vcmpx and self.trans == o.trans
                and self.vm_load == o.vm_load and self.vm_store == o.vm_store
                and self.ds == o.ds and self.lanemask == o.lanemask
                and self.mask_wr_salu == o.mask_wr_salu and self.mask_wr_valu == o.mask_wr_valu
                and self.wmma_dst == o.wmma_dst and self.g10 == o.g10)

    @staticmethod
    def join(states: list[HazardState]) -> HazardState:
        out = states[0].copy()
        for s in states[1:]:
            out.vcmpx |= s.vcmpx
            for r, (a, b) in s.trans.items():
                mine = out.trans.get(r)
                out.trans[r] = (a, b) if mine is None else (min(a, mine[0]), min(b, mine[1]))
            out.vm_load.update(s.vm_load)
            out.vm_store.update(s.vm_store)
            out.ds.update(s.ds)
            out.lanemask.update(s.lanemask)
            out.mask_wr_salu.update(s.mask_wr_salu)
            out.mask_wr_valu.update(s.mask_wr_valu)
            out.wmma_dst |= s.wmma_dst
            if out.g10 is not None and s.g10 is not None:
                out.g10.join(s.g10)
        return out

    def apply_depctr(self, f: dict[str, int]) -> None:
        if f.get("va_vdst", 15) == 0:
            self.trans.clear()
            self.mask_wr_valu.clear()
        if f.get("sa_sdst", 1) == 0:
            self.mask_wr_salu.clear()
        if f.get("va_sdst", 7) == 0:
            self.mask_wr_valu &= VCC_REGS
        if f.get("va_vcc", 1) == 0:
            self.mask_wr_valu -= VCC_REGS
        if f.get("vm_vsrc", 7) == 0:
            self.clear_vmem()

    def clear_vmem(self) -> None:
        self.vm_load.clear()
        self.vm_store.clear()
        self.ds.clear()


_OpFlags = tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool,
                 bool]


def _op_flags(info: OpInfo | None) -> _OpFlags:
    """A table entry's classes as `_Rec` keeps them (valu, valu_reader, trans, salu,
    VOPC, permlane, exp, flat, vmem_like, ds, ldsdir, indirect branch, nop, wmma)."""
    flat = is_flat(info)
    return (is_valu(info), is_valu_reader(info), is_trans(info), is_salu(info),
            is_vopc_op(info), is_permlane(info), is_exp(info), flat, is_vmem(info) or flat,
            is_ds(info), is_ldsdir(info), is_indirect_branch(info), is_nop(info),
            info is not None and info.cls == "wmma")


def _sgprs_of(regs: frozenset[int]) -> frozenset[int]:
    """The registers of `regs` below `_SGPR_LIMIT` (the set itself when all are)."""
    if not regs or max(regs) < _SGPR_LIMIT:
        return regs
    if min(regs) >= _SGPR_LIMIT:
        return _NO_REGS
    return frozenset(r for r in regs if r < _SGPR_LIMIT)


_NO_REGS: frozenset[int] = frozenset()

# `_op_flags` by table entry (`OpInfo.uid`; 0 for none)
_OP_FLAGS: dict[int, _OpFlags] = {}


class _Rec:
    """What the pass needs of one instruction, computed once per pass run (the
    analysis visits a block once or more, the emission may once more, and the
    backward searches walk over instructions again)."""

    __slots__ = ("info", "rd", "wr", "vrd", "vwr", "srd", "swr", "lane_mask", "depctr",
                 "va_vdst0", "wait", "valu", "valu_reader", "trans", "salu", "vcmpx",
                 "permlane", "exp", "vmem_like", "flat", "ds", "ldsdir", "indirect",
                 "returns_data", "wr_exec", "wmma", "wmma_ab", "nop", "g10")

    def __init__(self, program: Program, instr: Instruction, acc: Access, wave64: bool,
                 g10: bool = False) -> None:
        info = acc.info
        self.info = info
        self.rd, self.wr, self.vrd, self.vwr = acc.reads, acc.writes, acc.vreads, acc.vwrites
        if wave64:
            self.srd = _sgprs_of(acc.reads)
            self.swr = _sgprs_of(acc.writes)
        else:  # the SGPRs read and written: only the wave64 lane-mask hazards ask
            self.srd = self.swr = _NO_REGS
        op = instr.opcode
        self.depctr = depctr_of(instr) if op == "s_waitcnt_depctr" else None
        self.va_vdst0 = self.depctr is not None and self.depctr["va_vdst"] == 0
        self.wait = wait_of(instr, program.gfx_level) if op in WAIT_OPCODES else None
        key = info.uid if info is not None else 0
        e = _OP_FLAGS.get(key)
        if e is None:
            e = _OP_FLAGS[key] = _op_flags(info)
        (self.valu, self.valu_reader, self.trans, self.salu, vopc, self.permlane, self.exp,
         self.flat, self.vmem_like, self.ds, self.ldsdir, self.indirect, self.nop,
         self.wmma) = e
        self.wr_exec = bool(acc.writes & EXEC_REGS)
        self.vcmpx = vopc and self.wr_exec
        self.returns_data = (self.vmem_like and info is not None
                             and returns_data(instr, info))
        self.g10 = Gfx10Rec(program, instr, info, acc) if g10 else None
        # A and B: the first two operands
        self.wmma_ab = regs_of(instr.operands[:2]) if self.wmma else _NO_REGS
        self.lane_mask: frozenset[int] = _NO_REGS
        if wave64 and self.valu and info is not None:
            self.lane_mask = frozenset(lane_mask_reads(program, instr, info))


T = TypeVar("T")


class _Search(Generic[T]):
    """Backward walk from a program point through linear predecessors (ACO's
    search_backwards): `visit(state, record)` returns True to end a path;
    `limit(state)` is called on a path cut off by the size limits.

    A block is entered again only with a search state (`key`) not seen there
    before: the walk stays finite around loops, yet a loop header already
    reached on one path is still searched on another (going once around the
    loop can reach the hazardous write; ACO's visit-each-header-once misses
    that). The result from (block, state) does not depend on the path that led
    there, apart from the size limits, which only ever add a conservative
    mitigation."""

    def __init__(self, nops: _Round, visit: Callable[[T, _Rec], bool],
                 limit: Callable[[T], None], copy: Callable[[T], T],
                 key: Callable[[T], Hashable]) -> None:
        self.n = nops
        self.visit = visit
        self.limit = limit
        self.copy = copy
        self.key = key

    def run(self, block: Block, before: list[Instruction], state: T) -> None:
        seen: set[tuple[int, Hashable]] = set()
        self._walk(block, before, state, 0, 0, seen)

    def _walk(self, block: Block, instrs: list[Instruction], st: T, nblocks: int,
              count: int, seen: set[tuple[int, Hashable]]) -> None:
        # the block searched from: its instructions so far, records on demand;
        # a predecessor: its whole list, records reversed once per round
        recs = (map(self.n.rec, reversed(instrs)) if nblocks == 0
                else self.n.reversed_recs(block.index, instrs))
        visit = self.visit
        for x in recs:
            count += 1
            if count > SEARCH_MAX_INSTRS:
                self.limit(st)
                return
            if visit(st, x):
                return
        for p in block.linear_preds:
            k = (p, self.key(st))
            if k in seen:
                continue
            seen.add(k)
            if nblocks + 1 > SEARCH_MAX_BLOCKS:
                self.limit(st)
                return
            self._walk(self.n.p.blocks[p], self.n.lists[p], self.copy(st), nblocks + 1, count,
                       seen)


class _LdsDirValu:
    __slots__ = ("vgpr", "num_valu", "has_trans", "result")

    def __init__(self, vgpr: int, result: list[int]) -> None:
        self.vgpr = vgpr
        self.num_valu = 0
        self.has_trans = False
        self.result = result  # shared: [wait_vdst]

    def copy(self) -> _LdsDirValu:
        c = _LdsDirValu(self.vgpr, self.result)
        c.num_valu, c.has_trans = self.num_valu, self.has_trans
        return c

    def key(self) -> Hashable:
        return (self.num_valu, self.has_trans)

    def visit(self, x: _Rec) -> bool:
        """`_Search`'s visit for `_Round.lds_direct_wait_vdst`."""
        if x.valu:
            self.has_trans |= x.trans
            if self.vgpr in x.rd or self.vgpr in x.wr:
                self.result[0] = min(self.result[0], 0 if self.has_trans else self.num_valu)
                return True
            self.num_valu += 1
        if x.va_vdst0:
            return True
        return self.num_valu >= self.result[0]

    def limit(self) -> None:
        self.result[0] = min(self.result[0], 0 if self.has_trans else self.num_valu)


class _PartialFwd:
    NOTHING: Final = 0
    WRITTEN_AFTER_EXEC: Final = 1
    EXEC_WRITTEN: Final = 2
    __slots__ = ("read", "state", "since_read", "since_write", "found")

    def __init__(self, read: set[int], found: list[bool]) -> None:
        self.read = read
        self.state = self.NOTHING
        self.since_read = 0
        self.since_write = 0
        self.found = found  # shared: [hazard found]

    def copy(self) -> _PartialFwd:
        c = _PartialFwd(set(self.read), self.found)
        c.state, c.since_read, c.since_write = self.state, self.since_read, self.since_write
        return c

    def key(self) -> Hashable:
        return (frozenset(self.read), self.state, self.since_read, self.since_write)

    def visit(self, x: _Rec) -> bool:
        """`_Search`'s visit for `_Round.partial_forwarding`."""
        if self.found[0]:
            return True
        if x.salu:
            if self.state == self.WRITTEN_AFTER_EXEC and x.wr_exec:
                self.state = self.EXEC_WRITTEN
        elif x.valu:
            written = x.vwr & self.read
            if written:
                if self.state == self.EXEC_WRITTEN and self.since_write < 3:
                    self.found[0] = True
                    return True
                self.read -= written
                if self.state == self.NOTHING or self.since_read < 5:
                    self.state = self.WRITTEN_AFTER_EXEC
                    self.since_write = 0
                else:
                    self.since_write += 1
            else:
                self.since_write += 1
            self.since_read += 1
        elif x.va_vdst0:
            return True
        if self.since_read >= (5 if self.state == self.NOTHING else 8):
            return True
        return not self.read

    def limit(self) -> None:
        self.found[0] = True


class _Round:
    """One pass over the program: analysis to a fixed point, then emission."""

    def __init__(self, program: Program, recs: dict[int, tuple[Instruction, _Rec]]) -> None:
        self.p = program
        self.t = program.target
        self.wave64 = program.wave_size == 64
        self.lists: list[list[Instruction]] = [b.instructions for b in program.blocks]
        self.changes = 0
        # records by instruction identity, shared by the rounds (a round changes no
        # instruction a record describes: it adds instructions and lowers wait_vdst)
        self.recs = recs
        self.access = AccessCache(program)  # builds each record's `Access` (not kept)
        self.rev: dict[int, tuple[list[Instruction], list[_Rec]]] = {}
        has = self.t.has_hazard
        self.h_trans = has(Hazard.VALUTransUseHazard)
        self.h_partial = has(Hazard.VALUPartialForwardingHazard) and self.wave64
        self.h_mask = has(Hazard.VALUMaskWriteHazard) and self.wave64
        self.h_lds_vmem = has(Hazard.LdsDirectVMEMHazard)
        self.h_lds_valu = has(Hazard.LdsDirectVALUHazard)
        self.h_permlane = has(Hazard.VcmpxPermlaneHazard)
        self.h_wmma = has(Hazard.WMMAHazard)
        g10 = Gfx10Hazards(program.target)
        self.g10: Gfx10Hazards | None = g10 if g10.active else None
        # per block, the instructions of its last analysis visit and whether that
        # visit searched backwards. That visit had the block's final in-state; only
        # the searches (over predecessors the emission may already have changed)
        # and an LDSDIR's wait_vdst can make the emission differ from it.
        self.last: dict[int, tuple[list[Instruction], bool]] = {}
        self.searched = False
        # no backward search ran and every instruction inserted is an
        # s_waitcnt_depctr (`run`: another round would change nothing)
        self.settled = self.g10 is None

    def reversed_recs(self, b: int, lst: list[Instruction]) -> list[_Rec]:
        """The records of `lst` (block b's instructions), last first."""
        e = self.rev.get(b)
        if e is None or e[0] is not lst:
            e = self.rev[b] = (lst, [self.rec(i) for i in reversed(lst)])
        return e[1]

    def rec(self, instr: Instruction) -> _Rec:
        """The record of `instr` (kept with the instruction, so its id is not reused)."""
        e = self.recs.get(id(instr))
        if e is None:
            e = self.recs[id(instr)] = (instr, _Rec(self.p, instr, self.access.uncached(instr),
                                                    self.wave64, self.g10 is not None))
        return e[1]

    # --- the two backward searches ------------------------------------------------------
    def lds_direct_wait_vdst(self, block: Block, before: list[Instruction],
                             vgpr: int, current: int) -> int:
        self.searched = True
        self.settled = False
        result = [current]
        _Search(self, _LdsDirValu.visit, _LdsDirValu.limit, _LdsDirValu.copy,
                _LdsDirValu.key).run(
            block, before, _LdsDirValu(vgpr, result))
        return result[0]

    def partial_forwarding(self, block: Block, before: list[Instruction],
                           read: frozenset[int]) -> bool:
        self.searched = True
        self.settled = False
        found = [False]
        _Search(self, _PartialFwd.visit, _PartialFwd.limit, _PartialFwd.copy,
                _PartialFwd.key).run(block, before, _PartialFwd(set(read), found))
        return found[0]

    # --- state transitions ---------------------------------------------------------------
    def step(self, st: HazardState, x: _Rec) -> None:
        """Update the state after the instruction of record `x` executed."""
        if self.g10 is not None and st.g10 is not None and x.g10 is not None:
            self.g10.step(st.g10, x.g10)
        if x.depctr is not None:
            st.apply_depctr(x.depctr)
            return
        w = x.wait
        if w is not None:
            if w.get("vm") == 0:
                st.vm_load.clear()
            if w.get("vs") == 0:
                st.vm_store.clear()
            if w.get("lgkm") == 0:
                st.ds.clear()
            return
        if x.info is None:
            return
        if x.valu or x.nop:
            st.wmma_dst = x.vwr if x.wmma else frozenset()
        if x.valu:
            trans = x.trans
            if st.trans:
                new: dict[int, tuple[int, int]] = {}
                for r, (nv, nt) in st.trans.items():
                    nv, nt = nv + 1, nt + (1 if trans else 0)
                    if nv < TRANS_VALU_WINDOW and nt < TRANS_TRANS_WINDOW:
                        new[r] = (nv, nt)
                st.trans = new
            if trans:
                for r in x.vwr:
                    st.trans[r] = (0, 0)
            st.vcmpx = x.vcmpx
            st.clear_vmem()
            if self.wave64:
                if x.srd:
                    st.lanemask.clear()
                swr = x.swr
                if swr and not swr.isdisjoint(st.lanemask):
                    st.mask_wr_valu |= swr
                st.lanemask |= x.lane_mask
        elif x.salu:
            if self.wave64:
                swr = x.swr
                if swr and not swr.isdisjoint(st.lanemask):
                    st.mask_wr_salu |= swr
        elif x.exp:
            st.clear_vmem()
        if x.vmem_like:
            used = x.vrd | x.vwr
            (st.vm_load if x.returns_data else st.vm_store).update(used)
            if x.flat:
                st.ds.update(used)
        elif x.ds:
            st.ds.update(x.vrd | x.vwr)

    # --- one block -------------------------------------------------------------------------
    def block(self, block: Block, state: HazardState, emit: bool) -> HazardState:
        st = state.copy()
        self.searched = False
        out: list[Instruction] = []
        rec = self.rec
        for instr in block.instructions:
            x = rec(instr)
            if x.indirect:
                self.resolve_all(st, out, emit)
            if x.info is not None:
                self.mitigate(block, st, instr, x, out, emit)
            out.append(instr)
            self.step(st, x)
        if (not block.linear_succs and not any(i.opcode == "s_endpgm" for i in out[-1:])
                and not (out and rec(out[-1]).indirect)):
            self.resolve_all(st, out, emit)
        if emit:
            self.replace(block, out)
        else:
            self.last[block.index] = (out, self.searched)
        return st

    def analyse(self, block: Block, state: HazardState) -> HazardState:
        """`block` as the analysis visits it (`block` without emission)."""
        return self.block(block, state, False)

    def replace(self, block: Block, out: list[Instruction]) -> None:
        if len(out) != len(block.instructions):
            self.changes += 1
        block.instructions = out
        self.lists[block.index] = out

    def mitigate(self, block: Block, st: HazardState, instr: Instruction,
                 x: _Rec, out: list[Instruction], emit: bool) -> None:
        need: dict[str, int] = {}
        if x.ldsdir:
            self.searched = True  # may change wait_vdst when emitting
            self.settled = False
            self.lds_direct(block, st, instr, x, out, emit)
        if self.h_trans and st.trans and x.valu_reader:
            trans = st.trans
            if any(r in trans for r in x.vrd):
                need["va_vdst"] = 0
        if self.h_partial and x.valu and "va_vdst" not in need:
            read = x.vrd
            if len(read) > 1 and self.partial_forwarding(block, out, read):
                need["va_vdst"] = 0
        if self.h_mask and (x.salu or x.valu):
            srd = x.srd
            if srd:
                if not srd.isdisjoint(st.mask_wr_salu):
                    need["sa_sdst"] = 0
                for r in srd & st.mask_wr_valu:
                    need["va_vcc" if r in VCC_REGS else "va_sdst"] = 0
        if self.h_lds_vmem and x.ldsdir:
            dst = x.vwr
            if dst & (st.vm_load | st.vm_store | st.ds):
                need["vm_vsrc"] = 0
        if need:
            d = Instruction("s_waitcnt_depctr", "SOPP", fields=SaluFields({"simm16": encode_depctr(**need)}))
            out.append(d)
            self.step(st, self.rec(d))
        if self.h_permlane and st.vcmpx and x.permlane:
            mov = self.valu_mov(instr)
            self.settled = False
            out.append(mov)
            self.step(st, self.rec(mov))
        if self.h_wmma and x.wmma and not st.wmma_dst.isdisjoint(x.wmma_ab):
            nop = Instruction("v_nop", "VOP1")
            self.settled = False
            out.append(nop)
            self.step(st, self.rec(nop))
        if self.g10 is not None and st.g10 is not None and x.g10 is not None:
            for ins in self.g10.mitigate(st.g10, x.g10):
                out.append(ins)
                self.step(st, self.rec(ins))

    def lds_direct(self, block: Block, st: HazardState, instr: Instruction, x: _Rec,
                   out: list[Instruction], emit: bool) -> None:
        cur = instr.fields.get("wait_vdst", 0)
        cur = cur if isinstance(cur, int) else 0
        if self.h_lds_valu and cur > 0:
            dst = sorted(x.vwr)
            new = cur
            for r in dst:
                new = self.lds_direct_wait_vdst(block, out, r, new)
            if new < cur and emit:
                instr.fields["wait_vdst"] = new
                self.changes += 1
            cur = new
        if cur == 0:  # the LDSDIR waits for all VALU results itself
            st.trans.clear()
            st.mask_wr_valu.clear()

    def valu_mov(self, permlane: Instruction) -> Instruction:
        """``v_mov_b32 vN, vN`` of a VGPR the permlane reads or writes anyway."""
        reg = None
        for o in permlane.operands:
            if o.phys is not None and o.phys.reg >= VGPR_BASE and not o.is_undef:
                reg = o.phys.reg
                break
        if reg is None:
            reg = next((d.phys.reg for d in permlane.definitions
                        if d.phys is not None and d.phys.reg >= VGPR_BASE), VGPR_BASE)
        return Instruction("v_mov_b32", "VOP1", [Operand.fixed(PhysReg.of(reg), v1)],
                           [Definition.fixed(PhysReg.of(reg), v1)])

    def resolve_all(self, st: HazardState, out: list[Instruction], emit: bool) -> None:
        need: dict[str, int] = {}
        if (self.h_trans and st.trans) or (self.h_mask and st.mask_wr_valu):
            need["va_vdst"] = 0
        if self.h_lds_vmem and (st.vm_load or st.vm_store or st.ds):
            need["vm_vsrc"] = 0
        if self.h_mask and st.mask_wr_salu:
            need["sa_sdst"] = 0
        if need:
            d = Instruction("s_waitcnt_depctr", "SOPP", fields=SaluFields({"simm16": encode_depctr(**need)}))
            out.append(d)
            self.step(st, self.rec(d))
        if self.h_permlane and st.vcmpx:
            self.settled = False
            mov = Instruction("v_mov_b32", "VOP1", [Operand.fixed(PhysReg.of(VGPR_BASE), v1)],
                              [Definition.fixed(PhysReg.of(VGPR_BASE), v1)])
            out.append(mov)
            self.step(st, self.rec(mov))
        if self.g10 is not None and st.g10 is not None:
            for ins in self.g10.resolve_all(st.g10):
                out.append(ins)
                self.step(st, self.rec(ins))

    def run(self) -> int:
        """Analyse and emit; the number of blocks changed. When `settled` is then
        still true another round would find nothing new: the only instructions
        inserted are s_waitcnt_depctr, which this round already stepped over as the
        next would and which need no mitigation themselves (no VALU, SALU, LDSDIR,
        permlane or WMMA; nothing on a target without the GFX10 hazards), and no
        backward search ran over lists this round changed."""
        entry = HazardState(Gfx10State() if self.g10 is not None else None)
        ins = forward_fixpoint(self.p, entry, HazardState.join, self.analyse)
        for b in self.p.blocks:
            out, searched = self.last[b.index]
            if searched:
                self.block(b, ins[b.index], True)
            else:
                self.replace(b, out)
        return self.changes


def insert_nops(program: Program) -> None:
    """Mitigate the target's hazards (see module docstring)."""
    check_unmitigable(program, info_of)
    recs: dict[int, tuple[Instruction, _Rec]] = {}
    for _ in range(MAX_ROUNDS):
        r = _Round(program, recs)
        if not r.run() or r.settled:
            return


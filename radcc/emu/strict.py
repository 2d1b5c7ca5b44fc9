"""Strict mode: missing s_waitcnt and unmitigated GFX11 hazards.

Waits (ISA guide 5.6 "Data dependency resolution", 8.2, 10.x): every memory
instruction is an outstanding operation on its counters (VMcnt: loads and
atomics with return; VScnt: stores and atomics without return; LGKMcnt: SMEM,
DS, FLAT, messages; EXPcnt: LDS direct). Results are assumed to arrive as late
as the hardware allows: VMcnt/VScnt/EXPcnt complete in order, DS in order among
themselves, SMEM in any order. After `s_waitcnt X(N)` an operation is known to
be complete only if more than N operations at or after it (in order) are
outstanding, or (SMEM) N == 0. Reading (or overwriting) a register an
incomplete load writes is a violation naming both instructions and the register.
This worst-case model is deterministic: it reports every read that some legal
latency would break, not only those a random draw happens to expose.

Hazards: the GFX11 list of ACO's README.md "RDNA3 / GFX11 hazards" (VcmpxPermlane,
LdsDirectVALU, LdsDirectVMEM, VALUTransUse, VALUPartialForwarding,
VALUMaskWrite), with the distances and mitigations LLVM's GCNHazardRecognizer
uses for them (VALUPartialForwarding and VALUMaskWrite concern wave64 only), and
WMMAHazard (ISA 7.9, LLVM's fixWMMAHazards: a WMMA reading as A or B the D of the
WMMA just before it, with no VALU in between). `s_waitcnt_depctr` fields: va_vdst [15:12], vm_vsrc [4:2],
sa_sdst [0].
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from radcc.emu.decode import Inst
from radcc.emu.strict_gfx10 import GFX10_STRICT_HAZARDS, Gfx10Strict, Lanes
from radcc.emu.use import Use
from radcc.isa.classes import MEMORY_TABLE_CLASSES
from radcc.isa.operands import EXEC_HI, EXEC_LO, SGPR_MAX, SPECIAL_NAMES, TTMP0, VGPR0
from radcc.isa.wmma import KINDS
from radcc.target import GFX11_HAZARDS, Hazard, Target

EXEC_REGS = frozenset({EXEC_LO, EXEC_HI})
_VECTOR_MEMORY = MEMORY_TABLE_CLASSES - {"smem"}  # vmem, flat, ds: VGPR addresses and data
_HIST = 16  # VALUs remembered for the hazards that look back (see Strict.valu_hist)


@dataclass(frozen=True)
class Violation:
    kind: str  # 'waitcnt' or a hazard name
    message: str
    pc: int
    wave: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message} [{self.wave}]"


@dataclass
class Report:
    """Violations of one dispatch (deduplicated by kind, instructions and register)."""

    violations: list[Violation] = field(default_factory=list)
    _seen: set[tuple[object, ...]] = field(default_factory=set)
    limit: int = 1000

    def add(self, key: tuple[object, ...], v: Violation) -> None:
        if key in self._seen or len(self.violations) >= self.limit:
            return
        self._seen.add(key)
        self.violations.append(v)


class MemOp:
    __slots__ = ("inst", "counters", "vdests", "sdests", "smem")

    def __init__(self, inst: Inst, counters: set[str], vdests: tuple[int, ...],
                 sdests: tuple[int, ...], smem: bool) -> None:
        self.inst = inst
        self.counters = counters
        self.vdests = vdests
        self.sdests = sdests
        self.smem = smem


def _rname(r: int, v: bool) -> str:
    if v:
        return f"v{r}"
    return SPECIAL_NAMES.get(r) or (f"s{r}" if r <= SGPR_MAX else f"ttmp{r - TTMP0}")


def _cdesc(op: MemOp) -> str:
    c = sorted(op.counters)
    names = {"vm": "vmcnt", "vs": "vscnt", "lgkm": "lgkmcnt", "exp": "expcnt"}
    return "/".join(names[x] for x in c)


class Strict:
    """Per-wave scoreboard and hazard state."""

    def __init__(self, report: Report, wave_name: str, wave_size: int,
                 hazards: bool = True, target: Target | None = None,
                 wgp_mode: bool = True, shared_base_hi: int = 0) -> None:
        """`target`: the code object's chip (None: GFX11's hazards); the GFX11 VALU
        hazards are checked where it lists them, the GFX10 ones by
        `radcc.emu.strict_gfx10` (`gfx10`; `wgp_mode`: the descriptor's WGP mode;
        `shared_base_hi`: the LDS aperture, `radcc.emu.state.SHARED_BASE_HI`)."""
        self.report = report
        self.name = wave_name
        self.wave = wave_size
        self.hazards = hazards
        listed = GFX11_HAZARDS if target is None else target.hazards
        self.gfx11 = Hazard.VALUTransUseHazard in listed  # the GFX11 VALU hazards
        self.permlane_hz = Hazard.VcmpxPermlaneHazard in listed
        self.wmma_hz = Hazard.WMMAHazard in listed
        # the D registers of a WMMA with no VALU after it yet (WMMAHazard), and that WMMA
        self.wmma_dst: frozenset[int] = frozenset()
        self.wmma_last: Inst | None = None
        self.gfx10: Gfx10Strict | None = None
        self.w: Lanes | None = None  # the wave (for the GFX10 checks reading addresses)
        if hazards and target is not None and not listed.isdisjoint(GFX10_STRICT_HAZARDS):
            self.gfx10 = Gfx10Strict(self._add, target, wave_size, wgp_mode, shared_base_hi)
        self.queues: dict[str, list[MemOp]] = {"vm": [], "vs": [], "lgkm": [], "exp": []}
        self.vpend: dict[int, MemOp] = {}
        self.spend: dict[int, MemOp] = {}
        # exports not yet complete: the VGPRs (and EXEC, key -1) they still read (ISA
        # guide 14.3: overwriting them needs s_waitcnt expcnt first)
        self.exp_reads: dict[int, MemOp] = {}
        # hazard state
        self.valu_n = 0
        self.trans_n = 0
        self.va_epoch = 0  # bumped by waits that drain VALU results (va_vdst=0, VMEM, DS)
        self.trans_writes: dict[int, tuple[int, int, int, Inst]] = {}
        # the last VALUs, newest last: (valu index, va_epoch, Use); the hazards look back
        # at most 15 VALUs (LdsDirectVALU: wait_vdst < 16; VALUPartialForwarding: 8)
        self.valu_hist: deque[tuple[int, int, Use]] = deque(maxlen=_HIST)
        self.exec_writes: deque[int] = deque(maxlen=8)  # valu_n at SALU exec writes
        self.recent_valu: deque[tuple[frozenset[int], bool]] = deque(maxlen=64)
        self.mask_write_pending: dict[int, Inst] = {}
        self.vcmpx_pending: Inst | None = None
        self.vmem_src: dict[int, Inst] = {}  # vgpr read by an outstanding VMEM/DS
        # id(instruction) -> its operations still in some queue (instructions live in the
        # program's decode cache, so ids are stable for the dispatch)
        self.live_ops: dict[int, int] = {}

    # --- reporting -------------------------------------------------------------------
    def _add(self, kind: str, key: tuple[object, ...], msg: str, pc: int) -> None:
        self.report.add((kind, *key), Violation(kind, msg, pc, self.name))

    def undefined(self, kind: str, i: Inst, msg: str) -> None:
        """An instruction executed with operands whose result the ISA leaves undefined
        (reported by the instruction's semantics, e.g. `radcc.emu.wmma`)."""
        self._add(kind, (i.pc,), msg, i.pc)

    # --- memory operations ----------------------------------------------------------
    def issue(self, w: object, i: Inst, counters: tuple[str, ...], vdests: tuple[int, ...],
              sdests: tuple[int, ...], smem: bool = False) -> None:
        op = MemOp(i, set(counters), vdests, sdests, smem)
        for c in counters:
            self.queues[c].append(op)
        if op.counters:
            live = self.live_ops
            live[id(i)] = live.get(id(i), 0) + 1
        for r in vdests:
            self.vpend[r] = op
        for r in sdests:
            self.spend[r] = op
        if self.hazards and i.info.cls in _VECTOR_MEMORY:
            use: Use | None = i.aux.get("use")
            if use is not None:
                for r in use.vreads:
                    self.vmem_src[r] = i
            self.va_epoch += 1  # VMEM/DS wait for prior VALU results (va_vdst)

    def _retire(self, op: MemOp, counter: str) -> None:
        op.counters.discard(counter)
        if op.counters:
            return
        key = id(op.inst)
        n = self.live_ops[key] - 1
        if n:
            self.live_ops[key] = n
        else:
            del self.live_ops[key]
        for r in op.vdests:
            if self.vpend.get(r) is op:
                del self.vpend[r]
        for r in op.sdests:
            if self.spend.get(r) is op:
                del self.spend[r]
        if self.exp_reads:
            for r in [r for r, x in self.exp_reads.items() if x is op]:
                del self.exp_reads[r]

    def waitcnt(self, w: object, i: Inst, vmcnt: int | None = None, lgkmcnt: int | None = None,
                expcnt: int | None = None, vscnt: int | None = None) -> None:
        for counter, n in (("vm", vmcnt), ("vs", vscnt), ("exp", expcnt)):
            if n is None:
                continue
            q = self.queues[counter]
            if counter == "exp" and n and len({op.inst.info.cls == "exp" for op in q}) > 1:
                # exports and LDS parameter/direct loads may complete out of order
                # (ISA guide 12.2.1: "requiring s_waitcnt 0 if they are overlapped")
                continue
            if len(q) > n:
                done, self.queues[counter] = q[:len(q) - n], q[len(q) - n:]
                for op in done:
                    self._retire(op, counter)
        if lgkmcnt is not None:
            q = self.queues["lgkm"]
            if len(q) > lgkmcnt:
                keep: list[MemOp] = []
                later_inorder = 0
                retire: list[MemOp] = []
                for op in reversed(q):
                    if op.smem:
                        (retire if lgkmcnt == 0 else keep).append(op)
                    else:
                        later_inorder += 1
                        (retire if later_inorder > lgkmcnt else keep).append(op)
                self.queues["lgkm"] = list(reversed(keep))
                for op in retire:
                    self._retire(op, "lgkm")
        if (vmcnt is not None or lgkmcnt is not None) and self.vmem_src:
            # keep the VGPRs read by instructions with an operation still in a queue (an
            # operation stays in the queue of each counter left in `op.counters`)
            live = self.live_ops
            self.vmem_src = {r: x for r, x in self.vmem_src.items() if id(x) in live}

    def barrier(self, i: Inst) -> None:
        """s_barrier with LDS or store operations still outstanding: other waves of the
        workgroup may not see (or may clobber) their data (a release needs the wait)."""
        for counter in ("lgkm", "vs"):
            for op in self.queues[counter]:
                if op.smem:
                    continue
                self._add("waitcnt", ("barrier", op.inst.pc, i.pc),
                          f"'{i.text}' at pc {i.pc:#x} is reached while '{op.inst.text}' at "
                          f"pc {op.inst.pc:#x} is outstanding (no s_waitcnt {_cdesc(op)} "
                          "before the barrier)", i.pc)
                return

    def depctr(self, w: object, i: Inst, imm: int) -> None:
        if imm >> 12 & 0xF == 0:  # va_vdst = 0
            self.va_epoch += 1
        if imm & 1 == 0:  # sa_sdst = 0
            self.mask_write_pending.clear()
            self.recent_valu.clear()
        if imm >> 2 & 7 == 0:  # vm_vsrc = 0
            self.vmem_src.clear()

    # --- per-instruction checks ----------------------------------------------------------
    def before(self, i: Inst, use: Use) -> None:
        """Check an instruction's register reads/writes against outstanding loads."""
        if self.vpend or self.spend or self.exp_reads:
            self.pending(i, use)
        if self.hazards:
            self._hazards_before(i, use)

    def export(self, w: object, i: Inst, vsrcs: tuple[int, ...]) -> None:
        """An export issued (EXPcnt) that reads VGPRs `vsrcs` and EXEC until it completes."""
        self.issue(w, i, ("exp",), (), ())
        op = self.queues["exp"][-1]
        for r in vsrcs:
            self.exp_reads[r] = op
        self.exp_reads[-1] = op

    def _export_war(self, i: Inst, use: Use) -> None:
        for r in use.vwrites:
            op = self.exp_reads.get(r)
            if op is not None:
                self._add("waitcnt", (op.inst.pc, i.pc, True, r, "exp"),
                          f"'{i.text}' at pc {i.pc:#x} overwrites v{r} that "
                          f"'{op.inst.text}' at pc {op.inst.pc:#x} may still be exporting "
                          "(no s_waitcnt expcnt; ISA guide 14.3)", i.pc)
        if use.swrites & EXEC_REGS and -1 in self.exp_reads:
            op = self.exp_reads[-1]
            self._add("waitcnt", (op.inst.pc, i.pc, False, -1, "exp"),
                      f"'{i.text}' at pc {i.pc:#x} writes EXEC while '{op.inst.text}' at pc "
                      f"{op.inst.pc:#x} may still be exporting (no s_waitcnt expcnt; ISA "
                      "guide 14.3)", i.pc)

    def pending(self, i: Inst, use: Use) -> None:
        """The register checks of `before` against outstanding loads (the dispatcher
        calls this directly when `vpend`, `spend` or `exp_reads` is not empty). A VINTERP
        instruction's ``wait_exp`` is its built-in s_waitcnt expcnt, applied first."""
        if i.enc == "VINTERP":
            self.waitcnt(None, i, expcnt=i.f.get("wait_exp", 0))
        if self.exp_reads:
            self._export_war(i, use)
        if self.vpend:
            for r in use.vreads:
                op = self.vpend.get(r)
                if op is not None:
                    self._pending_read(i, op, r, True)
            if i.info.cls not in _VECTOR_MEMORY:
                for r in use.vwrites:
                    op = self.vpend.get(r)
                    if op is not None:
                        self._pending_write(i, op, r, True)
        if self.spend:
            for r in use.sreads:
                op = self.spend.get(r)
                if op is not None:
                    self._pending_read(i, op, r, False)
            if i.info.cls != "smem":
                for r in use.swrites:
                    op = self.spend.get(r)
                    if op is not None:
                        self._pending_write(i, op, r, False)

    def _pending_read(self, i: Inst, op: MemOp, r: int, v: bool) -> None:
        self._add("waitcnt", (op.inst.pc, i.pc, v, r),
                  f"'{i.text}' at pc {i.pc:#x} reads {_rname(r, v)} before the "
                  f"s_waitcnt {_cdesc(op)} covering '{op.inst.text}' at pc {op.inst.pc:#x}",
                  i.pc)

    def _pending_write(self, i: Inst, op: MemOp, r: int, v: bool) -> None:
        self._add("waitcnt", (op.inst.pc, i.pc, v, r, "w"),
                  f"'{i.text}' at pc {i.pc:#x} overwrites {_rname(r, v)} while "
                  f"'{op.inst.text}' at pc {op.inst.pc:#x} may still write it "
                  f"(no s_waitcnt {_cdesc(op)})", i.pc)

    # --- hazards ------------------------------------------------------------------------
    def _last_write(self, r: int) -> tuple[int, int] | None:
        """(valu index, va_epoch) of the newest remembered VALU writing v`r`."""
        for idx, ep, u in reversed(self.valu_hist):
            if r in u.vwrites:
                return idx, ep
        return None

    def _last_read(self, r: int) -> int | None:
        """Valu index of the newest remembered VALU reading v`r`."""
        for idx, _, u in reversed(self.valu_hist):
            if r in u.vreads:
                return idx
        return None

    def _hazards_before(self, i: Inst, use: Use) -> None:
        if self.gfx10 is not None:
            self.gfx10.before(i, use, self.w)
        if not self.gfx11:
            if use.permlane and self.vcmpx_pending is not None and self.permlane_hz:
                self._permlane(i)
            return
        is_valu = use.valu
        if use.permlane and self.vcmpx_pending is not None:
            self._permlane(i)
        if self.wmma_dst and i.info.cls == "wmma":
            self._wmma(i, use)
        self._gfx11_before(i, use, is_valu)

    def _wmma(self, i: Inst, use: Use) -> None:
        x = self.wmma_last
        assert x is not None
        n = KINDS[i.name].ab_vgprs
        ab = {(i.f[f] - VGPR0 + k) & 255 for f in ("src0", "src1") for k in range(n)}
        hit = sorted(ab & self.wmma_dst)
        if hit:
            self._add("WMMAHazard", (x.pc, i.pc),
                      f"'{i.text}' at pc {i.pc:#x} reads v{hit[0]} as matrix A or B, written "
                      f"as D by '{x.text}' at pc {x.pc:#x} with no VALU in between", i.pc)

    def _permlane(self, i: Inst) -> None:
        x = self.vcmpx_pending
        assert x is not None
        self._add("VcmpxPermlaneHazard", (x.pc, i.pc),
                  f"'{i.text}' at pc {i.pc:#x} follows '{x.text}' at pc {x.pc:#x} "
                  "(a VOPC writing EXEC) with no VALU in between", i.pc)

    def _gfx11_before(self, i: Inst, use: Use, is_valu: bool) -> None:
        if (is_valu or use.salu) and self.mask_write_pending:
            for r in use.sreads:
                x = self.mask_write_pending.get(r)
                if x is not None:
                    self._add("VALUMaskWriteHazard", (x.pc, i.pc, r),
                              f"'{i.text}' at pc {i.pc:#x} reads {_rname(r, False)} written "
                              f"by '{x.text}' at pc {x.pc:#x} after a VALU used it as a lane "
                              "mask, without s_waitcnt_depctr sa_sdst(0)", i.pc)
        if is_valu:
            if self.trans_writes:
                for r in use.vreads:
                    t = self.trans_writes.get(r)
                    if t is None:
                        continue
                    vn, tn, ep, x = t
                    if ep == self.va_epoch and self.valu_n - vn < 6 and self.trans_n - tn < 2:
                        self._add("VALUTransUseHazard", (x.pc, i.pc, r),
                                  f"'{i.text}' at pc {i.pc:#x} reads v{r} written by the "
                                  f"transcendental '{x.text}' at pc {x.pc:#x} with only "
                                  f"{self.valu_n - vn} VALU in between and no "
                                  "s_waitcnt_depctr va_vdst(0)", i.pc)
            # the hazard needs an EXEC write among the last 7 VALUs (`_partial_forwarding`)
            if self.wave == 64 and len(use.vreads) >= 2 and self.exec_writes \
                    and self.exec_writes[-1] > self.valu_n - 8:
                self._partial_forwarding(i, use)
        elif i.info.cls == "ldsdir":
            self._lds_direct(i, use)

    def _partial_forwarding(self, i: Inst, use: Use) -> None:
        n = self.valu_n
        writes = sorted({(idx, r) for r in use.vreads
                         if (t := self._last_write(r)) is not None
                         and t[1] == self.va_epoch and (idx := t[0]) >= n - 8}
                        )
        for ia, ra in writes:
            for ib, rb in writes:
                if not ia < ib or ib - ia - 1 > 2 or n - ib - 1 > 4:
                    continue
                if any(ia < e <= ib for e in self.exec_writes):
                    self._add("VALUPartialForwardingHazard", (i.pc, ra, rb),
                              f"'{i.text}' at pc {i.pc:#x} reads v{ra} (written before an "
                              f"SALU EXEC write) and v{rb} (written after it) too soon, "
                              "without s_waitcnt_depctr va_vdst(0)", i.pc)
                    return

    def _lds_direct(self, i: Inst, use: Use) -> None:
        wait_vdst = i.words[0] >> 16 & 0xF
        for r in use.vwrites:
            last = self._last_read(r)
            if last is not None and self.valu_n - last - 1 < min(wait_vdst, 15):
                self._add("LdsDirectVALUHazard", (i.pc, r),
                          f"'{i.text}' at pc {i.pc:#x} writes v{r} read by a VALU "
                          f"{self.valu_n - last - 1} VALU earlier; wait_vdst must be lower",
                          i.pc)
            x = self.vmem_src.get(r)
            if x is not None:
                self._add("LdsDirectVMEMHazard", (x.pc, i.pc, r),
                          f"'{i.text}' at pc {i.pc:#x} writes v{r} still to be read by "
                          f"'{x.text}' at pc {x.pc:#x} (needs a VALU, a wait or "
                          "s_waitcnt_depctr vm_vsrc(0))", i.pc)

    def after_valu(self, i: Inst, use: Use) -> None:
        """`after` for a VALU instruction (the dispatcher calls it directly): the
        wave32 bookkeeping plus `recent_valu`, which the wave64 VALUMaskWriteHazard reads."""
        self.after_valu32(i, use)
        self.recent_valu.append((use.mask_sreads, use.other_sread))

    def after_valu32(self, i: Inst, use: Use) -> None:
        """`after_valu` of a wave32 wave: without `recent_valu`, which only the wave64
        VALUMaskWriteHazard reads (`after_valu` is this plus that)."""
        idx = self.valu_n
        self.valu_n = idx + 1
        if self.wmma_hz:
            if i.info.cls == "wmma":
                self.wmma_dst, self.wmma_last = use.vwrites, i
            elif self.wmma_dst:
                self.wmma_dst = frozenset()
        if use.trans:
            self.trans_n += 1
            for r in use.vwrites:
                self.trans_writes[r] = (self.valu_n, self.trans_n, self.va_epoch, i)
        elif self.trans_writes:
            for r in use.vwrites:
                self.trans_writes.pop(r, None)
        self.valu_hist.append((idx, self.va_epoch, use))
        if use.cmpx:
            self.vcmpx_pending = i
        elif not use.nop:
            self.vcmpx_pending = None
        if self.vmem_src:
            self.vmem_src.clear()

    def after(self, i: Inst, use: Use) -> None:
        """Update hazard state once the instruction has executed."""
        if not self.hazards:
            return
        if self.gfx10 is not None:
            self.gfx10.after(i, use)
        if use.valu:
            self.after_valu(i, use)
            return
        if use.nop:  # v_nop (class nop, not valu) also separates two WMMAs (ISA 7.9)
            self.wmma_dst = frozenset()
        cls = i.info.cls
        if use.salu:
            if use.call:
                self.recent_valu.clear()  # as LLVM, the search stops at function boundaries
            if use.swrites & EXEC_REGS:
                self.exec_writes.append(self.valu_n)
            targets = use.mask_targets
            if targets and self.wave == 64 and use.sop:
                for masks, other in reversed(self.recent_valu):
                    if masks & targets:
                        for r in targets:
                            self.mask_write_pending[r] = i
                        break
                    if other:
                        break
        elif cls == "exp":
            self.vmem_src.clear()

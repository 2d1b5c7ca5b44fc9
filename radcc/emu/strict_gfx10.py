"""Strict mode's GFX10 hazards: those of ACO's README-ISA.md "RDNA / GFX10 hazards" that
a program must mitigate, checked on the executed instruction stream of each wave.

The facts are radcc's compiler's (one definition each): the register and counter
hazards are `radcc.passes.hazards_gfx10.Gfx10Hazards` (`hits` before an instruction,
`step` after it, over a `Gfx10State` per wave), fed with a `Gfx10Rec` built from the
decoded instruction (`Gfx10Rec.of`): VMEMtoScalarWriteHazard, SMEMtoVectorWriteHazard,
VcmpxExecWARHazard, LdsBranchVmemWARHazard and the SMEM store -> load item
(SMEMStoreLoadHazard). VcmpxPermlaneHazard is the check GFX11 shares
(`radcc.emu.strict.Strict._permlane`). The two bugs:

- Offset3fBug: a branch whose SIMM16 is 0x3f (`emit_program.OFFSET_3F`, LLVM's
  FeatureOffset3fBug; radcc and LLVM pad such a branch with an ``s_nop``).
- LdsMisalignedBug (LLVM's FeatureLdsMisalignedBug: "multi-dword LDS and flat access
  that is not naturally aligned in WGP mode"): in WGP mode (the descriptor's
  ``workgroup_processor_mode``), a DS access of more than one dword, or a FLAT one
  whose address is in the LDS aperture, at an address that is not a multiple of the
  access size rounded up to a power of two (SIISelLowering's natural alignment).
  radcc runs such programs in CU mode (`hazards_gfx10.needs_cu_mode`).

Each is checked only when the code object's `Target` lists it (GFX10.1 lists all;
GFX10.3 none).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

import numpy as np

from radcc.emu.decode import Inst
from radcc.emu.use import Use
from radcc.emu.use import implicit as implicit_sgprs
from radcc.ir.program import Instruction, Operand
from radcc.ir.regclass import VGPR_BASE, PhysReg, s1
from radcc.isa.operands import reg_name
from radcc.passes.access import depctr_of, wait_of
from radcc.passes.emit_program import OFFSET_3F
from radcc.passes.hazards_gfx10 import Gfx10Hazards, Gfx10Rec, Gfx10State
from radcc.target import Hazard, Target

# Strict._add: (kind, deduplication key, message, pc)
Report = Callable[[str, tuple[object, ...], str, int], None]


class Lanes(Protocol):
    """What the LdsMisalignedBug check reads of a wave (`radcc.emu.state.Wave`)."""

    v: np.ndarray

    def exec_mask(self) -> np.ndarray: ...

# the hazards checked here (VcmpxPermlaneHazard is Strict's own)
GFX10_STRICT_HAZARDS = frozenset({
    Hazard.VMEMtoScalarWriteHazard, Hazard.SMEMtoVectorWriteHazard,
    Hazard.VcmpxExecWARHazard, Hazard.LdsBranchVmemWARHazard, Hazard.SMEMStoreLoadHazard,
    Hazard.Offset3fBug, Hazard.LdsMisalignedBug,
})

_WHY = {
    Hazard.VMEMtoScalarWriteHazard: "writes {regs}, read by the vector memory instruction "
    "'{prev}', with no VALU, s_waitcnt_depctr vm_vsrc(0) or counter wait in between",
    Hazard.SMEMtoVectorWriteHazard: "(a VALU) writes {regs}, read by the SMEM instruction "
    "'{prev}', with no SALU writing an SGPR or s_waitcnt lgkmcnt(0) in between",
    Hazard.VcmpxExecWARHazard: "(a VALU) writes EXEC after '{prev}' read it, with no VALU "
    "writing an SGPR or s_waitcnt_depctr sa_sdst(0) in between",
    Hazard.LdsBranchVmemWARHazard: "follows '{prev}' and a branch (DS after VMEM or VMEM "
    "after DS) without s_waitcnt_vscnt null, 0x0",
    Hazard.SMEMStoreLoadHazard: "(an SMEM load) follows the SMEM store '{prev}' without "
    "s_waitcnt lgkmcnt(0)",
}

# multi-dword DS and FLAT loads/stores (canonical names) and their bytes per address
_MULTI = re.compile(r"(ds|flat)_(load|store)(_2addr(_stride64)?)?_b(64|96|128)$")


def _implicit_regs(i: Inst) -> set[int]:
    """The SGPR codes of the registers the table says `i` writes implicitly."""
    out: set[int] = set()
    for name in i.info.implicit_writes:
        out |= set(implicit_sgprs(name, 64))
    return out


def _natural(nbytes: int) -> int:
    return 1 << (nbytes - 1).bit_length()


class Gfx10Strict:
    """One wave's GFX10 hazard state; `before`/`after` run around every instruction."""

    def __init__(self, add: Report, target: Target, wave_size: int, wgp_mode: bool,
                 shared_base_hi: int) -> None:
        """`shared_base_hi`: the high half of the LDS aperture's FLAT addresses."""
        self.add = add
        self.shared_hi = shared_base_hi
        self.h = Gfx10Hazards(target)
        self.st = Gfx10State()
        self.offset3f = target.has_hazard(Hazard.Offset3fBug)
        self.misaligned = target.has_hazard(Hazard.LdsMisalignedBug) and wgp_mode
        self.wave64 = wave_size == 64
        self.last: dict[Hazard, Inst] = {}  # the instruction that opened each hazard

    def _rec(self, i: Inst, u: Use) -> Gfx10Rec:
        r: Gfx10Rec | None = i.aux.get("gfx10")
        if r is None:
            wait = depctr = None
            if i.enc in ("SOPP", "SOPK"):  # the counter waits, as the compiler reads them
                ir = Instruction(i.name, i.enc, fields={"simm16": i.f.get("simm16", 0)})
                if i.enc == "SOPK" and "sdst" in i.f:
                    ir.operands.append(Operand.fixed(PhysReg.of(i.f["sdst"]), s1))
                wait, depctr = wait_of(ir, i.gfx), depctr_of(ir)
            swrites = u.swrites
            if u.salu or i.info.cls == "smem":
                # a scalar instruction's explicit definitions: LLVM's
                # fixVMEMtoScalarWriteHazards compares MI->defs(), so EXEC written
                # implicitly (s_and_saveexec_*) does not count (ACO's check counts it)
                swrites = swrites - set(_implicit_regs(i))
            writes = {*swrites, *(VGPR_BASE + v for v in u.vwrites)}
            r = i.aux["gfx10"] = Gfx10Rec.of(
                i.info, {*u.sreads, *(VGPR_BASE + v for v in u.vreads)}, writes,
                wave64=self.wave64, has_def=bool(writes) or bool(i.info.defs),
                sdefs=any(o.is_def for o in i.info.operands), wait=wait,
                depctr=depctr, opcode=i.name)
        return r

    def before(self, i: Inst, u: Use, w: Lanes | None = None) -> None:
        x = self._rec(i, u)
        st = self.st
        for hz in self.h.hits(st, x):
            prev = self.last.get(hz)
            regs = ", ".join(reg_name(r) for r in sorted(x.swrites)) or "registers"
            why = _WHY[hz].format(regs=regs, prev=prev.text if prev is not None else "?")
            self.add(hz.name, (i.pc, prev.pc if prev is not None else 0),
                             f"'{i.text}' at pc {i.pc:#x} {why}", i.pc)
        if self.offset3f and x.branch and i.enc == "SOPP" and i.f.get("simm16") == OFFSET_3F:
            self.add("Offset3fBug", (i.pc,),
                             f"'{i.text}' at pc {i.pc:#x} is a branch with offset 0x3f "
                             "(GFX10.1 branches there misbehave; pad with s_nop)", i.pc)
        if self.misaligned and w is not None:
            self._misaligned(i, w)

    def after(self, i: Inst, u: Use) -> None:
        x = self._rec(i, u)
        if x.vm or x.ds:
            self.last[Hazard.VMEMtoScalarWriteHazard] = i
            self.last[Hazard.LdsBranchVmemWARHazard] = i
        if x.smem:
            self.last[Hazard.SMEMtoVectorWriteHazard] = i
        if x.reads_exec:
            self.last[Hazard.VcmpxExecWARHazard] = i
        if x.smem_store:
            self.last[Hazard.SMEMStoreLoadHazard] = i
        self.h.step(self.st, x)

    def _misaligned(self, i: Inst, w: Lanes) -> None:
        m = _MULTI.fullmatch(i.name)
        if m is None:
            return
        nbytes = int(m.group(5)) // 8
        lanes = np.nonzero(w.exec_mask())[0]
        if not len(lanes):
            return
        f = i.f
        if m.group(1) == "ds":
            base = w.v[f["addr"], lanes].astype(np.int64)
            if m.group(3):
                scale = nbytes * (64 if m.group(4) else 1)
                addrs = np.concatenate([base + f.get("offset0", 0) * scale,
                                        base + f.get("offset1", 0) * scale])
            else:
                addrs = base + f.get("offset", 0)
        else:
            va = f["addr"]
            full = (w.v[va, lanes].astype(np.uint64)
                    | (w.v[(va + 1) & 255, lanes].astype(np.uint64) << np.uint64(32)))
            full = full + np.uint64(f.get("offset", 0) & 0xFFFFFFFFFFFFFFFF)
            lds = (full >> np.uint64(32)) == self.shared_hi
            addrs = (full[lds] & np.uint64(0xFFFFFFFF)).astype(np.int64)
        bad = addrs % _natural(nbytes) != 0
        if bad.any():
            a = int(addrs[np.argmax(bad)])
            self.add("LdsMisalignedBug", (i.pc,),
                             f"'{i.text}' at pc {i.pc:#x} accesses LDS address {a:#x}, not "
                             f"aligned to {_natural(nbytes)} bytes, in WGP mode (GFX10.1 "
                             "needs CU mode or naturally aligned multi-dword LDS accesses)",
                             i.pc)


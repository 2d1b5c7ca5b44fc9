"""The GFX10 hazards and bugs of ACO's README-ISA.md "RDNA / GFX10 hazards",
as `insert_nops` applies them (its forward state over the linear CFG, joins and
loop fixed point; this module holds the GFX10 part of that state, the
per-instruction facts, the mitigations and the checks).

Each item is handled only when the target lists it (`Target.has_hazard`; GFX10.1
lists them all, GFX10.3 none of the NOP ones, see radcc/target.py). Facts from the
seed, LLVM's GCNHazardRecognizer (feature names) and ACO's aco_insert_NOPs.cpp.

Mitigated by inserting an instruction before the second one of the pair (the
mitigations the seed/ACO/LLVM use; an already present mitigation is recognised,
so the pass is idempotent):

- VMEMtoScalarWriteHazard: a VMEM/FLAT/GLOBAL/SCRATCH/DS instruction reads an
  SGPR (or EXEC, which every vector memory access reads, or M0), then an
  SALU/SMEM instruction writes it. Resolved in between by any VALU other than
  v_nop, ``s_waitcnt_depctr`` with vm_vsrc=0, or a counter wait covering the
  reader: vmcnt(0) for a VMEM that returns data, vscnt(0) for one that does not
  (stores: GFX10 counts them on VScnt), lgkmcnt(0) for DS/FLAT. Inserted:
  ``s_waitcnt_depctr 0xffe3`` (vm_vsrc=0).
- VcmpxExecWARHazard: a non-VALU instruction reads EXEC (an EXEC operand,
  s_cbranch_exec*, or any vector memory access/export, as LLVM counts their
  implicit EXEC use), then a VALU writes EXEC. Resolved in between by a VALU
  writing an SGPR or ``s_waitcnt_depctr`` with sa_sdst=0. Inserted:
  ``s_waitcnt_depctr 0xfffe``.
- SMEMtoVectorWriteHazard: an SMEM instruction reads an SGPR, then a VALU writes
  it. Resolved by a non-SOPP SALU with a definition (so not s_setvskip,
  s_version, the SOPK waits) or a wait with lgkmcnt(0). Inserted:
  ``s_mov_b32 null, 0``.
- LdsBranchVmemWARHazard: VMEM/GLOBAL/SCRATCH, then a branch, then DS (or DS,
  branch, VMEM), with no instruction of either kind between the branch and the
  second one. Only ``s_waitcnt_vscnt null, 0x0`` resolves it; it is inserted.
- SMEMStoreLoadHazard (the section's first, unnamed item): an SMEM store, then
  an SMEM load; ACO has no alias analysis for SMEM and treats every load after a
  store as possibly the same address, so does radcc. Inserted:
  ``s_waitcnt lgkmcnt(0)`` (GFX10 layout).
- VcmpxPermlaneHazard is the GFX11 one, handled by insert_nops itself.

Rejected with `HazardError` naming the hazard, block and instruction (radcc's
isel emits none of these; there is no well-defined local rewrite):

- InstFwdPrefetchBug: ``s_inst_prefetch`` can hang the GPU (LLVM never emits it
  on such targets).
- FlatSegmentOffsetBug: a FLAT (not GLOBAL/SCRATCH) instruction with a non-zero
  offset (rewriting the 64-bit address needs a VGPR pair and a carry chain).
- NSAClauseBug: a MIMG with non-sequential addresses (NSA) inside an
  ``s_clause`` hard clause.
- NSAMaxSize5: an NSA MIMG of more than 3 dwords (more than 5 addresses).

Mitigated by the kernel's mode:

- LdsMisalignedBug: a multi-dword FLAT load/store, whose alignment is unknown
  here, misbehaves on LDS addresses in WGP mode. `needs_cu_mode` reports such a
  program and `kernel_abi.kernel_fields` runs it in CU mode
  (``workgroup_processor_mode`` 0), as LLVM's ``cumode`` feature turns the bug
  off (GCNSubtarget: hasLDSMisalignedBug is the bug without CU mode); splitting
  the access instead, LLVM's WGP-mode answer for under-aligned accesses, would
  need FLAT offsets, which FlatSegmentOffsetBug forbids, or address arithmetic.

Offset3fBug (a branch whose SIMM16 is 0x3f) is layout-dependent: it is fixed in
`emit_program`.

FlatSegmentOffsetBug stays a rejection: LLVM never folds an offset into a FLAT
(segment) instruction on such targets, it adds it to the 64-bit address with a
``v_add_co_u32``/``v_add_co_ci_u32`` pair into new VGPRs. Here, after register
allocation, that needs two free VGPRs (and a VCC or SGPR pair for the carry)
at the instruction, which nothing guarantees; before RA the offset would have
to be kept out of the instruction by isel, and radcc's isel selects GFX11 only.
"""

from __future__ import annotations

from collections.abc import Iterable

from radcc.ir.fields import make_fields
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, NULL, VGPR_BASE, PhysReg, s1
from radcc.isa.table import OpInfo
from radcc.passes.access import (
    VALU_CLASSES,
    Access,
    depctr_of,
    encode_waitcnt,
    info_of,
    is_branch,
    is_ds,
    is_exp,
    is_flat,
    is_scalar_unit,
    is_smem,
    is_smem_store,
    is_valu,
    is_vmem,
    wait_of,
)
from radcc.passes.hw_copy import LoweringError
from radcc.target import Hazard, Target

__all__ = ["Gfx10Hazards", "Gfx10Rec", "Gfx10State", "HazardError",
           "needs_cu_mode"]

DEPCTR_VM_VSRC0 = 0xFFE3  # the seed's/ACO's value for VMEMtoScalarWriteHazard
DEPCTR_SA_SDST0 = 0xFFFE  # ... for VcmpxExecWARHazard
_SREG_LIMIT = 128  # SGPRs, vcc, m0, exec: the registers the SGPR hazards track
_EXEC_REGS = (EXEC, EXEC + 1)


class HazardError(LoweringError):
    """A hazard insert_nops cannot mitigate (names hazard, block and instruction)."""


class Gfx10Rec:
    """What the GFX10 hazards need of one instruction."""

    __slots__ = ("scalar", "sop_def", "smem", "smem_store", "smem_load", "valu", "valu_enc",
                 "vm", "vmem", "flat", "ds", "branch", "sreads", "vm_sreads", "swrites",
                 "writes_exec", "reads_exec", "valu_writes_sgpr", "has_def", "wait", "depctr",
                 "vscnt0")

    def __init__(self, program: Program, instr: Instruction, info: OpInfo | None,
                 acc: Access) -> None:
        self._fill(info, acc.reads, acc.writes, program.wave_size == 64,
                   bool(instr.definitions) or bool(acc.writes),
                   any(d.phys is not None for d in instr.definitions),
                   wait_of(instr, program.gfx_level), depctr_of(instr), instr.opcode)

    @classmethod
    def of(cls, info: OpInfo | None, reads: Iterable[int], writes: Iterable[int], *,
           wave64: bool, has_def: bool, sdefs: bool, wait: dict[str, int] | None,
           depctr: dict[str, int] | None, opcode: str) -> Gfx10Rec:
        """The record of an instruction known by its table entry, the registers it reads
        and writes (SGPR codes; VGPRs from VGPR_BASE), whether it has definitions
        (`sdefs`: a register definition, an SMEM load's data), its counter wait
        (`access.wait_of`), its ``s_waitcnt_depctr`` fields and canonical name: how the
        emulator's strict mode (radcc/emu/strict_gfx10.py) builds it for an executed
        instruction, so both check the same facts."""
        r = cls.__new__(cls)
        r._fill(info, reads, writes, wave64, has_def, sdefs, wait, depctr, opcode)
        return r

    def _fill(self, info: OpInfo | None, reads: Iterable[int], writes: Iterable[int],
              wave64: bool, has_def: bool, sdefs: bool, wait: dict[str, int] | None,
              depctr: dict[str, int] | None, opcode: str) -> None:
        reads = frozenset(reads)
        writes = frozenset(writes)
        exec_regs = _EXEC_REGS if wave64 else _EXEC_REGS[:1]
        self.scalar = is_scalar_unit(info)
        self.has_def = has_def
        self.sop_def = self.scalar and info is not None and info.enc not in ("SOPP", "SMEM") \
            and self.has_def
        self.smem = is_smem(info)
        self.smem_store = is_smem_store(info)
        self.smem_load = self.smem and sdefs
        self.valu = is_valu(info)
        self.valu_enc = info is not None and (info.cls in VALU_CLASSES
                                              or info.enc.startswith("VOP"))
        self.vmem = is_vmem(info)
        self.flat = is_flat(info)
        self.vm = self.vmem or self.flat
        self.ds = is_ds(info)
        self.branch = is_branch(info)
        self.sreads = frozenset(r for r in reads if r < _SREG_LIMIT)
        self.vm_sreads = (self.sreads | frozenset(exec_regs)) if (self.vm or self.ds) \
            else frozenset()
        self.swrites = frozenset(r for r in writes if r < _SREG_LIMIT)
        self.writes_exec = any(r in writes for r in exec_regs)
        self.reads_exec = not self.valu_enc and info is not None and (
            any(r in reads for r in exec_regs) or self.vm or self.ds or is_exp(info))
        self.valu_writes_sgpr = self.valu and any(r < VGPR_BASE for r in writes)
        self.wait = wait
        self.depctr = depctr
        self.vscnt0 = opcode == "s_waitcnt_vscnt" and (self.wait or {}).get("vs") == 0


class Gfx10State:
    """Forward state of the GFX10 hazards at one program point."""

    __slots__ = ("vm_load", "vm_store", "vm_ds", "exec_read", "smem_read", "vmem", "br_vmem",
                 "ds", "br_ds", "smem_store")

    def __init__(self) -> None:
        self.vm_load: set[int] = set()  # SGPRs read by VMEM returning data
        self.vm_store: set[int] = set()  # ... by VMEM not returning data
        self.vm_ds: set[int] = set()  # ... by FLAT/DS (LGKMcnt)
        self.exec_read = False
        self.smem_read: set[int] = set()
        self.vmem = self.br_vmem = self.ds = self.br_ds = False
        self.smem_store = False

    def copy(self) -> Gfx10State:
        s = Gfx10State.__new__(Gfx10State)
        s.vm_load, s.vm_store, s.vm_ds = set(self.vm_load), set(self.vm_store), set(self.vm_ds)
        s.exec_read = self.exec_read
        s.smem_read = set(self.smem_read)
        s.vmem, s.br_vmem, s.ds, s.br_ds = self.vmem, self.br_vmem, self.ds, self.br_ds
        s.smem_store = self.smem_store
        return s

    def __eq__(self, o: object) -> bool:
        return (isinstance(o, Gfx10State) and self.vm_load == o.vm_load
                and self.vm_store == o.vm_store and self.vm_ds == o.vm_ds
                and self.exec_read == o.exec_read and self.smem_read == o.smem_read
                and (self.vmem, self.br_vmem, self.ds, self.br_ds, self.smem_store)
                == (o.vmem, o.br_vmem, o.ds, o.br_ds, o.smem_store))

    def join(self, o: Gfx10State) -> None:
        self.vm_load |= o.vm_load
        self.vm_store |= o.vm_store
        self.vm_ds |= o.vm_ds
        self.exec_read |= o.exec_read
        self.smem_read |= o.smem_read
        self.vmem |= o.vmem
        self.br_vmem |= o.br_vmem
        self.ds |= o.ds
        self.br_ds |= o.br_ds
        self.smem_store |= o.smem_store

    def clear_vm(self) -> None:
        self.vm_load.clear()
        self.vm_store.clear()
        self.vm_ds.clear()

    def clear_lds_branch(self) -> None:
        self.vmem = self.br_vmem = self.ds = self.br_ds = False


def _depctr(v: int) -> Instruction:
    return Instruction("s_waitcnt_depctr", "SOPP", fields=make_fields("SOPP", {"simm16": v}))


def _s_mov_null() -> Instruction:
    return Instruction("s_mov_b32", "SOP1", [Operand.c32(0)],
                       [Definition.fixed(PhysReg.of(NULL), s1)])


def _vscnt0() -> Instruction:
    return Instruction("s_waitcnt_vscnt", "SOPK", [Operand.fixed(PhysReg.of(NULL), s1)],
                       fields=make_fields("SOPK", {"simm16": 0}))


class Gfx10Hazards:
    """The GFX10 hazards one target has (`active` is False when none)."""

    def __init__(self, target: Target) -> None:
        has = target.has_hazard
        self.gfx = target.gfx_level
        self.vm_scalar = has(Hazard.VMEMtoScalarWriteHazard)
        self.smem_vector = has(Hazard.SMEMtoVectorWriteHazard)
        self.exec_war = has(Hazard.VcmpxExecWARHazard)
        self.lds_branch = has(Hazard.LdsBranchVmemWARHazard)
        self.smem_store_load = has(Hazard.SMEMStoreLoadHazard)
        self.active = (self.vm_scalar or self.smem_vector or self.exec_war or self.lds_branch
                       or self.smem_store_load)

    def lgkm0(self) -> Instruction:
        return Instruction("s_waitcnt", "SOPP",
                           fields=make_fields("SOPP", {"simm16": encode_waitcnt(lgkm=0, gfx=self.gfx)}))

    def hits(self, st: Gfx10State, x: Gfx10Rec) -> list[Hazard]:
        """The hazards the instruction of `x` completes in state `st` (unmitigated so
        far): what `mitigate` resolves, and what the emulator's strict mode reports."""
        out: list[Hazard] = []
        if self.vm_scalar and x.scalar and x.swrites and (
                not x.swrites.isdisjoint(st.vm_load) or not x.swrites.isdisjoint(st.vm_store)
                or not x.swrites.isdisjoint(st.vm_ds)):
            out.append(Hazard.VMEMtoScalarWriteHazard)
        if self.exec_war and st.exec_read and x.valu and x.writes_exec:
            out.append(Hazard.VcmpxExecWARHazard)
        if (self.smem_vector and st.smem_read and x.valu_writes_sgpr
                and not x.swrites.isdisjoint(st.smem_read)):
            out.append(Hazard.SMEMtoVectorWriteHazard)
        if self.lds_branch and ((x.vmem and st.br_ds) or (x.ds and st.br_vmem)):
            out.append(Hazard.LdsBranchVmemWARHazard)
        if self.smem_store_load and st.smem_store and x.smem_load:
            out.append(Hazard.SMEMStoreLoadHazard)
        return out

    def mitigate(self, st: Gfx10State, x: Gfx10Rec) -> list[Instruction]:
        """Instructions to insert before the one of `x` in state `st`."""
        hits = self.hits(st, x)
        if not hits:
            return []
        out: list[Instruction] = []
        depctr = 0xFFFF
        if Hazard.VMEMtoScalarWriteHazard in hits:
            depctr &= DEPCTR_VM_VSRC0
        if Hazard.VcmpxExecWARHazard in hits:
            depctr &= DEPCTR_SA_SDST0
        if depctr != 0xFFFF:
            out.append(_depctr(depctr))
        if Hazard.SMEMtoVectorWriteHazard in hits:
            out.append(_s_mov_null())
        if Hazard.LdsBranchVmemWARHazard in hits:
            out.append(_vscnt0())
        if Hazard.SMEMStoreLoadHazard in hits:
            out.append(self.lgkm0())
        return out

    def step(self, st: Gfx10State, x: Gfx10Rec) -> None:
        """Update `st` after the instruction of `x` executed."""
        w = x.wait
        if self.vm_scalar:
            if x.vm or x.ds:
                if x.vm:
                    (st.vm_load if x.has_def else st.vm_store).update(x.vm_sreads)
                if x.flat or x.ds:
                    st.vm_ds.update(x.vm_sreads)
            elif x.scalar:
                if w is not None:
                    if w.get("vm") == 0:
                        st.vm_load.clear()
                    if w.get("lgkm") == 0:
                        st.vm_ds.clear()
                    if w.get("vs") == 0:
                        st.vm_store.clear()
                elif x.depctr is not None and x.depctr["vm_vsrc"] == 0:
                    st.clear_vm()
                if x.swrites and (not x.swrites.isdisjoint(st.vm_load)
                                  or not x.swrites.isdisjoint(st.vm_store)
                                  or not x.swrites.isdisjoint(st.vm_ds)):
                    st.clear_vm()  # only reached when not mitigated (a check failed)
            elif x.valu:
                st.clear_vm()
        if self.exec_war:
            if x.reads_exec:
                st.exec_read = True
            elif x.valu and (x.writes_exec or x.valu_writes_sgpr):
                st.exec_read = False
            elif x.depctr is not None and x.depctr["sa_sdst"] == 0:
                st.exec_read = False
        if self.smem_vector:
            if x.smem:
                st.smem_read.update(x.sreads)
            elif x.valu_writes_sgpr:
                if not x.swrites.isdisjoint(st.smem_read):
                    st.smem_read.clear()
            elif x.scalar and ((w is not None and w.get("lgkm") == 0) or x.sop_def):
                st.smem_read.clear()
        if self.lds_branch:
            if x.vmem:
                st.clear_lds_branch()
                st.vmem = True
            elif x.ds:
                st.clear_lds_branch()
                st.ds = True
            elif x.branch:
                st.br_vmem |= st.vmem
                st.br_ds |= st.ds
                st.vmem = st.ds = False
            elif x.vscnt0:
                st.clear_lds_branch()
        if self.smem_store_load:
            if x.smem_store:
                st.smem_store = True
            elif w is not None and w.get("lgkm") == 0:
                st.smem_store = False

    def resolve_all(self, st: Gfx10State) -> list[Instruction]:
        """Instructions resolving everything pending (unknown code follows)."""
        out: list[Instruction] = []
        depctr = 0xFFFF
        if self.vm_scalar and (st.vm_load or st.vm_store or st.vm_ds):
            depctr &= DEPCTR_VM_VSRC0
        if self.exec_war and st.exec_read:
            depctr &= DEPCTR_SA_SDST0
        if depctr != 0xFFFF:
            out.append(_depctr(depctr))
        if self.smem_vector and st.smem_read:
            out.append(_s_mov_null())
        if self.lds_branch and (st.vmem or st.br_vmem or st.ds or st.br_ds):
            out.append(_vscnt0())
        if self.smem_store_load and st.smem_store:
            out.append(self.lgkm0())
        return out


# --- the bugs radcc rejects ----------------------------------------------------------

def _fail(hazard: str, block: Block, k: int, instr: Instruction, why: str) -> HazardError:
    return HazardError(f"insert_nops: {hazard}: BB{block.index} instruction {k} "
                       f"'{instr.opcode}': {why}")


def _mimg_addresses(instr: Instruction, info: OpInfo) -> list[Operand] | None:
    """The VGPR address operands of an NSA MIMG (None when not NSA): NSA when
    the addresses are several operands that are not one contiguous range."""
    addr = [o for o in instr.operands if o.phys is not None and o.phys.reg >= VGPR_BASE
            and o is not _vdata_operand(instr, info)]
    if instr.fields.get("nsa"):
        return addr
    if len(addr) <= 1:
        return None
    nxt = addr[0].phys.reg  # type: ignore[union-attr]
    for o in addr:
        if o.phys.reg != nxt:  # type: ignore[union-attr]
            return addr
        nxt += o.rc.size if o.rc is not None else 1
    return None


def _vdata_operand(instr: Instruction, info: OpInfo) -> Operand | None:
    """A MIMG store's data operand (the first operand when the table's first
    slot is a non-def 'vdata')."""
    first = next((s for s in info.operands if not s.kind == "imm"), None)
    if first is not None and first.name == "vdata" and not first.is_def and instr.operands:
        return instr.operands[0]
    return None


def check_unmitigable(program: Program, info_of: object) -> None:
    """Raise `HazardError` for the first instruction a listed bug forbids."""
    t = program.target
    prefetch = t.has_hazard(Hazard.InstFwdPrefetchBug)
    flat_off = t.has_hazard(Hazard.FlatSegmentOffsetBug)
    nsa_clause = t.has_hazard(Hazard.NSAClauseBug)
    nsa5 = t.has_hazard(Hazard.NSAMaxSize5)
    if not (prefetch or flat_off or nsa_clause or nsa5):
        return
    get = info_of  # callable(program, instr) -> OpInfo | None
    for block in program.blocks:
        clause_left = 0
        for k, instr in enumerate(block.instructions):
            info = get(program, instr)  # type: ignore[operator]
            if info is None:
                continue
            in_clause = clause_left > 0
            if clause_left:
                clause_left -= 1
            if instr.opcode == "s_clause":
                clause_left = int(instr.fields.get("simm16", 0)) + 1  # type: ignore[call-overload]
                continue
            if prefetch and instr.opcode == "s_set_inst_prefetch_distance":
                raise _fail("InstFwdPrefetchBug", block, k, instr,
                            "s_inst_prefetch can hang this GPU")  # GFX10 spelling
            if is_flat(info):
                off = instr.fields.get("offset", 0)
                if flat_off and isinstance(off, int) and off != 0:
                    raise _fail("FlatSegmentOffsetBug", block, k, instr,
                                f"a FLAT access must have offset 0 (has {off})")
            if info.enc == "MIMG" and (nsa_clause or nsa5):
                addr = _mimg_addresses(instr, info)
                if addr is None:
                    continue
                if nsa_clause and in_clause:
                    raise _fail("NSAClauseBug", block, k, instr,
                                "an NSA MIMG in a hard clause (s_clause) is unpredictable")
                if nsa5 and len(addr) > 5:
                    raise _fail("NSAMaxSize5", block, k, instr,
                                f"an NSA MIMG is limited to 5 addresses (has {len(addr)})")


def needs_cu_mode(program: Program) -> bool:
    """Must the kernel run in CU mode: the target has LdsMisalignedBug and the
    program a multi-dword FLAT load/store (module docstring)?"""
    if not program.target.has_hazard(Hazard.LdsMisalignedBug):
        return False
    for _b, instr in program.instructions():
        info = info_of(program, instr)
        if info is not None and is_flat(info) and _flat_multi_dword(instr, info):
            return True
    return False


def _flat_multi_dword(instr: Instruction, info: OpInfo) -> bool:
    """A FLAT load/store moving more than one dword (data or result)."""
    for s in info.operands:
        if s.name in ("vdst", "vdata", "data") and s.bits > 32:
            return True
    return False

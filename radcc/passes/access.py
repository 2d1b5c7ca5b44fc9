"""Instruction classes and register accesses after register allocation (what the
wait-state phases and the post-RA schedulers ask of one instruction; the classification
itself is radcc/isa/classes.py).

Shared by the wait-state phases (insert_waitcnt, insert_nops,
insert_delay_alu). Every predicate is derived from the opcode table
(`OpInfo.cls`, encodings, operand specs, implicit registers): no pass keeps
its own opcode list. The classes are the table's (`docs/machine-layer.md`):
salu salu64 branch smem valu valu64 trans dot wmma vmem flat ds exp ldsdir
vinterp message waitcnt nop.

Register numbers are dwords in the source-operand space, as `PhysReg.reg`:
SGPRs 0-105, vcc 106/107, m0 125, exec 126/127, scc 253, VGPRs 256+.
Implicit ``exec``/``vcc`` are one register in wave32 and two in wave64.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from radcc.ir.opinfo import REG_KINDS
from radcc.ir.program import Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, M0, NULL, SCC, VCC, VGPR_BASE
from radcc.isa.classes import SALU_TABLE_CLASSES, SCALAR_ENCODINGS, VALU_TABLE_CLASSES
from radcc.isa.formats.scalar_fields import (
    DEPCTR,
    DEPCTR_USED,
    waitcnt_layout,
)
from radcc.isa.table import OpInfo, get_table
from radcc.target import GfxLevel

# Classes that execute on the VALU and count as VALU instructions in hazard
# distances (v_nop's VOP1 form is class 'nop' and does not count).
VALU_CLASSES = VALU_TABLE_CLASSES
SALU_CLASSES = SALU_TABLE_CLASSES
# VMEM-like: read VGPR addresses/data through the texture path.
VMEM_CLASSES = frozenset({"vmem", "flat"})

_IMPLICIT_BASE = {"exec": EXEC, "vcc": VCC, "m0": M0, "scc": SCC}
LANE_MASK_REGS = frozenset({VCC, VCC + 1, EXEC, EXEC + 1})


@cache
def _info_index(gfx: GfxLevel) -> dict[tuple[str, str], OpInfo]:
    return {(e.canon, e.enc): e for e in get_table(gfx).entries}


def info_index(gfx: GfxLevel) -> dict[tuple[str, str], OpInfo]:
    """The generation's table entries by (canonical opcode, encoding): `info_of` for
    callers that look up many instructions and need no `Access`."""
    return _info_index(gfx)


def info_of(program: Program, instr: Instruction) -> OpInfo | None:
    """The table entry of a hardware instruction (None for pseudo ones)."""
    return _info_index(program.gfx_level).get((instr.opcode, instr.format))


# --- classes ---------------------------------------------------------------------------

def is_valu(info: OpInfo | None) -> bool:
    return info is not None and info.cls in VALU_CLASSES and not is_nop(info)


def is_valu_reader(info: OpInfo | None) -> bool:
    """Reads VGPRs on the VALU path (VALU and VINTERP)."""
    return info is not None and (is_valu(info) or info.cls == "vinterp")


def is_trans(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "trans"


def is_salu(info: OpInfo | None) -> bool:
    return info is not None and info.cls in SALU_CLASSES


def is_nop(info: OpInfo | None) -> bool:
    """Instructions the table classes 'nop' (any encoding: v_nop_e64 too)."""
    if info is None:
        return False
    return info.cls == "nop" or info.name in _names_of_class("nop")


def is_vmem(info: OpInfo | None) -> bool:
    """MUBUF/MTBUF/MIMG/GLOBAL/SCRATCH (not FLAT)."""
    return info is not None and info.cls == "vmem"


def is_flat(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "flat"


def is_ds(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "ds"


def is_smem(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "smem"


def is_exp(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "exp"


def is_ldsdir(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "ldsdir"


def is_vinterp(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "vinterp"


def is_message(info: OpInfo | None) -> bool:
    return info is not None and info.cls == "message"


def is_vopc_op(info: OpInfo | None) -> bool:
    """A compare (an opcode that has a VOPC encoding), in any of its encodings."""
    return info is not None and info.name in _names_with_enc("VOPC")


def is_permlane(info: OpInfo | None) -> bool:
    """The lane permutes of the VcmpxPermlaneHazard (ACO's README.md)."""
    return info is not None and info.cls in VALU_CLASSES and info.name.startswith("v_permlane")


def is_branch(info: OpInfo | None) -> bool:
    """Instructions the table classes 'branch': s_branch, s_cbranch_*, s_call,
    s_getpc/s_setpc/s_swappc, s_rfe (the branches of the GFX10
    LdsBranchVmemWARHazard, as ACO's and LLVM's lists)."""
    return info is not None and info.cls == "branch"




def is_scalar_unit(info: OpInfo | None) -> bool:
    """Any scalar-unit instruction (SOP1/SOP2/SOPK/SOPC/SOPP/SMEM encodings,
    whatever its class: waits, nops and messages too)."""
    return info is not None and info.enc in SCALAR_ENCODINGS


def is_smem_store(info: OpInfo | None) -> bool:
    """An SMEM instruction that writes memory: it reads an 'sdata' slot
    (s_store_*, s_buffer_store_*, s_scratch_store_*, atomics)."""
    return (info is not None and info.cls == "smem"
            and any(o.name == "sdata" and not o.is_def for o in info.operands))


def is_indirect_branch(info: OpInfo | None) -> bool:
    """Branch-class SOP1 instructions that jump to an address in SGPRs
    (s_setpc_b64, s_swappc_b64, s_rfe_b64): the target is unknown."""
    return (info is not None and info.cls == "branch" and info.enc == "SOP1"
            and any(not o.is_def and o.bits == 64 for o in info.operands))


@cache
def _names_with_enc(enc: str) -> frozenset[str]:
    """Canonical names of the instructions with an `enc` encoding. Canonical names are
    GFX11's (`radcc.isa.table`'s vocabulary), so GFX11's table answers for every
    generation (tests/passes/test_access.py checks the other tables agree); loading
    only it keeps the other generations' tables out of a GFX11 compile."""
    return frozenset(e.canon for e in get_table(GfxLevel.GFX11).entries if e.enc == enc)


@cache
def _names_of_class(cls: str) -> frozenset[str]:
    """Canonical names of the instructions of table class `cls` (as `_names_with_enc`)."""
    return frozenset(e.canon for e in get_table(GfxLevel.GFX11).entries if e.cls == cls)


def returns_data(instr: Instruction, info: OpInfo) -> bool:
    """A VMEM/FLAT instruction that counts on VMcnt (loads, samples, atomics
    with return, LDS DMA loads) rather than VScnt (stores, atomics without
    return, cache invalidations)."""
    if any(d.phys is not None and d.phys.reg >= VGPR_BASE for d in instr.definitions):
        return True
    mimg = info.extra.get("mimg")
    if isinstance(mimg, dict) and mimg.get("atomic"):
        return bool(instr.fields.get("glc"))
    if any(o.is_def and o.kind == "vgpr" for o in info.operands):
        return True
    if info.extra.get("rtn_bits") and instr.fields.get("glc"):
        return True
    return "load" in info.name


def is_gds(instr: Instruction, info: OpInfo) -> bool:
    return bool(instr.fields.get("gds")) or bool(info.extra.get("gds_required"))


# --- register accesses -----------------------------------------------------------------

def _regs(x: Operand | Definition) -> range:
    if x.phys is None:
        return range(0)
    n = x.rc.size if x.rc is not None else 1
    r = x.phys.reg
    if r == NULL:
        return range(0)
    return range(r, r + n)


def implicit_regs(names: Iterable[str], wave_size: int) -> list[int]:
    out: list[int] = []
    for n in names:
        base = _IMPLICIT_BASE.get(n)
        if base is None:
            continue
        out.append(base)
        if n in ("exec", "vcc") and wave_size == 64:
            out.append(base + 1)
    return out


def operand_regs(op: Operand) -> range:
    if op.const is not None or op.is_undef:
        return range(0)
    return _regs(op)


# --- register accesses, computed once per instruction ---------------------------------

def _regs_into(out: set[int], xs: Iterable[Operand | Definition], operands: bool) -> None:
    for x in xs:
        phys = x.phys
        if phys is None or (operands and (x.const is not None  # type: ignore[union-attr]
                                          or x.is_undef)):  # type: ignore[union-attr]
            continue
        r = phys.reg_b >> 2
        if r == NULL:
            continue
        rc = x.rc
        if rc is None:
            out.add(r)
        else:
            out.update(range(r, r + (rc.bytes + 3) // 4))


def regs_of(xs: Iterable[Operand | Definition]) -> frozenset[int]:
    """The register dwords of some operands (constants and undefs excluded) or
    definitions, numbered as `Access.reads`."""
    out: set[int] = set()
    _regs_into(out, xs, True)
    return frozenset(out)


_NO_REGS: frozenset[int] = frozenset()


# a table entry's implicit reads and writes (`implicit_regs`) by (`OpInfo.uid`, wave size)
_IMPLICIT: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


class Access:
    """What one instruction reads (`reads`: its operands' registers, constants and
    undefs excluded, and the table's implicit reads) and writes (`writes`: its
    definitions' registers and the implicit writes), the VGPRs among them
    (`vreads`/`vwrites`), and its table entry. The sets are frozen: they are shared
    by every query."""

    __slots__ = ("info", "reads", "writes", "vreads", "vwrites")

    def __init__(self, program: Program, instr: Instruction, info: OpInfo | None) -> None:
        # `_regs_into` inlined (built for every instruction by every back-end pass that
        # asks, and by the statistics), the registers below the VGPRs (`rs`/`ws`) and
        # the VGPRs (`rv`/`wv`) gathered apart: the VGPR subsets need no second pass
        rs: set[int] = set()
        rv: set[int] = set()
        ws: set[int] = set()
        wv: set[int] = set()
        for o in instr.operands:
            phys = o.phys
            if phys is None or o.const is not None or o.is_undef:
                continue
            r = phys.reg
            if r == NULL:
                continue
            into = rv if r >= VGPR_BASE else rs
            rc = o.rc
            if rc is None or rc.bytes <= 4:
                into.add(r)
            else:
                into.update(range(r, r + rc.size))
        for d in instr.definitions:
            phys = d.phys
            if phys is None:
                continue
            r = phys.reg
            if r == NULL:
                continue
            into = wv if r >= VGPR_BASE else ws
            rc = d.rc
            if rc is None or rc.bytes <= 4:
                into.add(r)
            else:
                into.update(range(r, r + rc.size))
        if info is not None and (info.implicit_reads or info.implicit_writes):
            key = (info.uid, program.wave_size)
            e = _IMPLICIT.get(key)
            if e is None:
                e = _IMPLICIT[key] = (
                    tuple(implicit_regs(info.implicit_reads, program.wave_size)),
                    tuple(implicit_regs(info.implicit_writes, program.wave_size)))
            rs.update(e[0])  # implicit registers are all below the VGPRs
            ws.update(e[1])
        self.info = info
        self.vreads = vreads = frozenset(rv) if rv else _NO_REGS
        self.vwrites = vwrites = frozenset(wv) if wv else _NO_REGS
        self.reads = vreads.union(rs) if rs else vreads
        self.writes = vwrites.union(ws) if ws else vwrites


class AccessCache:
    """`Access` of each instruction object, computed on the first query (the
    wait-state passes query an instruction many times: analysis visits,
    emission, backward searches).

    Keyed by the instruction's identity; the cache keeps a reference to every
    instruction it holds, so an id is not reused while the cache lives. A cache
    is valid as long as no instruction it has seen changes its opcode, format,
    operands or definitions: make one per pass run (the wait-state passes only
    add new instructions and change immediates)."""

    __slots__ = ("program", "_index", "_m")

    def __init__(self, program: Program) -> None:
        self.program = program
        self._index = _info_index(program.gfx_level)
        self._m: dict[int, tuple[Instruction, Access]] = {}

    def __call__(self, instr: Instruction) -> Access:
        e = self._m.get(id(instr))
        if e is not None:
            return e[1]
        a = self.uncached(instr)
        self._m[id(instr)] = (instr, a)
        return a

    def uncached(self, instr: Instruction) -> Access:
        """`instr`'s `Access` built anew and not kept: for a pass that keeps its own
        record of each instruction (and so asks once per instruction)."""
        return Access(self.program, instr, self._index.get((instr.opcode, instr.format)))


def _lane_mask_plan(info: OpInfo) -> tuple[tuple[int, ...], bool]:
    """Of a VALU table entry: the positions (in the instruction's operands) of the
    sources read as a lane mask, and whether it reads VCC implicitly; `lane_mask_reads`'
    facts of the opcode, derived once per table entry."""
    specs = [s for s in info.operands if not s.is_def and s.kind in REG_KINDS]
    return (tuple(k for k, spec in enumerate(specs)
                  if spec.kind == "sreg_wave" or (spec.kind == "special" and "vcc" in spec.fixed)),
            "vcc" in info.implicit_reads)


# `_lane_mask_plan` by table entry (`OpInfo.uid`), None for a non-VALU one
_LANE_MASK_PLANS: dict[int, tuple[tuple[int, ...], bool] | None] = {}


def lane_mask_reads(program: Program, instr: Instruction, info: OpInfo) -> set[int]:
    """SGPRs a VALU reads as a lane mask: v_cndmask's select, carry-ins and
    the implicit VCC of v_div_fmas (table kinds 'sreg_wave'/'special' and
    implicit 'vcc' reads; EXEC excluded)."""
    uid = info.uid
    if uid in _LANE_MASK_PLANS:
        plan = _LANE_MASK_PLANS[uid]
    else:
        plan = _LANE_MASK_PLANS[uid] = _lane_mask_plan(info) if is_valu(info) else None
    out: set[int] = set()
    if plan is None:
        return out
    positions, vcc = plan
    if not positions and not vcc:
        return out
    operands = instr.operands
    for k in positions:
        if k < len(operands):
            out.update(r for r in operand_regs(operands[k]) if r < VGPR_BASE)
    if vcc:
        out.update(implicit_regs(("vcc",), program.wave_size))
    return out - {EXEC, EXEC + 1}


# --- s_waitcnt / s_waitcnt_depctr immediates -----------------------------------------

WAIT_COUNTERS = ("vm", "exp", "lgkm", "vs")
_COUNTER_NAMES = (("vm", "vmcnt"), ("exp", "expcnt"), ("lgkm", "lgkmcnt"))
# the counter maxima are the same in every generation's s_waitcnt layout (GFX10-11)
WAIT_MAX = {k: waitcnt_layout(GfxLevel.GFX11).max(name) for k, name in _COUNTER_NAMES} | {"vs": 0x3F}
assert all(waitcnt_layout(g).max(name) == WAIT_MAX[k]
           for g in (GfxLevel.GFX10, GfxLevel.GFX10_3) for k, name in _COUNTER_NAMES)
_SOPK_WAITS = {"s_waitcnt_vscnt": "vs", "s_waitcnt_vmcnt": "vm", "s_waitcnt_expcnt": "exp",
               "s_waitcnt_lgkmcnt": "lgkm"}


def encode_waitcnt(vm: int | None = None, exp: int | None = None,
                   lgkm: int | None = None, *, gfx: GfxLevel) -> int:
    """The SIMM16 of ``s_waitcnt`` in `gfx`'s layout (the ISA layer's
    `waitcnt_layout`); counts above a field's maximum clamp."""
    counts = {name: n for (_k, name), n in zip(_COUNTER_NAMES, (vm, exp, lgkm), strict=True)
              if n is not None}
    return waitcnt_layout(gfx).encode(counts)


def decode_waitcnt(simm16: int, gfx: GfxLevel) -> dict[str, int]:
    """Counters an ``s_waitcnt`` SIMM16 waits on (fields at their max are absent),
    in `gfx`'s layout."""
    counts = waitcnt_layout(gfx).decode(simm16)
    return {k: counts[name] for k, name in _COUNTER_NAMES if name in counts}


# the opcodes `wait_of` knows (it returns None for every other one)
WAIT_OPCODES = frozenset({"s_waitcnt", *_SOPK_WAITS, "s_wait_idle"})


def wait_of(instr: Instruction, gfx: GfxLevel) -> dict[str, int] | None:
    """The counter wait an instruction performs (s_waitcnt, the SOPK forms with
    a null SGPR, s_wait_idle), or None when it is not a known counter wait.
    `gfx` selects the ``s_waitcnt`` layout (see `decode_waitcnt`)."""
    if instr.opcode == "s_waitcnt":
        return decode_waitcnt(int(instr.fields.get("simm16", 0)), gfx)  # type: ignore[call-overload]
    cnt = _SOPK_WAITS.get(instr.opcode)
    if cnt is not None:
        if any(not o.is_undef and o.phys is not None and o.phys.reg != NULL
               for o in instr.operands):
            return None  # waits for SGPR + SIMM16: unknown statically
        return {cnt: int(instr.fields.get("simm16", 0)) & 0x3F}  # type: ignore[call-overload]
    if instr.opcode == "s_wait_idle":
        return {c: 0 for c in WAIT_COUNTERS}
    return None


def encode_depctr(**fields: int) -> int:
    """An ``s_waitcnt_depctr`` SIMM16 with the named fields (va_vdst, vm_vsrc,
    sa_sdst, va_sdst, va_vcc, va_ssrc, hold_cnt) set and the others at
    "no wait", spelled as the ISA layer prints symbolically."""
    v = DEPCTR_USED
    for name, val in fields.items():
        sh, mask = DEPCTR["depctr_" + name]
        v = (v & ~(mask << sh)) | ((val & mask) << sh)
    return v


def decode_depctr(simm16: int) -> dict[str, int]:
    """All fields of an ``s_waitcnt_depctr`` SIMM16 (va_vdst, vm_vsrc, ...)."""
    return {name[len("depctr_"):]: (simm16 >> sh) & mask for name, (sh, mask) in DEPCTR.items()}


def depctr_of(instr: Instruction) -> dict[str, int] | None:
    if instr.opcode != "s_waitcnt_depctr":
        return None
    return decode_depctr(int(instr.fields.get("simm16", 0xFFFF)))  # type: ignore[call-overload]


__all__ = [
    "LANE_MASK_REGS", "SALU_CLASSES", "SCALAR_ENCODINGS", "Access",
    "AccessCache", "VALU_CLASSES", "VMEM_CLASSES", "WAIT_COUNTERS",
    "WAIT_MAX", "WAIT_OPCODES", "decode_depctr", "decode_waitcnt", "depctr_of", "encode_depctr",
    "encode_waitcnt", "implicit_regs", "info_of", "is_ds", "is_exp", "is_flat", "is_gds",
    "is_branch", "is_indirect_branch", "is_ldsdir", "is_scalar_unit", "is_smem_store", "is_message", "is_nop", "is_permlane", "is_salu",
    "is_smem", "is_trans", "is_valu", "is_valu_reader", "is_vinterp", "is_vmem",
    "is_vopc_op", "lane_mask_reads", "operand_regs",
    "returns_data", "wait_of",
]

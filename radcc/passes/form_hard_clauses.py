"""Form hard clauses (GFX10+): ``s_clause`` before runs of memory instructions of
one clause type, so the hardware issues the run without switching waves.

Source: ACO's README.md (Mesa src/amd/compiler) "Insert delay_alu and form clauses" (the phase, last in the
pipeline) and README-ISA "NSAClauseBug"; ISA guide 5.2 "Instruction Clauses"
and 16 (S_CLAUSE: length = SIMM16[5:0] + 1, 2..63; clause types; internal
instructions; S_DELAY_ALU must not be inside a clause and, when needed, comes
before the S_CLAUSE). The grouping follows the facts of ACO's
aco_form_hard_clauses.cpp and its `should_form_clause` heuristic.

`form_hard_clauses(program)` guarantees, on targets of GFX10 or later (nothing
changes before GFX10):

- every ``s_clause N`` is directly followed by N+1 (2 <= N+1 <= `max_clause_length`:
  32 on GFX11+, as ACO and LLVM limit it for a hardware bug; 63 on GFX10)
  consecutive instructions of one clause type of the same block, with no other
  instruction (no s_waitcnt, s_nop, s_delay_alu, branch, SALU, ...) among them;
  ``s_clause`` already in the program are dropped and recomputed;
- clause types (`clause_type`): SMEM loads/stores with operands (not the cache
  invalidations, s_memtime and the like). GFX11: image load / store / atomic /
  sample / BVH, buffer-global-scratch load / store / atomic, flat load / store /
  atomic. Before GFX11 only instructions returning data (loads, atomics with
  return): VMEM (buffer, image, global, scratch) and flat; on targets with the
  ``NSAClauseBug`` hazard an image instruction with several address operands
  (NSA) is never in a clause. LDS and VALU clauses are not formed (as ACO);
- within a type, consecutive instructions join the clause while ACO's
  heuristic says they likely touch nearby memory (`should_form_clause`: same
  encoding, both loads or both not; flat/global/scratch always; SMEM with
  64-bit bases always; otherwise the same base/resource registers);
- an ``s_delay_alu`` whose InstSkip reaches past an inserted (or removed)
  ``s_clause`` keeps naming the same instruction: its InstSkip is adjusted, and
  when it would exceed SKIP_4 the second dependency moves to a new
  ``s_delay_alu`` directly before that instruction (never inside a clause: it
  delays ALU instructions, which are not clause members).

The program stays semantically identical: ``s_clause`` is a scheduling hint.
"""

from __future__ import annotations

from radcc.ir.fields import SaluFields
from radcc.ir.opinfo import mimg_address_operands
from radcc.ir.program import Block, Instruction, Program
from radcc.ir.regclass import VGPR_BASE
from radcc.isa.classes import FLAT_LIKE_ENCODINGS, VMEM_ENCODINGS
from radcc.isa.formats.scalar_fields import DELAY
from radcc.isa.table import OpInfo
from radcc.passes.access import info_index, returns_data
from radcc.target import GfxLevel, Hazard

__all__ = ["form_hard_clauses", "clause_type", "should_form_clause", "max_clause_length",
           "clause_imm"]

_SKIP_SH, _SKIP_MASK = DELAY["instskip"][:2]
_ID1_SH, _ID1_MASK = DELAY["instid1"][:2]
_MAX_SKIP = 5  # INSTSKIP_SKIP_4
_FLAT_LIKE = FLAT_LIKE_ENCODINGS
# Before GFX11 the "vmem" clause type: the shared VMEM set without FLAT, which is its own clause
# type ("flat", as ACO's form_hard_clauses: FLAT may also address LDS).
_VMEM_ENCS = VMEM_ENCODINGS - {"FLAT"}


def max_clause_length(gfx: GfxLevel) -> int:
    """The longest clause formed: 63 (ISA S_CLAUSE) before GFX11, 32 from GFX11
    (ACO and LLVM: hardware bugs with more than 32 instructions)."""
    return 32 if gfx >= GfxLevel.GFX11 else 63


def clause_imm(length: int) -> int:
    """The S_CLAUSE SIMM16 of a clause of `length` instructions (no breaks)."""
    if not 2 <= length <= 63:
        raise ValueError(f"a hard clause has 2 to 63 instructions, not {length}")
    return length - 1


def _is_atomic(info: OpInfo) -> bool:
    mimg = info.extra.get("mimg")
    if isinstance(mimg, dict) and mimg.get("atomic"):
        return True
    return bool(info.extra.get("rtn_bits")) or "_atomic" in info.name


def _is_nsa(instr: Instruction) -> bool:
    """An image instruction that may use non-sequential addresses (NSA):
    conservatively, one with the ``nsa`` field or several VGPR operands
    (an atomic's data operand included)."""
    if instr.fields.get("nsa"):
        return True
    vgprs = [o for o in instr.operands if o.phys is not None and o.phys.reg >= VGPR_BASE]
    return len(vgprs) > 1


def clause_type(program: Program, instr: Instruction, info: OpInfo | None) -> str | None:
    """The hard-clause type of an instruction, None if it may not be in one."""
    if info is None or not info.srcs:
        return None  # pseudo instructions, cache invalidations, s_memtime, ...
    cls = info.cls
    if cls == "smem":
        return "smem"
    if cls not in ("vmem", "flat"):
        return None
    enc = info.enc
    if program.gfx_level >= GfxLevel.GFX11:
        if enc == "MIMG":
            mimg = info.extra.get("mimg")
            if isinstance(mimg, dict) and mimg.get("bvh"):
                return "mimg_bvh"
            if _is_atomic(info):
                return "mimg_atomic"
            if info.operand("ssamp") is not None:
                return "mimg_sample"
            return "mimg_load" if returns_data(instr, info) else "mimg_store"
        kind = "flat" if enc == "FLAT" else "vmem"
        if _is_atomic(info):
            return kind + "_atomic"
        return kind + ("_load" if returns_data(instr, info) else "_store")
    # GFX10: only instructions that return data (ACO excludes stores before GFX11)
    if not instr.definitions:
        return None
    if enc == "MIMG" and program.target.has_hazard(Hazard.NSAClauseBug) and _is_nsa(instr):
        return None
    if enc in _VMEM_ENCS:
        return "vmem"
    return "flat" if enc == "FLAT" else None


def _base_operand(instr: Instruction, info: OpInfo) -> tuple[int, int] | None:
    """(register, dwords) of the SMEM base / buffer or image resource operand."""
    srcs = [s for s in info.operands if not s.is_def]
    ops = list(instr.operands)
    n_addr = mimg_address_operands(info, instr)
    if n_addr > 1:  # NSA addresses: one slot, several operands
        k = [s.name for s in srcs].index("vaddr")
        ops = ops[:k + 1] + ops[k + n_addr:]
    for spec, op in zip(srcs, ops, strict=False):
        if spec.name in ("sbase", "srsrc"):
            if op.phys is None:
                return None
            return (op.phys.reg, op.rc.size if op.rc is not None else spec.bits // 32)
    return None


def should_form_clause(a: Instruction, ia: OpInfo, b: Instruction, ib: OpInfo) -> bool:
    """ACO's heuristic: `b` may join a clause that `a` starts (see module doc)."""
    if bool(a.definitions) != bool(b.definitions) or a.format != b.format:
        return False
    if ia.enc in _FLAT_LIKE:
        return True
    ba, bb = _base_operand(a, ia), _base_operand(b, ib)
    if ba is None or bb is None:
        return False
    if ia.cls == "smem" and ba[1] == 2 and bb[1] == 2:
        return True
    return ba == bb


def _delay_second_target(instrs: list[Instruction]) -> dict[int, Instruction]:
    """id() of each s_delay_alu with a second dependency past the next
    instruction -> the instruction that dependency applies to."""
    out: dict[int, Instruction] = {}
    for k, ins in enumerate(instrs):
        if ins.opcode != "s_delay_alu":
            continue
        imm = int(ins.fields.get("simm16", 0))  # type: ignore[call-overload]
        skip = imm >> _SKIP_SH & _SKIP_MASK
        if skip == 0 or imm >> _ID1_SH & _ID1_MASK == 0:
            continue
        t = k + 1 + skip
        if t < len(instrs):
            out[id(ins)] = instrs[t]
    return out


def _fix_delays(old_targets: dict[int, Instruction], instrs: list[Instruction]) -> list[Instruction]:
    """Re-aim the second dependency of each s_delay_alu of `old_targets`."""
    if not old_targets:
        return instrs
    pos = {id(x): k for k, x in enumerate(instrs)}
    split: dict[int, Instruction] = {}  # id(target) -> new s_delay_alu before it
    for ins in instrs:
        target = old_targets.get(id(ins))
        if target is None:
            continue
        imm = int(ins.fields.get("simm16", 0))  # type: ignore[call-overload]
        skip = pos[id(target)] - pos[id(ins)] - 1
        if skip <= _MAX_SKIP:
            ins.fields["simm16"] = imm & ~(_SKIP_MASK << _SKIP_SH) | skip << _SKIP_SH
            continue
        id1 = imm >> _ID1_SH & _ID1_MASK
        ins.fields["simm16"] = imm & ~(_SKIP_MASK << _SKIP_SH | _ID1_MASK << _ID1_SH)
        split[id(target)] = Instruction("s_delay_alu", "SOPP", fields=SaluFields({"simm16": id1}))
    if not split:
        return instrs
    out: list[Instruction] = []
    for ins in instrs:
        d = split.get(id(ins))
        if d is not None:
            out.append(d)
        out.append(ins)
    return out


def _form_block(program: Program, block: Block, max_len: int) -> None:
    old = list(block.instructions)
    dropped = 0  # s_clause already there
    out: list[Instruction] = []
    run: list[tuple[Instruction, OpInfo]] = []
    run_type: str | None = None

    index = info_index(program.gfx_level)

    def flush() -> None:
        if len(run) > 1:
            out.append(Instruction("s_clause", "SOPP", fields=SaluFields({"simm16": clause_imm(len(run))})))
        out.extend(i for i, _ in run)
        run.clear()

    for instr in old:
        if instr.opcode == "s_clause":
            dropped += 1
            continue  # recomputed
        info = index.get((instr.opcode, instr.format))
        t = clause_type(program, instr, info)
        if t is None or info is None:
            if run:
                flush()
            run_type = None
            out.append(instr)
            continue
        if run and (t != run_type or len(run) == max_len
                    or not should_form_clause(run[0][0], run[0][1], instr, info)):
            flush()
        run_type = t
        run.append((instr, info))
    flush()
    if dropped == 0 and len(out) == len(old):
        return  # no s_clause inserted or removed: the block is as it was
    block.instructions = _fix_delays(_delay_second_target(old), out)


def form_hard_clauses(program: Program) -> None:
    """Insert ``s_clause`` hard clauses (see module docstring); nothing before GFX10."""
    if program.gfx_level < GfxLevel.GFX10:
        return
    max_len = max_clause_length(program.gfx_level)
    for block in program.blocks:
        _form_block(program, block, max_len)

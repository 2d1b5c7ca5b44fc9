"""IR validation: `validate_ir` between passes, `validate_ra` after register
allocation (ACO's README.md "How to debug": ACO_DEBUG=validateir / validatera;
the same checks as ACO's aco_validate.cpp, written from its rules).

Both collect every problem and raise one `ValidationError` naming the phase
(the caller passes it), each block and instruction text.

`validate_ir(program, phase)` checks:

- CFG: block i at position i; predecessor/successor lists in range, without
  duplicates, predecessors sorted (phi operands follow that order), the
  logical and linear lists mirror each other; the entry has no preds;
- SSA: every temp defined once, with the class `Program.temp_rc` gives it;
  every use has a definition of the same class; the definition dominates the
  use (in the linear CFG for SGPR/linear temps, the logical one for VGPRs;
  a phi operand must be available at the end of its predecessor), and comes
  earlier in the same block; disable with ``check_dominance=False`` (e.g.
  for repair_ssa's input);
- phis: only at the start of a block; p_phi has one operand per logical
  predecessor, p_linear_phi per linear one (and defines an SGPR or linear
  VGPR); operand classes match the definition;
- p_logical_start / p_logical_end: at most one each, start before end,
  after the phis; in a block that has them, non-linear VGPRs are not defined
  outside the region (phis, p_startpgm, copies excepted);
- branches: nothing but branches after the first branch; pseudo branch
  targets are linear successors;
- pseudo shapes: operand/definition counts (pseudo.py), p_create_vector /
  p_split_vector / p_extract_vector / p_parallelcopy sizes;
- hardware instructions (see opinfo.py for the conventions): the opcode
  has the format in the table; operands/definitions match the table's
  register slots in number, register file (vgpr/sgpr/ssrc/vsrc ...),
  constants only where allowed and of the right width, sizes (strict for
  ALU formats, file-only for memory formats whose sizes depend on fields);
  a tied operand (`opinfo.tied_operands`: the old value of a read-modify-write
  definition, right after the table's slots) has the definition's register
  file and size; other extra operands/definitions are fixed to an implicit
  register; at most
  one literal (a constant that is not an inline constant) per SALU/VALU.

`validate_ra(program, phase)` re-checks an allocated program with its own
liveness (computed here, not taken from the allocator or live_var_analysis):
every temp has a register of its file, in bounds, aligned (SGPR pairs even,
larger SGPR tuples 4-aligned, sub-dword VGPR pieces inside their dword),
one register per temp (operands agree with the definition), fixed slots
(vcc slots, implicit scc/exec/vcc/m0 operands) in their register, a tied
operand in its definition's register, no two
simultaneously live values share a register byte, every operand still in its
register when read, and live-out values and phi operands are where their
successors expect them.

Linear VGPRs (ACO's README.md "Register Allocation"): a linear VGPR is written in
every lane whatever EXEC is (its copies run with all lanes enabled), so its
register must not be shared with any ordinary VGPR value that some lane
still needs at any point on the linear CFG where the linear VGPR is live.
`validate_ra` checks this with a second liveness in which every value lives
along linear edges as well ("the value of some lane is live here": the else
side's values are live in the then side), where a phi operand is used at the
end of its predecessor and a phi's definition is written there too (its
copies), so no linear VGPR and ordinary VGPR that are both live there
overlap at a definition, at a block entry or at the end of a predecessor.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from radcc.ir.dominance import DominatorTree, compute_idoms
from radcc.ir.opinfo import (
    CONST_KINDS,
    IMPLICIT_REGS,
    PSEUDO_FORMAT,
    VARIABLE_SIZE_FORMATS,
    mimg_address_operands,
    op_info,
    operand_slots,
    tied_operands,
)
from radcc.ir.printer import instruction_text
from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.pseudo import PSEUDO
from radcc.ir.regclass import EXEC, M0, NULL, SCC, VCC, VGPR_BASE, PhysReg, RegClass
from radcc.isa.classes import ALU_ENCODINGS
from radcc.isa.table import OperandSpec, OpInfo, get_table


@dataclass(frozen=True, slots=True)
class Issue:
    block: int  # -1: the program
    index: int  # instruction index in the block, -1: the block
    instr: str  # instruction text ('' for block-level issues)
    message: str

    def __str__(self) -> str:
        where = f"BB{self.block}" if self.block >= 0 else "program"
        return f"{where}: {self.message}" + (f": {self.instr}" if self.instr else "")


class ValidationError(Exception):
    """IR that breaks an invariant; `issues` lists each problem."""

    def __init__(self, phase: str, issues: list[Issue]) -> None:
        self.phase = phase
        self.issues = issues
        lines = "\n".join(f"  {i}" for i in issues[:MAX_LISTED])
        if len(issues) > MAX_LISTED:
            lines += f"\n  ... and {len(issues) - MAX_LISTED} more"
        super().__init__(f"{phase}: invalid IR ({len(issues)} problem"
                         f"{'s' if len(issues) != 1 else ''}):\n{lines}")


# how many problems a ValidationError lists (and formats the instruction of: each text
# costs the instruction's length, so an instruction with thousands of bad operands made
# the report quadratic), and the longest instruction text it quotes
MAX_LISTED = 50
MAX_INSTR_TEXT = 300


class _Reporter:
    def __init__(self, program: Program) -> None:
        self.program = program
        self.issues: list[Issue] = []

    def __call__(self, msg: str, block: Block | None = None, idx: int = -1,
                 instr: Instruction | None = None) -> None:
        text = ""
        if instr is not None and len(self.issues) < MAX_LISTED:
            text = instruction_text(self.program, instr)
            if len(text) > MAX_INSTR_TEXT:
                text = text[:MAX_INSTR_TEXT] + " ..."
        self.issues.append(Issue(block.index if block is not None else -1, idx, text, msg))

    def raise_if_any(self, phase: str) -> None:
        if self.issues:
            raise ValidationError(phase, self.issues)


def is_linear(rc: RegClass) -> bool:
    return rc.is_sgpr or rc.linear


# -- inline constants (RDNA3 ISA guide, "Scalar/Vector source operands") -----
_F32 = {0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000,
        0xC0800000, 0x3E22F983}
_F16 = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118}
_F64 = {0x3FE0000000000000, 0xBFE0000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
        0x4000000000000000, 0xC000000000000000, 0x4010000000000000, 0xC010000000000000,
        0x3FC45F306DC9C882}


def is_inline_constant(value: int, nbytes: int, type_: str = "") -> bool:
    """Whether a constant of this width needs no literal dword."""
    bits = nbytes * 8
    value &= (1 << bits) - 1
    signed = value - (1 << bits) if value >> (bits - 1) else value
    if -16 <= signed <= 64:
        return True
    if nbytes == 8:
        return value in _F64
    if nbytes == 2 or type_ in ("f16", "bf16", "v2f16", "b16", "i16"):
        return value in _F16 or value in _F32
    return value in _F32


# ALU plus SOPP and the dual-issue encodings (checked for operand kinds like the others).
_ALU_FORMATS = ALU_ENCODINGS | {"SOPP", "VOPD", "VOPDY"}
_VCOPY_OK = frozenset({"p_startpgm", "p_parallelcopy", "p_phi", "p_linear_phi",
                       "p_start_linear_vgpr", "p_unit_test"})


def _bytes_of(o: Operand) -> int:
    if o.const is not None:
        return o.const_bytes
    return o.rc.bytes if o.rc is not None else 4


# ---------------------------------------------------------------------------
# validate_ir
# ---------------------------------------------------------------------------
def _check_cfg(program: Program, err: _Reporter) -> bool:
    n = len(program.blocks)
    ok = True
    for i, b in enumerate(program.blocks):
        if b.index != i:
            err(f"block at position {i} has index {b.index}", b)
            ok = False
        for name in ("logical_preds", "logical_succs", "linear_preds", "linear_succs"):
            lst = getattr(b, name)
            if any(not 0 <= x < n for x in lst):
                err(f"{name.replace('_', ' ')} {lst} out of range", b)
                ok = False
            elif len(set(lst)) != len(lst):
                err(f"{name.replace('_', ' ')} {lst} has duplicates", b)
            if name.endswith("preds") and lst != sorted(lst):
                err(f"{name.replace('_', ' ')} {lst} are not sorted", b)
    if not ok:
        return False
    for b in program.blocks:
        for kind in ("logical", "linear"):
            for p in getattr(b, f"{kind}_preds"):
                if b.index not in getattr(program.blocks[p], f"{kind}_succs"):
                    err(f"BB{p} is a {kind} predecessor but BB{b.index} is not its successor", b)
            for s in getattr(b, f"{kind}_succs"):
                if b.index not in getattr(program.blocks[s], f"{kind}_preds"):
                    err(f"BB{s} is a {kind} successor but BB{b.index} is not its predecessor", b)
    if program.blocks and (program.blocks[0].logical_preds or program.blocks[0].linear_preds):
        err("the entry block has predecessors", program.blocks[0])
    return True


def _check_block_structure(program: Program, b: Block, err: _Reporter) -> None:
    seen_non_phi = False
    seen_branch = False
    start = end = -1
    for idx, instr in enumerate(b.instructions):
        op = instr.opcode
        if instr.is_phi:
            if seen_non_phi:
                err("phi after a non-phi instruction", b, idx, instr)
            preds = b.logical_preds if op == "p_phi" else b.linear_preds
            if len(instr.operands) != len(preds):
                err(f"{op} has {len(instr.operands)} operands for {len(preds)} "
                    f"{'logical' if op == 'p_phi' else 'linear'} predecessors", b, idx, instr)
            if len(instr.definitions) == 1 and instr.definitions[0].rc is not None:
                drc = instr.definitions[0].rc
                if op == "p_linear_phi" and not is_linear(drc):
                    err("p_linear_phi must define an SGPR or linear VGPR", b, idx, instr)
                for o in instr.operands:
                    if o.temp is not None and o.rc != drc or (
                            o.is_undef and o.rc is not None and o.rc.bytes != drc.bytes):
                        err(f"phi operand {o.rc} differs from its definition {drc}", b, idx,
                            instr)
                        break
                    if o.const is not None and o.const_bytes != min(drc.bytes, 8) and \
                            not (drc.bytes >= 4 and o.const_bytes == 4 and drc.size == 1):
                        err(f"phi constant of {o.const_bytes} bytes for a {drc}", b, idx, instr)
                        break
            continue
        seen_non_phi = True
        is_branch = (instr.format == PSEUDO_FORMAT and op in PSEUDO and PSEUDO[op].is_branch) \
            or _is_hw_branch(program, instr)
        if seen_branch and not is_branch:
            err("instruction after a branch", b, idx, instr)
        if is_branch:
            seen_branch = True
            targets = instr.fields.get("targets")
            if instr.format == PSEUDO_FORMAT:
                want = (1, 1) if op == "p_branch" else (1, 2)
                if not isinstance(targets, list) or not want[0] <= len(targets) <= want[1]:
                    err(f"{op} needs {want[0] if want[0] == want[1] else '1 or 2'} target(s)",
                        b, idx, instr)
                elif any(t not in b.linear_succs for t in targets):
                    err(f"branch target not a linear successor ({b.linear_succs})", b, idx,
                        instr)
        if op == "p_logical_start":
            if start != -1:
                err("second p_logical_start", b, idx, instr)
            start = idx
        elif op == "p_logical_end":
            if end != -1:
                err("second p_logical_end", b, idx, instr)
            if start == -1:
                err("p_logical_end without p_logical_start before it", b, idx, instr)
            end = idx
    if start != -1 and end == -1:
        err("p_logical_start without p_logical_end", b)
    if start != -1 and end != -1:
        for idx, instr in enumerate(b.instructions):
            if start < idx < end or instr.opcode in _VCOPY_OK:
                continue
            for d in instr.definitions:
                if d.rc is not None and d.rc.is_vgpr and not d.rc.linear:
                    err("VGPR defined outside p_logical_start/p_logical_end", b, idx, instr)
                    break


def _is_hw_branch(program: Program, instr: Instruction) -> bool:
    if instr.format == PSEUDO_FORMAT:
        return False
    info = op_info(get_table(program.gfx_level), instr.opcode, instr.format)
    return info is not None and info.cls == "branch"


def _check_pseudo(instr: Instruction, b: Block, idx: int, err: _Reporter) -> None:
    op = instr.opcode
    info = PSEUDO.get(op)
    if info is None:
        err(f"unknown pseudo opcode '{op}'", b, idx, instr)
        return
    if isinstance(info.num_defs, int) and len(instr.definitions) != info.num_defs:
        err(f"{op} needs {info.num_defs} definition(s), has {len(instr.definitions)}",
            b, idx, instr)
        return
    if isinstance(info.num_ops, int) and len(instr.operands) != info.num_ops:
        err(f"{op} needs {info.num_ops} operand(s), has {len(instr.operands)}", b, idx, instr)
        return
    defs, ops = instr.definitions, instr.operands
    if op == "p_create_vector":
        total = sum(_bytes_of(o) for o in ops)
        if defs[0].rc is not None and total != defs[0].rc.bytes:
            err(f"p_create_vector operands have {total} bytes for a {defs[0].rc}", b, idx,
                instr)
        if ops and any(o.rc is not None and o.rc.is_vgpr for o in ops if o.const is None) \
                and defs[0].rc is not None and defs[0].rc.is_sgpr:
            err("p_create_vector of VGPRs into an SGPR", b, idx, instr)
    elif op == "p_split_vector":
        total = sum(d.rc.bytes for d in defs if d.rc is not None)
        if total != _bytes_of(ops[0]):
            err(f"p_split_vector definitions have {total} bytes for {_bytes_of(ops[0])}",
                b, idx, instr)
    elif op == "p_extract_vector":
        if ops[1].const is None:
            err("p_extract_vector index must be a constant", b, idx, instr)
        elif defs[0].rc is not None and (ops[1].const + 1) * defs[0].rc.bytes > _bytes_of(ops[0]):
            err("p_extract_vector index out of range", b, idx, instr)
    elif op == "p_parallelcopy":
        if len(defs) != len(ops):
            err("p_parallelcopy needs as many operands as definitions", b, idx, instr)
        else:
            for d, o in zip(defs, ops, strict=True):
                if d.rc is not None and _bytes_of(o) != d.rc.bytes and not (
                        o.const is not None and o.const_bytes == 4 and d.rc.bytes < 4):
                    err(f"p_parallelcopy copies {_bytes_of(o)} bytes into a {d.rc}", b, idx,
                        instr)
                    break
                if d.rc is not None and d.rc.is_sgpr and o.rc is not None and o.rc.is_vgpr \
                        and o.const is None:
                    err("p_parallelcopy of a VGPR into an SGPR", b, idx, instr)
                    break


def _lane_mask_dwords(program: Program) -> int:
    return 1 if program.wave_size == 32 else 2


def _check_slot(program: Program, spec: OperandSpec, x: Operand | Definition, fmt: str,
                is_def: bool) -> str | None:
    """Why x does not fit the table slot, or None."""
    kind = spec.kind
    what = f"{'definition' if is_def else 'operand'} {spec.name}"
    if isinstance(x, Operand) and x.const is not None:
        if kind not in CONST_KINDS:
            return f"{what} ({kind}) cannot be a constant"
        want = 8 if spec.bits == 64 else (4 if spec.bits > 16 else None)
        if spec.bits > 64 or (want is not None and x.const_bytes != want) or (
                want is None and x.const_bytes not in (2, 4)):
            if fmt not in VARIABLE_SIZE_FORMATS:
                return f"{what} needs a {spec.bits}-bit constant, not {x.const_bytes * 8}-bit"
        return None
    rc = x.rc
    if rc is None:
        return f"{what} has no register class"
    if kind in ("vgpr", "vinl") and not rc.is_vgpr:
        return f"{what} must be a VGPR, not {rc}"
    if kind in ("sgpr", "ssrc", "sreg", "sreg_wave", "special", "smem_offset") and not rc.is_sgpr:
        return f"{what} must be an SGPR, not {rc}"
    if kind == "special" and x.phys is not None and spec.fixed.startswith("vcc") \
            and x.phys.reg != VCC:
        return f"{what} must be in vcc"
    if fmt in VARIABLE_SIZE_FORMATS:
        return None
    if kind in ("sreg_wave",) or (kind == "special" and spec.fixed.startswith("vcc")):
        want_dw = _lane_mask_dwords(program)
        if rc.size != want_dw or rc.subdword:
            return f"{what} must be a lane mask ({'s1' if want_dw == 1 else 's2'}), not {rc}"
        return None
    if spec.bits <= 16:
        if rc.bytes not in (2, 4) or rc.is_sgpr and rc.bytes != 4:
            return f"{what} must hold 16 bits, not {rc}"
        return None
    if rc.subdword or rc.size != spec.dwords:
        return f"{what} must be {spec.bits}-bit, not {rc}"
    return None



def instr_slots(info: OpInfo, instr: Instruction, wave_size: int = 32
                ) -> tuple[list[OperandSpec], list[OperandSpec]]:
    """`operand_slots(info)` for this instruction: in wave64 the sizes of the table's
    ``wave64_bits`` (WMMA's C and D: 256/64 dwords); a FLAT/GLOBAL/SCRATCH atomic whose
    table entry has ``rtn_bits`` returns the pre-op value only with ``glc`` set
    (GFX11 TH_ATOMIC_RETURN; llvm-mc: "instruction must use glc" with a vdst,
    "must not use glc" without), and then has a first definition ``vdst`` of
    ``rtn_bits`` (e.g. 32 for global_atomic_cmpswap_b32, whose vdata is 64-bit)."""
    dspecs, ospecs = operand_slots(info)
    w64 = info.extra.get("wave64_bits")
    if wave_size == 64 and isinstance(w64, dict):
        dspecs, ospecs = ([dataclasses.replace(x, bits=int(w64[x.name])) if x.name in w64
                           else x for x in specs] for specs in (dspecs, ospecs))
    rtn = info.extra.get("rtn_bits")
    if rtn and instr.fields.get("glc"):
        dspecs = [OperandSpec("vdst", "vgpr", int(rtn), is_def=True), *dspecs]
    n_addr = mimg_address_operands(info, instr)
    if n_addr > 1:  # NSA: the address slot is one VGPR operand per address dword
        k = next(i for i, x in enumerate(ospecs) if x.name == "vaddr")
        ospecs = [*ospecs[:k], *[dataclasses.replace(ospecs[k], bits=32)] * n_addr,
                  *ospecs[k + 1:]]
    return dspecs, ospecs


def _check_atomic_return(info: OpInfo, instr: Instruction, b: Block, idx: int,
                         err: _Reporter) -> None:
    """The returning form and glc go together (see `instr_slots`); its vdst has
    exactly rtn_bits."""
    rtn = info.extra.get("rtn_bits")
    if not rtn:
        return
    glc = bool(instr.fields.get("glc"))
    if glc and not instr.definitions:
        err(f"returning atomic (glc) needs a {rtn}-bit vdst definition", b, idx, instr)
    elif not glc and instr.definitions:
        err("an atomic with a vdst definition must set glc (TH_ATOMIC_RETURN)", b, idx, instr)
    elif glc:
        rc = instr.definitions[0].rc
        want = max(1, int(rtn) // 32)
        if rc is not None and rc.is_vgpr and (rc.subdword or rc.size != want):
            err(f"definition vdst must be {rtn}-bit, not {rc}", b, idx, instr)


def _check_hw(program: Program, instr: Instruction, b: Block, idx: int, err: _Reporter) -> None:
    table = get_table(program.gfx_level)
    info = op_info(table, instr.opcode, instr.format)
    if info is None:
        if instr.opcode in table.by_canon:
            err(f"'{instr.opcode}' has no {instr.format} encoding", b, idx, instr)
        else:
            err(f"unknown opcode '{instr.opcode}'", b, idx, instr)
        return
    dspecs, ospecs = instr_slots(info, instr, program.wave_size)
    _check_atomic_return(info, instr, b, idx, err)
    if instr.format == "VOPD":
        y = instr.fields.get("opy")
        yinfo = op_info(table, str(y), "VOPDY") if y is not None else None
        if yinfo is None:
            err("VOPD needs field opy naming a VOPDY opcode", b, idx, instr)
            return
        yd, yo = operand_slots(yinfo)
        dspecs, ospecs = dspecs + yd, ospecs + yo
    _check_list(program, instr, dspecs, instr.definitions, info.implicit_writes, True, b, idx,
                err)
    tied = tied_operands(table, instr)
    for di, oi in tied:
        o = instr.operands[oi]
        if o.const is not None:
            err("tied operand cannot be a constant", b, idx, instr)
        elif not o.is_undef:
            why = _check_slot(program, dspecs[di], o, instr.format, False)
            if why is not None:
                err(f"tied {why}", b, idx, instr)
    _check_list(program, instr, ospecs, instr.operands, info.implicit_reads, False, b, idx, err,
                skip={oi for _di, oi in tied})
    if instr.format in _ALU_FORMATS:
        lits = set()
        for spec, o in zip(ospecs, instr.operands, strict=False):
            if o.const is not None and not is_inline_constant(o.const, o.const_bytes, spec.type):
                lits.add(o.const)
        if len(lits) > 1:
            err(f"{len(lits)} different literals (at most one)", b, idx, instr)


def _check_list(program: Program, instr: Instruction, specs: list[OperandSpec],
                items: list, implicit: tuple[str, ...], is_def: bool, b: Block, idx: int,
                err: _Reporter, skip: set[int] | frozenset[int] = frozenset()) -> None:
    what = "definitions" if is_def else "operands"
    optional = instr.format in VARIABLE_SIZE_FORMATS
    if len(items) < len(specs) and not optional:
        err(f"{len(items)} {what}, the table has {len(specs)}", b, idx, instr)
        return
    for spec, x in zip(specs, items, strict=False):
        if isinstance(x, Operand) and x.is_undef:
            continue
        why = _check_slot(program, spec, x, instr.format, is_def)
        if why is not None:
            err(why, b, idx, instr)
    regs = {IMPLICIT_REGS[r] for r in implicit if r in IMPLICIT_REGS}
    for i in range(len(specs), len(items)):
        x = items[i]
        if i in skip:
            continue
        if x.phys is None or x.phys.reg not in regs:
            err(f"extra {what[:-1]} must be fixed to an implicit register "
                f"({', '.join(sorted(implicit)) or 'none'})", b, idx, instr)


def _check_ssa(program: Program, err: _Reporter, check_dominance: bool) -> None:
    def_at: dict[int, tuple[int, int, RegClass]] = {}
    for b in program.blocks:
        for idx, instr in enumerate(b.instructions):
            for d in instr.definitions:
                if d.temp is None:
                    if d.phys is None:
                        err("definition with neither temp nor register", b, idx, instr)
                    continue
                t = d.temp
                if t.id <= 0:
                    err(f"invalid temp id {t.id}", b, idx, instr)
                    continue
                if t.id in def_at:
                    err(f"%{t.id} is defined twice (first in BB{def_at[t.id][0]})", b, idx, instr)
                    continue
                def_at[t.id] = (b.index, idx, t.rc)
                if d.rc != t.rc:
                    err(f"definition class {d.rc} differs from %{t.id}'s {t.rc}", b, idx, instr)
                if t.id >= len(program.temp_rc):
                    err(f"%{t.id} is beyond Program.temp_rc (allocate temps through the "
                        "program)", b, idx, instr)
                elif program.temp_rc[t.id] is not None and program.temp_rc[t.id] != t.rc:
                    err(f"%{t.id} is a {t.rc} but the program says {program.temp_rc[t.id]}",
                        b, idx, instr)
    log_tree = DominatorTree(compute_idoms(program, linear=False))
    lin_tree = DominatorTree(compute_idoms(program, linear=True))
    for b in program.blocks:
        for idx, instr in enumerate(b.instructions):
            for k, o in enumerate(instr.operands):
                if o.temp is None:
                    continue
                t = o.temp
                if t.id not in def_at:
                    err(f"%{t.id} is used but never defined", b, idx, instr)
                    continue
                db, di, rc = def_at[t.id]
                if t.rc != rc:
                    err(f"%{t.id} is used as {t.rc} but defined as {rc}", b, idx, instr)
                    continue
                if not check_dominance:
                    continue
                linear = is_linear(rc)
                tree = lin_tree if linear else log_tree
                if instr.is_phi:
                    preds = b.logical_preds if instr.opcode == "p_phi" else b.linear_preds
                    if k >= len(preds):
                        continue
                    p = preds[k]
                    ptree = log_tree if instr.opcode == "p_phi" else lin_tree
                    if ptree.reachable(p) and not ptree.dominates(db, p):
                        err(f"%{t.id} (defined in BB{db}) is not available at the end of "
                            f"predecessor BB{p}", b, idx, instr)
                    continue
                if db == b.index:
                    if di >= idx:
                        err(f"%{t.id} is used before its definition", b, idx, instr)
                elif tree.reachable(b.index) and not tree.dominates(db, b.index):
                    err(f"%{t.id} (defined in BB{db}) does not dominate this use "
                        f"({'linear' if linear else 'logical'} CFG)", b, idx, instr)


def validate_ir(program: Program, phase: str = "validate_ir", *,
                check_dominance: bool = True) -> None:
    """Check the IR invariants (module docstring); raise ValidationError."""
    err = _Reporter(program)
    if not _check_cfg(program, err):
        err.raise_if_any(phase)
    for b in program.blocks:
        _check_block_structure(program, b, err)
        for idx, instr in enumerate(b.instructions):
            if instr.format == PSEUDO_FORMAT:
                _check_pseudo(instr, b, idx, err)
            else:
                _check_hw(program, instr, b, idx, err)
    _check_ssa(program, err, check_dominance)
    err.raise_if_any(phase)


# ---------------------------------------------------------------------------
# validate_ra
# ---------------------------------------------------------------------------
def _own_liveness(program: Program) -> tuple[list[set[int]], list[set[int]]]:
    """Live-in / live-out temp ids per block (linear temps along linear edges,
    VGPRs along logical ones, phi operands at the end of their predecessor)."""
    n = len(program.blocks)
    rc_of: dict[int, RegClass] = {}
    use_def: list[tuple[set[int], set[int]]] = []
    phi_out: list[set[int]] = [set() for _ in range(n)]
    for b in program.blocks:
        uses: set[int] = set()
        defs: set[int] = set()
        for instr in reversed(b.instructions):
            for d in instr.definitions:
                if d.temp is not None:
                    rc_of[d.temp.id] = d.temp.rc
                    defs.add(d.temp.id)
                    uses.discard(d.temp.id)
            if instr.is_phi:
                preds = b.logical_preds if instr.opcode == "p_phi" else b.linear_preds
                for p, o in zip(preds, instr.operands, strict=False):
                    if o.temp is not None:
                        phi_out[p].add(o.temp.id)
                        rc_of.setdefault(o.temp.id, o.temp.rc)
                continue
            for o in instr.operands:
                if o.temp is not None:
                    uses.add(o.temp.id)
                    rc_of.setdefault(o.temp.id, o.temp.rc)
        use_def.append((uses, defs))
    live_in: list[set[int]] = [set() for _ in range(n)]
    live_out: list[set[int]] = [set() for _ in range(n)]
    changed = True
    while changed:
        changed = False
        for b in reversed(program.blocks):
            out = set(phi_out[b.index])
            for s in b.linear_succs:
                out.update(t for t in live_in[s] if is_linear(rc_of[t]))
            for s in b.logical_succs:
                out.update(t for t in live_in[s] if not is_linear(rc_of[t]))
            uses, defs = use_def[b.index]
            new = uses | (out - defs)
            if new != live_in[b.index] or out != live_out[b.index]:
                live_in[b.index], live_out[b.index] = new, out
                changed = True
    return live_in, live_out


def _reg_bytes(phys: PhysReg, rc: RegClass) -> range:
    return range(phys.reg_b, phys.reg_b + (rc.bytes if rc.subdword else rc.size * 4))


def _check_placement(program: Program, t_rc: RegClass, phys: PhysReg) -> str | None:
    if t_rc.is_vgpr != phys.is_vgpr:
        return f"{t_rc} assigned to {phys.text(t_rc)} (wrong register file)"
    if t_rc.is_vgpr:
        first = phys.reg - VGPR_BASE
        if first + t_rc.size > 256:
            return f"{t_rc} at {phys.text(t_rc)} is out of bounds"
        if t_rc.subdword:
            if phys.byte + t_rc.bytes > 4:
                return f"{t_rc} at {phys.text(t_rc)} crosses a dword"
            if t_rc.bytes == 2 and phys.byte % 2:
                return f"{t_rc} at {phys.text(t_rc)} is misaligned"
        elif phys.byte:
            return f"{t_rc} at a sub-dword offset"
        return None
    if phys.byte:
        return f"{t_rc} at a sub-dword offset"
    r, size = phys.reg, t_rc.size
    if r in (VCC, EXEC) and size <= 2 or r in (M0, SCC, NULL) and size == 1:
        return None
    if r + size > program.target.addressable_sgprs:
        return f"{t_rc} at {phys.text(t_rc)} is out of bounds"
    if size == 2 and r % 2 or size >= 4 and r % 4:
        return f"{t_rc} at {phys.text(t_rc)} is misaligned"
    return None


def _fmt_reg(reg_b: int) -> str:
    return PhysReg(reg_b).text()


def validate_ra(program: Program, phase: str = "validate_ra") -> None:
    """Check a register assignment (module docstring); raise ValidationError."""
    err = _Reporter(program)
    assignment: dict[int, PhysReg] = {}
    rc_of: dict[int, RegClass] = {}
    table = get_table(program.gfx_level)
    # 1. every temp has a well-placed register, one per temp
    for b in program.blocks:
        for idx, instr in enumerate(b.instructions):
            for d in instr.definitions:
                if d.temp is None:
                    continue
                if d.phys is None:
                    err(f"%{d.temp.id} has no register", b, idx, instr)
                    continue
                why = _check_placement(program, d.temp.rc, d.phys)
                if why:
                    err(f"%{d.temp.id}: {why}", b, idx, instr)
                assignment[d.temp.id] = d.phys
                rc_of[d.temp.id] = d.temp.rc
    for b in program.blocks:
        for idx, instr in enumerate(b.instructions):
            for o in instr.operands:
                if o.temp is None:
                    continue
                if o.phys is None:
                    err(f"operand %{o.temp.id} has no register", b, idx, instr)
                elif o.temp.id in assignment and assignment[o.temp.id] != o.phys:
                    err(f"operand %{o.temp.id} in {o.phys.text(o.rc)} but defined in "
                        f"{assignment[o.temp.id].text(o.rc)}", b, idx, instr)
            _check_fixed_slots(program, table, instr, b, idx, err)
    if err.issues:
        err.raise_if_any(phase)
    # 2. interference, with our own liveness
    live_in, live_out = _own_liveness(program)
    end_files: list[dict[int, int]] = []
    for b in program.blocks:
        end_files.append(_check_block_interference(program, b, live_in[b.index],
                                                   live_out[b.index], assignment, rc_of, err))
    # 2b. linear VGPRs against the values of every lane
    _check_linear_vgprs(program, assignment, rc_of, err)
    # 3. values flow across edges: what a block expects live-in is where its preds left it
    for b in program.blocks:
        for t in live_in[b.index]:
            if t not in assignment:
                continue
            preds = b.linear_preds if is_linear(rc_of[t]) else b.logical_preds
            for p in preds:
                f = end_files[p]
                if any(f.get(x) != t for x in _reg_bytes(assignment[t], rc_of[t])):
                    err(f"%{t} is live-in but not in {assignment[t].text(rc_of[t])} at the end "
                        f"of BB{p}", b)
        for idx, instr in enumerate(b.instructions):
            if not instr.is_phi:
                continue
            preds = b.logical_preds if instr.opcode == "p_phi" else b.linear_preds
            for p, o in zip(preds, instr.operands, strict=False):
                if o.temp is None or o.temp.id not in assignment:
                    continue
                f = end_files[p]
                if any(f.get(x) != o.temp.id for x in _reg_bytes(assignment[o.temp.id], o.temp.rc)):
                    err(f"phi operand %{o.temp.id} is not in its register at the end of BB{p}",
                        b, idx, instr)
    err.raise_if_any(phase)


def _check_fixed_slots(program: Program, table, instr: Instruction, b: Block, idx: int,
                       err: _Reporter) -> None:
    if instr.format == PSEUDO_FORMAT:
        return
    info = op_info(table, instr.opcode, instr.format)
    if info is None:
        return
    dspecs, ospecs = instr_slots(info, instr, program.wave_size)
    tied = {oi: di for di, oi in tied_operands(table, instr)}
    for specs, items, implicit in ((dspecs, instr.definitions, info.implicit_writes),
                                   (ospecs, instr.operands, info.implicit_reads)):
        for spec, x in zip(specs, items, strict=False):
            if spec.kind == "special" and spec.fixed.startswith("vcc") and (
                    x.phys is None or x.phys.reg != VCC):
                err(f"{spec.name} must be in vcc", b, idx, instr)
        regs = {IMPLICIT_REGS[r] for r in implicit if r in IMPLICIT_REGS}
        for i in range(len(specs), len(items)):
            x = items[i]
            if items is instr.operands and i in tied:
                continue
            if x.phys is None or x.phys.reg not in regs:
                err("implicit register operand not in its register", b, idx, instr)
    for oi, di in tied.items():
        o, d = instr.operands[oi], instr.definitions[di]
        if o.is_undef or o.temp is None:
            continue
        if o.phys != d.phys:
            where = d.phys.text(d.rc) if d.phys is not None and d.rc is not None else "none"
            err(f"tied operand %{o.temp.id} in "
                f"{o.phys.text(o.rc) if o.phys is not None else 'none'} but its definition "
                f"in {where}", b, idx, instr)


def _check_block_interference(program: Program, b: Block, live_in: set[int],
                              live_out: set[int], assignment: dict[int, PhysReg],
                              rc_of: dict[int, RegClass], err: _Reporter) -> dict[int, int]:
    # temps dying at each instruction / dead definitions, by a backward walk
    n = len(b.instructions)
    dies: list[list[int]] = [[] for _ in range(n)]
    dead_defs: list[list[int]] = [[] for _ in range(n)]
    live = set(live_out)
    for idx in range(n - 1, -1, -1):
        instr = b.instructions[idx]
        for d in instr.definitions:
            if d.temp is not None:
                if d.temp.id in live:
                    live.discard(d.temp.id)
                else:
                    dead_defs[idx].append(d.temp.id)
        if instr.is_phi:
            continue
        for o in instr.operands:
            if o.temp is not None and o.temp.id not in live:
                live.add(o.temp.id)
                dies[idx].append(o.temp.id)
    file: dict[int, int] = {}

    def place(t: int, idx: int, instr: Instruction | None, what: str) -> None:
        if t not in assignment:
            return
        for x in _reg_bytes(assignment[t], rc_of[t]):
            other = file.get(x)
            if other is not None and other != t:
                err(f"{what} %{t} and live %{other} share {_fmt_reg(x)}", b, idx, instr)
                break
        for x in _reg_bytes(assignment[t], rc_of[t]):
            file[x] = t

    def free(t: int) -> None:
        if t not in assignment:
            return
        for x in _reg_bytes(assignment[t], rc_of[t]):
            if file.get(x) == t:
                del file[x]

    for t in sorted(live_in):
        place(t, -1, None, "live-in")
    for idx, instr in enumerate(b.instructions):
        if instr.is_phi:
            for d in instr.definitions:
                if d.temp is not None:
                    place(d.temp.id, idx, instr, "phi definition")
            for t in dead_defs[idx]:
                free(t)
            continue
        late: list[int] = []
        for o in instr.operands:
            if o.temp is None or o.temp.id not in assignment:
                continue
            t = o.temp.id
            if any(file.get(x) != t for x in _reg_bytes(assignment[t], rc_of[t])):
                err(f"operand %{t} is not in {assignment[t].text(rc_of[t])} any more",
                    b, idx, instr)
        for t in dies[idx]:
            if any(o.temp_id == t and o.is_late_kill for o in instr.operands):
                late.append(t)
            else:
                free(t)
        for d in instr.definitions:
            if d.temp is not None:
                place(d.temp.id, idx, instr, "definition")
            elif d.phys is not None and d.rc is not None:
                for x in _reg_bytes(d.phys, d.rc):
                    if x in file:
                        err(f"fixed definition {d.phys.text(d.rc)} overwrites live "
                            f"%{file[x]}", b, idx, instr)
                        break
        for t in dead_defs[idx]:
            free(t)
        for t in late:
            free(t)
    for t in live_out:
        if t in assignment and any(file.get(x) != t for x in _reg_bytes(assignment[t], rc_of[t])):
            err(f"live-out %{t} is not in {assignment[t].text(rc_of[t])} at the end", b)
    return file


def _lanes_liveness(program: Program) -> tuple[list[set[int]], list[set[int]], list[set[int]]]:
    """Live-in / live-out VGPR temps per block when every value lives along
    linear edges too, and the phi definitions whose copies end each block."""
    n = len(program.blocks)
    phi_out: list[set[int]] = [set() for _ in range(n)]
    phi_defs_out: list[set[int]] = [set() for _ in range(n)]
    use_def: list[tuple[set[int], set[int]]] = []
    for b in program.blocks:
        uses: set[int] = set()
        defs: set[int] = set()
        for instr in reversed(b.instructions):
            for d in instr.definitions:
                if d.temp is not None and d.temp.rc.is_vgpr:
                    defs.add(d.temp.id)
                    uses.discard(d.temp.id)
            if instr.is_phi:
                preds = b.logical_preds if instr.opcode == "p_phi" else b.linear_preds
                d0 = instr.definitions[0] if instr.definitions else None
                for p, o in zip(preds, instr.operands, strict=False):
                    if o.temp is not None and o.temp.rc.is_vgpr:
                        phi_out[p].add(o.temp.id)
                    if d0 is not None and d0.temp is not None and d0.temp.rc.is_vgpr:
                        phi_defs_out[p].add(d0.temp.id)
                continue
            for o in instr.operands:
                if o.temp is not None and o.temp.rc.is_vgpr:
                    uses.add(o.temp.id)
        use_def.append((uses, defs))
    live_in: list[set[int]] = [set() for _ in range(n)]
    live_out: list[set[int]] = [set() for _ in range(n)]
    changed = True
    while changed:
        changed = False
        for b in reversed(program.blocks):
            out = set(phi_out[b.index])
            for s in b.linear_succs:  # a logical edge is a linear path too
                out |= live_in[s]
            uses, defs = use_def[b.index]
            new = uses | (out - defs)
            if new != live_in[b.index] or out != live_out[b.index]:
                live_in[b.index], live_out[b.index] = new, out
                changed = True
    return live_in, live_out, phi_defs_out


def _check_linear_vgprs(program: Program, assignment: dict[int, PhysReg],
                        rc_of: dict[int, RegClass], err: _Reporter) -> None:
    """No linear VGPR shares a register with an ordinary VGPR value of any lane
    (module docstring). Nothing to do without linear VGPRs."""
    lin = {t for t, rc in rc_of.items() if rc.is_vgpr and rc.linear and t in assignment}
    if not lin:
        return
    live_in, live_out, phi_defs_out = _lanes_liveness(program)

    def regs(t: int) -> range:
        return _reg_bytes(assignment[t], rc_of[t])

    def clash(t: int, live: set[int]) -> tuple[int, int] | None:
        """(other value, byte) of a value of the other kind overlapping t."""
        if t not in assignment or not rc_of[t].is_vgpr:
            return None
        mine = regs(t)
        t_lin = t in lin
        for u in live:
            if u == t or u not in assignment or not rc_of[u].is_vgpr or (u in lin) == t_lin:
                continue
            ur = regs(u)
            if mine.start < ur.stop and ur.start < mine.stop:
                return u, max(mine.start, ur.start)
        return None

    def report(t: int, u: int, x: int, what: str, b: Block, idx: int = -1,
               instr: Instruction | None = None) -> None:
        lv, other = (t, u) if t in lin else (u, t)
        err(f"linear VGPR %{lv} and %{other} (a VGPR value some lane still needs) share "
            f"{_fmt_reg(x)} {what}", b, idx, instr)

    for b in program.blocks:
        # the end of the block, after the copies of the successors' phis
        end = live_out[b.index] | phi_defs_out[b.index]
        for t in sorted(end & lin):
            c = clash(t, end)
            if c is not None:
                report(t, c[0], c[1], "at the end of the block", b)
        live = set(live_out[b.index])
        for idx in range(len(b.instructions) - 1, -1, -1):
            instr = b.instructions[idx]
            for d in instr.definitions:
                if d.temp is None:
                    continue
                c = clash(d.temp.id, live)
                if c is not None:
                    report(d.temp.id, c[0], c[1], "at its definition", b, idx, instr)
            for d in instr.definitions:
                if d.temp is not None:
                    live.discard(d.temp.id)
            if instr.is_phi:
                continue
            for o in instr.operands:
                if o.temp is not None and o.temp.rc.is_vgpr:
                    live.add(o.temp.id)
        for t in sorted(live_in[b.index] & lin):
            c = clash(t, live_in[b.index])
            if c is not None:
                report(t, c[0], c[1], "at the block entry", b)

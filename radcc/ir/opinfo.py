"""How IR instructions relate to the opcode table (`radcc.isa.table`).

The table is the single source of truth for hardware instructions. This
module fixes the conventions the printer, parser, builder and validator share:

- `Instruction.opcode` is the canonical name of the instruction vocabulary
  (`OpInfo.canon`: GFX11's LLVM name where GFX11 has it, see
  `radcc.isa.table`), the same on every generation; the generation's table
  gives its encoding, operands and LLVM spelling (`op_info(...).name`, what
  emission prints). The parser also accepts the generation's own spelling.
- `Instruction.format` is a table encoding (``VOP2``, ``VOP3``, ``SOP1`` ...)
  or ``PSEUDO``. The *natural* format of an opcode is its first table entry
  (the shortest encoding: VOP1/VOP2/VOPC before VOP3/VOP3SD), as llvm-mc's
  matcher prefers it.
- Textual spelling: the bare name means the natural format; ``_e32`` names
  the 32-bit VOP1/VOP2/VOPC form, ``_e64`` the VOP3/VOP3SD/VOP3P form;
  anything else is spelled ``name@FORMAT`` (e.g. ``v_dual_add_f32@VOPDY``).
- Operand slots: the table's specs whose kind carries a register or
  constant (`REG_KINDS`) are IR operands/definitions, in table order
  (definitions first in the table, but `Instruction.definitions` and
  `Instruction.operands` are separate lists). All other specs (``imm``,
  ``label``, ``waitcnt``, ``hwreg``, ``sendmsg`` ...) are `Instruction.fields`
  keyed by the spec name (``simm16`` ...); branch targets are
  ``fields["targets"]`` (block indices).
- Implicit registers (``scc``, ``vcc``, ``exec``, ``m0`` in the table's
  `implicit_reads/writes`) may appear as *extra* trailing operands /
  definitions fixed to that register, as ACO writes ``s1: %8:scc`` for the
  SCC output of ``s_add_u32``.
- Tied operands (ACO's read-modify-write definitions): an instruction that
  reads the old value of a definition (`tied_definition`) takes that value
  as an *extra* operand right after the table's operand slots, before any
  implicit-register operand: ``v_fmac_f32 a, b, acc``, ``v_writelane_b32
  val, lane, old``, ``s_addk_i32 old simm16:k``, ``s_cmovk_i32 old, scc``.
  The operand and the definition must get the same register
  (`tied_operands`). Which ops: the table's ``tied_def`` tag (SALU, set by
  tools/isa_probe/scalar.py: s_addk/s_mulk/s_cmovk/s_cmov), and the VALU ops
  the semantics library reads VDST of (``radcc.isa.acc_ops.ACC_OPS``: v_fmac_*,
  v_pk_fmac_f16, v_dot2acc_f32_f16) plus v_writelane_b32 (lanes other than
  the written one keep VDST). VOPD pairs are not covered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from radcc.ir.pseudo import PSEUDO
from radcc.ir.regclass import EXEC, M0, SCC, VCC
from radcc.isa.acc_ops import ACC_OPS
from radcc.isa.table import OpcodeTable, OperandSpec, OpInfo

if TYPE_CHECKING:
    from radcc.ir.program import Instruction

PSEUDO_FORMAT = "PSEUDO"

# Spec kinds that are IR operands/definitions (registers or constants).
REG_KINDS = frozenset({"vgpr", "sgpr", "ssrc", "vsrc", "vcsrc", "sreg", "sreg_wave",
                       "special", "smem_offset", "vinl"})
# Kinds that accept constants.
CONST_KINDS = frozenset({"ssrc", "vsrc", "vcsrc", "smem_offset", "vinl"})

IMPLICIT_REGS = {"scc": SCC, "vcc": VCC, "exec": EXEC, "m0": M0}

E32_FORMATS = ("VOP1", "VOP2", "VOPC")
E64_FORMATS = ("VOP3", "VOP3SD", "VOP3P")

# Formats whose operand sizes vary with fields (d16, tfe, dmask, saddr ...):
# the validator checks their register files but is lenient on sizes.
VARIABLE_SIZE_FORMATS = frozenset({"MIMG", "MUBUF", "MTBUF", "GLOBAL", "SCRATCH", "FLAT",
                                   "SMEM", "DS", "EXP", "LDSDIR", "VINTERP"})


def natural_format(table: OpcodeTable, opcode: str) -> str:
    """The encoding an opcode gets when none is asked for."""
    if opcode in PSEUDO:
        return PSEUDO_FORMAT
    entries = table.by_canon.get(opcode)
    if not entries:
        raise KeyError(f"{opcode} does not exist on {table.gfx.name}")
    return entries[0].enc


def op_info(table: OpcodeTable, opcode: str, fmt: str) -> OpInfo | None:
    """The table entry of (opcode, format); None for pseudo or unknown."""
    for e in table.by_canon.get(opcode, ()):
        if e.enc == fmt:
            return e
    return None


def _canonical(table: OpcodeTable, name: str) -> str | None:
    """The canonical name of `name`, itself canonical or the generation's LLVM
    spelling of an instruction (``s_load_dword`` on GFX10 is ``s_load_b32``)."""
    if name in table.by_canon:
        return name
    es = table.by_name.get(name)
    return es[0].canon if es else None


def resolve_mnemonic(table: OpcodeTable, text: str) -> tuple[str, str]:
    """Map a textual opcode (``v_add_f32_e64``, ``s_mov_b32``, ``x@VOP3``, the
    generation's spelling such as ``global_load_dword`` on GFX10, or another alias
    the assembler accepts) to (canonical opcode, format).
    Raises KeyError with a message when it names nothing."""
    if text in PSEUDO:
        return text, PSEUDO_FORMAT
    if "@" in text:
        name, fmt = text.split("@", 1)
        canon = _canonical(table, name)
        if canon is None or op_info(table, canon, fmt) is None:
            raise KeyError(f"'{name}' has no {fmt} encoding")
        return canon, fmt
    canon = _canonical(table, text)
    if canon is not None:
        return canon, table.by_canon[canon][0].enc
    for suffix, fmts in (("_e32", E32_FORMATS), ("_e64", E64_FORMATS)):
        if text.endswith(suffix):
            base = _canonical(table, text[: -len(suffix)])
            if base is None:
                continue
            for e in table.by_canon[base]:
                if e.enc in fmts:
                    return base, e.enc
            raise KeyError(f"'{text[: -len(suffix)]}' has no {suffix[1:]} encoding")
    cands = table.candidates(text)
    if cands:
        return cands[0].canon, cands[0].enc
    raise KeyError(f"unknown opcode '{text}'")


def spell_mnemonic(table: OpcodeTable, opcode: str, fmt: str) -> str:
    """Inverse of `resolve_mnemonic`: the shortest unambiguous spelling."""
    if fmt == PSEUDO_FORMAT and opcode in PSEUDO:
        return opcode
    entries = table.by_canon.get(opcode, ())
    if entries and entries[0].enc == fmt:
        return opcode
    encs = [e.enc for e in entries]
    if fmt in E64_FORMATS and fmt in encs and not any(e in E64_FORMATS for e in encs[:encs.index(fmt)]):
        return opcode + "_e64"
    if fmt in E32_FORMATS and fmt in encs and not any(e in E32_FORMATS for e in encs[:encs.index(fmt)]):
        return opcode + "_e32"
    return f"{opcode}@{fmt}"


def operand_slots(info: OpInfo) -> tuple[list[OperandSpec], list[OperandSpec]]:
    """(definition specs, operand specs) that are IR definitions/operands."""
    defs = [s for s in info.operands if s.is_def and s.kind in REG_KINDS]
    ops = [s for s in info.operands if not s.is_def and s.kind in REG_KINDS]
    return defs, ops


def field_slots(info: OpInfo) -> list[OperandSpec]:
    """Specs that are `Instruction.fields` rather than operands."""
    return [s for s in info.operands if s.kind not in REG_KINDS]


# VALU ops that read VDST besides ACC_OPS: v_writelane_b32 writes one lane.
_VALU_TIED = frozenset({"v_writelane_b32"})


_VALU_TIED_OPS = ACC_OPS | _VALU_TIED


def tied_definition(info: OpInfo) -> int | None:
    """Index (among the IR definitions) of the definition whose old value
    `info`'s instruction reads, or None (module docstring)."""
    slot = info.extra.get("tied_def")
    if slot is None and info.canon in _VALU_TIED_OPS:
        slot = "vdst"
    if slot is None:
        return None
    dspecs, _ = operand_slots(info)
    for i, s in enumerate(dspecs):
        if s.name == slot:
            return i
    return None


def mimg_address_operands(info: OpInfo, instr: Instruction) -> int:
    """How many operands a MIMG instruction's address slot (``vaddr``) takes: 1 (one
    register range), or with NSA addresses (isel's GFX11 choice: each address VGPR its own
    operand, placed anywhere by the register allocator) every operand beyond the table's
    source slots: the address slot's operands are the ones from ``vaddr``'s index on."""
    if info.enc != "MIMG":
        return 1
    nsrc = sum(1 for s in info.operands if s.kind in REG_KINDS and not s.is_def)
    return 1 + max(0, len(instr.operands) - nsrc)


def mimg_atomic(info: OpInfo) -> bool:
    """An ``image_atomic_*`` opcode."""
    mimg = info.extra.get("mimg")
    return isinstance(mimg, dict) and bool(mimg.get("atomic"))


def mubuf_atomic(info: OpInfo) -> bool:
    """A ``buffer_atomic_*`` opcode: one that returns (glc) has a definition, the same
    registers as its data operand ``vdata`` (operand 0), which is what assembly prints."""
    return info.enc == "MUBUF" and "_atomic_" in info.name


def mimg_atomic_returns(info: OpInfo, instr: Instruction) -> bool:
    """An ``image_atomic_*`` returning the old value: its definition and its data
    operand (``vdata_in``, operand 0) are one register range, written once in assembly."""
    return mimg_atomic(info) and bool(instr.definitions)


def tied_operands(table: OpcodeTable, instr: Instruction) -> list[tuple[int, int]]:
    """(definition index, operand index) pairs of `instr` that must share a
    register: the extra operand right after the table's operand slots of a
    `tied_definition` op, when present (an operand fixed to one of the op's
    implicit registers there is the implicit one, not a tied value); the data
    operand of an ``image_atomic_*`` that returns (`mimg_atomic_returns`) or of a
    ``buffer_atomic_*`` that returns (`mubuf_atomic`)."""
    if instr.format == PSEUDO_FORMAT or not instr.definitions:
        return []
    info = op_info(table, instr.opcode, instr.format)
    if info is None:
        return []
    uid = info.uid
    if uid in _TIED_PLANS:
        plan = _TIED_PLANS[uid]
    else:
        plan = _TIED_PLANS[uid] = _tied_plan(info)
    if plan is None:
        return []
    di, k, implicit = plan
    if di < 0:  # an atomic that returns
        return [(0, 0)]
    if di >= len(instr.definitions) or k >= len(instr.operands):
        return []
    o = instr.operands[k]
    if o.phys is not None and o.phys.reg in implicit:
        return []
    return [(di, k)]


def _tied_plan(info: OpInfo) -> tuple[int, int, frozenset[int]] | None:
    """`tied_operands`' facts of a table entry: (definition index, operand index, the
    implicit registers that operand may be instead of a tied value), or None when
    the entry ties nothing; definition index -1 for an atomic that returns (its data
    operand 0 is tied to definition 0 whatever the instruction holds). (No sentinel
    tested by identity: mypyc boxes a tuple anew each time it leaves native code.)"""
    if mimg_atomic(info) or mubuf_atomic(info):
        return (-1, 0, frozenset())
    di = tied_definition(info)
    if di is None:
        return None
    return (di, len(operand_slots(info)[1]),
            frozenset(IMPLICIT_REGS[r] for r in info.implicit_reads if r in IMPLICIT_REGS))


# `_tied_plan` by table entry (`OpInfo.uid`)
_TIED_PLANS: dict[int, tuple[int, int, frozenset[int]] | None] = {}

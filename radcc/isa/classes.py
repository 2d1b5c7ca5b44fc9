"""Instruction classification: the one place that says what kind of instruction
an opcode is, derived from the opcode table (`radcc.isa.table`: each entry's
encoding and class) and, for pseudo instructions, from the pseudo-op table
(`radcc.ir.pseudo`).

- Encoding families (table encodings): `SALU_ENCODINGS` (SOP1/SOP2/SOPC/SOPK:
  ACO's isSALU without SOPP), `SCALAR_ENCODINGS` (those, SOPP and SMEM: the
  scalar unit), `VALU_ENCODINGS` (VOP1/VOP2/VOPC/VOP3/VOP3SD/VOP3P),
  `FLAT_LIKE_ENCODINGS` (FLAT/GLOBAL/SCRATCH), `VMEM_ENCODINGS`
  (MUBUF/MTBUF/MIMG and the flat-like ones), `MEMORY_ENCODINGS` (those, SMEM and
  DS).
- `ALU_ENCODINGS`: SALU and VALU encodings (computation: no SOPP, VOPD, VINTERP).
- Table classes (`OpInfo.cls`, the tools/isa_probe classification):
  `VALU_TABLE_CLASSES` (valu valu64 trans dot wmma: executed by the VALU and
  counted as VALU in hazard distances), `SALU_TABLE_CLASSES` (salu salu64
  branch), `ALU_TABLE_CLASSES` (VALU and SALU computation: salu salu64 valu
  valu64 trans dot wmma), `MEMORY_TABLE_CLASSES` (smem vmem flat ds).
- ACO's instruction class (`InstrClass`, `instr_class(info)`), as ACO's
  ``instr_class`` (src/amd/compiler/aco_opcodes.py), derived from the table's
  class, encoding and name: SALU/SOPP default ``salu``; branches, waits
  (``s_waitcnt*``, ``s_wait_idle``, ``s_delay_alu``...), ``s_barrier`` and
  ``s_sendmsg*`` (SOPP) their own classes; ``v_mul_lo/hi_[iu]32``
  ``valu_quarter_rate32``; 64-bit integer VALU ``valu64``; f64 arithmetic
  ``valu_double``, ``v_add_f64`` ``valu_double_add``, f64 conversions
  ``valu_double_convert``, f64 rcp/rsq/sqrt ``valu_double_transcendental``;
  32/16-bit transcendentals ``valu_transcendental32``; other VALU (dot
  products, interpolation, VOPD) ``valu32``. The cycle model
  (`radcc.isa.cycle_model`) prices these classes.
- Pseudo instructions: their effects are flags of the pseudo-op table
  (`radcc.ir.pseudo`: ``pure``, ``value``).
"""

from __future__ import annotations

from enum import Enum
from functools import cache

from radcc.isa.table import OpInfo

__all__ = ["ALU_ENCODINGS", "ALU_TABLE_CLASSES", "FLAT_LIKE_ENCODINGS", "InstrClass", "MEMORY_ENCODINGS",
           "MEMORY_TABLE_CLASSES", "SALU_ENCODINGS", "SALU_TABLE_CLASSES", "SCALAR_ENCODINGS",
           "VALU_ENCODINGS", "VALU_TABLE_CLASSES", "VMEM_ENCODINGS", "instr_class"]

SALU_ENCODINGS = frozenset({"SOP1", "SOP2", "SOPC", "SOPK"})
SCALAR_ENCODINGS = SALU_ENCODINGS | {"SOPP", "SMEM"}
VALU_ENCODINGS = frozenset({"VOP1", "VOP2", "VOPC", "VOP3", "VOP3SD", "VOP3P"})
FLAT_LIKE_ENCODINGS = frozenset({"FLAT", "GLOBAL", "SCRATCH"})
VMEM_ENCODINGS = FLAT_LIKE_ENCODINGS | {"MUBUF", "MTBUF", "MIMG"}
MEMORY_ENCODINGS = VMEM_ENCODINGS | {"SMEM", "DS"}
# SALU and VALU computation encodings (no SOPP, no VOPD, no VINTERP): the sites that need a
# narrower or wider set write it as this set minus/plus a documented difference.
ALU_ENCODINGS = SALU_ENCODINGS | VALU_ENCODINGS

VALU_TABLE_CLASSES = frozenset({"valu", "valu64", "trans", "dot", "wmma"})
SALU_TABLE_CLASSES = frozenset({"salu", "salu64", "branch"})
ALU_TABLE_CLASSES = VALU_TABLE_CLASSES | {"salu", "salu64"}
MEMORY_TABLE_CLASSES = frozenset({"smem", "vmem", "flat", "ds"})


class InstrClass(Enum):
    """ACO's ``instr_class`` (aco_opcodes.py ``InstrClass``)."""

    VALU32 = "valu32"
    VALU_CONVERT32 = "valu_convert32"
    VALU64 = "valu64"
    VALU_QUARTER_RATE32 = "valu_quarter_rate32"
    VALU_FMA = "valu_fma"
    VALU_TRANSCENDENTAL32 = "valu_transcendental32"
    VALU_DOUBLE = "valu_double"
    VALU_DOUBLE_ADD = "valu_double_add"
    VALU_DOUBLE_CONVERT = "valu_double_convert"
    VALU_DOUBLE_TRANSCENDENTAL = "valu_double_transcendental"
    WMMA = "wmma"
    SALU = "salu"
    SMEM = "smem"
    BARRIER = "barrier"
    BRANCH = "branch"
    SENDMSG = "sendmsg"
    DS = "ds"
    EXPORT = "exp"
    VMEM = "vmem"
    WAITCNT = "waitcnt"
    OTHER = "other"



_QUARTER_RATE = frozenset({"v_mul_lo_u32", "v_mul_hi_u32", "v_mul_lo_i32", "v_mul_hi_i32"})
_SOPP_WAITS = frozenset({"s_waitcnt", "s_waitcnt_depctr", "s_wait_idle", "s_delay_alu",
                         "s_wait_event"})


def _double_class(name: str, cls: str) -> InstrClass:
    if cls == "trans" or name in ("v_rcp_f64", "v_rsq_f64", "v_sqrt_f64"):
        return InstrClass.VALU_DOUBLE_TRANSCENDENTAL
    if name.startswith("v_cvt_") or name.startswith("v_frexp_exp_"):
        return InstrClass.VALU_DOUBLE_CONVERT
    if name == "v_add_f64":
        return InstrClass.VALU_DOUBLE_ADD
    return InstrClass.VALU_DOUBLE


@cache
def _class_of(name: str, enc: str, cls: str) -> InstrClass:
    if cls in ("valu", "valu64", "trans", "dot", "vinterp", "nop") and name.startswith("v_"):
        if "f64" in name:
            return _double_class(name, cls)
        if cls == "trans":
            return InstrClass.VALU_TRANSCENDENTAL32
        if name in _QUARTER_RATE:
            return InstrClass.VALU_QUARTER_RATE32
        if cls == "valu64":
            return InstrClass.VALU64
        return InstrClass.VALU32
    if cls == "wmma":
        return InstrClass.WMMA
    if cls in ("vmem", "flat"):
        return InstrClass.VMEM
    if cls in ("ds", "ldsdir"):
        return InstrClass.DS
    if cls == "exp":
        return InstrClass.EXPORT
    if cls == "smem":
        return InstrClass.SMEM
    if cls == "branch":
        return InstrClass.SALU if name == "s_getpc_b64" else InstrClass.BRANCH
    if cls == "waitcnt" or name in _SOPP_WAITS:
        return InstrClass.WAITCNT
    if name == "s_barrier":
        return InstrClass.BARRIER
    if cls == "message" and enc == "SOPP":
        return InstrClass.SENDMSG
    if name == "s_trap":
        return InstrClass.OTHER
    if enc in ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP"):
        return InstrClass.SALU
    return InstrClass.OTHER


def instr_class(info: OpInfo | None) -> InstrClass:
    """ACO's class of a table entry (OTHER for pseudo instructions: None)."""
    if info is None:
        return InstrClass.OTHER
    return _class_of(info.name, info.enc, info.cls)

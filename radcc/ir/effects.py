"""What an instruction does besides defining its values: the one place for
"free of side effects", derived from the opcode table (`radcc.isa.classes`) and
the pseudo-op table (`radcc.ir.pseudo` flags ``pure`` / ``value``).

Two notions, the second stricter than the first:

- `has_side_effects(gfx, instr)` false: removable once its definitions are
  unread (dead-code elimination, `radcc.passes.dead_code`; ACO's ``is_dead``):
  SALU/VALU computation of the table (classes salu salu64 valu valu64 trans
  dot wmma), memory *loads* (``s_load``/``s_buffer_load``,
  ``global``/``scratch``/``flat``/``buffer_load``, ``ds_load``, the DS lane
  permutes) and the ``pure`` pseudo instructions (copies, vectors, phis,
  ``p_as_uniform``, reductions and scans, ``p_bpermute``, ``p_wqm``).
- `can_eliminate(instr)` true: an equal earlier instruction can replace it
  (value numbering, `radcc.passes.vn_impl`): it defines values, writes no
  EXEC, and is a ``value`` pseudo instruction, an SALU/VALU instruction other
  than those reading or changing wave state (``s_getpc``, hwreg, messages,
  relative moves, timers, ``v_writelane``), a DS lane permute, or a load
  without cache-policy bits. `clobbers_memory(instr)`: it writes memory or
  orders memory accesses (stores, atomics, barriers, spills, waits other than
  ``s_waitcnt``).
"""

from __future__ import annotations

from radcc.ir.opinfo import op_info
from radcc.ir.program import Instruction
from radcc.ir.pseudo import PURE_PSEUDO, VALUE_PSEUDO
from radcc.ir.regclass import EXEC, EXEC_HI, M0
from radcc.isa.classes import ALU_ENCODINGS, ALU_TABLE_CLASSES, MEMORY_ENCODINGS
from radcc.isa.table import get_table
from radcc.target import GfxLevel

__all__ = ["CROSS_LANE_DS", "STATE_REGS", "can_eliminate", "clobbers_memory",
           "has_side_effects", "is_load"]

_MEM_FORMATS = MEMORY_ENCODINGS
_ALU_FORMATS = ALU_ENCODINGS | {"VINTERP"}
_SALU_IMPURE = frozenset({"s_getpc_b64", "s_setpc_b64", "s_swappc_b64", "s_getreg_b32",
                          "s_setreg_b32", "s_setreg_imm32_b32", "s_sendmsg_rtn_b32",
                          "s_sendmsg_rtn_b64", "s_movrels_b32", "s_movrels_b64",
                          "s_movreld_b32", "s_movreld_b64", "s_rfe_b64", "s_memtime",
                          "s_memrealtime", "s_sleep_var", "s_ttracedata"})
CROSS_LANE_DS = frozenset({"ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32"})
_CACHE_BITS = ("glc", "dlc", "slc", "sc0", "sc1", "nt", "tfe", "lds")
STATE_REGS = frozenset({EXEC, EXEC + 1, M0})  # definitions that change machine state
_LOAD_PREFIXES = ("s_load_", "s_buffer_load_", "global_load_", "scratch_load_", "flat_load_",
                  "buffer_load_", "ds_load_", "ds_bpermute_", "ds_permute_",
                  "ds_swizzle_")


def has_side_effects(gfx: GfxLevel, instr: Instruction) -> bool:
    """Whether `instr` does anything besides defining its values (module docstring)."""
    if instr.is_pseudo:
        return instr.opcode not in PURE_PSEUDO
    if instr.opcode.startswith(_LOAD_PREFIXES):
        return False
    info = op_info(get_table(gfx), instr.opcode, instr.format)
    return info is None or info.cls not in ALU_TABLE_CLASSES


def _writes_exec(instr: Instruction) -> bool:
    for d in instr.definitions:  # (a loop, not any(): can_eliminate asks per instruction)
        if d.phys is not None and d.phys.reg in (EXEC, EXEC_HI):
            return True
    return False


def is_load(instr: Instruction) -> bool:
    op = instr.opcode
    if instr.format == "DS":
        return op.startswith("ds_load")
    if instr.format == "SMEM":
        return op.startswith(("s_load", "s_buffer_load"))
    return "_load" in op and "atomic" not in op


def clobbers_memory(instr: Instruction) -> bool:
    """Does `instr` write memory or order memory accesses (store, atomic, barrier ...)?"""
    if instr.format in _MEM_FORMATS:
        if instr.opcode in CROSS_LANE_DS:
            return False
        return not is_load(instr)
    if instr.format == "SOPP":
        return instr.opcode not in ("s_nop", "s_branch") and not instr.opcode.startswith(
            ("s_cbranch", "s_waitcnt", "s_delay_alu", "s_clause"))
    return instr.opcode in ("p_barrier", "p_spill", "p_reload", "p_init_scratch")


def can_eliminate(instr: Instruction) -> bool:
    """Is `instr` free of side effects, so that an equal earlier one can replace it?"""
    if not instr.definitions or instr.is_phi or _writes_exec(instr):
        return False
    fmt = instr.format
    if fmt == "PSEUDO":
        return instr.opcode in VALUE_PSEUDO
    if fmt in _MEM_FORMATS:
        if instr.opcode in CROSS_LANE_DS:
            return True
        return is_load(instr) and not any(instr.fields.get(k) for k in _CACHE_BITS)
    if fmt in _ALU_FORMATS or fmt in ("VOPD", "DPP"):
        return instr.opcode not in _SALU_IMPURE and instr.opcode != "v_writelane_b32"
    return False

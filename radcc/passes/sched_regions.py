"""Regions for the post-RA schedulers (`scheduler_ilp`, `schedule_vopd`): which
instructions may be reordered, and the maximal runs of them inside a block.

`classify(instr, access)` is ``ALU``, ``LOAD`` or ``FIXED``:

- **ALU**: the table's VALU classes valu/valu64/trans/dot/wmma (not nops), VOPD
  pairs, and SALU classes salu/salu64 that define a register and have only
  register/``imm`` operand slots;
- **LOAD**: memory loads, smem/vmem/flat/ds entries that define a register and are
  not atomics, stores, GDS or LDS-DMA;
- **FIXED**: everything else (pseudo instructions, branches, stores, atomics,
  barriers, messages, waits, nops, hwreg/mode accesses, interpolation, anything
  writing EXEC): no instruction moves across it.

`regions(kinds)` gives the runs of at least two consecutive non-FIXED instructions.
"""

from __future__ import annotations

from radcc.ir.opinfo import REG_KINDS
from radcc.ir.program import Instruction
from radcc.ir.regclass import EXEC, EXEC_HI
from radcc.isa.classes import MEMORY_TABLE_CLASSES
from radcc.isa.table import OpInfo
from radcc.passes.access import VALU_CLASSES, Access, is_gds, is_nop

__all__ = ["ALU", "FIXED", "LOAD", "classify", "regions"]

FIXED, ALU, LOAD = 0, 1, 2
_MEM_CLASSES = MEMORY_TABLE_CLASSES
_STORE_SLOTS = ("vdata", "data", "sdata")
_SALU_OK_KINDS = REG_KINDS | {"imm"}


def _writes_exec(acc: Access) -> bool:
    return EXEC in acc.writes or EXEC_HI in acc.writes


def classify(instr: Instruction, acc: Access) -> int:
    """FIXED, ALU or LOAD (see the module docstring)."""
    info: OpInfo | None = acc.info
    if info is None or instr.is_pseudo or _writes_exec(acc):
        return FIXED
    if instr.format.startswith("VOPD"):
        return ALU
    cls = info.cls
    if cls in VALU_CLASSES:
        return FIXED if is_nop(info) else ALU
    if cls in ("salu", "salu64"):
        if not instr.definitions or not info.srcs:
            return FIXED
        if any(s.kind not in _SALU_OK_KINDS for s in info.operands):
            return FIXED
        return ALU
    if cls in _MEM_CLASSES:
        if not instr.definitions or info.extra.get("rtn_bits") or is_gds(instr, info):
            return FIXED
        if instr.fields.get("lds"):
            return FIXED
        if any(not s.is_def and s.name.startswith(_STORE_SLOTS) for s in info.operands):
            return FIXED
        return LOAD
    return FIXED


def regions(kinds: list[int]) -> list[tuple[int, int]]:
    """[start, end) ranges of consecutive non-FIXED instructions (length >= 2)."""
    out = []
    start = -1
    for i, k in enumerate([*kinds, FIXED]):
        if k != FIXED and start < 0:
            start = i
        elif k == FIXED and start >= 0:
            if i - start >= 2:
                out.append((start, i))
            start = -1
    return out

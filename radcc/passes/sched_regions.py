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


# what a table entry alone says of `classify` (by `OpInfo.uid`): FIXED, ALU, ALU when the
# instruction has definitions (SALU), or LOAD unless the instruction's own fields or
# missing definitions fix it (memory)
_E_SALU, _E_LOAD = 3, 4
_ENTRY_KINDS: dict[int, int] = {}


def _entry_kind(info: OpInfo) -> int:
    cls = info.cls
    if cls in VALU_CLASSES:
        return FIXED if is_nop(info) else ALU
    if cls in ("salu", "salu64"):
        if not info.srcs or any(s.kind not in _SALU_OK_KINDS for s in info.operands):
            return FIXED
        return _E_SALU
    if cls in _MEM_CLASSES:
        if info.extra.get("rtn_bits") or any(
                not s.is_def and s.name.startswith(_STORE_SLOTS) for s in info.operands):
            return FIXED
        return _E_LOAD
    return FIXED


def classify(instr: Instruction, acc: Access) -> int:
    """FIXED, ALU or LOAD (see the module docstring)."""
    info: OpInfo | None = acc.info
    if info is None or instr.format == "PSEUDO" or _writes_exec(acc):
        return FIXED
    if instr.format.startswith("VOPD"):
        return ALU
    k = _ENTRY_KINDS.get(info.uid)
    if k is None:
        k = _ENTRY_KINDS[info.uid] = _entry_kind(info)
    if k == _E_SALU:
        return ALU if instr.definitions else FIXED
    if k == _E_LOAD:
        if not instr.definitions or is_gds(instr, info) or instr.fields.get("lds"):
            return FIXED
        return LOAD
    return k


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

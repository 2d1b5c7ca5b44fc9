"""Facts register allocation and the SSA passes around it share.

- `RegisterAllocationError`: the typed error of the allocator (names the
  block and the instruction).
- Register ranges and tuple alignment of GFX10+/GFX11 (ACO's README.md "Register
  Allocation": vector operands are contiguous; SGPR pairs even, SGPR
  tuples of four or more dwords 4-aligned, as SMEM/buffer descriptors and
  64-bit SALU operands require; a 3-dword SGPR tuple, which no GFX10/11
  instruction reads or writes whole (only ``p_create_vector``/``p_split_vector``),
  anywhere, as ACO's get_stride; VGPR tuples need no alignment on GFX11).
"""

from __future__ import annotations

from radcc.ir.program import Block, Program
from radcc.ir.regclass import VGPR_BASE, RegClass


class RegisterAllocationError(Exception):
    """Register allocation failed (demand beyond the register file, or a
    constraint it cannot meet); names the block and the instruction."""

    def __init__(self, message: str, block: int | None = None,
                 instruction: str | None = None) -> None:
        where = ""
        if block is not None:
            where = f"BB{block}: "
        if instruction is not None:
            where += f"'{instruction}': "
        super().__init__(f"register allocation: {where}{message}")
        self.block = block
        self.instruction = instruction
        self.message = message


def reg_range(program: Program, rc: RegClass) -> tuple[int, int]:
    """[lo, hi) register numbers a temp of class rc may be given."""
    if rc.is_sgpr:
        return 0, program.target.addressable_sgprs
    return VGPR_BASE, VGPR_BASE + program.target.regfile(program.wave_size).addressable_vgprs


def stride(rc: RegClass) -> int:
    """Alignment (in dwords) of a temp of class rc."""
    if rc.is_sgpr:
        if rc.size == 2:
            return 2
        if rc.size >= 4:
            return 4
    return 1


def logical_end_index(block: Block) -> int:
    """Index of p_logical_end in the block, or -1."""
    for i in range(len(block.instructions) - 1, -1, -1):
        if block.instructions[i].opcode == "p_logical_end":
            return i
    return -1


def branch_index(block: Block) -> int:
    """Index where end-of-block code goes: before the final branch, if any."""
    ins = block.instructions
    if ins and ins[-1].opcode in ("p_branch", "p_cbranch_z", "p_cbranch_nz", "s_branch",
                                  "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz",
                                  "s_cbranch_vccnz", "s_cbranch_execz", "s_cbranch_execnz",
                                  "s_endpgm"):
        return len(ins) - 1
    return len(ins)

"""ssa_elimination gives the copies of linear phis a scratch SGPR and marks a
live SCC (ACO: the linear phi copies' ``scratch_sgpr`` / ``tmp_in_scc``), so that
lower_to_hw can copy linear VGPRs in all lanes (two ``s_not`` of EXEC, which
write SCC) without losing SCC.

The check is a small model of the lowered instructions written here from the
RDNA3 ISA guide (s_cmp_* / s_cselect_b32 / s_not_b32 (SCC = result != 0) /
v_mov_b32 under EXEC): after the end of the predecessor, SCC must still hold
the comparison (or receive the phi's value) and the linear VGPR must hold its
source in every lane, whatever EXEC is.
"""

from __future__ import annotations

import pytest

from radcc.ir.parser import parse_program
from radcc.ir.program import Instruction
from radcc.ir.regclass import EXEC, SCC, VGPR_BASE
from radcc.ir.validate import validate_ra
from radcc.passes.lower_to_hw import lower_to_hw
from radcc.passes.ssa_elimination import ssa_elimination

LANES = 4
HEAD = "program gfx1100 wave32 compute\n"

# SCC (s_cmp) is live across the edge into BB1, whose linear phi copies a linear VGPR
SCC_LIVE_OUT = HEAD + """BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %2:v[0] = p_startpgm
   s1: %1:s[0] = s_mov_b32 IN
   lv1: %3:v[1] = p_start_linear_vgpr %2:v[0]
   s1: %4:scc = s_cmp_lt_u32 %1:s[0], 3
   p_branch BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: top-level, */
   lv1: %5:v[2] = p_linear_phi %3:v[1]
   s1: %6:s[1] = s_cselect_b32 1, 0, %4:scc
   p_unit_test %5:v[2], %6:s[1]
   s_endpgm
"""

# a linear phi in SCC beside a linear VGPR phi: the copy writes SCC itself
SCC_PHI = HEAD + """BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %2:v[0] = p_startpgm
   s1: %1:s[0] = s_mov_b32 IN
   lv1: %3:v[1] = p_start_linear_vgpr %2:v[0]
   p_branch BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: top-level, */
   s1: %7:scc = p_linear_phi %1:s[0]
   lv1: %5:v[2] = p_linear_phi %3:v[1]
   s1: %6:s[1] = s_cselect_b32 1, 0, %7:scc
   p_unit_test %5:v[2], %6:s[1]
   s_endpgm
"""


def simulate(seq: list[Instruction], sregs: dict[int, int], vregs: dict[int, list[int]],
             exec_: int) -> int:
    mask = (1 << LANES) - 1

    def val(o, lane: int = 0) -> int:
        if o.const is not None:
            return o.const
        r = o.phys.reg
        return vregs[r][lane] if r >= VGPR_BASE else sregs[r]

    for ins in seq:
        op, ops, defs = ins.opcode, ins.operands, ins.definitions
        if op == "s_mov_b32":
            sregs[defs[0].phys.reg] = val(ops[0])
        elif op == "s_cmp_lt_u32":
            sregs[SCC] = int(val(ops[0]) < val(ops[1]))
        elif op == "s_cmp_lg_u32":
            sregs[SCC] = int(val(ops[0]) != val(ops[1]))
        elif op == "s_cselect_b32":
            sregs[defs[0].phys.reg] = val(ops[0]) if sregs[SCC] else val(ops[1])
        elif op == "s_not_b32":
            assert defs[0].phys.reg == EXEC and ops[0].phys.reg == EXEC
            exec_ = ~exec_ & mask
            sregs[SCC] = int(exec_ != 0)
        elif op == "v_mov_b32":
            d = defs[0].phys.reg
            new = [val(ops[0], k) for k in range(LANES)]
            old = vregs.get(d, [None] * LANES)
            vregs[d] = [new[k] if exec_ >> k & 1 else old[k] for k in range(LANES)]
        elif op in ("p_unit_test", "s_endpgm", "s_branch"):
            pass
        else:
            raise AssertionError(f"model lacks {op}")
    return exec_


def _lowered(text: str, value: int) -> tuple[list[Instruction], list[Instruction]]:
    p = parse_program(text.replace("IN", str(value)))
    validate_ra(p, "input")
    ssa_elimination(p)
    copies = [i for b in p.blocks for i in b.instructions if i.opcode == "p_parallelcopy"]
    lower_to_hw(p)
    return p.blocks[0].instructions, copies


@pytest.mark.parametrize("value", [1, 7])
@pytest.mark.parametrize("exec_", [0b0101, 0b1111, 0b0001])
def test_live_scc_survives_a_linear_vgpr_phi_copy(value: int, exec_: int) -> None:
    seq, copies = _lowered(SCC_LIVE_OUT, value)
    assert len(copies) == 1 and copies[0].fields.get("tmp_in_scc") is True
    scratch = copies[0].fields.get("scratch_sgpr")
    assert isinstance(scratch, int) and scratch not in (0, SCC)  # s0 is not free: %1 is read
    v0 = [10 + k for k in range(LANES)]
    sregs = {SCC: 0}
    vregs = {VGPR_BASE: v0}
    assert simulate(seq, sregs, vregs, exec_) == exec_
    assert sregs[SCC] == int(value < 3)
    assert vregs[VGPR_BASE + 2] == v0  # every lane of the linear VGPR


@pytest.mark.parametrize("value", [0, 5])
def test_phi_into_scc_beside_a_linear_vgpr_phi(value: int) -> None:
    """Used to raise LoweringError: the copy writes SCC and had no scratch SGPR."""
    seq, copies = _lowered(SCC_PHI, value)
    assert isinstance(copies[0].fields.get("scratch_sgpr"), int)
    v0 = [20 + k for k in range(LANES)]
    sregs = {SCC: 1 - int(value != 0)}
    vregs = {VGPR_BASE: v0}
    assert simulate(seq, sregs, vregs, 0b0110) == 0b0110
    assert sregs[SCC] == int(value != 0)
    assert vregs[VGPR_BASE + 2] == v0


def test_no_scc_no_marks() -> None:
    """Without SCC live at the copy nothing is reserved (the copy may clobber SCC)."""
    text = SCC_LIVE_OUT.replace("s_cselect_b32 1, 0, %4:scc", "s_mov_b32 1")
    _seq, copies = _lowered(text, 1)
    assert "tmp_in_scc" not in copies[0].fields and "scratch_sgpr" not in copies[0].fields

"""validate_ra / validate_ir for tests, with tied operands spelled out.

The validator does not know the tied-operand convention yet (the
read-modify-write input of v_fmac/v_writelane/s_addk is an extra trailing
operand, `radcc.passes.ra_support.tied_operands`), so on a copy of the
program each tied operand becomes a ``p_unit_test`` read right before its
instruction: the same register must hold the value there, and the
definition may reuse that register afterwards, which is exactly the tied
semantics.
"""

from __future__ import annotations

import copy

from radcc.ir.program import Instruction, Program
from radcc.ir.validate import validate_ir, validate_ra
from radcc.passes.ra_support import tied_operands


def _untie(program: Program) -> Program:
    q = copy.deepcopy(program)
    for b in q.blocks:
        out: list[Instruction] = []
        for instr in b.instructions:
            tied = tied_operands(q, instr)
            for _di, oi in reversed(tied):
                o = instr.operands.pop(oi)
                out.append(Instruction("p_unit_test", "PSEUDO", [o]))
            out.append(instr)
        b.instructions = out
    return q


def check_ra(program: Program) -> None:
    validate_ra(_untie(program))


def check_ir(program: Program) -> None:
    validate_ir(_untie(program), "input")

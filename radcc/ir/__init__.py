"""The ACO-style machine IR (see program.py, regclass.py, pseudo.py)."""

from radcc.ir.program import (
    Block,
    BlockKind,
    Definition,
    Instruction,
    Operand,
    Program,
    RegisterDemand,
)
from radcc.ir.regclass import PhysReg, RegClass, RegType, Temp

__all__ = ["Block", "BlockKind", "Definition", "Instruction", "Operand", "PhysReg", "Program",
           "RegClass", "RegType", "RegisterDemand", "Temp"]

"""SPIR-V reader: decode, check and model SPIR-V 1.0-1.6 compute modules.

``read_spirv(data) -> SpirvModule`` raises ``SpirvError`` (word offset,
instruction, reason) on malformed or unsupported input; ``disassemble(module)``
prints it as ``spirv-dis --raw-id`` does.
"""

from .binary import Header, Instruction, Operand
from .disasm import disassemble
from .errors import SpirvError, SpirvWarning
from .module import SpirvModule
from .reader import read_spirv

__all__ = [
    "Header",
    "Instruction",
    "Operand",
    "SpirvError",
    "SpirvWarning",
    "SpirvModule",
    "disassemble",
    "read_spirv",
]

"""The logical layout of a module (SPIR-V spec 2.4): which section an instruction is in."""

from __future__ import annotations

from . import grammar
from .binary import Instruction

# Logical layout (spec 2.4), in order.
SECTIONS = (
    "capabilities",
    "extensions",
    "extended instruction imports",
    "memory model",
    "entry points",
    "execution modes",
    "debug source instructions",
    "debug names",
    "module-processed instructions",
    "annotations",
    "types, constants and global variables",
    "functions",
)
_FIXED_SECTION = {
    "OpCapability": 0,
    "OpExtension": 1,
    "OpExtInstImport": 2,
    "OpMemoryModel": 3,
    "OpEntryPoint": 4,
    "OpExecutionMode": 5,
    "OpExecutionModeId": 5,
    "OpString": 6,
    "OpSource": 6,
    "OpSourceExtension": 6,
    "OpSourceContinued": 6,
    "OpName": 7,
    "OpMemberName": 7,
    "OpModuleProcessed": 8,
    "OpVariable": 10,
    "OpUndef": 10,
    "OpExtInst": 10,
    "OpTypeForwardPointer": 10,
    "OpFunction": 11,
}
GLOBALS = 10
ANYWHERE = frozenset({"OpLine", "OpNoLine", "OpNop"})


def section_of(ins: Instruction) -> int | None:
    """The layout section an instruction belongs to outside functions (None: only inside)."""
    return opcode_section(ins.opcode)


def opcode_section(opcode: int) -> int | None:
    """`section_of` an instruction of `opcode`."""
    info = grammar.instruction(opcode)
    assert info is not None
    s = _FIXED_SECTION.get(info.opname)
    if s is not None:
        return s
    if info.klass == "Annotation":
        return 9
    if info.klass in ("Type-Declaration", "Constant-Creation"):
        return GLOBALS
    return None

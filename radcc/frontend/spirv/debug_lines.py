"""Source positions in SPIR-V: ``OpLine``/``OpNoLine`` (``glslangValidator -g``) and
NonSemantic.Shader.DebugInfo.100's ``DebugLine``/``DebugNoLine`` (``-gVS``), and the
source text either embeds (``OpSource``'s text, ``DebugSource``'s text).

`source_line(module, ins)` is the line an instruction sets for what follows it in its
block (None: it sets none; 0: no line); `debug_source(module)` the file name and lines of
the source the module embeds (None without debug information). The translation stamps
each MIR instruction with the line in effect (`radcc.frontend.mir.Instr.line`), isel each
machine instruction with its MIR instruction's (`radcc.ir.program.Instruction.line`).
"""

from __future__ import annotations

from radcc.frontend.spirv.binary import Instruction
from radcc.frontend.spirv.module import SpirvModule

__all__ = ["LINE_OPS", "source_line", "debug_source"]

DEBUG_INFO_SET = "NonSemantic.Shader.DebugInfo.100"
_DEBUG_SOURCE, _DEBUG_LINE, _DEBUG_NO_LINE = 35, 103, 104  # the set's instruction numbers
# the opcodes that may set a line: `source_line` is None for every other instruction
LINE_OPS = frozenset({"OpLine", "OpNoLine", "OpExtInst"})


def _is_debug_info(module: SpirvModule, ins: Instruction, number: int) -> bool:
    return (ins.opname == "OpExtInst" and len(ins.operands) >= 2
            and module.ext_imports.get(ins.id(0)) == DEBUG_INFO_SET
            and ins.literal(1) == number)


def source_line(module: SpirvModule, ins: Instruction) -> int | None:
    """The line `ins` sets (OpLine, DebugLine), 0 for OpNoLine/DebugNoLine, else None."""
    op = ins.opname
    if op == "OpLine":
        v = ins.literal(1)
        return v if isinstance(v, int) else None
    if op == "OpNoLine":
        return 0
    if op == "OpExtInst":
        if _is_debug_info(module, ins, _DEBUG_LINE) and len(ins.operands) >= 4:
            c = module.constants.get(ins.id(3))
            cv = getattr(c, "value", None)
            return cv if isinstance(cv, int) else None
        if _is_debug_info(module, ins, _DEBUG_NO_LINE):
            return 0
    return None


def _numbered(text: str) -> dict[int, str]:
    """The text's lines by line number, honouring ``#line N`` (glslang puts its
    ``// OpModuleProcessed`` lines and ``#line 1`` before the source)."""
    out: dict[int, str] = {}
    n = 1
    for ln in text.split("\n"):
        parts = ln.split()
        if len(parts) >= 2 and parts[0] == "#line" and parts[1].isdigit():
            n = int(parts[1])
            continue
        out[n] = ln
        n += 1
    return out


def debug_source(module: SpirvModule) -> tuple[str, dict[int, str]] | None:
    """(file name, source lines by number) of the first source text the module embeds.
    One walk: the OpStrings an OpSource or DebugSource names come before it (the reader
    refuses a forward reference from either)."""
    strings: dict[int, str] = {}
    for ins in module.instructions:
        op = ins.opname
        if op == "OpString" and ins.result_id is not None:
            v = ins.literal(0)
            if isinstance(v, str):
                strings[ins.result_id] = v
        elif op == "OpSource" and len(ins.operands) >= 4:
            text = ins.literal(3)
            name = strings.get(ins.id(2), "") if len(ins.operands) >= 3 else ""
            if isinstance(text, str) and text:
                return name, _numbered(text)
        elif op == "OpExtInst" and _is_debug_info(module, ins, _DEBUG_SOURCE) and \
                len(ins.operands) >= 4:
            text = strings.get(ins.id(3), "")
            if text:
                return strings.get(ins.id(2), ""), _numbered(text)
    return None

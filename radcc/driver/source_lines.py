"""Source lines as assembly comments, for shaders whose SPIR-V carries debug lines
(``glslangValidator -g`` / ``-gVS``: `radcc.frontend.spirv.debug_lines`).

`interleave(program, emitted, source)` is the assembly body (`EmitResult.asm`) as
(line text, (block, index) or None) pairs, with a comment ``; FILE:LINE: TEXT`` before
each instruction whose source line (`Instruction.line`, set by isel from the MIR
instruction it selected) differs from the last one shown. Instructions made after isel
(copies, waits, ``s_delay_alu``) and those a pass rebuilt have no line and show none.
Without debug lines the body is unchanged.
"""

from __future__ import annotations

import os

from radcc.ir.program import Program
from radcc.passes.emit_program import EmitResult

__all__ = ["interleave", "has_lines"]


def has_lines(program: Program) -> bool:
    return any(ins.line for _b, ins in program.instructions())


def interleave(program: Program, emitted: EmitResult,
               source: tuple[str, dict[int, str]] | None
               ) -> list[tuple[str, tuple[int, int] | None]]:
    text = emitted.asm.rstrip("\n").split("\n")
    pairs = list(zip(text, emitted.asm_line_instrs, strict=True))
    if not has_lines(program):
        return pairs
    name = os.path.basename(source[0]) if source and source[0] else "line"
    lines = source[1] if source else {}
    out: list[tuple[str, tuple[int, int] | None]] = []
    shown = 0
    for t, at in pairs:
        if at is not None:
            ln = program.blocks[at[0]].instructions[at[1]].line
            if ln and ln != shown:
                src = lines.get(ln, "").strip()
                out.append((f"; {name}:{ln}" + (f": {src}" if src else ""), None))
                shown = ln
        out.append((t, at))
    return out

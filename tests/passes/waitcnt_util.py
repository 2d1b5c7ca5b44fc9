"""Helpers for the wait-state pass tests: programs from block bodies, expected
s_waitcnt spellings computed from the ISA guide's SIMM16 layout (16.x
S_WAITCNT: VM[15:10], LGKM[9:4], EXP[2:0]; a field at its maximum, 63/63/7,
does not wait), s_waitcnt_depctr values from 16.5's field table."""

from __future__ import annotations

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.program import Program


def wc(vm: int | None = None, lgkm: int | None = None, exp: int | None = None) -> str:
    """The IR line of ``s_waitcnt vmcnt(vm) lgkmcnt(lgkm) expcnt(exp)``."""
    v = (63 if vm is None else vm) << 10 | (63 if lgkm is None else lgkm) << 4
    v |= 7 if exp is None else exp
    return f"s_waitcnt simm16:{v}"


def vs(n: int) -> str:
    return f"s_waitcnt_vscnt s1: null simm16:{n}"


# s_waitcnt_depctr fields (ISA 16.5, llvm-mc's symbolic encodings): all fields at
# "no wait" is 0xff9f (va_vdst[15:12]=15, va_sdst[11:9]=7, va_ssrc[8]=1,
# hold_cnt[7]=1, vm_vsrc[4:2]=7, va_vcc[1]=1, sa_sdst[0]=1).
DEPCTR_NONE = 0xFF9F


def depctr(va_vdst: int = 15, vm_vsrc: int = 7, sa_sdst: int = 1, va_sdst: int = 7,
           va_vcc: int = 1) -> str:
    v = DEPCTR_NONE & ~(0xF << 12 | 7 << 9 | 7 << 2 | 1 << 1 | 1)
    v |= va_vdst << 12 | va_sdst << 9 | vm_vsrc << 2 | va_vcc << 1 | sa_sdst
    return f"s_waitcnt_depctr simm16:{v}"


def program(*blocks: tuple[str, str], wave: int = 32) -> Program:
    """`blocks`: (header comment, body) per block, BB0 first."""
    text = f"program gfx1100 wave{wave} compute\n"
    for i, (hdr, body) in enumerate(blocks):
        text += f"BB{i}\n/* {hdr} */\n" + body
    return parse_program(text)


TOP = "logical preds: / linear preds: / kind: top-level,"


def single(body: str, wave: int = 32) -> Program:
    return program((TOP, body), wave=wave)


def listing(p: Program) -> str:
    """Block labels and instructions (no header comments)."""
    from radcc.ir.printer import format_instruction
    from radcc.isa.table import get_table

    table = get_table(p.gfx_level)
    lines = []
    for b in p.blocks:
        lines.append(f"BB{b.index}")
        lines.extend("   " + format_instruction(i, table) for i in b.instructions)
    return "\n".join(lines) + "\n"


def assert_listing(p: Program, pattern: str) -> None:
    assert_ir_matches(listing(p), pattern, exact=True)

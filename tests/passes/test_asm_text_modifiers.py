"""asm_text: neg/abs on constants (and f64 literals) print text that llvm-mc-19
assembles to the modifier bits and source encoding the IR asks for.

Oracle: llvm-mc-19 assembles the printed line; the test decodes the VOP3 fields
itself (RDNA3 ISA guide 15.3.4 "VOP3": ABS [10:8], SRC0/1/2 [40:32]/[49:41]/
[58:50], NEG [63:61], then the literal dword) and compares them with a reference
computed from the ISA guide's operand table (section 4.1: integers 0..64 are
128+n, -1..-16 are 192+|n|, 0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0 1/(2*pi) are
240..248 in the operand's float width, anything else is 255 + a literal dword;
an f64 literal is its high dword, an f16 one sits in the low 16 bits).
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from radcc.ir.parser import parse_program
from radcc.isa.assembler import assemble
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.passes.asm_text import EmitError, instruction_asm
from radcc.target import get_target

_FLOATS = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0]
_INV_2PI = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F306DC9C882}  # ISA guide 4.1
_NP = {16: np.float16, 32: np.float32, 64: np.float64}
_UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def _bits(x: float, width: int) -> int:
    return int(np.array([x], _NP[width]).view(_UINT[width])[0])


def ref_source(value: int, width: int) -> tuple[int, int | None]:
    """(source code, literal dword or None) for a constant of a `width`-bit float operand."""
    value &= (1 << width) - 1
    signed = value - (1 << width) if value >> (width - 1) else value
    if 0 <= signed <= 64:
        return 128 + signed, None
    if -16 <= signed <= -1:
        return 192 - signed, None
    for i, f in enumerate(_FLOATS):
        if value == _bits(f, width):
            return 240 + i, None
    if value == _INV_2PI[width]:
        return 248, None
    if width == 64:
        assert value & 0xFFFFFFFF == 0
        return 255, value >> 32
    return 255, value


def decode_vop3(data: bytes) -> tuple[int, list[int], int, int | None]:
    w0, w1 = struct.unpack_from("<II", data)
    srcs = [w1 & 0x1FF, (w1 >> 9) & 0x1FF, (w1 >> 18) & 0x1FF]
    lit = struct.unpack_from("<I", data, 8)[0] if len(data) >= 12 else None
    return (w0 >> 8) & 7, srcs, (w1 >> 29) & 7, lit


# (opcode, width, number of sources)
OPS = [("v_add_f32_e64", 32, 2), ("v_fma_f32", 32, 3), ("v_add_f16_e64", 16, 2),
       ("v_fma_f16", 16, 3), ("v_add_f64", 64, 2), ("v_fma_f64", 64, 3)]
VALUES = {
    16: [0x4200, 0xC200, 0x3C00, 0xC000, 0x3118, 5, 0xFFFE, 0x7BFF],
    32: [0x40400000, 0xC0400000, 0x3F800000, 0xC0000000, 0x3E22F983, 5, 0xFFFFFFFE,
         0x7F7FFFFF, 0x80000000],
    64: [0x4008000000000000, 0xC008000000000000, 0x3FF0000000000000, 0xC000000000000000,
         0x3FC45F306DC9C882, 5, 0xFFFFFFFFFFFFFFFE, 0x8000000000000000,
         0x7FEFFFFF00000000],
}
MODS = [(0, 0), (1, 0), (0, 1), (1, 1)]  # (neg, abs) of the constant's source


def _cases() -> list[tuple[str, int, int, int, int, int, int]]:
    out = []
    for op, width, n in OPS:
        for value in VALUES[width]:
            for neg, abs_ in MODS:
                pos = (len(out) + value) % n  # vary which source holds the constant
                out.append((op, width, n, value, pos, neg, abs_))
    return out


CASES = _cases()


def _ir(op: str, width: int, n: int, value: int, pos: int, neg: int, abs_: int) -> str:
    rc = "v2" if width == 64 else "v1"
    regs = ["v[4-5]", "v[6-7]", "v[8-9]"] if width == 64 else ["v[4]", "v[6]", "v[8]"]
    suffix = {16: "_b16", 32: "", 64: "_b64"}[width]
    const = f"0x{value:x}{suffix}"
    srcs = [const if i == pos else f"{rc}: %{10 + i}:{regs[i]}" for i in range(n)]
    mods = ""
    if neg:
        mods += " neg:[" + ",".join("1" if i == pos else "0" for i in range(n)) + "]"
    if abs_:
        mods += " abs:[" + ",".join("1" if i == pos else "0" for i in range(n)) + "]"
    dst = "v[0-1]" if width == 64 else "v[0]"
    return ("program gfx1100 wave32 compute\nBB0\n"
            "/* logical preds: / linear preds: / kind: top-level, */\n"
            f"   {rc}: %1:{dst} = {op} {', '.join(srcs)}{mods}\n   s_endpgm\n")


def _line(case: tuple[str, int, int, int, int, int, int]) -> str:
    p = parse_program(_ir(*case))
    return instruction_asm(p.blocks[0].instructions[0], get_table(p.gfx_level),
                           lambda b: f"BB{b}")


@pytest.fixture(scope="module")
def mc_bytes() -> dict[str, bytes | None]:
    llvm_mc.require()
    lines = [_line(c) for c in CASES]
    return {ln: r.data for ln, r in zip(lines, llvm_mc.encode(lines), strict=True)}


def _id(c: tuple[str, int, int, int, int, int, int]) -> str:
    op, _w, _n, value, pos, neg, abs_ = c
    return f"{op}-0x{value:x}-src{pos}-neg{neg}-abs{abs_}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_llvm_mc_reads_the_printed_modifiers(case: tuple[str, int, int, int, int, int, int],
                                             mc_bytes: dict[str, bytes | None]) -> None:
    op, width, n, value, pos, neg, abs_ = case
    line = _line(case)
    data = mc_bytes[line]
    assert data is not None, f"llvm-mc rejects {line!r}"
    abs_bits, srcs, neg_bits, lit = decode_vop3(data)
    assert neg_bits == (neg << pos) and abs_bits == (abs_ << pos), line
    code, want_lit = ref_source(value, width)
    assert srcs[pos] == code, line
    if want_lit is None:
        assert len(data) == 8, line
    else:
        assert len(data) == 12 and lit == want_lit, line


def _f64_literal_with_modifier(c: tuple[str, int, int, int, int, int, int]) -> bool:
    return c[1] == 64 and ref_source(c[3], 64)[1] is not None and (c[5] or c[6])


RADCC_CASES = [c for c in CASES if not _f64_literal_with_modifier(c)]
RADCC_F64 = [c for c in CASES if _f64_literal_with_modifier(c)]


@pytest.mark.parametrize("case", RADCC_CASES, ids=[_id(c) for c in RADCC_CASES])
def test_radcc_assembler_gives_llvm_mc_bytes(case: tuple[str, int, int, int, int, int, int],
                                            mc_bytes: dict[str, bytes | None]) -> None:
    """Emission assembles the printed text with radcc's own assembler."""
    line = _line(case)
    res = assemble(line + "\n", get_target("gfx1100"))
    assert res.ok, [d.message for d in res.diagnostics]
    assert res.text == mc_bytes[line]


def test_radcc_assembler_f64_literal_under_modifiers(mc_bytes: dict[str, bytes | None]) -> None:
    for case in RADCC_F64:
        line = _line(case)
        res = assemble(line + "\n", get_target("gfx1100"))
        assert res.ok and res.text == mc_bytes[line], line


def test_f64_constant_with_a_low_dword_is_an_error() -> None:
    with pytest.raises(EmitError, match="low dword"):
        _line(("v_add_f64", 64, 2, 0x4008000000000001, 0, 1, 0))

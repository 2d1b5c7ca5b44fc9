"""SMEM lines without the trailing offset operand, against llvm-mc-19 live.

Oracle: llvm-mc-19 -mcpu=gfx1010 / gfx1030 / gfx1100. llvm-mc reads an
omitted soffset/offset operand of an SMEM instruction as offset 0 and prints
it as ``0x0`` (LLVM's gfx10_asm_smem.s ends with two such lines); radcc must
give the same bytes and text, and reject what llvm-mc rejects (an ``offset:``
modifier with no SGPR offset, a missing base).
"""

from __future__ import annotations

import pytest

from radcc.isa.assembler import assemble
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.target import get_target

CHIPS = ["gfx1010", "gfx1030", "gfx1100"]


def _radcc(line: str, chip: str) -> tuple[str | None, bytes | None]:
    res = assemble(line + "\n", get_target(chip))
    if any(d.severity == "error" for d in res.diagnostics):
        return None, None
    insts = [s for s in res.statements if s.kind == "inst"]
    assert len(insts) == 1
    return insts[0].text.strip(), bytes(insts[0].data)


def _lines(chip: str) -> list[str]:
    """Every SMEM opcode with an offset operand, written without it."""
    out = []
    for e in get_table(get_target(chip).gfx_level).entries:
        if e.enc != "SMEM" or not e.operands or e.operands[-1].name != "soffset":
            continue
        parts = []
        for o in e.operands[:-1]:
            if o.kind == "imm":
                parts.append("7")
            elif o.name == "sbase":
                parts.append("s[4:5]" if o.dwords == 2 else "s[8:11]")
            else:
                parts.append("s5" if o.dwords == 1 else f"s[12:{12 + o.dwords - 1}]")
        mods = [m for m in ("glc", "dlc") if e.has_mod(m)]
        out.append(f"{e.name} {', '.join(parts)}")
        if mods:
            out.append(f"{e.name} {', '.join(parts)} {' '.join(mods)}")
    return out


@pytest.mark.parametrize("chip", CHIPS)
def test_omitted_smem_offset_matches_llvm_mc(chip):
    lines = _lines(chip)
    assert len(lines) > 20
    oracle = llvm_mc.encode(lines, mcpu=chip)
    accepted = 0
    for line, o in zip(lines, oracle, strict=True):
        text, data = _radcc(line, chip)
        assert (text, data) == (o.text, o.data), (line, o)
        accepted += o.text is not None
    assert accepted == len(lines)  # llvm-mc takes every one of them


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("line", [
    "s_load_dword s1, s[2:3] offset:4",  # offset: needs an SGPR offset operand
    "s_load_dword s1",
    "s_load_dword s1 glc",
    "s_buffer_load_dword s1, s[4:7] offset:0x10 glc",
])
def test_bad_omitted_forms_rejected_like_llvm_mc(chip, line):
    (o,) = llvm_mc.encode([line], mcpu=chip)
    assert o.text is None
    res = assemble(line + "\n", get_target(chip), "t.s")
    errs = [d for d in res.diagnostics if d.severity == "error"]
    assert errs and str(errs[0]).startswith("t.s:1:")

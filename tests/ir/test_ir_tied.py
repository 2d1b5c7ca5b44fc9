"""Tied operands (read-modify-write definitions): the opinfo rule and the validators."""

from __future__ import annotations

import pytest

from radcc.emu.valu import ACC_OPS
from radcc.ir.opinfo import op_info, tied_definition, tied_operands
from radcc.ir.parser import parse_program
from radcc.ir.validate import ValidationError, validate_ir, validate_ra
from radcc.isa.table import get_table
from radcc.target import GfxLevel

TABLE = get_table(GfxLevel.GFX11)
HEAD = "program gfx1100 wave32 compute\nBB0\n/* logical preds: / linear preds: / kind: top-level, */\n"


def prog(*lines: str) -> str:
    return HEAD + "".join(f"   {x}\n" for x in lines)


def problems(text: str, fn=validate_ir) -> list[str]:
    try:
        fn(parse_program(text), "t")
    except ValidationError as e:
        return [str(i) for i in e.issues]
    return []


def test_tied_definitions_come_from_the_table_and_the_valu_library():
    tied = {e.name for e in TABLE.entries if tied_definition(e) is not None}
    assert {n for n in ACC_OPS if n in TABLE.by_name} <= tied
    assert {"v_writelane_b32", "s_addk_i32", "s_mulk_i32", "s_cmovk_i32", "s_cmov_b32"} <= tied
    assert not {"v_fma_f32", "s_movk_i32", "s_cmpk_eq_i32", "v_readlane_b32",
                "s_cselect_b32"} & tied


@pytest.mark.parametrize(("line", "want"), [
    ("v1: %3 = v_fmac_f32 %2, %2, %2", [(0, 2)]),
    ("v1: %3 = v_fmac_f32_e64 %2, %2, %2", [(0, 2)]),
    ("v1: %3 = v_fmac_f32 %2, %2", []),  # no accumulator given
    ("v1: %3 = v_writelane_b32 %1, 1, %2", [(0, 2)]),
    ("s1: %3, s1: %4:scc = s_addk_i32 %1 simm16:5", [(0, 0)]),
    ("s1: %3 = s_mulk_i32 %1 simm16:5", [(0, 0)]),
    ("s1: %3 = s_cmovk_i32 %1, %9:scc simm16:5", [(0, 0)]),
    ("s1: %3 = s_cmovk_i32 %9:scc simm16:5", []),  # only the implicit SCC read
    ("s1: %3 = s_cmov_b32 4, %1, %9:scc", [(0, 1)]),
    ("v1: %3 = v_fma_f32 %2, %2, %2", []),
])
def test_tied_operand_positions(line, want):
    text = prog("s1: %1:s[0], v1: %2:v[0] = p_startpgm", "p_logical_start",
                "s1: %9:scc = s_cmp_eq_u32 %1, 0", line, "p_logical_end", "s_endpgm")
    instr = [i for _b, i in parse_program(text).instructions()][3]
    assert tied_operands(TABLE, instr) == want


def test_validate_ir_accepts_tied_operands():
    text = prog("s1: %1:s[0], v1: %2:v[0] = p_startpgm", "p_logical_start",
                "v1: %3 = v_mul_f32 %2, %2",
                "v1: %4 = v_fmac_f32 %2, %2, %3",
                "v1: %5 = v_writelane_b32 %1, 1, %4",
                "s1: %6, s1: %7:scc = s_addk_i32 %1 simm16:0x10",
                "s1: %8 = s_mulk_i32 %6 simm16:3",
                "s1: %9 = s_cmovk_i32 %8, %7:scc simm16:7",
                "p_unit_test %5, %9",
                "p_logical_end", "s_endpgm")
    assert problems(text) == []


@pytest.mark.parametrize(("line", "msg"), [
    ("v1: %4 = v_fmac_f32 %2, %2, %1", "tied operand vdst must be a VGPR"),
    ("v1: %4 = v_fmac_f32 %2, %2, 1", "tied operand cannot be a constant"),
    ("s1: %4 = s_mulk_i32 %2 simm16:3", "tied operand sdst must be an SGPR"),
    ("v1: %4 = v_fmac_f32 %2, %2, %3, %2", "extra operand must be fixed to an implicit"),
])
def test_validate_ir_rejects_bad_tied_operands(line, msg):
    text = prog("s1: %1:s[0], v1: %2:v[0] = p_startpgm", "p_logical_start",
                "v1: %3 = v_mul_f32 %2, %2", line, "p_logical_end", "s_endpgm")
    msgs = problems(text)
    assert any(msg in m for m in msgs), msgs


RA = prog("s1: %1:s[0], v1: %2:v[0] = p_startpgm", "p_logical_start",
          "v1: %3:v[1] = v_mul_f32 %2:v[0], %2:v[0]",
          "v1: %4:v[1] = v_fmac_f32 %2:v[0], %2:v[0], (kill)%3:v[1]",
          "s1: %5:s[0], s1: %6:scc = s_addk_i32 (kill)%1:s[0] simm16:0x10",
          "p_unit_test %4:v[1], %5:s[0], %2:v[0]",
          "p_logical_end", "s_endpgm")


def test_validate_ra_accepts_tied_registers():
    assert problems(RA, validate_ra) == []


@pytest.mark.parametrize(("old", "new", "msg"), [
    ("%4:v[1] = v_fmac", "%4:v[2] = v_fmac", "tied operand %3 in v[1] but its definition in v[2]"),
    ("%5:s[0], s1: %6:scc", "%5:s[1], s1: %6:scc", "tied operand %1 in s[0] but its definition"),
    # the accumulator must die at the instruction: a later read sees it overwritten
    ("p_unit_test %4:v[1]", "p_unit_test %3:v[1], %4:v[1]", "share v[1]"),
])
def test_validate_ra_checks_tied_registers(old, new, msg):
    assert old in RA
    text = RA.replace(old, new)
    if "%3:v[1], %4" in text:
        text = text.replace("(kill)%3:v[1]", "%3:v[1]")
    msgs = problems(text, validate_ra)
    assert any(msg in m for m in msgs), msgs


def test_opinfo_entry_lookup():
    assert tied_definition(op_info(TABLE, "v_fmac_f32", "VOP3")) == 0
    assert tied_definition(op_info(TABLE, "v_add_f32", "VOP2")) is None

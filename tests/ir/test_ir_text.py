"""Printer/parser of the textual IR: round trips, syntax, error positions."""

from __future__ import annotations

import pytest

from radcc.abi.stage import COMPUTE_CS, FRAGMENT_FS
from radcc.ir import BlockKind, Definition, Instruction, Operand, Program
from radcc.ir.parser import IRParseError, parse_program
from radcc.ir.printer import format_constant, print_program
from radcc.ir.regclass import SCC, VCC, PhysReg, RegClass, s1, s2, v1, v2
from radcc.target import get_target

FULL = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_add_f32 %2, 0x3f800000
   v1: %4 = v_add_f32_e64 %2, -1 clamp neg:[0,1]
   s1: %5, s1: %6:scc = s_add_u32 s1: (kill)%20, 4
   v1: %7 = global_load_b32 v2: %21, %1 offset:16 glc
   v2: %8 = p_create_vector %3, v1: undef
   s1: (kill)%9 = p_parallelcopy s1: exec
   s1: %10:vcc = v_cmp_lt_f32 %3, %4
   v1: %11 = v_cndmask_b32 %3, %4, %10:vcc
   p_logical_end
   p_cbranch_z %6:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, loop depth: 1, */
   p_logical_start
   v1: (precise)%12 = v_mul_f32 (latekill)(firstkill)(kill)%3, (kill)%3
   p_logical_end
   p_branch BB2
BB2
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, merge, */
   v1: %13 = p_phi %3, %12
   s2: %14 = p_linear_phi 0x3ff0000000000000_b64, -1_b64
   s_waitcnt simm16:0
   s_endpgm
"""


def test_round_trip_is_identical():
    p = parse_program(FULL)
    assert print_program(p) == FULL
    assert print_program(parse_program(print_program(p))) == FULL


def test_parsed_structure():
    p = parse_program(FULL)
    assert p.target.name == "gfx1100" and p.wave_size == 32 and p.stage == COMPUTE_CS
    b0, b1, b2 = p.blocks
    assert b0.kind == BlockKind.TOP_LEVEL | BlockKind.BRANCH
    assert b0.logical_succs == [1, 2] and b0.linear_succs == [1, 2]
    assert b1.logical_succs == [2] and b2.linear_preds == [0, 1]
    assert b1.loop_nest_depth == 1
    startpgm = b0.instructions[0]
    assert startpgm.format == "PSEUDO"
    assert startpgm.definitions[0].phys == PhysReg.of(0)
    assert startpgm.definitions[1].phys == PhysReg.of(256)
    add = b0.instructions[2]
    assert (add.opcode, add.format) == ("v_add_f32", "VOP2")
    assert add.operands[1].const == 0x3F800000 and add.operands[1].const_bytes == 4
    e64 = b0.instructions[3]
    assert (e64.opcode, e64.format) == ("v_add_f32", "VOP3")
    assert e64.operands[1].const == 0xFFFFFFFF
    assert e64.fields == {"clamp": True, "neg": [0, 1]}
    sadd = b0.instructions[4]
    assert sadd.definitions[1].phys == PhysReg.of(SCC) and sadd.definitions[1].rc == s1
    assert sadd.operands[0].is_kill and sadd.operands[0].rc == s1
    load = b0.instructions[5]
    assert load.format == "GLOBAL" and load.fields == {"offset": 16, "glc": True}
    assert load.operands[0].rc == v2 and load.operands[1].rc == s2
    vec = b0.instructions[6]
    assert vec.operands[1].is_undef and vec.operands[1].rc == v1
    pc = b0.instructions[7]
    assert pc.definitions[0].is_kill and pc.operands[0].temp is None
    assert pc.operands[0].phys == PhysReg.of(126) and pc.operands[0].rc == s1
    cmp = b0.instructions[8]
    assert cmp.format == "VOPC" and cmp.definitions[0].phys == PhysReg.of(VCC)
    br = b0.instructions[-1]
    assert br.fields["targets"] == [2, 1] and br.operands[0].phys == PhysReg.of(SCC)
    mul = b1.instructions[1]
    o0, o1 = mul.operands
    assert o0.is_late_kill and o0.is_first_kill and o0.is_kill
    assert o1.is_kill and not o1.is_first_kill and not o1.is_late_kill
    assert mul.definitions[0].is_precise
    lphi = b2.instructions[1]
    assert lphi.operands[0].const == 0x3FF0000000000000 and lphi.operands[0].const_bytes == 8
    assert lphi.operands[1].const == (1 << 64) - 1
    assert b2.instructions[2].fields == {"simm16": 0}
    # temp classes: typed by definitions, and the allocator continues after the max id
    assert p.temp_rc[3] == v1 and p.temp_rc[20] == s1 and p.temp_rc[21] == v2
    assert p.allocate_temp(v1).id == 22


def test_post_ra_registers_round_trip():
    text = """\
program gfx1100 wave64 fragment
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %5:v[0] = v_add_f32 v1: %3:v[1], v1: %4:v[2]
   v2b: %6:v[3][16:32] = p_parallelcopy v2b: %7:v[4][0:16]
   s4: %8:s[4-7] = p_create_vector s2: %9:s[0-1], s2: %10:s[2-3]
   s2: %11:vcc = v_cmp_lt_f32 %5:v[0], v1: %12:v[5]
   s2: exec = p_parallelcopy s2: %13:s[8-9]
   v3: %14:v[6-8] = p_create_vector %5:v[0], v1: undef:v[7], v1: undef
"""
    p = parse_program(text)
    assert print_program(p) == text
    ins = p.blocks[0].instructions
    assert ins[1].definitions[0].phys == PhysReg(4 * (256 + 3) + 2)
    assert ins[1].definitions[0].rc == RegClass.parse("v2b")
    assert ins[2].definitions[0].phys == PhysReg.of(4)
    assert ins[4].definitions[0].temp is None and ins[4].definitions[0].phys == PhysReg.of(126)
    assert p.wave_size == 64 and p.stage == FRAGMENT_FS


def test_printer_on_built_program_and_constant_spelling():
    p = Program(get_target("gfx1100"))
    b = p.create_block(BlockKind.TOP_LEVEL)
    t = p.allocate_temp(s1)
    b.instructions.append(Instruction("s_mov_b32", "SOP1", [Operand.c32(0xFFFFFFF0)],
                                      [Definition(t)]))
    b.instructions.append(Instruction("s_mov_b32", "SOP1", [Operand.c32(65)],
                                      [Definition(p.allocate_temp(s1))]))
    b.instructions.append(Instruction("v_mov_b32", "VOP3", [Operand(t)],
                                      [Definition(p.allocate_temp(v1))]))
    text = print_program(p)
    assert "s1: %1 = s_mov_b32 -16\n" in text
    assert "s1: %2 = s_mov_b32 0x41\n" in text
    assert "v1: %3 = v_mov_b32_e64 %1\n" in text
    assert format_constant(64, 4) == "64" and format_constant(0xFFFFFFEF, 4) == "0xffffffef"
    assert format_constant(0xFFFF, 2) == "-1_b16" and format_constant(3, 1) == "3_b8"


def test_explicit_format_suffixes_and_aliases():
    text = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %1 = v_mov_b32_e32 0
   v1: %2 = v_dual_add_f32@VOPDY %1, %1
   v1: %3 = global_load_dword v2: %9, s2: %10
"""
    p = parse_program(text)
    ins = p.blocks[0].instructions
    assert (ins[0].opcode, ins[0].format) == ("v_mov_b32", "VOP1")
    assert (ins[1].opcode, ins[1].format) == ("v_dual_add_f32", "VOPDY")
    assert (ins[2].opcode, ins[2].format) == ("global_load_b32", "GLOBAL")
    out = print_program(p)
    assert "v1: %1 = v_mov_b32 0" in out  # the natural form prints bare
    assert "v_dual_add_f32@VOPDY" in out
    assert print_program(parse_program(out)) == out


def test_field_value_kinds_round_trip():
    text = """\
program gfx1100 wave32 compute name:kern
BB0
/* logical preds: / linear preds: / kind: */
   p_unit_test id:3 scope:"two words" op:iadd32 wg_one_wave
   v1: %1 = v_add_f32_e64 1, 2 neg:[] clamp
"""
    p = parse_program(text)
    assert p.name == "kern"
    f = p.blocks[0].instructions[0].fields
    assert f == {"id": 3, "scope": "two words", "op": "iadd32", "wg_one_wave": True}
    assert f.id == 3 and f.scope == "two words" and f.wg_one_wave is True and f.sem is None
    g = p.blocks[0].instructions[1].fields
    assert g == {"neg": [], "clamp": True} and g.clamp is True and g.omod is None
    assert print_program(p) == text


def test_unknown_field_is_a_located_error():
    """A field the instruction's format does not have is an error, not a stored key."""
    with pytest.raises(IRParseError, match=r"3:53: error: unknown field 'glcc' for GLOBAL"):
        parse_program(HDR + "   global_store_b32 v1: undef, v1: undef, s2: undef glcc\n")
    with pytest.raises(IRParseError, match=r"unknown field 'glc' for VOP3"):
        parse_program(HDR + "   v1: %1 = v_add_f32_e64 1, 2 glc\n")
    with pytest.raises(IRParseError, match=r"unknown field 'label' for PSEUDO"):
        parse_program(HDR + '   p_unit_test label:"x"\n')


def test_blank_lines_and_missing_block_comment():
    p = parse_program("\nprogram gfx1100 wave32 compute\n\nBB0\n   s_endpgm\n\n")
    assert len(p.blocks) == 1 and p.blocks[0].kind == BlockKind.NONE
    assert p.blocks[0].instructions[0].opcode == "s_endpgm"


HDR = "program gfx1100 wave32 compute\nBB0\n"


def _col(text: str, line: int, marker: str) -> int:
    """1-based column of the (last) occurrence of `marker` on `line`; '$' = end of line."""
    src = text.split("\n")[line - 1]
    return len(src) + 1 if marker == "$" else src.rindex(marker) + 1


# (text, line, the offending token (its last occurrence on the line), message)
@pytest.mark.parametrize(("text", "line", "marker", "msg"), [
    ("prog gfx1100", 1, "prog", "expected 'program"),
    ("program gfx9999 wave32 compute", 1, "gfx9999", "unknown GPU"),
    ("program gfx1100 wave16 compute", 1, "wave16", "expected wave32 or wave64"),
    ("program gfx1100 wave32 kernel", 1, "kernel", "unknown shader stage 'kernel'"),
    ("program gfx1100 wave32 vertex_vs", 1, "vertex_vs",
     "stage vertex_vs does not exist on gfx1100 (GFX11)"),
    (HDR + "   v1: %1 = v_bogus_f32 %2", 3, "v_bogus", "unknown opcode 'v_bogus_f32'"),
    (HDR + "   v1: %1 = v_add_f32 %2, %3", 3, "%2", "%2 is never defined"),
    (HDR + "   x1: %1 = s_mov_b32 0", 3, "x1", "expected register class"),
    (HDR + "   v1: %1 v_mov_b32 0", 3, "v_mov", "expected ',' or '='"),
    (HDR + "   v1: %1 = v_mov_b32 0x100000000", 3, "0x1", "does not fit in 32 bits"),
    (HDR + "   v2: %1:v[0] = p_parallelcopy v2: undef", 3, "v[0]", "does not hold a v2"),
    (HDR + "   v1: %1 = v_mov_b32 0 ? ", 3, "?", "unexpected character '?'"),
    (HDR + "   v1: %1 = v_mov_b32 1,", 3, "$", "expected operand"),
    (HDR + "   s1: %1 = s_mov_b32 exec", 3, "exec", "expected field"),
    (HDR + "   v1: %1 = v_mov_b32 1 clamp clamp", 3, "clamp", "given twice"),
    (HDR + "   v1: %1 = v_add_f32_e32 1, v1: %1 neg:[0,x]", 3, "x", "expected integer in list"),
    (HDR + "   v1: (latekill)%1 = v_mov_b32 1", 3, "(latekill)", "not allowed on a definition"),
    ("program gfx1100 wave32 compute\nBB1\n", 2, "BB1", "expected BB0"),
    (HDR + "/* logical preds: BB0 / linear preds: / kind: */", 3, "/ linear", "expected ','"),
    (HDR + "/* logical preds: / linear preds: / kind: shiny, */", 3, "shiny",
     "unknown block kind"),
    ("program gfx1100 wave32 compute\n   s_endpgm\n", 2, "s_endpgm",
     "instruction outside a block"),
    (HDR + "   v1: %1 = v_mov_b32 0\n   v2: %2 = v_mov_b32 v2: %1", 4, "%1",
     "%1 is a v1, not a v2"),
    (HDR + "   s1: %1 = v_pk_add_f16_e32 0, 0", 3, "v_pk", "has no e32 encoding"),
])
def test_errors_have_positions(text, line, marker, msg):
    col = _col(text, line, marker)
    with pytest.raises(IRParseError) as ei:
        parse_program(text, "t.ir")
    e = ei.value
    assert msg in e.message, e.message
    assert (e.line, e.col) == (line, col), str(e)
    assert str(e).startswith(f"t.ir:{line}:{col}: error: ")


def test_docs_example_parses_validates_and_round_trips():
    from pathlib import Path

    from radcc.ir.validate import validate_ir
    doc = (Path(__file__).parents[2] / "docs" / "ir.md").read_text()
    start = doc.index("```\nprogram") + 4
    text = doc[start:doc.index("```", start)]
    p = parse_program(text)
    validate_ir(p)
    assert print_program(p) == text

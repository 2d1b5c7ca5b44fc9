"""validate_ir / validate_ra on hand-written good and bad programs."""

from __future__ import annotations

import pytest

from radcc.ir import Instruction
from radcc.ir.parser import IRParseError, parse_program
from radcc.ir.regclass import v2
from radcc.ir.validate import ValidationError, is_inline_constant, validate_ir, validate_ra

HEAD = "program gfx1100 wave32 compute\n"
TOP = "BB0\n/* logical preds: / linear preds: / kind: top-level, */\n"
START = "   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm\n"


def one_block(*lines: str) -> str:
    return HEAD + TOP + START + "".join(f"   {x}\n" for x in lines)


def problems(text_or_program, fn=validate_ir) -> list[str]:
    p = parse_program(text_or_program) if isinstance(text_or_program, str) else text_or_program
    try:
        fn(p, "test_phase")
    except ValidationError as e:
        assert e.phase == "test_phase" and str(e).startswith("test_phase: invalid IR")
        return [str(i) for i in e.issues]
    return []


DIAMOND = HEAD + """\
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_mul_f32 %2, %2
   p_logical_end
   s1: %4, s1: %5:scc = s_and_b32 1, 2
   p_cbranch_z %5:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %6 = v_add_f32 %3, %2
   p_logical_end
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %7 = v_sub_f32 %3, %2
   p_logical_end
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, merge, */
   v1: %8 = p_phi %6, %7
   s1: %9 = p_linear_phi %4, %4
   p_logical_start
   v1: %10 = v_fma_f32 %8, 0x40400000, %3
   p_logical_end
   s_endpgm
"""


def test_good_programs_pass():
    assert problems(DIAMOND) == []
    assert problems(one_block(
        "p_logical_start",
        "v1: %3 = v_add_f32 0x3e800000, %2",
        "v1: %4 = v_fma_f32 %3, 0x3e800000, 0x3e800000",  # one literal used twice
        "v2: %5 = p_create_vector %3, %4",
        "v1: %6, v1: %7 = p_split_vector %5",
        "v1: %8 = p_extract_vector %5, 1",
        "s1: %9:vcc = v_cmp_lt_f32 %6, %7",
        "v1: %10 = v_cndmask_b32 %8, %7, %9:vcc",
        "s1: %11 = s_load_b32 %1, 0",
        "v1: %12 = global_load_b32 %5, s2: undef offset:4",
        "s1: %13, s1: %14:scc = s_add_u32 %11, 0x1234",
        "s1: %15 = s_cselect_b32 %13, 0, %14:scc",
        "v2: %16 = v_lshlrev_b64 2, %5",
        "p_logical_end",
        "s_endpgm")) == []


def test_ssa_errors():
    msgs = problems(one_block("v1: %3 = v_mov_b32 0", "v1: %3 = v_mov_b32 1"))
    assert any("%3 is defined twice" in m for m in msgs)
    msgs = problems(one_block("v1: %3 = v_add_f32 %2, %4", "v1: %4 = v_mov_b32 1"))
    assert msgs == ["BB0: %4 is used before its definition: v1: %3 = v_add_f32 %2, %4"]
    msgs = problems(one_block("v1: %3 = v_add_f32 %2, v1: %9"))
    assert msgs == ["BB0: %9 is used but never defined: v1: %3 = v_add_f32 %2, %9"]
    p = parse_program(one_block("v1: %3 = v_mov_b32 0"))
    p.temp_rc[3] = v2
    assert any("%3 is a v1 but the program says v2" in m for m in problems(p))


def test_use_not_dominated_by_definition():
    text = DIAMOND.replace("v1: %10 = v_fma_f32 %8, 0x40400000, %3",
                           "v1: %10 = v_fma_f32 %8, 0x40400000, %6")
    assert problems(text) == [
        "BB3: %6 (defined in BB1) does not dominate this use (logical CFG): "
        "v1: %10 = v_fma_f32 %8, 0x40400000, %6"]
    assert problems(text, lambda p, ph: validate_ir(p, ph, check_dominance=False)) == []
    # a phi operand must be available at the end of its own predecessor
    text = DIAMOND.replace("p_phi %6, %7", "p_phi %7, %6")
    msgs = problems(text)
    assert any("%7 (defined in BB2) is not available at the end of predecessor BB1" in m
               for m in msgs)
    assert any("%6 (defined in BB1) is not available at the end of predecessor BB2" in m
               for m in msgs)


def test_phi_errors():
    msgs = problems(DIAMOND.replace("p_phi %6, %7", "p_phi %6"))
    assert any("p_phi has 1 operands for 2 logical predecessors" in m for m in msgs)
    msgs = problems(DIAMOND.replace("   v1: %8 = p_phi %6, %7\n   s1: %9 = p_linear_phi %4, %4",
                                    "   s1: %9 = p_linear_phi %4, %4\n   p_logical_start\n"
                                    "   v1: %8 = p_phi %6, %7"))
    assert any("phi after a non-phi instruction" in m for m in msgs)
    msgs = problems(DIAMOND.replace("s1: %9 = p_linear_phi %4, %4",
                                    "v1: %9 = p_linear_phi %6, %7"))
    assert any("p_linear_phi must define an SGPR or linear VGPR" in m for m in msgs)
    msgs = problems(DIAMOND.replace("v1: %8 = p_phi %6, %7", "v2: %8 = p_phi %6, %7"))
    assert any("phi operand v1 differs from its definition v2" in m for m in msgs)


def test_cfg_errors():
    p = parse_program(DIAMOND)
    p.blocks[0].logical_succs.remove(2)
    assert problems(p) == [
        "BB2: BB0 is a logical predecessor but BB2 is not its successor"]
    text = DIAMOND.replace("/* logical preds: BB1, BB2, / linear preds: BB1, BB2,",
                           "/* logical preds: BB2, BB1, / linear preds: BB1, BB2,")
    assert any("logical preds [2, 1] are not sorted" in m for m in problems(text))
    text = DIAMOND.replace("p_cbranch_z %5:scc BB2, BB1", "p_cbranch_z %5:scc BB3, BB1")
    assert any("branch target not a linear successor ([1, 2])" in m for m in problems(text))
    # the parser refuses an instruction after a branch in text; built IR is checked here
    text = DIAMOND.replace("   p_branch BB3\nBB2", "   p_branch BB3\n   s_nop simm16:0\nBB2")
    with pytest.raises(IRParseError, match="nothing may follow it"):
        parse_program(text)
    p = parse_program(DIAMOND)
    p.blocks[1].instructions.append(parse_program(one_block("s_nop simm16:0")).blocks[0]
                                    .instructions[-1])
    assert any("BB1: instruction after a branch: s_nop simm16:0" in m for m in problems(p))


def test_logical_region_errors():
    msgs = problems(one_block("p_logical_end", "s_endpgm"))
    assert any("p_logical_end without p_logical_start" in m for m in msgs)
    msgs = problems(one_block("p_logical_start", "p_logical_end", "v1: %3 = v_mov_b32 0"))
    assert msgs == ["BB0: VGPR defined outside p_logical_start/p_logical_end: "
                    "v1: %3 = v_mov_b32 0"]
    msgs = problems(one_block("p_logical_start", "p_logical_start", "p_logical_end"))
    assert any("second p_logical_start" in m for m in msgs)


def test_operand_class_and_size_errors():
    def first(*lines: str) -> str:
        msgs = problems(one_block(*lines))
        assert len(msgs) == 1, msgs
        return msgs[0]
    assert "operand ssrc0 must be an SGPR, not v1" in first("s1: %3 = s_mov_b32 %2")
    assert "operand src0 must be 32-bit, not s2" in first("v1: %3 = v_add_f32 %1, %2")
    assert "operand vsrc1 (vgpr) cannot be a constant" in first("v1: %3 = v_add_f32 %2, 1")
    assert "definition vdst must be a VGPR, not s1" in first("s1: %3 = v_add_f32 %2, %2")
    assert "operand src1 needs a 64-bit constant, not 32-bit" in first(
        "v2: %3 = v_lshlrev_b64 2, 1")
    assert "definition sdst must be a lane mask (s1), not s2" in first(
        "s2: %3 = v_cmp_lt_f32_e64 %2, %2")
    assert "1 operands, the table has 2" in first("v1: %3 = v_add_f32 %2")
    assert "extra operand must be fixed to an implicit register (none)" in first(
        "s1: %3 = s_mov_b32 1, 2")
    assert "extra definition must be fixed to an implicit register (scc)" in first(
        "s1: %3, s1: %4 = s_add_u32 1, 2")
    assert "2 different literals (at most one)" in first(
        "v1: %3 = v_fma_f32 %2, 0x12345678, 0x9abcdef0")
    assert "operand vaddr must be a VGPR, not s2" in first("v1: %3 = global_load_b32 %1, %1")
    assert "definition sdst must be in vcc" in first("s1: %3:s[8] = v_cmp_lt_f32 %2, %2")


def test_pseudo_shape_errors():
    msgs = problems(one_block("v2: %3 = p_create_vector %2"))
    assert msgs == ["BB0: p_create_vector operands have 4 bytes for a v2: "
                    "v2: %3 = p_create_vector %2"]
    msgs = problems(one_block("v1: %3, v2: %4 = p_split_vector %1"))
    assert "p_split_vector definitions have 12 bytes for 8" in msgs[0]
    assert "needs 2 operand(s), has 1" in problems(one_block("v1: %3 = p_extract_vector %1"))[0]
    assert "index out of range" in problems(one_block("s1: %3 = p_extract_vector %1, 2"))[0]
    assert "copies 8 bytes into a v1" in problems(one_block("v1: %3 = p_parallelcopy %1"))[0]
    assert "of a VGPR into an SGPR" in problems(one_block("s1: %3 = p_parallelcopy %2"))[0]


def test_unknown_format():
    p = parse_program(one_block())
    p.blocks[0].instructions.append(Instruction("v_add_f32", "SOP1"))
    assert problems(p) == ["BB0: 'v_add_f32' has no SOP1 encoding: v_add_f32@SOP1"]


def test_inline_constants():
    assert is_inline_constant(64, 4) and is_inline_constant(0xFFFFFFF0, 4)
    assert not is_inline_constant(65, 4) and not is_inline_constant(0xFFFFFFEF, 4)
    assert is_inline_constant(0x3F800000, 4) and is_inline_constant(0x3E22F983, 4)
    assert not is_inline_constant(0x40400000, 4)  # 3.0
    assert is_inline_constant(0x3FF0000000000000, 8) and not is_inline_constant(0x3F800000, 8)
    assert is_inline_constant(0xBC00, 2, "f16") and not is_inline_constant(0x4200, 2, "f16")


# --------------------------------------------------------------------------- RA
RA_GOOD = HEAD + TOP + """\
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3:v[1] = v_mul_f32 %2:v[0], %2:v[0]
   v1: %4:v[0] = v_add_f32 (kill)%2:v[0], (kill)%3:v[1]
   s1: %5:s[2] = s_load_b32 %1:s[0-1], 0
   s1: %6:s[3], s1: %7:scc = s_add_u32 %5:s[2], 4
   v1: %8:v[1] = v_add_f32 %6:s[3], %4:v[0]
   v2b: %9:v[2][16:32] = p_parallelcopy v2b: %10:v[3][0:16]
   s4: %11:s[4-7] = p_create_vector %1:s[0-1], %5:s[2], %6:s[3]
   p_unit_test %8:v[1], %7:scc, %9:v[2][16:32], %11:s[4-7]
   p_logical_end
   s_endpgm
"""


def test_ra_good_program_passes():
    assert problems(RA_GOOD, validate_ra) == []


@pytest.mark.parametrize(("old", "new", "msg"), [
    ("%3:v[1] = v_mul", "%3 = v_mul", "%3 has no register"),
    ("%3:v[1] = v_mul", "%3:s[9] = v_mul", "v1 assigned to s[9] (wrong register file)"),
    ("s2: %1:s[0-1], v1", "s2: %1:s[1-2], v1", "s2 at s[1-2] is misaligned"),
    ("s4: %11:s[4-7]", "s4: %11:s[6-9]", "s4 at s[6-9] is misaligned"),
    ("s4: %11:s[4-7]", "s4: %11:s[104-107]", "s4 at s[104-107] is out of bounds"),
    ("v2b: %9:v[2][16:32]", "v2b: %9:v[2][8:24]", "v2b at v[2][8:24] is misaligned"),
    ("v_add_f32 %6:s[3], %4:v[0]", "v_add_f32 %6:s[3], %4:v[2]",
     "operand %4 in v[2] but defined in v[0]"),
    ("%7:scc = s_add_u32", "%7:s[8] = s_add_u32", "implicit register operand not in its register"),
    # %8 in v[0] while %4 (read by the same instruction, so dead after it) -> fine;
    # but %3 into v[0] while %2 is still read by the next instruction -> collision
    ("%3:v[1]", "%3:v[0]", "definition %3 and live %2 share v[0]"),
    ("%5:s[2]", "%5:s[1]", "definition %5 and live %1 share s[1]"),
    ("(kill)%2:v[0], (kill)%3:v[1]", "(latekill)(kill)%2:v[0], (kill)%3:v[1]",
     "definition %4 and live %2 share v[0]"),
])
def test_ra_errors(old, new, msg):
    assert old in RA_GOOD
    msgs = problems(RA_GOOD.replace(old, new), validate_ra)
    assert any(msg in m for m in msgs), msgs


def test_ra_fixed_definition_overwrites_live_value():
    text = RA_GOOD.replace("   p_unit_test", "   s1: scc = s_cmp_eq_u32 %5:s[2], 0\n   p_unit_test")
    msgs = problems(text, validate_ra)
    assert any("fixed definition scc overwrites live %7" in m for m in msgs), msgs


RA_DIVERGENT = HEAD + """\
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s1: %1:s[0], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3:v[1] = v_mov_b32 1
   p_logical_end
   p_cbranch_z %1:s[0] BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_logical_start
   v1: %5:v[2] = v_add_f32 %2:v[0], %3:v[1]
   p_logical_end
   p_branch BB2
BB2
/* logical preds: / linear preds: BB0, BB1, / kind: invert, */
   p_branch BB3
BB3
/* logical preds: BB0, / linear preds: BB2, / kind: */
   p_logical_start
   v1: %6:v[2] = v_mul_f32 %3:v[1], %3:v[1]
   p_logical_end
   p_branch BB4
BB4
/* logical preds: BB1, BB3, / linear preds: BB2, BB3, / kind: top-level, merge, */
   v1: %7:v[2] = p_phi %5:v[2], %6:v[2]
   p_logical_start
   v1: %8:v[3] = v_add_f32 %7:v[2], %2:v[0]
   p_logical_end
   s_endpgm
"""


def test_ra_vgprs_of_disjoint_lanes_may_share():
    # %5 (then side) and %6 (else side) share v[2]: they are never live in the
    # same lanes; VGPR liveness follows logical edges, so %5 is not live in BB3.
    assert problems(RA_DIVERGENT, validate_ra) == []


def test_ra_value_clobbered_on_the_other_path():
    # %2 is live through the else block (used in BB4): BB3 must not overwrite v[0]
    text = RA_DIVERGENT.replace("%6:v[2]", "%6:v[0]")
    msgs = problems(text, validate_ra)
    assert any("definition %6 and live %2 share v[0]" in m for m in msgs), msgs
    assert any("%2 is live-in but not in v[0] at the end of BB3" in m for m in msgs), msgs


def test_ra_phi_operand_must_reach_the_edge_in_its_register():
    # %5 is overwritten in BB1 after its definition, before the edge to BB4
    text = RA_DIVERGENT.replace(
        "   p_logical_end\n   p_branch BB2\nBB2",
        "   v1: %9:v[2] = v_mov_b32 0\n   p_logical_end\n   p_branch BB2\nBB2")
    msgs = problems(text, validate_ra)
    assert any("definition %9 and live %5 share v[2]" in m for m in msgs), msgs
    assert any("phi operand %5 is not in its register at the end of BB1" in m for m in msgs)


# a linear VGPR %10 (written in every lane) lives from BB0 to BB4, across the
# divergent branch; %3 is used on the else side only (BB3)
RA_LINEAR = HEAD + """\
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s1: %1:s[0], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3:v[1] = v_mov_b32 1
   p_logical_end
   lv1: %10:v[4] = p_start_linear_vgpr
   p_cbranch_z %1:s[0] BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_logical_start
   lv1: %11:v[5] = p_parallelcopy %10:v[4]
   v1: %5:v[2] = v_add_f32 %2:v[0], %11:v[5]
   p_logical_end
   p_branch BB2
BB2
/* logical preds: / linear preds: BB0, BB1, / kind: invert, */
   lv1: %12:v[4] = p_linear_phi %10:v[4], %11:v[5]
   p_branch BB3
BB3
/* logical preds: BB0, / linear preds: BB2, / kind: */
   p_logical_start
   v1: %6:v[2] = v_mul_f32 %3:v[1], %3:v[1]
   p_logical_end
   p_branch BB4
BB4
/* logical preds: BB1, BB3, / linear preds: BB2, BB3, / kind: top-level, merge, */
   v1: %7:v[2] = p_phi %5:v[2], %6:v[2]
   p_end_linear_vgpr %12:v[4]
   p_logical_start
   v1: %8:v[3] = v_add_f32 %7:v[2], %2:v[0]
   p_logical_end
   s_endpgm
"""


def test_ra_linear_vgpr_moved_where_no_lane_has_a_value():
    assert problems(RA_LINEAR, validate_ra) == []


def test_ra_linear_vgpr_moved_over_a_value_of_the_other_side():
    # moving %10 into v[1] on the then side writes v[1] in every lane: the else
    # lanes' %3 (read in BB3) is lost, though %3 is not live in BB1's lanes
    text = RA_LINEAR.replace("%11:v[5]", "%11:v[1]")
    msgs = problems(text, validate_ra)
    assert any("linear VGPR %11 and %3 (a VGPR value some lane still needs) share v[1] at its "
               "definition" in m for m in msgs), msgs
    assert problems(text.replace("%3:v[1]", "%3:v[6]"), validate_ra) == []


def test_ra_linear_phi_copies_must_spare_the_other_side():
    # the linear phi's copies (end of BB0 and BB1) write v[1] in every lane,
    # while the else lanes still need %3 there
    text = RA_LINEAR.replace("%12:v[4]", "%12:v[1]")
    msgs = problems(text, validate_ra)
    assert any("linear VGPR %12 and %3 (a VGPR value some lane still needs) share v[1] at the "
               "end of the block" in m for m in msgs), msgs


def test_ra_linear_phi_copy_over_a_value_of_its_own_side():
    # %5 (then side, read by BB4's phi) in v[4]: %10 is dead there, but the copy
    # of the linear phi %12 (v[4]) at the end of BB1 writes v[4] in every lane
    text = RA_LINEAR.replace("%5:v[2]", "%5:v[4]")
    msgs = problems(text, validate_ra)
    assert msgs == ["BB1: linear VGPR %12 and %5 (a VGPR value some lane still needs) share "
                    "v[4] at the end of the block"], msgs

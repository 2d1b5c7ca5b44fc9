"""optimizer_postra: ``v_cmp`` + ``s_and_saveexec`` -> copy of EXEC + ``v_cmpx``.

ACO's try_optimize_branching_sequence. Expectations come from the rule itself
(ISA guide 7.2.3: v_cmpx writes its compare result, 0 for inactive lanes, to
EXEC; 15.3.3: LT(S0, S1) == GT(S1, S0); VOPC's src1 is a VGPR) and every
result is checked by validate_ra and by the IR interpreter on the program
before and after: the same block path and the same EXEC/saved-mask values at
each ``p_unit_test``, over several inputs and initial EXEC masks (inactive
lanes must stay off). Negative cases: the compare's mask read elsewhere, the
saveexec's SCC read, an operand or EXEC overwritten in between, the saved
register among the compare's operands, the compare in another block.
"""

from __future__ import annotations

import re

import pytest

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.validate import validate_ra
from radcc.passes.optimizer_postra import optimize_postra
from tests.support.ir_interp import interpret

XS = [0, 1, 3, 5, 6, 0xFF, 0x80000000, 0xFFFFFFFF]


def _prog(body: str, *, wave: int = 32, gfx: str = "gfx1100", lm: str = "s1",
          saved: str = "s[4]", cond: str = "s[4]", branch: str = "p_cbranch_z") -> str:
    """BB0 runs `body` (s[2] the input, v[0] the lane id; defines %21 in `cond`),
    then ``%110 = s_and_saveexec %21`` and a branch on EXEC; BB1 records EXEC;
    BB2 restores EXEC from the save and records it."""
    sv = "s_and_saveexec_b32" if wave == 32 else "s_and_saveexec_b64"
    return f"""program {gfx} wave{wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %20:v[0] = p_startpgm
   p_logical_start
{body}
   p_logical_end
   {lm}: %110:{saved}, s1: %111:scc, {lm}: exec = {sv} %21:{cond}, {lm}: exec
   {branch} {lm}: exec BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_unit_test 1, {lm}: exec
   p_branch BB2
BB2
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: top-level, */
   {lm}: exec = p_parallelcopy %110:{saved}
   p_unit_test 2, {lm}: exec
   s_endpgm
"""


def _observe(text: str) -> list[tuple]:
    out = []
    p0 = parse_program(text, "<t>")
    wave = p0.wave_size
    full = (1 << wave) - 1
    for mask in (full, 0x5A5A5A5A5A5A5A5A & full, 1 << (wave - 1)):
        for x in XS:
            p = parse_program(text, "<t>")
            r = interpret(p, inputs={"s[2]": x, "s[0-1]": 0, "v[0]": list(range(wave))},
                          exec_mask=mask)
            out.append((tuple(r.blocks), tuple(repr(u) for u in r.unit_tests)))
    return out


def run(text: str) -> str:
    """optimize_postra on `text`; validate_ra and the interpreter agree; the new text."""
    p = parse_program(text, "<t>")
    validate_ra(p, "input")
    optimize_postra(p)
    validate_ra(p, "optimizer_postra")
    out = print_program(p)
    assert _observe(text) == _observe(out)
    return re.sub(r"\((first|late)?kill\)", "", out)


AND = "   v1: %19:v[2] = v_and_b32 %2:s[2], %20:v[0]\n"


def test_vcmpx_with_vgpr_src1_keeps_operand_order():
    out = run(_prog(AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %2:s[2], %19:v[2]"))
    assert "saveexec" not in out and "v_cmp_" not in out
    assert_ir_matches(out, """s1: %s:s[4] = p_parallelcopy s1: exec
>> s1: exec = v_cmpx_lt_u32 %a:s[2], %v:v[2]
>> p_cbranch_z s1: exec BB2, BB1""")


def test_vcmpx_swaps_a_constant_src1_with_the_mirrored_condition():
    out = run(_prog(AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], 5"))
    assert_ir_matches(out, """s1: %s:s[4] = p_parallelcopy s1: exec
>> s1: exec = v_cmpx_gt_u32 5, %v:v[2]""")


@pytest.mark.parametrize("cmp,swapped", [("ge_i32", "le_i32"), ("ne_u32", "ne_u32"),
                                         ("le_u32", "ge_u32"), ("eq_i32", "eq_i32")])
def test_vcmpx_mirrored_conditions(cmp, swapped):
    out = run(_prog(AND + f"   s1: %21:s[4] = v_cmp_{cmp}_e64 %19:v[2], %2:s[2]"))
    assert_ir_matches(out, f"s1: exec = v_cmpx_{swapped} %a:s[2], %v:v[2]")


def test_vcmpx_vop3_when_no_vgpr_can_be_src1():
    """Lane-independent compare of an SGPR with a constant: v_cmpx_e64 (no VGPR source)."""
    out = run(_prog("   s1: %21:s[4] = v_cmp_gt_u32_e64 %2:s[2], 4"))
    assert_ir_matches(out, "s1: exec = v_cmpx_gt_u32_e64 %a:s[2], 4")


def test_vcmpx_float_compare_with_modifier_stays_vop3():
    body = ("   v1: %19:v[2] = v_cvt_f32_u32 %20:v[0]\n"
            "   s1: %21:s[4] = v_cmp_lt_f32_e64 %19:v[2], %2:s[2] neg:[0,1] abs:[0,1]")
    out = run(_prog(body))
    assert "saveexec" not in out
    assert_ir_matches(out, "s1: exec = v_cmpx_lt_f32_e64 %v:v[2], %a:s[2] neg:[0,1] abs:[0,1]")


def test_signaling_compare_keeps_clamp_in_vop3():
    """clamp on a compare = signaling (ISA guide 7.1 CLMP); the v_cmpx VOP3 entry has it."""
    body = ("   v1: %19:v[2] = v_cvt_f32_u32 %20:v[0]\n"
            "   s1: %21:s[4] = v_cmp_lt_f32_e64 %2:s[2], %19:v[2] clamp")
    out = run(_prog(body))
    assert_ir_matches(out, "s1: exec = v_cmpx_lt_f32_e64 %a:s[2], %v:v[2] clamp")


def test_kept_with_a_modifier_the_vcmpx_lacks():
    """v_cmp_class with clamp is not in v_cmpx_class_f32's VOP3 modifiers (table)."""
    from radcc.isa.table import get_table
    from radcc.target import GfxLevel
    info = [i for i in get_table(GfxLevel.GFX11).candidates("v_cmpx_class_f32")
            if i.enc == "VOP3"]
    assert info and not info[0].has_mod("clamp")
    body = ("   v1: %19:v[2] = v_cvt_f32_u32 %20:v[0]\n"
            "   s1: %21:s[4] = v_cmp_class_f32_e64 %19:v[2], %2:s[2] clamp")
    _kept(_prog(body))


def test_vcmpx_wave64():
    out = run(_prog(AND + "   s2: %21:s[4-5] = v_cmp_lt_u32_e64 %19:v[2], 5", wave=64,
                    lm="s2", saved="s[6-7]", cond="s[4-5]"))
    assert_ir_matches(out, """s2: %s:s[6-7] = p_parallelcopy s2: exec
>> s2: exec = v_cmpx_gt_u32 5, %v:v[2]""")


def test_vcmpx_gfx10_3_wave64():
    out = run(_prog(AND + "   s2: %21:s[4-5] = v_cmp_ne_u32_e64 %19:v[2], 0", wave=64,
                    gfx="gfx1030", lm="s2", saved="s[4-5]", cond="s[4-5]"))
    assert_ir_matches(out, "s2: exec = v_cmpx_ne_u32 0, %v:v[2]")


def test_vcmpx_the_branch_skips_when_no_lane_passes():
    """x = 0: no lane has (x & lane) > x ... the block path differs by input (interpreter)."""
    text = _prog(AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], %2:s[2]")
    paths = {o[0] for o in _observe(text)}
    assert len(paths) == 2  # both paths are exercised by the inputs
    assert "v_cmpx_gt_u32" in run(text)


# -- kept ---------------------------------------------------------------------------------


def _kept(text: str) -> None:
    out = run(text)
    assert "saveexec" in out and "v_cmpx" not in out


def test_kept_when_the_mask_is_read_elsewhere():
    text = _prog(AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], 5")
    text = text.replace("   p_unit_test 1, s1: exec", "   p_unit_test 1, %21:s[4]")
    # %21 is still live in BB1: the saved mask may not take its register
    text = text.replace("%110:s[4]", "%110:s[6]")
    _kept(text)


def test_kept_when_the_saveexec_scc_is_read():
    text = _prog(AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], 5")
    text = text.replace("p_cbranch_z s1: exec BB2, BB1", "p_cbranch_z %111:scc BB2, BB1")
    _kept(text)


def test_kept_when_an_operand_is_overwritten_in_between():
    body = AND + ("   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], %2:s[2]\n"
                  "   s1: %3:s[2], s1: %4:scc = s_add_u32 %2:s[2], 1\n"
                  "   p_unit_test 3, %3:s[2]")
    _kept(_prog(body))


def test_kept_when_exec_is_written_in_between():
    body = AND + ("   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], 5\n"
                  "   s1: exec, s1: %4:scc = s_or_b32 s1: exec, 1")
    _kept(_prog(body))


def test_kept_when_the_save_register_is_a_compare_operand():
    """saved = s[2] would be written (copy of EXEC) before the v_cmpx reads s[2]."""
    body = AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %2:s[2], %19:v[2]"
    _kept(_prog(body, saved="s[2]"))


def test_kept_when_the_compare_is_in_another_block():
    _kept("""program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %20:v[0] = p_startpgm
   p_logical_start
   v1: %19:v[2] = v_and_b32 %2:s[2], %20:v[0]
   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], 5
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: top-level, */
   s1: %110:s[4], s1: %111:scc, s1: exec = s_and_saveexec_b32 %21:s[4], s1: exec
   p_cbranch_z s1: exec BB3, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: uniform, */
   p_unit_test 1, s1: exec
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, */
   s1: exec = p_parallelcopy %110:s[4]
   p_unit_test 2, s1: exec
   s_endpgm
""")


# -- the saved mask unread: the program ends under the if's EXEC -------------------------------
# ACO's eliminate_useless_exec_writes_in_block (aco_ssa_elimination.cpp): a block without
# successors has no use for its outgoing EXEC, so restoring the saved mask before s_endpgm, and
# the empty else side's ``s_and_not1 exec, saved, exec``, are dead; the save then has no reader
# and the v_cmpx needs no copy of EXEC.

def _prog_ending(body: str, *, wave: int = 32, saved: str = "s[4]") -> str:
    """As `_prog`, but the divergent if's else side is an invert block flipping EXEC and the
    merge block only restores EXEC before ``s_endpgm``."""
    lm = "s1" if wave == 32 else "s2"
    w = wave // 32 * 32
    return f"""program gfx1100 wave{wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %20:v[0] = p_startpgm
   p_logical_start
{body}
   p_logical_end
   {lm}: %110:{saved}, s1: %111:scc, {lm}: exec = s_and_saveexec_b{w} %21:{saved}, {lm}: exec
   p_cbranch_z {lm}: exec BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_unit_test 1, {lm}: exec
   p_branch BB2
BB2
/* logical preds: / linear preds: BB0, BB1, / kind: invert, */
   {lm}: exec, s1: %112:scc = s_and_not1_b{w} %110:{saved}, {lm}: exec
   p_branch BB3
BB3
/* logical preds: BB1, / linear preds: BB2, / kind: top-level, */
   {lm}: exec = p_parallelcopy %110:{saved}
   p_logical_start
   p_logical_end
   s_endpgm
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_restores_before_the_end_dropped_and_vcmpx_without_copy(wave):
    lm = "s1" if wave == 32 else "s2"
    sv = "s[4]" if wave == 32 else "s[4-5]"
    out = run(_prog_ending(AND + f"   {lm}: %21:{sv} = v_cmp_lt_u32_e64 %19:v[2], %2:s[2]",
                           wave=wave, saved=sv))
    assert "saveexec" not in out and "s_and_not1" not in out
    assert "p_parallelcopy" not in out  # neither the restore nor a copy of EXEC
    assert_ir_matches(out, f"""{lm}: exec = v_cmpx_gt_u32 %a:s[2], %v:v[2]
>> p_cbranch_z {lm}: exec BB2, BB1""")


def test_vcmpx_when_the_dead_save_shares_a_compare_operand_register():
    """The save's register holds the compare's SGPR operand: without the copy that is no
    conflict (the rule's negative case above needs the copy)."""
    body = AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], %2:s[2]"
    text = _prog_ending(body).replace("%2:s[2]", "%2:s[4]").replace(
        "%1:s[0-1], s1: %2:s[4]", "%1:s[0-1], s1: %9:s[2], s1: %2:s[4]")
    text = text.replace("v1: %19:v[2] = v_and_b32 %2:s[4]", "v1: %19:v[2] = v_and_b32 %9:s[2]")
    p = parse_program(text, "<t>")
    optimize_postra(p)
    out = print_program(p)
    assert "saveexec" not in out and "v_cmpx_gt_u32" in out


def test_restore_kept_when_the_end_block_runs_an_instruction():
    """A store (here a unit test reading EXEC) after the restore observes it."""
    text = _prog_ending(AND + "   s1: %21:s[4] = v_cmp_lt_u32_e64 %19:v[2], %2:s[2]")
    text = text.replace("   p_logical_end\n   s_endpgm", "   p_unit_test 2, s1: exec\n"
                        "   p_logical_end\n   s_endpgm")
    out = run(text)
    assert "s1: exec = p_parallelcopy %" in out and "s_and_not1" in out

"""value_numbering: redundant instructions go, their uses read the dominating equal one.

Expectations follow from the rules of ACO's README.md "Value Numbering" (and ACO's
aco_opt_value_numbering.cpp): an instruction is replaced only by an equal one
in a dominating block, in the same EXEC context when its result depends on
the active lanes, and a load never across a store or barrier. Each test
checks the IR after the pass and, where the program has p_unit_test
outputs, runs it before and after in the IR interpreter on random lanes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from radcc.ir.dominance import dominator_tree
from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.program import Program
from radcc.ir.validate import validate_ir
from tests.support.ir_interp import FlatMemory, interpret

try:
    from radcc.passes.value_numbering import value_numbering
except ImportError:  # developed under another name until the pipeline enables it
    from radcc.passes.vn_impl import value_numbering

sys.path.insert(0, str(Path(__file__).parent))
from cf_programs import IF_ELSE, LOOP, fmt  # noqa: E402

HEAD = "program gfx1100 wave32 compute\nBB0\n/* logical preds: / linear preds: / kind: top-level, */\n"


def vn(text: str) -> Program:
    p = parse_program(text)
    validate_ir(p, "input")
    dominator_tree(p)
    value_numbering(p)
    validate_ir(p, "value_numbering")
    return p


def unit_tests(p: Program, seed: int, exec_mask: int | None = None) -> list:
    """The p_unit_test values of one wave on seeded random inputs."""
    rng = np.random.default_rng(seed)
    mem = FlatMemory()
    buf = mem.map("buffer", bytes(rng.integers(0, 256, 4096, dtype=np.uint8)))
    inputs = {"v[0]": rng.integers(0, 1 << 32, p.wave_size, dtype=np.uint64),
              "v[1]": rng.integers(0, 1 << 32, p.wave_size, dtype=np.uint64),
              "s[0]": int(rng.integers(0, 1 << 32)), "s[1]": int(rng.integers(0, 1 << 32)),
              "s[0-1]": buf.base}
    return [vals for _id, vals in interpret(p, inputs=inputs, memory=mem,
                                            exec_mask=exec_mask).unit_tests]


def same_meaning(before: str, after: Program, lanes_masks=(None, 0x5A5AC3F1)) -> None:
    for seed in range(3):
        for m in lanes_masks:
            want = unit_tests(parse_program(before), seed, m)
            got = unit_tests(after, seed, m)
            assert len(want) == len(got)
            active = np.array([(((1 << 32) - 1 if m is None else m) >> i) & 1
                               for i in range(after.wave_size)], dtype=bool)
            for w, g in zip(want, got, strict=True):
                for a, b in zip(w, g, strict=True):
                    if isinstance(a, np.ndarray):
                        assert np.array_equal(a[..., active], b[..., active])
                    else:
                        assert a == b


def test_equal_valu_in_one_block():
    text = HEAD + """   v1: %1:v[0], v1: %2:v[1] = p_startpgm
   p_logical_start
   v1: %3 = v_add_f32 %1, %2
   v1: %4 = v_add_f32 %1, %2
   v1: %5 = v_mul_f32 %3, %4
   v1: %6 = v_add_f32_e64 %1, %2 neg:[0,1]
   v1: %7 = v_add_f32 %2, %1
   p_unit_test %5, %6, %7
   p_logical_end
   s_endpgm
"""
    p = vn(text)
    # the second add reads the first; neg:[0,1] and swapped operands are other expressions
    assert_ir_matches(p, """
        v1: %a = v_add_f32 %x, %y
        >> v1: %m = v_mul_f32 %a, %a
        >> v1: %n = v_add_f32_e64 %x, %y neg:[0,1]
        >> v1: %s = v_add_f32 %y, %x
        >> p_unit_test %m, %n, %s
        """)
    same_meaning(text, p)


def test_constants_and_widths_differ():
    text = HEAD + """   s1: %1:s[0] = p_startpgm
   s1: %2, s1: %3:scc = s_add_u32 %1, 5
   s1: %4, s1: %5:scc = s_add_u32 %1, 5
   s1: %6, s1: %7:scc = s_add_u32 %1, 6
   s2: %8 = s_mov_b64 -1_b64
   s2: %9 = s_mov_b64 -1_b64
   s1: %10 = s_mov_b32 -1
   p_unit_test %2, %4, %6, %8, %9, %10
   s_endpgm
"""
    p = vn(text)
    assert_ir_matches(p, """
        s1: %a, s1: %c1:scc = s_add_u32 %x, 5
        >> s1: %b, s1: %c2:scc = s_add_u32 %x, 6
        >> s2: %c = s_mov_b64 -1_b64
        >> s1: %d = s_mov_b32 -1
        >> p_unit_test %a, %a, %b, %c, %c, %d
        """)
    same_meaning(text, p)


def test_used_scc_definition_keeps_the_instruction():
    """Reading SCC of the first s_add after the second would need SCC kept across it."""
    text = HEAD + """   s1: %1:s[0] = p_startpgm
   s1: %2, s1: %3:scc = s_add_u32 %1, 5
   s1: %4, s1: %5:scc = s_add_u32 %1, 5
   s1: %6 = s_cselect_b32 1, 0, %5:scc
   p_unit_test %2, %4, %6
   s_endpgm
"""
    p = vn(text)
    assert print_program(p).count("s_add_u32") == 2
    same_meaning(text, p)


def test_copies_are_propagated():
    text = HEAD + """   v1: %1:v[0], s1: %2:s[0] = p_startpgm
   p_logical_start
   v1: %3 = p_parallelcopy %1
   v1: %4 = p_create_vector %3
   v1: %5 = v_add_nc_u32 %2, %4
   v1: %6 = p_parallelcopy %2
   p_unit_test %5, %6
   p_logical_end
   s_endpgm
"""
    p = vn(text)
    assert_ir_matches(p, """
        v1: %x:v[0], s1: %s:s[0] = p_startpgm
        >> p_logical_start
        >> v1: %a = v_add_nc_u32 %s, %x
        >> v1: %c = p_parallelcopy %s
        >> p_unit_test %a, %c
        """)
    same_meaning(text, p)


def _if_else(then_code: str, else_code: str, merge_code: str, before: str = "") -> str:
    return f"""program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   v1: %1:v[0], v1: %50:v[1] = p_startpgm
   p_logical_start
   s1: %2 = v_cmp_lt_u32_e64 %1, %50
{before}   p_logical_end
   p_cbranch_z %2 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
{then_code}   p_logical_end
   p_branch BB3
BB2
/* logical preds: / linear preds: BB0, / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: / linear preds: BB1, BB2, / kind: invert, */
   p_branch BB4
BB4
/* logical preds: BB0, / linear preds: BB3, / kind: uniform, */
   p_logical_start
{else_code}   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB3, / kind: uniform, */
   p_branch BB6
BB6
/* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
{merge_code}   s_endpgm
"""


def test_dominating_block_and_siblings():
    """BB0 dominates both sides: their copies go; the sides do not dominate each other."""
    text = _if_else(
        "   v1: %3 = v_xor_b32 %1, %50\n   v1: %4 = v_mul_u32_u24 %1, %1\n",
        "   v1: %5 = v_xor_b32 %1, %50\n   v1: %6 = v_mul_u32_u24 %1, %1\n",
        "   v1: %7 = p_phi %4, %6\n   v1: %8 = p_phi %3, %5\n   p_logical_start\n"
        "   v1: %9 = v_mul_u32_u24 %1, %1\n   p_unit_test %7, %8, %9\n   p_logical_end\n",
        before="   v1: %10 = v_xor_b32 %1, %50\n")
    p = vn(text)
    assert_ir_matches(p, """
        v1: %x = v_xor_b32 %a, %b
        BB1
        >> /* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
        >> p_logical_start
        >> v1: %m = v_mul_u32_u24 %a, %a
        >> p_logical_end
        BB4
        >> /* logical preds: BB0, / linear preds: BB3, / kind: uniform, */
        >> p_logical_start
        >> v1: %n = v_mul_u32_u24 %a, %a
        >> p_logical_end
        BB6
        >> /* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
        >> v1: %p = p_phi %m, %n
        >> v1: %q = p_phi %x, %x
        >> p_logical_start
        >> v1: %r = v_mul_u32_u24 %a, %a
        """)
    same_meaning(text, p)


def test_lane_masks_only_in_the_same_exec_context():
    """v_cmp writes 0 for inactive lanes: the then side's copy differs from BB0's;
    after the merge the lanes of BB0 are back, so BB0's result is reused."""
    text = _if_else(
        "   s1: %3 = v_cmp_lt_u32_e64 %1, %50\n   v1: %4 = v_cndmask_b32_e64 0, 1, %3\n",
        "",
        "   v1: %7 = p_phi %4, 0\n   p_logical_start\n"
        "   s1: %8 = v_cmp_lt_u32_e64 %1, %50\n   v1: %9 = v_cndmask_b32_e64 0, 1, %8\n"
        "   v1: %10 = v_readfirstlane_b32 %1\n   v1: %11 = p_parallelcopy %10\n"
        "   p_unit_test %7, %9, %11\n   p_logical_end\n",
        before="   s1: %12 = v_readfirstlane_b32 %1\n   v1: %13 = v_cndmask_b32_e64 0, 1, %2\n")
    text = text.replace("   v1: %10 = v_readfirstlane_b32 %1\n", "   s1: %10 = v_readfirstlane_b32 %1\n")
    p = vn(text)
    assert_ir_matches(p, """
        s1: %c = v_cmp_lt_u32_e64 %x, %y
        >> s1: %r = v_readfirstlane_b32 %x
        >> v1: %k = v_cndmask_b32_e64 0, 1, %c
        BB1
        >> /* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
        >> p_logical_start
        >> s1: %c2 = v_cmp_lt_u32_e64 %x, %y
        BB6
        >> /* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
        >> v1: $_ = p_phi $_, 0
        >> p_logical_start
        >> v1: %w = p_parallelcopy %r
        >> p_unit_test $_, %k, %w
        """)
    same_meaning(text, p)


def test_readfirstlane_not_merged_into_a_divergent_side():
    text = _if_else("   s1: %3 = v_readfirstlane_b32 %1\n   v1: %4 = v_mov_b32 %3\n", "",
                    "   v1: %7 = p_phi %4, 0\n   p_logical_start\n   p_unit_test %7\n"
                    "   p_logical_end\n",
                    before="   s1: %12 = v_readfirstlane_b32 %1\n")
    p = vn(text)
    assert print_program(p).count("v_readfirstlane_b32") == 2
    same_meaning(text, p, lanes_masks=(None, 0xF0F0F0F0))


def test_dpp_and_permlane_keyed_on_exec():
    text = _if_else("   v1: %3 = v_mov_b32 %1 quad_perm:[1,0,3,2] row_mask:15 bank_mask:15\n"
                    "   v1: %4 = v_add_nc_u32 %3, %1\n", "",
                    "   v1: %7 = p_phi %4, 0\n   p_logical_start\n   p_unit_test %7\n"
                    "   p_logical_end\n",
                    before="   v1: %12 = v_mov_b32 %1 quad_perm:[1,0,3,2] row_mask:15 "
                           "bank_mask:15\n   v1: %13 = v_add_nc_u32 %12, %1\n")
    p = vn(text)
    assert print_program(p).count("quad_perm") == 2
    assert print_program(p).count("v_add_nc_u32") == 2  # operands differ now


LOADS = HEAD + """   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   s1: %3 = s_load_b32 %1, 0
   s1: %4 = s_load_b32 %1, 0
   s1: %5 = s_load_b32 %1, 4
   v1: %6 = v_and_b32 0xfc, %2
   v1: %7 = global_load_b32 %6, %1 offset:0
   v1: %8 = global_load_b32 %6, %1 offset:0
   v1: %9 = global_load_b32 %6, %1 offset:0 glc
   v1: %12 = ds_load_b32 %6 offset:0
   {between}
   v1: %10 = global_load_b32 %6, %1 offset:0
   s1: %11 = s_load_b32 %1, 0
   v1: %13 = ds_load_b32 %6 offset:0
   p_logical_end
   s_endpgm
"""


def test_loads_merge_without_stores():
    p = vn(LOADS.format(between=""))
    assert_ir_matches(p, """
        s1: %a = s_load_b32 %p, 0
        >> s1: %b = s_load_b32 %p, 4
        >> v1: %o = v_and_b32 0xfc, $_
        >> v1: %g = global_load_b32 %o, %p offset:0
        >> v1: %h = global_load_b32 %o, %p offset:0 glc
        >> v1: %d = ds_load_b32 %o offset:0
        >> p_logical_end
        """)


@pytest.mark.parametrize("between", ["global_store_b32 %6, %2, %1 offset:64",
                                     "ds_store_b32 %6, %2 offset:0",
                                     "p_barrier",
                                     "global_atomic_add_u32 %6, %2, %1 offset:0"])
def test_loads_never_merge_across_memory_side_effects(between: str):
    p = vn(LOADS.format(between=between))
    text = print_program(p)
    # the loads after the side effect stay; those before it still merge
    assert text.count("global_load_b32") == 3
    assert text.count("= s_load_b32") == 3
    assert text.count("ds_load_b32") == 2


def test_loads_not_merged_into_a_join_after_a_store_on_one_side():
    text = _if_else("   global_store_b32 %1, %50, %60 offset:0\n", "",
                    "   p_logical_start\n   s1: %9 = s_load_b32 %60, 0\n   p_logical_end\n",
                    before="   s1: %8 = s_load_b32 %60, 0\n")
    text = text.replace("v1: %1:v[0], v1: %50:v[1] = p_startpgm",
                        "v1: %1:v[0], v1: %50:v[1], s2: %60:s[0-1] = p_startpgm")
    p = vn(text)
    assert print_program(p).count("= s_load_b32") == 2
    # without the store the join reuses BB0's load
    p = vn(text.replace("   global_store_b32 %1, %50, %60 offset:0\n", ""))
    assert print_program(p).count("= s_load_b32") == 1


def test_loop_body_reuses_preheader_value_not_the_other_way():
    """A value of the preheader is reused inside the loop; one computed inside the
    loop is not reused after it (ACO's dominates(): never leave a loop level)."""
    text = fmt(LOOP, 32)
    text = text.replace("   {}: %40 = v_cmp_lt_u32_e64 %1, 4\n".format("s1"),
                        "   s1: %40 = v_cmp_lt_u32_e64 %1, 4\n   v1: %60 = v_mul_u32_u24 7, %1\n")
    text = text.replace("   v1: %5 = v_add_nc_u32 3, %2\n",
                        "   v1: %5 = v_add_nc_u32 3, %2\n   v1: %61 = v_mul_u32_u24 7, %1\n"
                        "   v1: %62 = v_mul_u32_u24 9, %1\n")
    text = text.replace("   v1: %46 = v_cndmask_b32_e64 0, 1, %45\n   p_unit_test %8, %46\n",
                        "   v1: %46 = v_cndmask_b32_e64 0, 1, %45\n"
                        "   v1: %63 = v_mul_u32_u24 9, %1\n   p_unit_test %8, %46, %63\n")
    text = text.replace("   v1: %7 = v_add_nc_u32 1, %5\n",
                        "   v1: %7 = v_add_nc_u32 1, %5\n   v1: %64 = v_add_nc_u32 %61, %62\n")
    p = vn(text)
    out = print_program(p)
    assert out.count("v_mul_u32_u24 7, %1") == 1
    assert out.count("v_mul_u32_u24 9, %1") == 2
    assert "v_add_nc_u32 %60, %62" in out
    same_meaning(text, p)


def test_back_edge_phi_operands_are_renamed():
    text = fmt(LOOP, 32).replace(
        "   v1: %7 = v_add_nc_u32 1, %5\n",
        "   v1: %70 = v_add_nc_u32 1, %5\n   v1: %7 = v_add_nc_u32 1, %5\n")
    text = text.replace("{lm}: %44 = v_cmp_lt_u32_e64 %7, 12".replace("{lm}", "s1"),
                        "s1: %44 = v_cmp_lt_u32_e64 %70, 12")
    p = vn(text)
    assert_ir_matches(p, """
        v1: %2 = p_phi %1, %5, %70
        """)
    assert "%7 " not in print_program(p) and "%7," not in print_program(p)
    same_meaning(text, p)


@pytest.mark.parametrize("wave", [32, 64])
def test_if_else_program_keeps_its_meaning(wave: int):
    text = fmt(IF_ELSE, wave).replace(
        "   v1: %4 = v_add_nc_u32 2, %1\n",
        "   v1: %4 = v_add_nc_u32 2, %1\n   v1: %11 = v_add_nc_u32 2, %1\n")
    p = vn(text)
    assert print_program(p).count("v_add_nc_u32 2, %1") == 1
    same_meaning(text, p, lanes_masks=(None, 0x12345678))


BREAK_ELSE = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, loop-preheader, uniform, */
   v1: %1:v[0], s1: %2:s[0] = p_startpgm
   p_logical_start
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB6, / linear preds: BB0, BB6, / kind: loop-header, branch, loop depth: 1, */
   p_logical_start
   s1: %3 = v_cmp_lt_u32_e64 %1, 5
   p_logical_end
   p_cbranch_z %3 BB3, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: uniform, loop depth: 1, */
   p_logical_start
   s1: %4, s1: %5:scc = s_add_u32 %2, 3
   p_logical_end
   p_branch BB4
BB3
/* logical preds: / linear preds: BB1, / kind: uniform, loop depth: 1, */
   p_branch BB4
BB4
/* logical preds: / linear preds: BB2, BB3, / kind: invert, loop depth: 1, */
   p_branch BB5
BB5
/* logical preds: BB1, / linear preds: BB4, / kind: break, loop depth: 1, */
   p_logical_start
   p_logical_end
   p_branch BB7
BB6
/* logical preds: BB2, / linear preds: BB7, / kind: uniform, continue, loop depth: 1, */
   p_logical_start
   s1: %6, s1: %7:scc = s_add_u32 %2, 3
   v1: %8 = v_add_nc_u32 %6, %1
   p_logical_end
   p_branch BB1
BB7
/* logical preds: / linear preds: BB5, / kind: uniform, loop depth: 1, */
   p_cbranch_z s1: exec BB8, BB6
BB8
/* logical preds: BB5, / linear preds: BB7, / kind: top-level, loop-exit, */
   p_logical_start
   p_logical_end
   s_endpgm
"""


def test_sgpr_value_needs_linear_dominance():
    """BB2 (then side) dominates BB6 logically, as the else side breaks out of
    the loop; SGPRs follow the linear CFG, where BB2 does not dominate BB6."""
    p = parse_program(BREAK_ELSE)
    dominator_tree(p)
    assert p.blocks[6].logical_idom == 2 and p.blocks[6].linear_idom != 2
    value_numbering(p)
    assert print_program(p).count("s_add_u32") == 2


def test_vgpr_value_may_use_logical_dominance():
    """The same shape with a VGPR value: logical dominance is all a VGPR needs."""
    text = BREAK_ELSE.replace("s1: %4, s1: %5:scc = s_add_u32 %2, 3",
                              "v1: %4 = v_mul_u32_u24 3, %1") \
        .replace("s1: %6, s1: %7:scc = s_add_u32 %2, 3", "v1: %6 = v_mul_u32_u24 3, %1")
    p = vn(text)
    assert print_program(p).count("v_mul_u32_u24") == 1
    assert "v_add_nc_u32 %4, %1" in print_program(p)



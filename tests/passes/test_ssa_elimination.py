"""ssa_elimination, jump_threading and lower_to_cssa: IR in, patterns out."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.validate import validate_ra
from radcc.passes.jump_threading import jump_threading
from radcc.passes.lower_to_cssa import lower_to_cssa
from radcc.passes.register_allocation import register_allocation
from radcc.passes.ssa_elimination import ssa_elimination

sys.path.insert(0, str(Path(__file__).parent))
from ra_gen import generate  # noqa: E402
from ra_interp import run  # noqa: E402

DIAMOND = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s1: %1:s[0], v1: %2:v[0] = p_startpgm
   s1: %3:scc = s_cmp_lt_u32 %1:s[0], 3
   p_cbranch_z %3:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_logical_start
   v1: %4:v[1] = v_mov_b32 1
   p_logical_end
   s1: %5:s[1] = s_mov_b32 1
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_logical_start
   v1: %6:v[2] = v_mov_b32 2
   p_logical_end
   s1: %7:s[2] = s_mov_b32 2
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: merge, */
   v1: %8:v[1] = p_phi %4:v[1], %6:v[2]
   s1: %9:s[3] = p_linear_phi %5:s[1], %7:s[2]
   p_unit_test %8:v[1], %9:s[3]
   s_endpgm
"""


def test_logical_copies_before_logical_end_linear_before_branch():
    p = parse_program(DIAMOND)
    ssa_elimination(p)
    assert_ir_matches(p, """
        BB1
        >> /* logical preds: BB0, / linear preds: BB0, / kind: */
        >> p_logical_start
        >> v1: %4:v[1] = v_mov_b32 1
        >> p_logical_end
        >> s1: %5:s[1] = s_mov_b32 1
        >> s1: %9:s[3] = p_parallelcopy %5:s[1]
        >> p_branch BB3
        BB2
        >> /* logical preds: BB0, / linear preds: BB0, / kind: */
        >> p_logical_start
        >> v1: %6:v[2] = v_mov_b32 2
        >> v1: %8:v[1] = p_parallelcopy %6:v[2]
        >> p_logical_end
        >> s1: %7:s[2] = s_mov_b32 2
        >> s1: %9:s[3] = p_parallelcopy %7:s[2]
        >> p_branch BB3
        BB3
        >> /* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: merge, */
        >> p_unit_test %8:v[1], %9:s[3]
    """)
    assert "p_phi" not in print_program(p)
    assert run(p, [(1,), (0,)], regs=True) == [(1, 1)]
    assert run(p, [(7,), (0,)], regs=True) == [(2, 2)]


CRITICAL = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s1: %1:s[0] = p_startpgm
   s1: %2:s[1] = s_mov_b32 5
   s1: %3:scc = s_cmp_lt_u32 %1:s[0], 3
   p_cbranch_z %3:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   s1: %4:s[1] = s_mov_b32 6
   p_branch BB2
BB2
/* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: merge, */
   s1: %5:s[2] = p_linear_phi %2:s[1], %4:s[1]
   p_unit_test %5:s[2]
   s_endpgm
"""


def test_critical_edge_gets_its_own_block():
    # BB0 -> BB2 is critical (BB0 has two successors, BB2 two predecessors):
    # the copy for it goes into a new block on that edge, not into BB0
    p = parse_program(CRITICAL)
    ssa_elimination(p)
    assert_ir_matches(p, """
        BB0
        p_cbranch_z %3:scc BB3, BB1
        BB1
        s1: %5:s[2] = p_parallelcopy %4:s[1]
        >> p_branch BB2
        BB2
        >> /* logical preds: BB1, BB3, / linear preds: BB1, BB3, / kind: merge, */
        BB3
        >> /* logical preds: BB0, / linear preds: BB0, / kind: */
        >> p_logical_start
        >> p_logical_end
        >> s1: %5:s[2] = p_parallelcopy %2:s[1]
        >> p_branch BB2
    """)
    assert run(p, [(1,)], regs=True) == [(6,)]
    assert run(p, [(9,)], regs=True) == [(5,)]


def test_operands_already_in_place_need_no_copy():
    text = DIAMOND.replace("v1: %6:v[2] = v_mov_b32 2", "v1: %6:v[1] = v_mov_b32 2").replace(
        "%6:v[2]", "%6:v[1]")
    p = parse_program(text)
    ssa_elimination(p)
    assert "v1: %8:v[1] = p_parallelcopy" not in print_program(p)


# -- jump threading -------------------------------------------------------------------

JT = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s1: %1:s[0] = p_startpgm
   s1: %3:scc = s_cmp_lt_u32 %1:s[0], 3
   p_cbranch_z %3:scc BB3, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_unit_test %1:s[0]
   p_branch BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: */
   p_logical_start
   p_logical_end
   p_branch BB4
BB3
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_branch BB4
BB4
/* logical preds: BB2, BB3, / linear preds: BB2, BB3, / kind: merge, */
   p_unit_test 7
   s_endpgm
"""


def test_empty_blocks_are_threaded():
    p = parse_program(JT)
    jump_threading(p)
    # BB2 and BB3 only jump to BB4: BB1 branches to BB4 directly; BB0's taken
    # target BB3 becomes BB4
    assert_ir_matches(p, """
        BB0
        >> /* logical preds: / linear preds: / kind: top-level, */
        >> s1: %1:s[0] = p_startpgm
        >> s1: %3:scc = s_cmp_lt_u32 %1:s[0], 3
        >> p_cbranch_z %3:scc BB4, BB1
        BB1
        >> /* logical preds: BB0, / linear preds: BB0, / kind: */
        >> p_unit_test %1:s[0]
        >> p_branch BB4
        BB2
        >> /* logical preds: / linear preds: / kind: */
        BB3
        >> /* logical preds: / linear preds: / kind: */
        BB4
        >> /* logical preds: BB0, BB1, / linear preds: BB0, BB1, / kind: merge, */
    """)
    assert run(p, [(1,)], regs=True) == [(1,), (7,)]
    assert run(p, [(5,)], regs=True) == [(7,)]


def test_fall_through_target_inverts_branch_when_needed():
    # BB1 is empty and falls through to... it jumps to BB3, not the next block;
    # BB0's not-taken (fall-through) target BB1 cannot become BB3 (BB2 is in
    # between), but the taken target BB2 *is* the fall-through after removing
    # BB1: the condition is inverted
    p = parse_program("""program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s1: %1:s[0] = p_startpgm
   s1: %3:scc = s_cmp_lt_u32 %1:s[0], 3
   p_cbranch_z %3:scc BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_unit_test 2
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: merge, */
   p_unit_test 3
   s_endpgm
""")
    jump_threading(p)
    assert_ir_matches(p, """
        p_cbranch_nz %3:scc BB3, BB2
        BB1
        >> /* logical preds: / linear preds: / kind: */
    """)
    assert run(p, [(1,)], regs=True) == [(3,)]
    assert run(p, [(5,)], regs=True) == [(2,), (3,)]


# -- lower_to_cssa ----------------------------------------------------------------------

SWAP = """program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s1: %1 = p_startpgm
   s1: %2 = s_mov_b32 1
   s1: %3 = s_mov_b32 2
   s1: %10 = s_mov_b32 0
   p_branch BB1
BB1
/* logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: loop-header, */
   s1: %4 = p_linear_phi %2, %5
   s1: %5 = p_linear_phi %3, %4
   s1: %11 = p_linear_phi %10, %12
   s1: %12, s1: %13:scc = s_add_u32 %11, 1
   s1: %14:scc = s_cmp_lt_u32 %12, 3
   p_cbranch_z %14:scc BB3, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: continue, */
   p_branch BB1
BB3
/* logical preds: BB1, / linear preds: BB1, / kind: loop-exit, */
   p_unit_test %4, %5
   s_endpgm
"""


def test_cssa_breaks_the_swap_with_a_copy():
    # %4 and %5 are both defined at the header start and both live there, so
    # they interfere: neither may join the other phi's class, and the back
    # edge gets copies (one parallel copy)
    p = parse_program(SWAP)
    lower_to_cssa(p)
    assert_ir_matches(p, """
        BB1
        >> /* logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: loop-header, */
        >> s1: %4 = p_linear_phi (firstkill)(kill)%2, (firstkill)(kill)%a
        >> s1: %5 = p_linear_phi (firstkill)(kill)%3, (firstkill)(kill)%b
        BB2
        >> /* logical preds: BB1, / linear preds: BB1, / kind: continue, */
        >> s1: %a, s1: %b = p_parallelcopy (firstkill)(kill)%5, (firstkill)(kill)%4
        >> p_branch BB1
    """)
    ref = run(parse_program(SWAP), [(0,)], regs=False)
    # three header entries: (1, 2), (2, 1), (1, 2)
    assert run(p, [(0,)], regs=False) == ref == [(1, 2)]
    register_allocation(p)
    validate_ra(p)
    assert run(p, [(0,)], regs=True) == ref
    # CSSA: every phi and its operands share one register
    for b in p.blocks:
        for i in b.instructions:
            if i.is_phi:
                assert {o.phys for o in i.operands if o.temp} == {i.definitions[0].phys}


def test_cssa_keeps_non_interfering_phis_copy_free():
    text = DIAMOND
    for r in (":s[0]", ":v[0]", ":v[1]", ":v[2]", ":s[1]", ":s[2]", ":s[3]"):
        text = text.replace(r, "")
    text = text.replace("s1: %1, v1: %2 = p_startpgm", "s1: %1:s[0], v1: %2:v[0] = p_startpgm")
    p = parse_program(text)
    lower_to_cssa(p)
    assert "p_parallelcopy" not in print_program(p)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_pipeline_on_random_programs(seed: int):
    p, inputs = generate(seed, size=25, depth=2, pressure=4)
    ref = run(parse_program(print_program(p)), inputs, regs=False)
    lower_to_cssa(p)
    assert run(p, inputs, regs=False) == ref
    register_allocation(p)
    validate_ra(p)
    for b in p.blocks:  # after CSSA + affinities, phis should mostly be copy-free
        for i in b.instructions:
            assert not i.is_phi or i.definitions[0].phys is not None
    ssa_elimination(p)
    assert run(p, inputs, regs=True) == ref
    jump_threading(p)
    assert run(p, inputs, regs=True) == ref

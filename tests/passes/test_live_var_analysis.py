"""Live-variable analysis on small programs; live sets, kill flags and demand
were worked out by hand (comments give the reasoning)."""

from __future__ import annotations

from radcc.ir.parser import parse_program
from radcc.ir.program import RegisterDemand as D
from radcc.passes.live_var_analysis import get_live_vars, live_var_analysis


def kills(instr) -> list[str]:
    """Per operand: 'F' first kill (+kill), 'K' kill, '-' live on, 'c' not a temp."""
    out = []
    for o in instr.operands:
        if o.temp is None:
            out.append("c")
        elif o.is_first_kill:
            assert o.is_kill
            out.append("F")
        else:
            out.append("K" if o.is_kill else "-")
    return out


STRAIGHT = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_add_f32 %2, %2
   v1: %4 = v_mul_f32 %3, %2
   v1: %5 = v_add_f32 %4, %4
   s1: %6 = s_load_b32 %1, 0
   p_logical_end
   s_endpgm
"""


def test_straight_line():
    p = parse_program(STRAIGHT)
    live_var_analysis(p)
    lv = get_live_vars(p)
    ins = p.blocks[0].instructions
    assert lv.live_in == [set()] and lv.live_out == [set()]
    assert kills(ins[2]) == ["-", "-"]   # %2 is read again by the multiply
    assert kills(ins[3]) == ["F", "F"]   # last uses of %3 and %2
    assert kills(ins[4]) == ["F", "K"]   # %4 read twice: first kill + kill
    assert kills(ins[5]) == ["F", "c"]   # last use of %1
    assert [d.is_kill for d in ins[0].definitions] == [False, False]
    assert ins[4].definitions[0].is_kill and ins[5].definitions[0].is_kill  # unused
    assert not ins[2].definitions[0].is_kill
    # demand during each instruction: live after + all defs (+ late kills), in dwords
    assert lv.register_demand[0] == [
        D(2, 1),  # startpgm: %1 (s2) %2 (v1)
        D(2, 1),
        D(2, 2),  # v_add: %1 %2 %3
        D(2, 1),  # v_mul: %1 %4 (%3, %2 die and their registers can be reused)
        D(2, 1),  # v_add: %1 and the dead %5
        D(1, 0),  # s_load: only the dead %6 (s1); %1 dies
        D(0, 0), D(0, 0)]
    assert p.blocks[0].register_demand == D(2, 2)
    assert p.blocks[0].live_in_demand == D(0, 0)
    assert p.max_reg_demand == D(2, 2) and lv.max_demand == D(2, 2)
    # gfx1100 wave32: 2 VGPRs round up to a granule of 24 -> 1536/24 = 64 waves, capped at 16
    assert lv.waves_per_simd == 16


def test_late_kill_counts_during_the_instruction():
    p = parse_program(STRAIGHT.replace("v_mul_f32 %3, %2", "v_mul_f32 %3, (latekill)%2"))
    live_var_analysis(p)
    # the multiply's %2 (late kill) still occupies its register while %4 is written
    assert get_live_vars(p).register_demand[0][3] == D(2, 2)
    assert p.blocks[0].instructions[3].operands[1].is_late_kill


UNIFORM_DIAMOND = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s1: %1:s[0], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_mov_b32 %2
   p_logical_end
   p_cbranch_z %1 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %4 = v_add_f32 %3, %2
   p_logical_end
   p_branch BB3
BB2
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
   v1: %5 = v_mul_f32 %3, %3
   p_logical_end
   p_branch BB3
BB3
/* logical preds: BB1, BB2, / linear preds: BB1, BB2, / kind: top-level, merge, */
   v1: %6 = p_phi %4, %5
   p_logical_start
   v1: %7 = v_add_f32 %6, %2
   p_logical_end
   s_endpgm
"""


def test_uniform_diamond_with_phi():
    p = parse_program(UNIFORM_DIAMOND)
    live_var_analysis(p)
    lv = get_live_vars(p)
    # BB3 needs %2; the phi's %6 is defined there, its operands live at the preds' ends
    assert lv.live_in == [set(), {2, 3}, {2, 3}, {2}]
    assert lv.live_out == [{2, 3}, {2, 4}, {2, 5}, set()]
    b0, b1, b2, b3 = p.blocks
    assert kills(b0.instructions[2]) == ["-"]
    assert kills(b0.instructions[4]) == ["F"]      # the branch is %1's last use
    assert kills(b1.instructions[1]) == ["F", "-"]  # %3 dies, %2 lives on to BB3
    assert kills(b2.instructions[1]) == ["F", "K"]
    assert kills(b3.instructions[0]) == ["F", "F"]  # each phi operand dies on its edge
    assert kills(b3.instructions[2]) == ["F", "F"]
    assert b3.instructions[2].definitions[0].is_kill
    assert [b.live_in_demand for b in p.blocks] == [D(0, 0), D(0, 2), D(0, 2), D(0, 1)]
    # BB0: during v_mov, %1 (s1) %2 %3 (v1) are live: (1, 2); the branch kills %1
    assert lv.register_demand[0] == [D(1, 1), D(1, 1), D(1, 2), D(1, 2), D(0, 2)]
    assert lv.register_demand[3] == [D(0, 2), D(0, 2), D(0, 1), D(0, 0), D(0, 0)]
    assert [b.register_demand for b in p.blocks] == [D(1, 2), D(0, 2), D(0, 2), D(0, 2)]
    assert p.max_reg_demand == D(1, 2)


DIVERGENT_IF = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s1: %1:s[0], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_mov_b32 1
   p_logical_end
   s1: %4 = s_mov_b32 %1
   p_cbranch_z %1 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: */
   p_logical_start
   v1: %5 = v_add_f32 %2, %3
   p_logical_end
   p_branch BB2
BB2
/* logical preds: / linear preds: BB0, BB1, / kind: invert, */
   p_branch BB3
BB3
/* logical preds: BB0, / linear preds: BB2, / kind: */
   p_logical_start
   v1: %6 = v_mul_f32 %3, %3
   p_logical_end
   p_branch BB4
BB4
/* logical preds: BB1, BB3, / linear preds: BB2, BB3, / kind: top-level, merge, */
   v1: %7 = p_phi %5, %6
   p_logical_start
   v1: %8 = v_add_f32 %7, %2
   p_logical_end
   s1: %9, s1: %10:scc = s_add_u32 %4, 1
   s_endpgm
"""


def test_divergent_if_vgprs_follow_logical_edges_sgprs_linear_ones():
    p = parse_program(DIVERGENT_IF)
    live_var_analysis(p)
    lv = get_live_vars(p)
    # VGPRs %2/%3 are not live in the linear-only BB2 (they go through logical
    # edges); the SGPR %4 is (it goes through linear edges).
    assert lv.live_in == [set(), {2, 3, 4}, {4}, {2, 3, 4}, {2, 4}]
    assert lv.live_out == [{2, 3, 4}, {2, 4, 5}, {4}, {2, 4, 6}, set()]
    # %3 dies in the then-block: BB1's only logical successor, BB4, does not need it
    assert kills(p.blocks[1].instructions[1]) == ["-", "F"]
    assert kills(p.blocks[3].instructions[1]) == ["F", "K"]
    assert kills(p.blocks[4].instructions[0]) == ["F", "F"]
    assert kills(p.blocks[4].instructions[4]) == ["F", "c"]
    assert kills(p.blocks[0].instructions[4]) == ["-"]   # %1 is still read by the branch
    assert kills(p.blocks[0].instructions[5]) == ["F"]
    assert p.blocks[2].live_in_demand == D(1, 0) and p.blocks[2].register_demand == D(1, 0)
    # BB4's s_add: the dead %9 and %10 (scc) take 2 SGPRs while %4 dies
    assert lv.register_demand[4][4] == D(2, 0)


LOOP = """\
program gfx1100 wave32 compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   s1: %1:s[0], v1: %2:v[0] = p_startpgm
   p_logical_start
   v1: %3 = v_mov_b32 0
   p_logical_end
   p_branch BB1
BB1
/* logical preds: BB0, BB2, / linear preds: BB0, BB2, / kind: loop-header, loop depth: 1, */
   v1: %4 = p_phi %3, %5
   p_logical_start
   v1: %5 = v_add_f32 %4, %2
   p_logical_end
   p_cbranch_z %1 BB3, BB2
BB2
/* logical preds: BB1, / linear preds: BB1, / kind: continue, loop depth: 1, */
   p_branch BB1
BB3
/* logical preds: BB1, / linear preds: BB1, / kind: top-level, loop-exit, */
   p_logical_start
   v1: %6 = v_mul_f32 %5, %5
   p_logical_end
   s_endpgm
"""


def test_loop_carried_values():
    p = parse_program(LOOP)
    live_var_analysis(p)
    lv = get_live_vars(p)
    # %1 and %2 are live around the loop; %5 flows back through the phi
    assert lv.live_in == [set(), {1, 2}, {1, 2, 5}, {5}]
    assert lv.live_out == [{1, 2, 3}, {1, 2, 5}, {1, 2, 5}, set()]
    b1 = p.blocks[1]
    assert kills(b1.instructions[2]) == ["F", "-"]  # %2 is read again next iteration
    assert kills(b1.instructions[4]) == ["-"]       # so is %1
    assert kills(b1.instructions[0]) == ["F", "F"]  # %3 and %5 die on their edges
    assert kills(p.blocks[3].instructions[1]) == ["F", "K"]
    assert lv.register_demand[1] == [D(1, 2)] * 5
    assert b1.live_in_demand == D(1, 1)
    assert p.max_reg_demand == D(1, 2)  # %1 with two VGPRs (BB0's v_mov, all of BB1)


def test_results_live_on_the_program_until_invalidated():
    p = parse_program(LOOP)
    assert p.analyses.liveness is None
    lv = get_live_vars(p)  # computed on demand
    assert p.analyses.liveness is lv and get_live_vars(p) is lv
    q = parse_program(LOOP)
    assert q.analyses.liveness is None and get_live_vars(q) is not lv
    p.analyses.invalidate()
    assert get_live_vars(p) is not lv
    assert get_live_vars(p).live_in == lv.live_in


def test_wave64_occupancy_from_demand():
    # 40 live VGPRs in wave64 on gfx1100: granule 12 -> 48, 768 // 48 = 16 waves;
    # 100 VGPRs: 108 -> 768 // 108 = 7 waves.
    text = ["program gfx1100 wave64 compute", "BB0",
            "/* logical preds: / linear preds: / kind: top-level, */"]
    text.append("   v100: %1 = p_unit_test")
    text.append("   p_unit_test %1")
    p = parse_program("\n".join(text) + "\n")
    live_var_analysis(p)
    assert p.max_reg_demand == D(0, 100)
    assert get_live_vars(p).waves_per_simd == 7

"""collect_statistics: counts, clauses and ACO's cycle estimator (numbers worked out
by hand from the definitions in aco_statistics.cpp and the module docstring)."""

from __future__ import annotations

import zlib

from radcc.ir.parser import parse_program
from radcc.ir.program import RegisterDemand
from radcc.passes.emit_program import emit_program
from radcc.passes.lower_to_hw import lower_to_hw
from radcc.passes.statistics import collect_statistics

HEAD = "program gfx1100 {wave} compute\nBB0\n/* logical preds: / linear preds: / kind: top-level, */\n"

BODY = """\
   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm
   s2: %3:s[4-5] = s_load_b64 %1:s[0-1], 0
   s1: %4:s[6] = s_load_b32 %1:s[0-1], 8
   v1: %5:v[1], s1: %6:s[7] = p_parallelcopy %2:v[0], 0x1234
   v1: %7:v[2] = v_add_f32 %5:v[1], %5:v[1]
   s_waitcnt simm16:0
   v1: %8:v[3] = global_load_b32 %5:v[1], %3:s[4-5]
   v1: %9:v[4] = global_load_b32 %7:v[2], %3:s[4-5]
   s_waitcnt simm16:0
   global_store_b32 %5:v[1], %8:v[3], %3:s[4-5]
   s_endpgm
"""


def test_counts_and_clauses():
    p = parse_program(HEAD.format(wave="wave32") + BODY)
    p.max_reg_demand = RegisterDemand(9, 5)
    lower_to_hw(p)
    r = emit_program(p)
    st = collect_statistics(p, r)
    assert p.statistics is st
    # s_load x2, v_mov, s_movk, v_add, waitcnt, 2 loads, waitcnt, store, endpgm
    assert st["Instructions"] == 11
    assert st["Copies"] == 2  # v_mov_b32 and s_movk_i32 from the parallel copy
    assert st["Branches"] == 0
    assert st["SMEM"] == 2 and st["SClause"] == 1
    assert st["VMEM"] == 3 and st["VClause"] == 2  # two loads, then the store after a wait
    assert st["VALU"] == 2 and st["VOPD"] == 0
    assert st["SALU"] == 1  # ACO: SALU formats but not SOPP nor waits: s_movk
    assert (st["PreSGPRs"], st["PreVGPRs"]) == (9, 5)
    assert st["SGPRs"] == 8 and st["VGPRs"] == 5
    assert st["CodeSize"] == r.code_size
    assert st["Hash"] == zlib.crc32(r.code[:r.code_size])
    assert st["WavesPerSIMD"] == 16


def test_cycle_model_dependency_chain():
    # ACO's estimator on GFX11 (VALU32: latency 5, VALU busy 1 cycle; one issue
    # per cycle): mov at 0 (ready 5); add waits for v1: starts 5 (ready 10);
    # mov at 6; the block ends at cycle 7 (Latency counts issue cycles: results
    # are waited for by s_endpgm, absent here)
    body = ("   v1: %1:v[1] = v_mov_b32 1\n"
            "   v1: %2:v[2] = v_add_f32 %1:v[1], %1:v[1]\n"
            "   v1: %3:v[3] = v_mov_b32 2\n")
    p = parse_program(HEAD.format(wave="wave32") + body)
    st = collect_statistics(p)
    assert st["Latency"] == 7
    # VALU usage 3: parallelism min(waves, 7 / 3); inverse throughput
    # 1 / (parallelism / 7 * 32 / 64) = 3 * 64 / 32 = 6
    assert st["InvThroughput"] == 6
    # wave64: v_mov_b32 and v_add_f32 dual-issue on GFX11 (one pass each)
    p64 = parse_program(HEAD.format(wave="wave64") + body)
    st64 = collect_statistics(p64)
    assert (st64["Latency"], st64["InvThroughput"]) == (7, 3)
    # v_and_b32 does not dual-issue: each VALU goes through twice in wave64
    body_and = body.replace("v_add_f32", "v_and_b32").replace("v_mov_b32 2", "v_and_b32 2, 3")
    p64b = parse_program(HEAD.format(wave="wave64") + body_and)
    # mov 0; and waits for v1 (ready 5): passes at 5, 6 (ready 6 + 5); and: 7, 8 -> 9
    assert collect_statistics(p64b)["Latency"] == 9


def test_endpgm_waits_for_every_result():
    body = ("   v1: %1:v[1] = v_mov_b32 1\n"
            "   v1: %2:v[2] = v_exp_f32 %1:v[1]\n"
            "   s_endpgm\n")
    st = collect_statistics(parse_program(HEAD.format(wave="wave32") + body))
    # mov 0 (ready 5), exp at 5 (transcendental latency 10: ready 15), s_endpgm at 15
    assert st["Latency"] == 16


def test_memory_latency_and_waitcnt():
    body = ("   v1: %3:v[3] = global_load_b32 v1: %1:v[1], s2: %2:s[4-5]\n"
            "   s_waitcnt simm16:0x03f7\n"  # vmcnt(0)
            "   v1: %4:v[4] = v_add_f32 %3:v[3], %3:v[3]\n")
    st = collect_statistics(parse_program(HEAD.format(wave="wave32") + body))
    # load at 0, its VM event completes at 1 + 320; the wait ends there; add at 321
    assert st["Latency"] == 321 + 1 + 1


def test_loop_weight():
    text = (HEAD.format(wave="wave32") + "   s_nop simm16:0\n"
            "BB1\n/* logical preds: BB0, / linear preds: BB0, / kind: loop-header, "
            "loop depth: 1, */\n   s_nop simm16:0\n")
    st = collect_statistics(parse_program(text))
    # one cycle per block; ACO assumes a loop runs 8 times
    assert st["Latency"] == 1 + 8 * 1


def _block(i: int, preds: str, kind: str, depths: str = "") -> str:
    return (f"BB{i}\n/* logical preds: {preds[0]} / linear preds: {preds[1]} / kind: {kind}"
            f"{depths}*/\n   s_nop simm16:0\n")


def test_if_depth_weights():
    # ACO's collect_preasm_stats: x 0.5 per uniform if, x 0.75 per logical side of a
    # divergent if, x 0.25 for a linear-only side of a divergent if (one linear pred,
    # the branch or invert block, one linear succ); every block here costs 1 cycle
    text = (HEAD.format(wave="wave32") + "   s_nop simm16:0\n"
            + _block(1, ("BB0,", "BB0,"), "", "uniform if depth: 1, ")
            + _block(2, ("BB0,", "BB0,"), "branch, ", "divergent if depth: 2, ")
            + _block(3, ("", "BB2,"), "uniform, ")
            + _block(4, ("BB2,", "BB3,"), "", "uniform if depth: 1, divergent if depth: 1, "))
    p = parse_program(text)
    p.blocks[3].linear_succs = [4]
    assert p.blocks[1].uniform_if_depth == 1 and p.blocks[2].divergent_if_logical_depth == 2
    st = collect_statistics(p)
    want = 1 + 0.5 + 0.75 ** 2 + 0.25 + 0.5 * 0.75  # 2.6875
    assert st["Latency"] == round(want) == 3
    # the weights reach the resource usage too: each s_nop keeps the scalar unit busy
    # 1 cycle, so usage = L and parallelism = min(waves, L / usage) = 1;
    # 1 / (1 / L * 32 / 64) = 2L (unweighted usage 5 would give 10)
    assert st["InvThroughput"] == round(2 * want) == 5


def test_if_depths_round_trip():
    from radcc.ir.printer import format_block_header

    text = HEAD.format(wave="wave32") + "   s_nop simm16:0\n" + _block(
        1, ("BB0,", "BB0,"), "uniform, ", "loop depth: 2, uniform if depth: 3, "
        "divergent if depth: 1, ")
    b = parse_program(text).blocks[1]
    assert (b.loop_nest_depth, b.uniform_if_depth, b.divergent_if_logical_depth) == (2, 3, 1)
    assert format_block_header(b) == text.splitlines()[-3] + "\n" + text.splitlines()[-2]


def test_copies_are_the_lowered_copy_pseudos():
    # a v_mov_b32 isel wrote itself is not a copy (ACO counts handle_operands' output)
    body = BODY.replace("   v1: %7:v[2] = v_add_f32 %5:v[1], %5:v[1]\n",
                        "   v1: %7:v[2] = v_mov_b32 %5:v[1]\n")
    p = parse_program(HEAD.format(wave="wave32") + body)
    lower_to_hw(p)
    assert collect_statistics(p)["Copies"] == 2
    # a vector built from four registers: four moves
    body4 = ("   s2: %1:s[0-1], v1: %2:v[0] = p_startpgm\n"
             "   v4: %3:v[4-7] = p_create_vector %2:v[0], %2:v[0], %2:v[0], %2:v[0]\n"
             "   s_endpgm\n")
    p4 = parse_program(HEAD.format(wave="wave32") + body4)
    lower_to_hw(p4)
    assert collect_statistics(p4)["Copies"] == 4


def test_isel_sets_if_depths():
    import radcc

    src = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer A { float a[]; };
layout(push_constant) uniform P { uint k; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = a[i];
  if (k > 3) { x = x * 3.0; a[i + 64] = x; }
  if (x > 1.0) { a[i + 128] = x; }
  a[i] = x;
}
"""
    k = radcc.compile(src, stage="comp", wave_size=32)
    p = k.result.program
    assert p is not None
    uni = [b for b in p.blocks if b.uniform_if_depth]
    div = [b for b in p.blocks if b.divergent_if_logical_depth]
    # the uniform if: its then side (and else side) at depth 1; the divergent if: its
    # logical then (and logical else) at depth 1; the rest at 0
    assert uni and all(b.uniform_if_depth == 1 for b in uni)
    assert div and all(b.divergent_if_logical_depth == 1 for b in div)
    assert not any(b.uniform_if_depth and b.divergent_if_logical_depth for b in p.blocks)
    assert p.blocks[0].uniform_if_depth == p.blocks[-1].divergent_if_logical_depth == 0
    assert any(b.kind & b.kind.BRANCH for b in p.blocks)

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

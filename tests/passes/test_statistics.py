"""collect_statistics: counts, clauses and the documented cycle model."""

from __future__ import annotations

import zlib

from radcc.ir.parser import parse_program
from radcc.ir.program import RegisterDemand
from radcc.passes.emit_program import emit_program
from radcc.passes.lower_to_hw import lower_to_hw
from radcc.passes.statistics import CYCLE_MODEL, collect_statistics

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
    assert st["SALU"] == 4  # SOP* formats as ACO's isSALU: s_movk, 2 s_waitcnt, s_endpgm
    assert (st["PreSGPRs"], st["PreVGPRs"]) == (9, 5)
    assert st["SGPRs"] == 8 and st["VGPRs"] == 5
    assert st["CodeSize"] == r.code_size
    assert st["Hash"] == zlib.crc32(r.code[:r.code_size])
    assert st["WavesPerSIMD"] == 16


def test_cycle_model_dependency_chain():
    # two dependent VALU ops: the second starts when the first's result is ready
    body = ("   v1: %1:v[1] = v_mov_b32 1\n"
            "   v1: %2:v[2] = v_add_f32 %1:v[1], %1:v[1]\n"
            "   v1: %3:v[3] = v_mov_b32 2\n")
    p = parse_program(HEAD.format(wave="wave32") + body)
    st = collect_statistics(p)
    _, issue, lat = CYCLE_MODEL["valu"]
    # mov at 0 (ready at lat), add at lat (ready 2*lat), the last mov starts at
    # lat + issue (in order, after the add) and is ready at 2*lat + issue
    assert st["Latency"] == 2 * lat + issue
    assert st["InvThroughput"] == 3 * issue
    p64 = parse_program(HEAD.format(wave="wave64") + body)
    assert collect_statistics(p64)["InvThroughput"] == 6 * issue


def test_loop_weight():
    text = (HEAD.format(wave="wave32") + "   s_nop simm16:0\n"
            "BB1\n/* logical preds: BB0, / linear preds: BB0, / kind: loop-header, "
            "loop depth: 1, */\n   s_nop simm16:0\n")
    st = collect_statistics(parse_program(text))
    lat = CYCLE_MODEL["nop"][2]
    assert st["Latency"] == lat + 4 * lat

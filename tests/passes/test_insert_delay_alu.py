"""insert_delay_alu: s_delay_alu placement and encoding.

Encodings from the ISA guide's S_DELAY_ALU (InstID0 [3:0], InstSkip [6:4],
InstID1 [10:7]; InstID values NO_DEP=0, VALU_DEP_1..4=1..4,
TRANS32_DEP_1..3=5..7, SALU_CYCLE_1..3=9..11; InstSkip SAME=0, NEXT=1,
SKIP_1..4=2..5); the assembler's printing is checked against llvm-mc's
spelling of the same values. Latencies are the cycle model's (LLVM's GFX11
SchedModel: VALU 5, transcendental 10, SALU 2 cycles; one instruction issued
per cycle, in wave64 too). tests/passes/test_delay_alu_vs_llvm.py compares
whole listings with clang-19's.
"""

from __future__ import annotations

import pytest
from waitcnt_util import assert_listing, listing, program, single

from radcc.isa.formats.scalar_fields import delay_text
from radcc.passes.insert_delay_alu import insert_delay_alu

VALU_DEP = {1: 1, 2: 2, 3: 3, 4: 4}
TRANS_DEP = {1: 5, 2: 6, 3: 7}
SALU_CYCLE = {1: 9, 2: 10, 3: 11}


def da(id0: int, skip: int = 0, id1: int = 0) -> str:
    return f"s_delay_alu simm16:{id0 | skip << 4 | id1 << 7}"


def run(p):
    insert_delay_alu(p)
    return p


W1 = "   v1: v[1] = v_add_f32 v1: v[0], v1: v[0]\n"
R1 = "   v1: v[2] = v_mul_f32 v1: v[1], v1: v[1]\n"


def filler(n: int) -> str:
    return "".join(f"   v1: v[{40 + i}] = v_mov_b32 {i}\n" for i in range(n))


def sfill(n: int) -> str:
    return "".join(f"   s1: s[{40 + i}] = s_mov_b32 {i}\n" for i in range(n))


def test_dependent_valu_right_after_producer():
    p = run(single(W1 + R1 + "   s_endpgm\n"))
    assert_listing(p, f"BB0\n{W1}   {da(VALU_DEP[1])}\n{R1}   s_endpgm\n")


@pytest.mark.parametrize("n", [1, 2, 3])
def test_valu_dep_counts_valus_in_between(n):
    p = run(single(W1 + filler(n) + R1 + "   s_endpgm\n"))
    assert f"   {da(VALU_DEP[n + 1])}\n{R1}" in listing(p)


def test_no_delay_beyond_four_valus_or_after_the_latency():
    p = run(single(W1 + filler(4) + R1 + "   s_endpgm\n"))
    assert "s_delay_alu" not in listing(p)
    # four 1-cycle SALUs cover the VALU's remaining 4 cycles of latency
    p = run(single(W1 + sfill(4) + R1 + "   s_endpgm\n"))
    assert "s_delay_alu" not in listing(p)
    p = run(single(W1 + sfill(3) + R1 + "   s_endpgm\n"))
    assert f"   {da(VALU_DEP[1])}\n{R1}" in listing(p)


def test_transcendental_and_valu_dependencies_share_one_instruction():
    t = "   v1: v[3] = v_rcp_f32 v1: v[0]\n"
    r = "   v1: v[4] = v_fma_f32 v1: v[1], v1: v[3], v1: v[0]\n"
    p = run(single(t + W1 + r + "   s_endpgm\n"))
    # v3: the most recent transcendental; v1: the most recent VALU
    assert_listing(p, f"BB0\n{t}{W1}   {da(TRANS_DEP[1], 0, VALU_DEP[1])}\n{r}   s_endpgm\n")


def test_transcendentals_do_not_count_as_valus():
    # VALU_DEP_n counts VALUs other than transcendentals (LLVM's DelayInfo):
    # two v_rcp between the producer and its reader leave it VALU_DEP_1
    t = "".join(f"   v1: v[{3 + i}] = v_rcp_f32 v1: v[0]\n" for i in range(2))
    p = run(single(W1 + t + R1 + "   s_endpgm\n"))
    assert f"   {da(VALU_DEP[1])}\n{R1}" in listing(p)


def test_salu_dependency():
    w = "   s1: s[4], s1: scc = s_add_u32 s1: s[0], 1\n"
    r = "   s1: s[5], s1: scc = s_add_u32 s1: s[4], 1\n"
    p = run(single(w + r + "   s_endpgm\n"))
    assert_listing(p, f"BB0\n{w}   {da(SALU_CYCLE[1])}\n{r}   s_endpgm\n")
    p = run(single(w + sfill(1) + r + "   s_endpgm\n"))
    assert "s_delay_alu" not in listing(p)


def test_consecutive_delays_are_merged_with_instskip():
    r2 = "   v1: v[3] = v_mul_f32 v1: v[2], v1: v[2]\n"
    p = run(single(W1 + R1 + r2 + "   s_endpgm\n"))
    # the classic chain: instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    assert_listing(p, f"BB0\n{W1}   {da(VALU_DEP[1], 1, VALU_DEP[1])}\n{R1}{r2}   s_endpgm\n")


def test_vmem_waits_for_valu_results_itself():
    st = "   global_store_b32 v2: v[8-9], v1: v[1], s2: undef\n"
    p = run(single(W1 + st + R1 + "   s_endpgm\n"))
    assert "s_delay_alu" not in listing(p)


def test_dependency_across_blocks():
    p = run(program(
        ("logical preds: / linear preds: / kind: top-level,", W1),
        ("logical preds: BB0, / linear preds: BB0, / kind: top-level,", R1 + "   s_endpgm\n")))
    assert f"BB1\n   {da(VALU_DEP[1])}\n{R1}" in listing(p)


def test_encodings_print_as_llvm_names():
    # llvm-mc -mcpu=gfx1100 prints 0x91 as below (and 0x105 likewise)
    assert delay_text(0x91) == "instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)"
    assert delay_text(5 | 2 << 7) == "instid0(TRANS32_DEP_1) | instid1(VALU_DEP_2)"


def test_running_twice_changes_nothing():
    p = single(W1 + R1 + "   v1: v[3] = v_mul_f32 v1: v[2], v1: v[2]\n" + filler(2)
               + "   v1: v[5] = v_add_f32 v1: v[3], v1: v[1]\n   s_endpgm\n")
    run(p)
    once = listing(p)
    run(p)
    assert listing(p) == once

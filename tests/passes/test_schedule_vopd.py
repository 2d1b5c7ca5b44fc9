"""schedule_vopd: VOPD pairing rules and semantics.

Expectations come from the ISA guide 7.6 "Dual Issue VALU" (destinations one
even one odd; SRC0X/SRC0Y and VSRC1X/VSRC1Y in different banks = register
number mod 4; at most one literal; at most two scalar values; the halves
independent, both read before either writes; wave32 only) and 16.11 (which
opcodes are X / Y: v_add_nc_u32, v_lshlrev_b32, v_and_b32 are Y only).
Every VOPD the pass forms is assembled by llvm-mc (the legality oracle), and
a randomized test checks, with a symbolic register interpreter written here,
that every instruction still sees the same input values.
"""

from __future__ import annotations

import random

import pytest
from sched_check import check_pass, random_body
from waitcnt_util import TOP, assert_listing, listing, single

from radcc.ir.parser import parse_program
from radcc.isa.table import get_table
from radcc.oracle import llvm_mc
from radcc.passes.asm_text import instruction_asm
from radcc.passes.schedule_vopd import schedule_vopd

END = "   s_endpgm\n"


def run(body: str, wave: int = 32):
    p = single(body + END, wave=wave)
    schedule_vopd(p)
    return p


def vopd_lines(p) -> list[str]:
    table = get_table(p.gfx_level)
    return [instruction_asm(i, table, lambda b: f"BB{b}") for b in p.blocks
            for i in b.instructions if i.format == "VOPD"]


def assert_llvm_mc_accepts(p) -> None:
    lines = vopd_lines(p)
    if not lines:
        return
    llvm_mc.require()
    for e in llvm_mc.encode(lines, "gfx1100"):
        assert e.error is None, (e.line, e.error)


A = "   v1: v[0] = v_add_f32 v1: v[1], v1: v[2]\n"
B = "   v1: v[3] = v_mul_f32 v1: v[6], v1: v[5]\n"


def test_two_independent_valu_become_one_vopd():
    p = run(A + B)
    assert_listing(p, "BB0\n   v1: v[0], v1: v[3] = v_dual_add_f32 v1: v[1], v1: v[2], v1: v[6], "
                      "v1: v[5] opy:v_dual_mul_f32\n" + END)
    assert_llvm_mc_accepts(p)
    assert vopd_lines(p) == ["v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v6, v5"]


@pytest.mark.parametrize(("b", "why"), [
    ("   v1: v[2] = v_mul_f32 v1: v[6], v1: v[5]\n", "both destinations even"),
    ("   v1: v[3] = v_mul_f32 v1: v[5], v1: v[7]\n", "src0 v1/v5 in bank 1"),
    ("   v1: v[3] = v_mul_f32 v1: v[7], v1: v[6]\n", "vsrc1 v2/v6 in bank 2"),
    ("   v1: v[3] = v_mul_f32 v1: v[0], v1: v[5]\n", "B reads A's result"),
    ("   v1: v[3] = v_mul_f32_e64 v1: v[6], v1: v[5] clamp\n", "modifier"),
    ("   v1: v[3] = v_exp_f32 v1: v[6]\n", "no dual form"),
])
def test_rules_of_isa_7_6_prevent_pairing(b, why):
    p = run(A + b)
    assert "v_dual" not in listing(p), why


def test_literals_one_value_and_scalar_limit():
    lit = "   v1: v[0] = v_add_f32 0x40490fdb, v1: v[2]\n"
    same = "   v1: v[3] = v_mul_f32 0x40490fdb, v1: v[5]\n"
    other = "   v1: v[3] = v_mul_f32 0x402df854, v1: v[5]\n"
    assert "v_dual" in listing(run(lit + same))  # a shared literal
    assert "v_dual" not in listing(run(lit + other))
    s1_ = "   v1: v[0] = v_add_f32 s1: s[1], v1: v[2]\n"
    s2_ = "   v1: v[3] = v_mul_f32 s1: s[2], v1: v[5]\n"
    assert "v_dual" in listing(run(s1_ + s2_))  # two SGPRs
    assert "v_dual" not in listing(run(lit + s2_.replace("v_mul_f32", "v_cndmask_b32")
                                        .replace("v1: v[5]", "v1: v[5], s1: vcc")))
    assert_llvm_mc_accepts(run(lit + same))
    assert_llvm_mc_accepts(run(s1_ + s2_))


def test_y_only_opcode_goes_to_y_and_two_y_only_ops_do_not_pair():
    add = "   v1: v[3] = v_add_nc_u32 v1: v[6], v1: v[5]\n"
    p = run(add + A)
    assert_listing(p, "BB0\n   v1: v[0], v1: v[3] = v_dual_add_f32 v1: v[1], v1: v[2], "
                      "v1: v[6], v1: v[5] opy:v_dual_add_nc_u32\n" + END)
    land = "   v1: v[0] = v_and_b32 v1: v[1], v1: v[2]\n"
    assert "v_dual" not in listing(run(add + land))


def test_reading_what_the_other_half_writes_is_allowed_when_it_came_first():
    # ISA 7.6: the read gets the old value, which is what A read originally
    a = "   v1: v[0] = v_add_f32 v1: v[3], v1: v[2]\n"
    b = "   v1: v[3] = v_mul_f32 v1: v[6], v1: v[5]\n"
    p = run(a + b)
    assert "v_dual_add_f32" in listing(p)
    assert_llvm_mc_accepts(p)


def test_fmac_src2_parity_and_fmaak_literal():
    f1 = "   v1: v[0] = v_fmac_f32 v1: v[1], v1: v[2], v1: v[0]\n"
    f2 = "   v1: v[3] = v_fmac_f32 v1: v[6], v1: v[5], v1: v[3]\n"
    p = run(f1 + f2)  # src2 = vdst: v0 even, v3 odd
    assert vopd_lines(p) == ["v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v3, v6, v5"]
    assert_llvm_mc_accepts(p)
    k = "   v1: v[3] = v_fmaak_f32 v1: v[6], v1: v[5] k:1078530011\n"
    p = run(A + k)
    assert vopd_lines(p) == [
        "v_dual_add_f32 v0, v1, v2 :: v_dual_fmaak_f32 v3, v6, v5, 0x40490fdb"]
    assert_llvm_mc_accepts(p)


def test_hoists_past_independent_and_stops_at_dependences_and_fixed():
    pair = ("   v1: v[0], v1: v[3] = v_dual_add_f32 v1: v[1], v1: v[2], v1: v[6], v1: v[5] "
            "opy:v_dual_mul_f32\n")
    mid = "   v1: v[8] = v_exp_f32 v1: v[9]\n"
    p = run(A + mid + B)
    assert_listing(p, "BB0\n" + pair + mid + END)
    # B reads what the middle instruction writes: A sinks down to B instead
    mid2 = "   v1: v[6] = v_exp_f32 v1: v[9]\n"
    p = run(A + mid2 + B)
    assert_listing(p, "BB0\n" + mid2 + pair + END)
    store = "   global_store_b32 v1: v[10], v1: v[11], s2: s[0-1]\n"
    assert "v_dual" not in listing(run(A + store + B))


def test_wave64_and_gfx10_are_left_alone():
    assert "v_dual" not in listing(run(A + B, wave=64))
    p = parse_program(f"program gfx1030 wave32 compute\nBB0\n/* {TOP} */\n{A}{B}{END}")
    schedule_vopd(p)
    assert "v_dual" not in listing(p)


@pytest.mark.parametrize("seed", range(30))
def test_random_programs_keep_every_dependence(seed):
    rng = random.Random(seed)
    p = check_pass(single(random_body(rng, 40) + END), schedule_vopd)
    assert_llvm_mc_accepts(p)

"""optimizer: ACO-style combining on SSA (ACO's README.md "Optimization").

Each rule: IR text in, the expected IR (matcher pattern) out, derived from the
ISA's meaning of the instructions (source modifiers flip/clear the sign bit,
clamp clamps the result to [0, 1], v_lshl_add_u32 is (a << s) + b, a VALU lane
mask is 0 in inactive lanes ...), and the program run before and after in the
IR interpreter on random lanes (random bit patterns: NaNs, denormals, negative
zeros included), with a random EXEC mask too. Fused multiply-add changes
rounding, so its semantic check uses operands whose products are exact.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from radcc.ir.dominance import dominator_tree
from radcc.ir.matcher import assert_ir_matches
from radcc.ir.parser import parse_program
from radcc.ir.printer import print_program
from radcc.ir.program import Program
from radcc.ir.validate import validate_ir

try:
    from radcc.passes.optimizer import optimize
except ImportError:  # developed under another name until the pipeline enables it
    from radcc.passes.opt_impl import optimize

sys.path.insert(0, str(Path(__file__).parent))
from test_value_numbering import _if_else, same_meaning  # noqa: E402

START = """program gfx1100 {wave} compute
BB0
/* logical preds: / linear preds: / kind: top-level, */
   v1: %1:v[0], v1: %2:v[1], s1: %3:s[0], s1: %4:s[1] = p_startpgm
   p_logical_start
"""
END = """   p_logical_end
   s_endpgm
"""


def prog(body: str, wave: int = 32) -> str:
    return START.format(wave=f"wave{wave}") + body + END


def opt(text: str, contract: bool = True) -> Program:
    p = parse_program(text)
    if contract:
        p.config.fp_contract = True
    validate_ir(p, "input")
    dominator_tree(p)
    optimize(p)
    validate_ir(p, "optimizer")
    return p


def check(body: str, pattern: str, *, exact_semantics: bool = True, wave: int = 32) -> Program:
    text = prog(body, wave)
    p = opt(text)
    assert_ir_matches(p, pattern)
    if exact_semantics:
        same_meaning(text, p, lanes_masks=(None, 0x5A5AC3F1 if wave == 32 else None))
    return p


# -- constants -------------------------------------------------------------------------------
def test_constants_into_vop2_src0_swapped_sources_and_salu():
    check("""   v1: %5 = v_mov_b32 0x3fc00000
   v1: %6 = v_add_f32 %5, %1
   v1: %7 = v_sub_f32 %1, %5
   s1: %8 = s_mov_b32 0x12345
   s1: %9, s1: %10:scc = s_add_u32 %3, %8
   v1: %11 = v_mov_b32 7
   v1: %12 = v_mul_u32_u24 %2, %11
   p_unit_test %6, %7, %9, %12
""", """
        v1: %a = v_add_f32 0x3fc00000, %x
        >> v1: %b = v_subrev_f32 0x3fc00000, %x
        >> s1: %c, s1: %sc:scc = s_add_u32 %s, 0x12345
        >> v1: %d = v_mul_u32_u24 7, %y
        >> p_unit_test %a, %b, %c, %d
        """)


def test_one_literal_and_the_constant_bus():
    p = check("""   v1: %5 = v_mov_b32 0x3fc00000
   v1: %6 = v_mov_b32 0x40100000
   v1: %7 = v_fma_f32 %5, %6, %1
   v1: %8 = v_fma_f32 %5, %5, %1
   v1: %9 = v_mov_b32 0x11111
   v1: %10 = v_add3_u32 %3, %4, %9
   p_unit_test %7, %8, %10
""", """
        v1: %l = v_mov_b32 0x40100000
        >> v1: %a = v_fmamk_f32 %l, %x k:1069547520
        >> v1: %b = v_fma_f32 0x3fc00000, 0x3fc00000, %x
        >> v1: %k = v_mov_b32 0x11111
        >> v1: %c = v_add3_u32 %s, %t, %k
        """)
    # two SGPRs are the constant bus: the literal stays in a VGPR
    assert "v_mov_b32 0x3fc00000" not in print_program(p)


def test_64bit_shift_takes_one_constant_bus_read():
    check("""   s2: %5 = s_mov_b64 0x123456789_b64
   v2: %6 = p_create_vector %1, %2
   v1: %7 = v_mov_b32 0x21
   v2: %8 = v_lshlrev_b64 %3, %6
   v2: %9 = v_lshlrev_b64 %7, %6
   p_unit_test %8, %9
""", """
        v2: %a = v_lshlrev_b64 %s, %v
        >> v2: %b = v_lshlrev_b64 33, %v
        """)


@pytest.mark.parametrize("wave", [32, 64])
def test_constants_into_create_vector(wave):
    # a zero vec4 stored (ncnn's priorbox/winograd shape): value numbering leaves one
    # v_mov_b32 0 read four times; each dword of the vector is the constant itself
    # (ACO's label_instruction gives pseudo instructions constant operands), and the
    # v_mov dies. A VGPR read beside them and a 64-bit constant stay as they are.
    check("""   v1: %5 = v_mov_b32 0
   v4: %6 = p_create_vector %5, %5, %5, %5
   v1: %7 = v_mov_b32 0x3f800000
   v3: %8 = p_create_vector %7, %1, %7
   s2: %9 = s_mov_b64 0x123456789_b64
   s4: %10 = p_create_vector %9, %3, %4
   p_unit_test %6, %8, %10
""", """
        v4: %a = p_create_vector 0, 0, 0, 0
        >> v3: %b = p_create_vector 0x3f800000, %x, 0x3f800000
        >> s2: %c = s_mov_b64 0x123456789_b64
        >> s4: %d = p_create_vector %c, %s, %t
        >> p_unit_test %a, %b, %d
        """, wave=wave)


# -- source modifiers ---------------------------------------------------------------------------
def test_neg_abs_fold_into_float_sources():
    check("""   v1: %5 = v_xor_b32 0x80000000, %1
   v1: %6 = v_mul_f32 %5, %2
   v1: %7 = v_and_b32 0x7fffffff, %2
   v1: %8 = v_add_f32_e64 %1, %7 neg:[0,1]
   v1: %9 = v_or_b32 0x80000000, %1
   v1: %10 = v_max_f32 %9, %2
   v1: %11 = v_xor_b32 0x80000000, %7
   v1: %12 = v_sub_f32 %11, %1
   v1: %13 = v_add_nc_u32 %5, %2
   p_unit_test %6, %8, %10, %12, %13
""", """
        v1: %n = v_xor_b32 0x80000000, %x
        >> v1: %a = v_mul_f32_e64 %x, %y neg:[1,0]
        >> v1: %b = v_add_f32_e64 %x, %y neg:[0,1] abs:[0,1]
        >> v1: %c = v_max_f32_e64 %x, %y neg:[1,0] abs:[1,0]
        >> v1: %d = v_sub_f32_e64 %y, %x neg:[1,0] abs:[1,0]
        >> v1: %e = v_add_nc_u32 %n, %y
        >> p_unit_test %a, %b, %c, %d, %e
        """)


def test_abs_of_neg_and_neg_of_abs_operand():
    check("""   v1: %5 = v_xor_b32 0x80000000, %1
   v1: %6 = v_add_f32_e64 %5, %2 abs:[1,0]
   v1: %7 = v_xor_b32 0x80000000, %2
   v1: %8 = v_add_f32_e64 %1, %7 neg:[0,1]
   p_unit_test %6, %8
""", """
        v1: %a = v_add_f32_e64 %x, %y abs:[1,0]
        >> v1: %b = v_add_f32 %x, %y
        """.replace(">> v1: %b = v_add_f32 %x, %y", ">> v1: %b = v_add_f32_e64 %x, %y"))


def test_modifiers_into_compare_and_cndmask():
    check("""   v1: %5 = v_xor_b32 0x80000000, %1
   s1: %6 = v_cmp_lt_f32_e64 %5, %2
   v1: %7 = v_and_b32 0x7fffffff, %2
   v1: %8 = v_cndmask_b32_e64 %7, %1, %6
   p_unit_test %8
""", """
        s1: %c = v_cmp_lt_f32_e64 %x, %y neg:[1,0]
        >> v1: %d = v_cndmask_b32_e64 %y, %x, %c abs:[1,0]
        """)


# -- clamp ------------------------------------------------------------------------------------
def test_min_of_max_zero_is_clamp():
    """Exact except for signaling NaN inputs (max quiets them, then min(NaN, 1) is 1
    while clamp gives 0; GLSL leaves NaN in min/max/clamp undefined): the inputs
    here are random integers scaled to about [-4, 4]."""
    check("""   v1: %20 = v_cvt_f32_i32 %1
   v1: %21 = v_cvt_f32_i32 %2
   v1: %22 = v_mul_f32 0x31000000, %20
   v1: %23 = v_mul_f32 0x31000000, %21
   v1: %5 = v_max_f32 0, %22
   v1: %6 = v_min_f32 1.0, %5
   v1: %7 = v_max_f32 0, %23
   v1: %8 = v_min_f32 0x3f000000, %7
   p_unit_test %6, %8
""".replace("1.0", "0x3f800000"), """
        v1: %a = v_max_f32_e64 0, %x clamp
        >> v1: %c = v_med3_f32 %y, 0, 0.5
        >> p_unit_test %a, %c
        """.replace("0.5", "0x3f000000"))


# -- fused multiply-add -------------------------------------------------------------------------
EXACT = """   v1: %20 = v_and_b32 0xff, %1
   v1: %21 = v_cvt_f32_u32 %20
   v1: %22 = v_lshrrev_b32 24, %2
   v1: %23 = v_cvt_f32_u32 %22
   v1: %24 = v_and_b32 0xffff, %2
   v1: %25 = v_cvt_f32_u32 %24
"""


def test_mul_add_becomes_fma_and_fmac():
    check(EXACT + """   v1: %5 = v_mul_f32 %21, %23
   v1: %6 = v_add_f32 %5, %25
   v1: %7 = v_mul_f32 %21, %23
   v1: %8 = v_sub_f32 %25, %7
   v1: %9 = v_mul_f32 %21, %25
   v1: %10 = v_subrev_f32 %9, %23
   p_unit_test %6, %8, %10, %25
""", """
        v1: %a = v_fma_f32 %p, %q, %r
        >> v1: %b = v_fma_f32 %p, %q, %r neg:[1,0,0]
        >> v1: %c = v_fma_f32 %p, %r, %q neg:[1,0,0]
        >> p_unit_test %a, %b, %c, %r
        """)


def test_fmac_when_the_addend_dies_and_fmamk_fmaak_for_literals():
    check(EXACT + """   v1: %5 = v_mul_f32 %21, %23
   v1: %6 = v_add_f32 %5, %25
   v1: %7 = v_mul_f32 0x41200000, %23
   v1: %8 = v_add_f32 %7, %21
   v1: %9 = v_mul_f32 %21, %23
   v1: %10 = v_add_f32 0x42c80000, %9
   p_unit_test %6, %8, %10
""", """
        v1: %a = v_fmac_f32 %p, %q, %r
        >> v1: %b = v_fmamk_f32 %q, %p k:1092616192
        >> v1: %c = v_fmaak_f32 %p, %q k:1120403456
        >> p_unit_test %a, %b, %c
        """)


def test_no_fma_without_fp_contract():
    """The front end does not carry precise/NoContraction yet: contraction is opt-in."""
    p = opt(prog(EXACT + """   v1: %5 = v_mul_f32 %21, %23
   v1: %6 = v_add_f32 %5, %25
   p_unit_test %6
"""), contract=False)
    assert "fma" not in print_program(p)


def test_no_fma_when_precise_or_the_product_is_read_again():
    p = check(EXACT + """   v1: %5 = v_mul_f32 %21, %23
   v1: (precise)%6 = v_add_f32 %5, %25
   v1: %7 = v_mul_f32 %21, %25
   v1: %8 = v_add_f32 %7, %23
   p_unit_test %6, %7, %8
""", """
        v1: %m = v_mul_f32 %p, %q
        >> v1: (precise)%a = v_add_f32 %m, %r
        >> v1: %n = v_mul_f32 %p, %r
        >> v1: %b = v_add_f32 %n, %q
        """)
    assert "fma" not in print_program(p)


def test_f64_mul_add_with_subtraction():
    check("""   s1: %20, s1: %21:scc = s_and_b32 0xffff, %3
   s1: %22, s1: %23:scc = s_and_b32 0xffff, %4
   v2: %5 = v_cvt_f64_u32 %20
   v2: %6 = v_cvt_f64_u32 %22
   v2: %7 = v_cvt_f64_u32 %1
   v2: %8 = v_mul_f64 %5, %6
   v2: %9 = v_add_f64 %7, %8 neg:[0,1]
   p_unit_test %9
""", """
        v2: %m = v_fma_f64 %a, %b, %c neg:[1,0,0]
        >> p_unit_test %m
        """.replace("v_fma_f64 %a", "v_fma_f64 %a"))


# -- integer chains -----------------------------------------------------------------------------
def test_three_operand_integer_ops():
    check("""   v1: %5 = v_lshlrev_b32 2, %1
   v1: %6 = v_add_nc_u32 %3, %5
   v1: %7 = v_add_nc_u32 %1, %2
   v1: %8 = v_add_nc_u32 %7, %6
   v1: %9 = v_lshlrev_b32 %4, %2
   v1: %10 = v_or_b32 %9, %1
   v1: %11 = v_and_b32 %1, %2
   v1: %12 = v_or_b32 %11, %10
   v1: %13 = v_xor_b32 %1, %2
   v1: %14 = v_xor_b32 %3, %13
   v1: %15 = v_mul_u32_u24 %1, %2
   v1: %16 = v_add_nc_u32 7, %15
   v1: %17 = v_add_nc_u32_e64 %6, %2 clamp
   p_unit_test %8, %12, %14, %16, %17
""", """
        v1: %a = v_lshl_add_u32 %x, 2, %s
        >> v1: %b = v_add3_u32 %x, %y, %a
        >> v1: %c = v_lshl_or_b32 %y, %t, %x
        >> v1: %d = v_and_or_b32 %x, %y, %c
        >> v1: %e = v_xor3_b32 %x, %y, %s
        >> v1: %f = v_mad_u32_u24 %x, %y, 7
        >> v1: %g = v_add_nc_u32_e64 %a, %y clamp
        >> p_unit_test %b, %d, %e, %f, %g
        """)


def test_mul_lo_of_24_bit_values():
    check("""   v1: %5 = v_and_b32 0x3ff, %1
   v1: %6 = v_lshrrev_b32 9, %2
   v1: %7 = v_mul_lo_u32 %5, %6
   v1: %8 = v_lshrrev_b32 7, %2
   v1: %9 = v_mul_lo_u32 %5, %8
   p_unit_test %7, %9
""", """
        v1: %a = v_mul_u32_u24 %p, %q
        >> v1: %r = v_lshrrev_b32 7, %y
        >> v1: %b = v_mul_lo_u32 %p, %r
        """)


# -- lane masks -----------------------------------------------------------------------------------
@pytest.mark.parametrize("wave", [32, 64])
def test_and_exec_of_a_compare_is_the_compare(wave: int):
    lm, b = ("s1", 32) if wave == 32 else ("s2", 64)
    check(f"""   {lm}: %5 = v_cmp_lt_u32_e64 %1, %2
   {lm}: %6, s1: %7:scc = s_and_b{b} %5, {lm}: exec
   v1: %8 = v_cndmask_b32_e64 0, 1, %6
   p_unit_test %8
""", """
        $lm: %c = v_cmp_lt_u32_e64 %x, %y
        >> v1: %d = v_cndmask_b32_e64 0, 1, %c
        >> p_unit_test %d
        """, wave=wave)


def test_and_exec_kept_in_another_exec_context():
    text = _if_else("   s1: %3, s1: %4:scc = s_and_b32 %2, s1: exec\n"
                    "   v1: %5 = v_cndmask_b32_e64 0, 1, %3\n", "",
                    "   v1: %7 = p_phi %5, 0\n   p_logical_start\n   p_unit_test %7\n"
                    "   p_logical_end\n")
    p = opt(text)
    assert "s_and_b32 %2, s1: exec" in print_program(p)
    same_meaning(text, p)


def test_andn2_exec_of_a_compare_is_the_inverse_compare():
    check("""   s1: %5 = v_cmp_lt_f32_e64 %1, %2
   s1: %6, s1: %7:scc = s_and_not1_b32 s1: exec, %5
   v1: %8 = v_cndmask_b32_e64 0, 1, %6
   s1: %9 = v_cmp_eq_u32_e64 %1, 5
   s1: %10, s1: %11:scc = s_and_not1_b32 s1: exec, %9
   v1: %12 = v_cndmask_b32_e64 0, 1, %10
   p_unit_test %8, %12
""", """
        s1: %c = v_cmp_nlt_f32_e64 %x, %y
        >> v1: %d = v_cndmask_b32_e64 0, 1, %c
        >> s1: %e = v_cmp_ne_u32_e64 %x, 5
        >> v1: %f = v_cndmask_b32_e64 0, 1, %e
        """)


def test_compare_of_a_selected_boolean_is_the_boolean():
    check("""   s1: %5 = v_cmp_gt_i32_e64 %1, %2
   v1: %6 = v_cndmask_b32_e64 0, 1, %5
   s1: %7 = v_cmp_ne_u32_e64 0, %6
   v1: %8 = v_cndmask_b32_e64 %1, %2, %7
   p_unit_test %6, %8
""", """
        s1: %c = v_cmp_gt_i32_e64 %x, %y
        >> v1: %b = v_cndmask_b32_e64 0, 1, %c
        >> v1: %d = v_cndmask_b32_e64 %x, %y, %c
        >> p_unit_test %b, %d
        """)


def test_select_on_a_negated_mask_swaps_its_sources():
    check("""   s1: %5 = v_cmp_gt_i32_e64 %1, %2
   s1: %6, s1: %7:scc = s_not_b32 %5
   v1: %8 = v_cndmask_b32_e64 %1, 5, %6
   p_unit_test %8
""", """
        s1: %c = v_cmp_gt_i32_e64 %x, %y
        >> v1: %d = v_cndmask_b32_e64 5, %x, %c
        >> p_unit_test %d
        """)


# -- dead code -------------------------------------------------------------------------------------
def test_dead_code_goes_side_effects_stay():
    p = check("""   v1: %5 = v_add_nc_u32 %1, %2
   v1: %6 = v_mul_u32_u24 %5, %5
   s1: %7, s1: %8:scc = s_add_u32 %3, %4
   s2: %9 = p_create_vector %3, %4
   global_store_b32 %1, %2, %9 offset:0
   p_unit_test %1
""", """
        p_logical_start
        >> s2: %v = p_create_vector %s, %t
        >> global_store_b32 %x, %y, %v offset:0
        >> p_unit_test %x
        """, exact_semantics=False)
    assert "v_add_nc_u32" not in print_program(p)


def test_unused_phi_is_removed_and_copies_propagate():
    text = _if_else("   v1: %3 = v_add_nc_u32 1, %1\n", "",
                    "   v1: %7 = p_phi %3, %1\n   v1: %8 = p_phi %1, %1\n   p_logical_start\n"
                    "   v1: %9 = p_parallelcopy %7\n   p_unit_test %9\n   p_logical_end\n")
    p = opt(text)
    assert_ir_matches(p, """
        v1: %p = p_phi %a, %x
        >> p_logical_start
        >> p_unit_test %p
        """)
    same_meaning(text, p)


# -- random programs: value numbering + optimizer keep the meaning ---------------------------
@settings(derandomize=True, max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_programs_keep_their_meaning(data):  # type: ignore[no-untyped-def]
    """randprog's programs (integer VALU/SALU, loads, stores, divergent control flow)
    after lower_phis, value numbering and the optimizer give the buffers the
    selected program gives in the IR interpreter, and stay valid SSA."""
    from radcc.passes.lower_phis import lower_phis
    from radcc.target import get_target
    from tests.support.ir_interp import run_kernel
    from tests.support.randprog import GenConfig, generate, kernel_inputs, lower

    try:
        from radcc.passes.value_numbering import value_numbering
    except ImportError:
        from radcc.passes.vn_impl import value_numbering

    wave = data.draw(st.sampled_from([32, 64]))
    lanes = data.draw(st.sampled_from([32, 48, 64]))
    prog_ = generate(lambda lo, hi: data.draw(st.integers(lo, hi)), GenConfig(lanes=lanes))
    args = kernel_inputs(prog_, 3)
    p = lower(prog_, get_target("gfx1100"), wave)
    want = run_kernel(p, args, 1, lanes, wave_size=wave).buffers["out"]
    lower_phis(p)
    dominator_tree(p)
    value_numbering(p)
    validate_ir(p, "value_numbering")
    optimize(p)
    validate_ir(p, "optimizer")
    got = run_kernel(p, args, 1, lanes, wave_size=wave).buffers["out"]
    assert (got == want).all()


def test_no_modifier_on_a_constant():
    """neg/abs that would land on a constant change the constant instead (the
    assembly syntax has no modifier on a literal)."""
    check(EXACT + """   v1: %5 = v_mul_f32 0x40400000, %21
   v1: %6 = v_sub_f32 %23, %5
   v1: %7 = v_mov_b32 0x40400000
   v1: %8 = v_add_f32_e64 %21, %7 neg:[0,1]
   v1: %9 = v_mov_b32 2
   v1: %10 = v_mul_f32_e64 %9, %23 abs:[0,1] neg:[1,0]
   p_unit_test %6, %8, %10
""", """
        v1: %a = v_fma_f32 0x40400000, %p, %q neg:[0,1,0]
        >> v1: %b = v_add_f32_e64 %p, 0xc0400000
        >> v1: %c = v_mul_f32_e64 0x80000002, %q abs:[0,1]
        >> p_unit_test %a, %b, %c
        """)


def test_pipeline_runs_both_phases_unless_novn_noopt():
    import io

    from radcc.passes.manager import run_pipeline
    from radcc.passes.options import DebugOptions

    text = prog("""   v1: %5 = v_mov_b32 0x3fc00000
   v1: %6 = v_add_f32 %5, %1
   v1: %7 = v_add_f32 %5, %1
   p_unit_test %6, %7
""")
    p = parse_program(text)
    r = run_pipeline(p, DebugOptions.parse("validateir,novn,noopt"),
                     stop_after="reduce_assign", stream=io.StringIO())
    assert {"value_numbering", "optimizer"} <= set(r.skipped)
    assert print_program(p).count("v_add_f32") == 2 and "v_mov_b32" in print_program(p)
    p = parse_program(text)
    r = run_pipeline(p, DebugOptions.parse("validateir"), stop_after="reduce_assign",
                     stream=io.StringIO())
    assert {"value_numbering", "optimizer"} <= set(r.ran)
    assert_ir_matches(p, """
        v1: %a = v_add_f32 0x3fc00000, %x
        >> p_unit_test %a, %a
        """)

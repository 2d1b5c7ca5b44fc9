"""optimizer: 16-bit ``v_min_i16/u16(v_max_i16/u16(x, lo), hi)`` with constants
``lo < hi`` (compared as 16-bit values of the instruction's signedness) is
``v_med3_i16/u16`` (ACO's clamp and sign(x) of int16_t: ``v_med3_i16 x, -1, 1``).
Exact by the ISA pseudocode (RDNA3 guide, V_MED3_I16: the median; min/max read
the low halves); run before and after in the IR interpreter on random bit patterns."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from test_optimizer import check  # noqa: E402


def test_16bit_min_of_max_with_constants_is_med3():
    check("""   v1: %5 = v_max_i16 0xffff, %1
   v1: %6 = v_min_i16 1, %5
   v1: %7 = v_max_i16 0xffec, %2
   v1: %8 = v_min_i16 20, %7
   v1: %9 = v_max_u16 16, %2
   v1: %10 = v_min_u16 0xfff0, %9
   p_unit_test %6, %8, %10
""", """
        v1: %a = v_med3_i16 %x, 0xffff, 1
        >> v1: %b = v_med3_i16 %y, 0xffec, 20
        >> v1: %c = v_med3_u16 %y, 16, 0xfff0
        >> p_unit_test %a, %b, %c
        """)


def test_16bit_bounds_compare_as_16bit_values():
    """Signed: 0x8000 (-32768) < 5 gives med3; 5 > 0xffff (-1) and unsigned 0xffff > 5
    keep the min/max pair (min(max(x, lo), hi) with lo > hi is the constant hi)."""
    check("""   v1: %5 = v_max_i16 0x8000, %1
   v1: %6 = v_min_i16 5, %5
   v1: %7 = v_max_i16 5, %1
   v1: %8 = v_min_i16 0xffff, %7
   v1: %9 = v_max_u16 0xffff, %2
   v1: %10 = v_min_u16 5, %9
   p_unit_test %6, %8, %10
""", """
        v1: %a = v_med3_i16 %x, 0x8000, 5
        >> v1: %b = v_max_i16 5, %x
        >> v1: %c = v_min_i16 0xffff, %b
        >> v1: %d = v_max_u16 0xffff, %y
        >> v1: %e = v_min_u16 5, %d
        >> p_unit_test %a, %c, %e
        """)


# -- uniform values kept in VGPRs (ACO: uniform VALU results stay VGPRs) ----------------------
def test_valu_reads_a_uniform_vgpr_instead_of_its_readfirstlane():
    """%5 is computed from SGPRs by a VALU (the same in every active lane), so the
    v_readfirstlane_b32 (p_as_uniform) and the copy back to a VGPR go: the add and
    the copy read %5 itself; the SALU reader keeps the SGPR."""
    check("""   v1: %5 = v_mul_f32_e64 %3, %4
   s1: %6 = p_as_uniform %5
   v1: %7 = v_add_f32 %6, %1
   v1: %8 = p_parallelcopy %6
   v1: %9 = v_fma_f32 %6, %6, %2
   s1: %10, s1: %11:scc = s_add_u32 %6, 1
   p_unit_test %7, %8, %9, %10
""", """
        v1: %m = v_mul_f32_e64 %s, %t
        >> s1: %u = p_as_uniform %m
        >> v1: %a = v_add_f32 %m, %x
        >> v1: %c = v_fmac_f32 %m, %m, %y
        >> s1: %d, s1: %sc:scc = s_add_u32 %u, 1
        >> p_unit_test %a, %m, %c, %d
        """)


def test_valu_reads_a_uniform_load_instead_of_its_readfirstlane():
    """An LDS or global load from one address in every active lane (a constant VGPR, an
    SGPR base) is the same value in every lane (NIR's divergence analysis calls it
    uniform): its VGPR readers and copies read the load, not v_readfirstlane_b32 and a
    v_mov back (ncnn's reductions storing shared[0]); a load from a per-lane address
    keeps its first-lane read."""
    check("""   v1: %5 = v_mov_b32 0
   v1: %6 = ds_load_b32 %5 offset:8
   s1: %7 = p_as_uniform %6
   v1: %8 = p_parallelcopy %7
   v1: %9 = v_add_nc_u32 %7, %1
   s2: %12 = p_create_vector %3, %4
   v1: %10 = global_load_b32 %5, %12 offset:4
   s1: %11 = p_as_uniform %10
   v1: %13 = v_add_nc_u32 %11, %2
   v1: %14 = ds_load_b32 %1 offset:0
   s1: %15 = p_as_uniform %14
   v1: %16 = p_parallelcopy %15
   p_unit_test %8, %9, %13, %16
""", """
        v1: %z = v_mov_b32 0
        >> v1: %l = ds_load_b32 %z offset:8
        >> v1: %a = v_add_nc_u32 %l, %x
        >> s2: %p = p_create_vector %s, %t
        >> v1: %g = global_load_b32 %z, %p offset:4
        >> v1: %b = v_add_nc_u32 %g, %y
        >> v1: %d = ds_load_b32 %x offset:0
        >> s1: %u = p_as_uniform %d
        >> v1: %c = p_parallelcopy %u
        >> p_unit_test %l, %a, %b, %c
        """, exact_semantics=False)


def test_first_lane_reads_of_lane_dependent_values_stay():
    """p_as_uniform of a lane-dependent VGPR (a work-item id, a v_cndmask of a lane
    mask, a DPP read) is the first active lane's value (readFirstInvocation): kept."""
    check("""   v1: %5 = v_add_nc_u32 %3, %1
   s1: %6 = p_as_uniform %5
   s1: %7 = v_cmp_lt_u32_e64 %1, %2
   v1: %8 = v_cndmask_b32_e64 0, %3, %7
   s1: %9 = p_as_uniform %8
   v1: %10 = v_add_nc_u32 %6, %2
   v1: %11 = v_add_nc_u32 %9, %2
   p_unit_test %10, %11
""", """
        v1: %a = v_add_nc_u32 %s, %x
        >> s1: %b = p_as_uniform %a
        >> s1: %c = v_cmp_lt_u32_e64 %x, %y
        >> v1: %d = v_cndmask_b32_e64 0, %s, %c
        >> s1: %e = p_as_uniform %d
        >> v1: %f = v_add_nc_u32 %b, %y
        >> v1: %g = v_add_nc_u32 %e, %y
        >> p_unit_test %f, %g
        """)


# -- multiply by 2^k + 1 ---------------------------------------------------------------------
def test_mul_by_two_to_the_k_plus_one_is_shift_add():
    """x * 3, x * 9, x * 0x80000001 (VGPR or SGPR x): v_lshl_add_u32 x, k, x (ACO's
    v_mul_imm); x * 7, x * 2^k + 1 of 24-bit operands (v_mul_u32_u24) stay."""
    check("""   v1: %5 = v_mul_lo_u32 %1, 3
   v1: %6 = v_mul_lo_u32 9, %3
   v1: %7 = v_mul_lo_u32 %2, 0x80000001
   v1: %8 = v_mul_lo_u32 %1, 7
   v1: %9 = v_and_b32 0xffff, %2
   v1: %10 = v_mul_lo_u32 %9, 5
   p_unit_test %5, %6, %7, %8, %10
""", """
        v1: %a = v_lshl_add_u32 %x, 1, %x
        >> v1: %b = v_lshl_add_u32 %s, 3, %s
        >> v1: %c = v_lshl_add_u32 %y, 31, %y
        >> v1: %d = v_mul_lo_u32 %x, 7
        >> v1: %e = v_and_b32 0xffff, %y
        >> v1: %f = v_mul_u32_u24 5, %e
        >> p_unit_test %a, %b, %c, %d, %f
        """)


# -- (a + b) << k ------------------------------------------------------------------------------
def test_shift_of_a_single_use_add_is_add_lshl():
    """v_lshlrev_b32 k, v_add_nc_u32(a, b) is v_add_lshl_u32 a, b, k (ACO's
    combine_three_valu_op for v_lshlrev_b32, GFX9+: an SGPR and a VGPR added, ncnn's
    ``(gz * cstep + gx) * 4`` byte offsets); an add read twice stays."""
    check("""   v1: %5 = v_add_nc_u32 %3, %1
   v1: %6 = v_lshlrev_b32 2, %5
   v1: %7 = v_add_nc_u32 %1, %2
   v1: %8 = v_lshlrev_b32 %3, %7
   v1: %9 = v_add_nc_u32 5, %2
   v1: %10 = v_lshlrev_b32 4, %9
   v1: %11 = v_xor_b32 %9, %10
   p_unit_test %6, %8, %11
""", """
        v1: %a = v_add_lshl_u32 %s, %x, 2
        >> v1: %b = v_add_lshl_u32 %x, %y, %s
        >> v1: %c = v_add_nc_u32 5, %y
        >> v1: %d = v_lshlrev_b32 4, %c
        >> v1: %e = v_xor_b32 %c, %d
        >> p_unit_test %a, %b, %e
        """)

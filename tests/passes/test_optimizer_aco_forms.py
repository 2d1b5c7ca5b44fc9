"""optimizer rules giving ACO's forms: ``v_min(v_max(x, lo), hi)`` with constants
lo < hi is ``v_med3`` (f32, i32, u32; ACO's combine_clamp), and sign-bit masks of
f16 sources become neg/abs modifiers. Expected shapes from the ISA's meaning (RDNA3
guide, V_MED3_*: the median, min3 when an input is NaN; 16-bit VOP3 modifiers act
on bit 15); the program run before and after in the IR interpreter on random bit
patterns (NaNs of both kinds, infinities, zeros of both signs included)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from test_optimizer import check  # noqa: E402


def test_min_of_max_with_constants_is_med3():
    check("""   v1: %5 = v_max_f32 0xbf800000, %1
   v1: %6 = v_min_f32 0x3f800000, %5
   v1: %7 = v_max_f32 0x40800000, %2
   v1: %8 = v_min_f32 0x40a00000, %7
   p_unit_test %6, %8
""", """
        v1: %a = v_med3_f32 %x, 0xbf800000, 0x3f800000
        >> v1: %b = v_med3_f32 %y, 0x40800000, 0x40a00000
        >> p_unit_test %a, %b
        """)


def test_two_literals_do_not_fit_one_med3():
    """One literal per VOP3 (GFX11): with two different literal bounds nothing changes."""
    check("""   v1: %6 = v_max_f32 0xc0200000, %1
   v1: %7 = v_min_f32 0x40500000, %6
   p_unit_test %7
""", """
        v1: %a = v_max_f32 0xc0200000, %x
        >> v1: %b = v_min_f32 0x40500000, %a
        >> p_unit_test %b
        """)


def test_no_med3_when_bounds_are_not_ordered_or_max_is_read_again():
    """lo >= hi, max(min(..)) (differs for NaN), and a max read elsewhere stay."""
    check("""   v1: %5 = v_max_f32 0x3f800000, %1
   v1: %6 = v_min_f32 0xbf800000, %5
   v1: %7 = v_min_f32 0x3f800000, %2
   v1: %8 = v_max_f32 0xbf800000, %7
   v1: %9 = v_max_f32 0xbf800000, %1
   v1: %10 = v_min_f32 0x3f800000, %9
   p_unit_test %6, %8, %9, %10
""", """
        v1: %a = v_max_f32 0x3f800000, %x
        >> v1: %b = v_min_f32 0xbf800000, %a
        >> v1: %c = v_min_f32 0x3f800000, %y
        >> v1: %d = v_max_f32 0xbf800000, %c
        >> v1: %e = v_max_f32 0xbf800000, %x
        >> v1: %f = v_min_f32 0x3f800000, %e
        >> p_unit_test %b, %d, %e, %f
        """)


def test_integer_min_of_max_is_med3():
    """v_min_i32(v_max_i32(x, -1), 1) is sign(x) as ACO's v_med3_i32; unsigned too;
    lo >= hi (signed: 5 > -1) stays."""
    check("""   v1: %5 = v_max_i32 -1, %1
   v1: %6 = v_min_i32 1, %5
   v1: %7 = v_max_u32 16, %2
   v1: %8 = v_min_u32 0x12345, %7
   v1: %9 = v_max_i32 5, %1
   v1: %10 = v_min_i32 -1, %9
   p_unit_test %6, %8, %10
""", """
        v1: %a = v_med3_i32 %x, -1, 1
        >> v1: %b = v_med3_u32 %y, 16, 0x12345
        >> v1: %c = v_max_i32 5, %x
        >> v1: %d = v_min_i32 -1, %c
        >> p_unit_test %a, %b, %d
        """)


def test_f16_sign_bit_masks_become_modifiers():
    """An f16 source reads bits 0-15: and 0x7fff / xor 0x8000 / or 0x8000 of it are
    abs / neg / -abs (ISA: 16-bit VOP3 neg/abs act on bit 15); the 32-bit masks are
    not the f16 sign and stay."""
    check("""   v1: %5 = v_and_b32 0x7fff, %1
   v1: %6 = v_mul_f16 %5, %2
   v1: %7 = v_xor_b32 0x8000, %2
   v1: %8 = v_add_f16 %1, %7
   v1: %9 = v_or_b32 0x8000, %1
   v1: %10 = v_cvt_f32_f16 %9
   v1: %11 = v_and_b32 0x7fffffff, %1
   v1: %12 = v_mul_f16 %11, %2
   p_unit_test %6, %8, %10, %12
""", """
        v1: %a = v_mul_f16_e64 %x, %y abs:[1,0]
        >> v1: %b = v_add_f16_e64 %x, %y neg:[0,1]
        >> v1: %c = v_cvt_f32_f16_e64 %x neg:[1] abs:[1]
        >> v1: %m = v_and_b32 0x7fffffff, %x
        >> v1: %d = v_mul_f16 %m, %y
        >> p_unit_test %a, %b, %c, %d
        """)

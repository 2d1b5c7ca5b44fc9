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

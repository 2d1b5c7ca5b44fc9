"""16-bit integer min/max/med3 as isel and the optimizer now select them
(v_min_i16, v_max_i16, v_min_u16, v_max_u16, v_med3_i16, v_med3_u16) vs the ISA
guide's pseudocode (RDNA3 §16.12 VOP3): ``D0.i16 = S0.i16 < S1.i16 ? S0.i16 :
S1.i16``, ``max`` with ``>=``, ``med3`` through max3/max. Only the low half of each
source is read; the result is the low half (high half unchanged: not checked)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

try:
    from .test_valu_ref import run
except ImportError:  # tests/emu not a package
    from test_valu_ref import run


def sx(v: int) -> int:
    v &= 0xFFFF
    return v - 0x10000 if v >> 15 else v


def _max3(a: int, b: int, c: int) -> int:
    return max(max(a, b), c)


def _med3(a: int, b: int, c: int) -> int:
    """The guide's V_MED3 pseudocode, literally."""
    m = _max3(a, b, c)
    if m == a:
        return max(b, c)
    if m == b:
        return max(a, c)
    return max(a, b)


EDGE = [0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0xFFFE, 20, 0xFFEC]
u32s = st.integers(0, 0xFFFFFFFF)


@given(u32s, u32s, u32s)
@settings(max_examples=150)
def test_16bit_min_max_med3(a: int, b: int, c: int) -> None:
    x, y, z = a & 0xFFFF, b & 0xFFFF, c & 0xFFFF
    refs = {
        "v_min_i16": ((x, y), (x if sx(x) < sx(y) else y)),
        "v_max_i16": ((x, y), (x if sx(x) >= sx(y) else y)),
        "v_min_u16": ((x, y), (x if x < y else y)),
        "v_max_u16": ((x, y), (x if x >= y else y)),
        "v_med3_i16": ((x, y, z), _med3(sx(x), sx(y), sx(z)) & 0xFFFF),
        "v_med3_u16": ((x, y, z), _med3(x, y, z)),
    }
    srcs = {2: (a, b), 3: (a, b, c)}
    for name, (ops, want) in refs.items():
        r = run(name, *srcs[len(ops)])
        assert int(r.d[0]) & 0xFFFF == want, name


def test_16bit_min_max_med3_edges() -> None:
    for x in EDGE:
        for y in EDGE:
            hi = 0xABCD0000  # high halves must not matter
            assert int(run("v_min_i16", x | hi, y).d[0]) & 0xFFFF == \
                (x if sx(x) < sx(y) else y)
            assert int(run("v_max_u16", x, y | hi).d[0]) & 0xFFFF == max(x, y)
            for z in (0xFFFF, 1, 0x8000):
                got = int(run("v_med3_i16", x, y | hi, z).d[0]) & 0xFFFF
                assert got == sorted([sx(x), sx(y), sx(z)])[1] & 0xFFFF

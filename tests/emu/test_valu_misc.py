"""VALU compares, conversions, transcendental ops, packed math and the
library's contract (ISA guide §7.5, §16.8-16.12)."""

from __future__ import annotations

import math
import operator
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.emu.valu import ACC_OPS, DEFAULT_MODE, ValuMods, execute_valu, supported_ops
from radcc.isa.table import get_table
from radcc.target import GfxLevel

try:
    from .test_valu_ref import b2f, d, f2b, is_nan_b, ref_round, run, special_bits
except ImportError:  # tests/emu not a package
    from test_valu_ref import b2f, d, f2b, is_nan_b, ref_round, run, special_bits

M32 = 0xFFFFFFFF
NOT_VALU_LIB = {  # register-file / cross-lane ops owned by the emulator core
    "v_nop", "v_pipeflush", "v_clrexcp", "v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32",
    "v_permlane16_b32", "v_permlanex16_b32", "v_permlane64_b32", "v_swap_b32", "v_swap_b16",
    "v_swaprel_b32", "v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32",
}


# --- contract ------------------------------------------------------------------------



def _valu_table(gfx: GfxLevel = GfxLevel.GFX11) -> dict:
    """The VALU ops of a generation's table by canonical name (what the emulator runs)."""
    t = get_table(gfx)
    out = {}
    for e in t.entries:
        if e.enc in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3SD", "VOP3P"):
            out.setdefault(e.canon, e)
    return out


@pytest.mark.parametrize("gfx", [GfxLevel.GFX11, GfxLevel.GFX10_3, GfxLevel.GFX10])
def test_every_table_op_is_implemented_or_excluded(gfx: GfxLevel) -> None:
    names = set(_valu_table(gfx))
    missing = {n for n in names - supported_ops()
               if n not in NOT_VALU_LIB
               and not n.startswith(("v_wmma_", "v_interp_"))}  # radcc.emu.wmma; graphics
    assert not missing


def test_every_library_op_is_some_generations() -> None:
    names = {n for g in (GfxLevel.GFX11, GfxLevel.GFX10_3, GfxLevel.GFX10)
             for n in _valu_table(g)}
    assert supported_ops() <= names


def test_unknown_name_raises_key_error() -> None:
    with pytest.raises(KeyError):
        execute_valu("v_frobnicate_b32", [], ValuMods(), wave=32, exec_mask=np.ones(32, bool))


def test_garbage_inactive_lanes_raise_no_warning() -> None:
    """Every op over random bits (incl. NaNs, huge values) with half the lanes
    inactive: no exception, no NumPy warning, uint64 results of the right shape."""
    rng = np.random.default_rng(5)
    table = {**_valu_table(GfxLevel.GFX10), **_valu_table(GfxLevel.GFX10_3), **_valu_table()}
    for wave in (32, 64):
        em = rng.integers(0, 2, wave).astype(bool)
        for name in sorted(supported_ops()):
            n = len(table[name].srcs) + (1 if name in ACC_OPS else 0)
            srcs = [rng.integers(0, 1 << 64, wave, dtype=np.uint64) for _ in range(n)]
            if name == "v_mqsad_u32_u8":
                srcs[2] = rng.integers(0, 1 << 32, (4, wave), dtype=np.uint64)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                r = execute_valu(name, srcs, ValuMods(clamp=True), wave=wave, exec_mask=em,
                                 mode=DEFAULT_MODE, lane_masks={"vcc": (1 << wave) - 1})
            if r.d is not None:
                assert r.d.dtype == np.uint64 and r.d.shape[-1] == wave, name
                if r.d_bits <= 32:
                    assert int(r.d.max()) < 1 << r.d_bits, name
            if r.sdst is not None:
                assert r.sdst.dtype == bool and not (r.sdst & ~em).any(), name


# --- compares -------------------------------------------------------------------------


FCMP = {
    "lt": operator.lt, "eq": operator.eq, "le": operator.le, "gt": operator.gt,
    "lg": lambda a, b: a < b or a > b, "ge": operator.ge,
    "o": lambda a, b: not (math.isnan(a) or math.isnan(b)),
    "u": lambda a, b: math.isnan(a) or math.isnan(b),
    "nge": lambda a, b: not a >= b, "nlg": lambda a, b: not (a < b or a > b),
    "ngt": lambda a, b: not a > b, "nle": lambda a, b: not a <= b,
    "neq": lambda a, b: not a == b, "nlt": lambda a, b: not a < b,
    "f": lambda a, b: False, "t": lambda a, b: True,
}


@pytest.mark.parametrize("bits", [16, 32, 64])
@pytest.mark.parametrize("cond", sorted(FCMP))
def test_float_compares(bits: int, cond: str) -> None:
    sp = special_bits(bits)
    a = [x for x in sp for _ in sp]
    b = [y for _ in sp for y in sp]
    for prefix in ("v_cmp", "v_cmpx"):
        r = run(f"{prefix}_{cond}_f{bits}", a, b)
        assert r.writes_exec == (prefix == "v_cmpx") and r.d is None
        exp = [FCMP[cond](b2f(x, bits), b2f(y, bits)) for x, y in zip(a, b, strict=True)]
        assert [bool(v) for v in r.sdst] == exp


def test_compare_flushes_denormals_per_mode() -> None:
    assert list(run("v_cmp_eq_f32", 1, 0, mode=0).sdst) == [True]
    assert list(run("v_cmp_eq_f32", 1, 0, mode=0xF0).sdst) == [False]
    assert list(run("v_cmp_lt_f32", f2b(-2.0, 32), f2b(1.0, 32),
                    mods=ValuMods(abs=(True, False, False))).sdst) == [False]


def test_compare_result_is_zero_in_inactive_lanes() -> None:
    r = run("v_cmp_t_u32", [0] * 4, [0] * 4, exec_mask=np.array([1, 0, 1, 0], bool))
    assert list(r.sdst) == [True, False, True, False]


ICMP = {"lt": operator.lt, "eq": operator.eq, "le": operator.le, "gt": operator.gt,
        "ne": operator.ne, "ge": operator.ge, "f": lambda a, b: False, "t": lambda a, b: True}


@given(st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 64) - 1), st.integers(0, 3))
@settings(max_examples=40)
def test_integer_compares(a: int, b: int, opsel: int) -> None:
    def sx(v: int, n: int) -> int:
        v &= (1 << n) - 1
        return v - (1 << n) if v >> (n - 1) else v
    for bits in (16, 32, 64):
        m = ValuMods(opsel=opsel if bits == 16 else 0)
        x = a >> (16 * (opsel & 1)) if bits == 16 else a
        y = b >> (16 * (opsel >> 1 & 1)) if bits == 16 else b
        for cond, f in ICMP.items():
            if bits == 16 and cond in ("f", "t"):
                continue
            for t, conv in (("u", lambda v, n: v & ((1 << n) - 1)), ("i", sx)):
                got = bool(run(f"v_cmp_{cond}_{t}{bits}", a, b, mods=m).sdst[0])
                assert got == f(conv(x, bits), conv(y, bits)), (cond, t, bits)


@pytest.mark.parametrize("bits", [16, 32, 64])
def test_cmp_class(bits: int) -> None:
    sp = special_bits(bits)
    exp_bit = []
    for x in sp:
        f = b2f(x, bits)
        neg = bool(x >> (bits - 1))
        quiet_bit = {16: 1 << 9, 32: 1 << 22, 64: 1 << 51}[bits]
        if math.isnan(f):
            k = 1 if x & quiet_bit else 0
        elif math.isinf(f):
            k = 2 if neg else 9
        elif f == 0:
            k = 5 if neg else 6
        elif abs(f) < float(np.finfo({16: np.float16, 32: np.float32,
                                      64: np.float64}[bits]).tiny):
            k = 4 if neg else 7
        else:
            k = 3 if neg else 8
        exp_bit.append(k)
    for k in range(10):
        got = [bool(v) for v in run(f"v_cmp_class_f{bits}", sp, [1 << k] * len(sp),
                                    mode=0).sdst]
        assert got == [e == k for e in exp_bit], k
    r = run(f"v_cmpx_class_f{bits}", sp, [0x3FF] * len(sp))
    assert r.writes_exec and all(r.sdst)


# --- conversions -------------------------------------------------------------------------


def test_float_to_int_saturates_and_nan_is_zero() -> None:
    vals = [1.9, -1.9, 3e9, -3e9, float("inf"), float("-inf"), float("nan"), -0.5, 2147483520.0]
    a = [f2b(v, 32) for v in vals]
    i32 = lambda v: 0 if math.isnan(v) else math.trunc(max(-2**31, min(2**31 - 1, v)))  # noqa
    u32 = lambda v: 0 if math.isnan(v) else math.trunc(max(0, min(M32, v)))  # noqa: E731
    assert d("v_cvt_i32_f32", a) == [i32(v) & M32 for v in vals]
    assert d("v_cvt_u32_f32", a) == [u32(v) for v in vals]
    a64 = [f2b(v, 64) for v in vals]
    assert d("v_cvt_i32_f64", a64) == [i32(v) & M32 for v in vals]
    assert d("v_cvt_u32_f64", a64) == [u32(v) for v in vals]
    fl = lambda v: 0 if math.isnan(v) else math.floor(max(-2**31, min(2**31 - 1, v)))  # noqa
    assert d("v_cvt_floor_i32_f32", a) == [fl(v) & M32 for v in vals]
    # nearest: floor(x + 0.5) with the add in f32
    assert d("v_cvt_nearest_i32_f32", [f2b(v, 32) for v in (2.5, -2.5, 0.49999997)]) == [
        3, (-2) & M32, 1]
    h = [f2b(v, 16) for v in (1.9, -1.9, 60000.0, -60000.0, float("nan"))]
    assert d("v_cvt_i16_f16", h) == [1, 0xFFFF, 0x7FFF, 0x8000, 0]
    assert d("v_cvt_u16_f16", h) == [1, 0, 60000, 0, 0]


@pytest.mark.parametrize("rm", [0, 1, 2, 3])
def test_int_to_float_rounds_in_mode(rm: int) -> None:
    rng = np.random.default_rng(rm)
    xs = [int(x) for x in rng.integers(0, 1 << 32, 200, dtype=np.uint64)] + [
        M32, 0x80000000, 0x7FFFFFFF, 16777217, 0, 1]
    mode = 0xF0 | rm
    assert d("v_cvt_f32_u32", xs, mode=mode) == [ref_round(Fraction(x), 32, rm) for x in xs]

    def sx(v: int) -> int:
        return v - (1 << 32) if v >> 31 else v
    assert d("v_cvt_f32_i32", xs, mode=mode) == [ref_round(Fraction(sx(x)), 32, rm) for x in xs]
    assert d("v_cvt_f64_i32", xs) == [f2b(float(sx(x)), 64) for x in xs]
    assert d("v_cvt_f64_u32", xs) == [f2b(float(x), 64) for x in xs]
    h = [x & 0xFFFF for x in xs]
    assert d("v_cvt_f16_u16", h, mode=0xF0 | rm << 2) == [
        ref_round(Fraction(x), 16, rm) for x in h]


@pytest.mark.parametrize("rm", [0, 1, 2, 3])
def test_float_narrowing_rounds_in_mode(rm: int) -> None:
    rng = np.random.default_rng(10 + rm)
    f32 = (rng.standard_normal(300) * np.exp2(rng.uniform(-26, 17, 300))).astype(np.float32)
    a = [f2b(float(x), 32) for x in f32]
    got = d("v_cvt_f16_f32", a, mode=0xF0 | rm << 2)
    assert got == [ref_round(Fraction(float(x)), 16, rm) for x in f32]
    f64 = rng.standard_normal(300) * np.exp2(rng.uniform(-140, 120, 300))
    got = d("v_cvt_f32_f64", [f2b(float(x), 64) for x in f64], mode=0xF0 | rm)
    assert got == [ref_round(Fraction(float(x)), 32, rm) for x in f64]
    # widening is exact
    assert d("v_cvt_f32_f16", [0x3555, 0x0001, 0xFC00]) == [
        f2b(float(np.float16(b2f(x, 16))), 32) for x in (0x3555, 0x0001, 0xFC00)]
    assert d("v_cvt_f64_f32", a[:5]) == [f2b(b2f(x, 32), 64) for x in a[:5]]


def test_cvt_f16_f32_denormals_overflow_nan() -> None:
    tiny = f2b(2.0**-24, 32)
    assert d("v_cvt_f16_f32", tiny, mode=0xC0) == [1]
    assert d("v_cvt_f16_f32", tiny, mode=0x30) == [0]  # f16 output denormals flushed
    big = f2b(1e6, 32)
    assert d("v_cvt_f16_f32", big) == [0x7C00]
    assert d("v_cvt_f16_f32", big, mode=DEFAULT_MODE | 1 << 23) == [0x7BFF]  # FP16_OVFL
    assert d("v_cvt_f16_f32", 0x7F800000, mode=DEFAULT_MODE | 1 << 23) == [0x7C00]
    assert is_nan_b(d("v_cvt_f16_f32", 0xFFA00000)[0], 16)
    assert d("v_cvt_f16_f32", 0xFFC00000) == [0xFE00]


def test_cvt_pk_rtz_and_packs() -> None:
    x, y = f2b(1.0 / 3.0, 32), f2b(-1e5, 32)
    third_rtz = ref_round(Fraction(b2f(x, 32)), 16, 3)
    assert d("v_cvt_pk_rtz_f16_f32", x, y) == [third_rtz | 0xFBFF << 16]
    h1, h2 = f2b(1.5, 16), f2b(-2.0, 16)
    r = d("v_pack_b32_f16", h2 << 16 | h1, h1, mods=ValuMods(opsel=0b01,
                                                              neg=(False, True, False)))
    assert r == [(h1 ^ 0x8000) << 16 | h2]
    assert d("v_cvt_pk_u16_u32", 70000, 5) == [5 << 16 | 0xFFFF]
    assert d("v_cvt_pk_i16_i32", (-70000) & M32, 70000) == [0x7FFF << 16 | 0x8000]
    assert d("v_cvt_pk_i16_f32", f2b(-40000.0, 32), f2b(2.7, 32)) == [2 << 16 | 0x8000]
    assert d("v_cvt_pk_u16_f32", f2b(-4.0, 32), f2b(70000.0, 32)) == [0xFFFF << 16]
    assert d("v_sat_pk_u8_i16", 0x0100_FFFF) == [0xFF00]
    assert d("v_cvt_i32_i16", 0x1234_8000, mods=ValuMods(opsel=0)) == [0xFFFF8000]
    assert d("v_cvt_u32_u16", 0x1234_8000, mods=ValuMods(opsel=1)) == [0x1234]
    assert d("v_cvt_off_f32_i4", [8, 15, 0, 7]) == [f2b(v, 32) for v in (-0.5, -0.0625, 0.0,
                                                                          0.4375)]
    assert d("v_cvt_f32_ubyte2", 0x11FF2233) == [f2b(255.0, 32)]
    assert d("v_cvt_pk_u8_f32", f2b(200.4, 32), 2, 0x11223344) == [0x11C83344]
    assert d("v_cvt_pk_u8_f32", f2b(-3.0, 32), 0, 0x11223344) == [0x11223300]


def test_norm_conversions() -> None:
    vals = [1.0, -1.0, 0.5, 2.0, -0.25, float("nan")]
    h = [f2b(v, 16) for v in vals]
    sn = lambda v: 0 if math.isnan(v) else round(max(-1.0, min(1.0, v)) * 32767)  # noqa: E731
    un = lambda v: 0 if math.isnan(v) else round(max(0.0, min(1.0, v)) * 65535)  # noqa: E731
    assert d("v_cvt_norm_i16_f16", h) == [sn(v) & 0xFFFF for v in vals]
    assert d("v_cvt_norm_u16_f16", h) == [un(v) for v in vals]
    f = [f2b(v, 32) for v in vals]
    assert d("v_cvt_pk_norm_i16_f32", f, f[::-1]) == [
        (sn(b) & 0xFFFF) << 16 | (sn(a) & 0xFFFF) for a, b in zip(vals, vals[::-1],
                                                                  strict=True)]
    assert d("v_cvt_pk_norm_u16_f16", h, h) == [un(v) << 16 | un(v) for v in vals]


# --- transcendental ---------------------------------------------------------------------------


GUIDE_EXAMPLES = [  # (op, input, output) from the guide's "Functional examples"
    ("v_exp_f32", 0xFF800000, 0x00000000), ("v_exp_f32", 0x80000000, 0x3F800000),
    ("v_exp_f32", 0x7F800000, 0x7F800000),
    ("v_log_f32", 0xFF800000, 0xFFC00000), ("v_log_f32", 0xBF800000, 0xFFC00000),
    ("v_log_f32", 0x80000000, 0xFF800000), ("v_log_f32", 0x00000000, 0xFF800000),
    ("v_log_f32", 0x3F800000, 0x00000000), ("v_log_f32", 0x7F800000, 0x7F800000),
    ("v_rcp_f32", 0xFF800000, 0x80000000), ("v_rcp_f32", 0xC0000000, 0xBF000000),
    ("v_rcp_f32", 0x80000000, 0xFF800000), ("v_rcp_f32", 0x00000000, 0x7F800000),
    ("v_rcp_f32", 0x7F800000, 0x00000000),
    ("v_rsq_f32", 0xFF800000, 0xFFC00000), ("v_rsq_f32", 0x80000000, 0xFF800000),
    ("v_rsq_f32", 0x00000000, 0x7F800000), ("v_rsq_f32", 0x40800000, 0x3F000000),
    ("v_rsq_f32", 0x7F800000, 0x00000000),
    ("v_sqrt_f32", 0xFF800000, 0xFFC00000), ("v_sqrt_f32", 0x80000000, 0x80000000),
    ("v_sqrt_f32", 0x00000000, 0x00000000), ("v_sqrt_f32", 0x40800000, 0x40000000),
    ("v_sqrt_f32", 0x7F800000, 0x7F800000),
    ("v_sin_f32", 0xFF800000, 0xFFC00000), ("v_sin_f32", 0xFF7FFFFF, 0x00000000),
    ("v_sin_f32", 0x80000000, 0x80000000), ("v_sin_f32", 0x3E800000, 0x3F800000),
    ("v_sin_f32", 0x7F800000, 0xFFC00000),
    ("v_cos_f32", 0xFF800000, 0xFFC00000), ("v_cos_f32", 0xFF7FFFFF, 0x3F800000),
    ("v_cos_f32", 0x80000000, 0x3F800000), ("v_cos_f32", 0x3E800000, 0x00000000),
    ("v_cos_f32", 0x7F800000, 0xFFC00000),
    ("v_rcp_f16", 0xFC00, 0x8000), ("v_rcp_f16", 0xC000, 0xB800), ("v_rcp_f16", 0x8000, 0xFC00),
    ("v_rcp_f16", 0x0000, 0x7C00), ("v_rcp_f16", 0x7C00, 0x0000),
    ("v_sqrt_f16", 0xFC00, 0xFE00), ("v_sqrt_f16", 0x8000, 0x8000), ("v_sqrt_f16", 0x4400, 0x4000),
    ("v_rsq_f16", 0xFC00, 0xFE00), ("v_rsq_f16", 0x8000, 0xFC00), ("v_rsq_f16", 0x4400, 0x3800),
    ("v_log_f16", 0xFC00, 0xFE00), ("v_log_f16", 0xBC00, 0xFE00), ("v_log_f16", 0x8000, 0xFC00),
    ("v_log_f16", 0x3C00, 0x0000), ("v_log_f16", 0x7C00, 0x7C00),
    ("v_exp_f16", 0xFC00, 0x0000), ("v_exp_f16", 0x8000, 0x3C00), ("v_exp_f16", 0x7C00, 0x7C00),
    ("v_sin_f16", 0xFC00, 0xFE00), ("v_sin_f16", 0xFBFF, 0x0000), ("v_sin_f16", 0x8000, 0x8000),
    ("v_sin_f16", 0x3400, 0x3C00), ("v_sin_f16", 0x7BFF, 0x0000), ("v_sin_f16", 0x7C00, 0xFE00),
    ("v_cos_f16", 0xFC00, 0xFE00), ("v_cos_f16", 0xFBFF, 0x3C00), ("v_cos_f16", 0x8000, 0x3C00),
    ("v_cos_f16", 0x3400, 0x0000), ("v_cos_f16", 0x7BFF, 0x3C00), ("v_cos_f16", 0x7C00, 0xFE00),
]


@pytest.mark.parametrize("op,x,exp", GUIDE_EXAMPLES)
def test_guide_transcendental_examples(op: str, x: int, exp: int) -> None:
    assert d(op, x) == [exp]


def _ulp_err(got: int, exact: float, bits: int) -> float:
    g = b2f(got, bits)
    t = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
    ulp = float(np.spacing(t(abs(exact)))) if exact != 0 else float(np.finfo(t).tiny)
    return abs(g - exact) / ulp


@pytest.mark.parametrize("op,f,bits,tol", [
    ("v_rcp_f32", lambda x: 1 / x, 32, 1.0), ("v_rsq_f32", lambda x: 1 / math.sqrt(x), 32, 1.0),
    ("v_sqrt_f32", math.sqrt, 32, 1.0), ("v_log_f32", math.log2, 32, 1.0),
    ("v_exp_f32", lambda x: 2.0**x, 32, 1.0),
    ("v_sin_f32", lambda x: math.sin(2 * math.pi * x), 32, 2.0),
    ("v_cos_f32", lambda x: math.cos(2 * math.pi * x), 32, 2.0),
    ("v_rcp_f16", lambda x: 1 / x, 16, 0.51), ("v_sqrt_f16", math.sqrt, 16, 0.51),
    ("v_log_f16", math.log2, 16, 0.51), ("v_exp_f16", lambda x: 2.0**x, 16, 0.51),
    ("v_rcp_f64", lambda x: 1 / x, 64, 1.0), ("v_sqrt_f64", math.sqrt, 64, 0.5),
])
def test_transcendental_accuracy(op: str, f, bits: int, tol: float) -> None:
    rng = np.random.default_rng(len(op))
    t = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
    lo, hi = (0.1, 8.0) if "exp" not in op else (-10.0, 10.0)
    if "sin" in op or "cos" in op:
        lo, hi = -3.0, 3.0
    xs = rng.uniform(lo, hi, 300).astype(t)
    got = d(op, [f2b(float(x), bits) for x in xs])
    for x, g in zip(xs, got, strict=True):
        exact = f(float(x))
        if "sin" in op or "cos" in op:
            assert abs(b2f(g, bits) - exact) < 2.0**-21, (op, x)
        else:
            assert _ulp_err(g, exact, bits) <= tol, (op, float(x), hex(g))


def test_f32_transcendentals_flush_denormals() -> None:
    assert d("v_rcp_f32", 1, mode=0xF0) == [0x7F800000]  # denormal input read as +0
    assert d("v_sqrt_f32", 0x00000004, mode=0xF0) == [0]
    assert d("v_exp_f32", f2b(-130.0, 32), mode=0xF0) == [0]  # denormal result flushed
    assert d("v_exp_f16", f2b(-20.0, 16), mode=0xF0) == [f2b(2.0**-20, 16)]  # f16 keeps them


# --- packed math, mix, dot ------------------------------------------------------------------


def _h(*vals: float) -> list[int]:
    return [f2b(v, 16) for v in vals]


def test_pk_f16_halves_opsel_neg() -> None:
    a = f2b(2.0, 16) << 16 | f2b(3.0, 16)
    b = f2b(5.0, 16) << 16 | f2b(7.0, 16)
    assert d("v_pk_add_f16", a, b) == [f2b(7.0, 16) << 16 | f2b(10.0, 16)]
    assert d("v_pk_mul_f16", a, b) == [f2b(10.0, 16) << 16 | f2b(21.0, 16)]
    # lo result: src0.hi + src1.lo; hi result: -src0.hi + src1.lo (OPSEL_HI[1] clear)
    m = ValuMods(opsel=0b01, opsel_hi=0b01, neg_hi=(True, False, False))
    assert d("v_pk_add_f16", a, b, mods=m) == [f2b(5.0, 16) << 16 | f2b(9.0, 16)]
    c = f2b(1.0, 16) << 16 | f2b(1.0, 16)
    assert d("v_pk_fma_f16", a, b, c) == [f2b(11.0, 16) << 16 | f2b(22.0, 16)]
    assert d("v_pk_fmac_f16", a, b, c) == [f2b(11.0, 16) << 16 | f2b(22.0, 16)]
    assert d("v_pk_max_f16", a, b, mods=ValuMods(clamp=True)) == [
        f2b(1.0, 16) << 16 | f2b(1.0, 16)]
    assert d("v_pk_min_f16", 0x7E00 << 16 | f2b(1.0, 16), b) == [
        f2b(5.0, 16) << 16 | f2b(1.0, 16)]


@given(st.integers(0, M32), st.integers(0, M32), st.integers(0, M32))
@settings(max_examples=50)
def test_pk_int_ops(a: int, b: int, c: int) -> None:
    def halves(x: int) -> tuple[int, int]:
        return x & 0xFFFF, x >> 16

    def sx(v: int) -> int:
        return v - 0x10000 if v & 0x8000 else v

    def pack(f) -> int:
        (a0, a1), (b0, b1), (c0, c1) = halves(a), halves(b), halves(c)
        return (f(a0, b0, c0) & 0xFFFF) | (f(a1, b1, c1) & 0xFFFF) << 16
    refs = {
        "v_pk_add_u16": lambda x, y, z: x + y, "v_pk_sub_i16": lambda x, y, z: x - y,
        "v_pk_mul_lo_u16": lambda x, y, z: x * y, "v_pk_mad_u16": lambda x, y, z: x * y + z,
        "v_pk_mad_i16": lambda x, y, z: sx(x) * sx(y) + sx(z),
        "v_pk_max_i16": lambda x, y, z: max(sx(x), sx(y)), "v_pk_min_u16": lambda x, y, z: min(x, y),
        "v_pk_lshlrev_b16": lambda x, y, z: y << (x & 15),
        "v_pk_lshrrev_b16": lambda x, y, z: y >> (x & 15),
        "v_pk_ashrrev_i16": lambda x, y, z: sx(y) >> (x & 15),
    }
    for name, f in refs.items():
        assert d(name, a, b, c) == [pack(f)], name
    assert d("v_pk_add_u16", a, b, mods=ValuMods(clamp=True)) == [
        pack(lambda x, y, z: min(x + y, 0xFFFF))]


def test_fma_mix() -> None:
    f32 = f2b(1.5, 32)
    h = f2b(2.0, 16) << 16 | f2b(-4.0, 16)
    # src0 f32, src1 f16 hi (2.0), src2 f16 lo (-4.0)
    m = ValuMods(opsel=0b010, opsel_hi=0b110)
    assert d("v_fma_mix_f32", f32, h, h, mods=m) == [f2b(-1.0, 32)]
    r = run("v_fma_mixhi_f16", f32, h, h, mods=m)
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (f2b(-1.0, 16), 16, 16)
    r = run("v_fma_mixlo_f16", f32, h, h, mods=m)
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (f2b(-1.0, 16), 16, 0)
    # NEG_HI is ABS for mix: |-4.0| -> 1.5*2 + 4 = 7
    m2 = ValuMods(opsel=0b010, opsel_hi=0b110, neg_hi=(False, False, True))
    assert d("v_fma_mix_f32", f32, h, h, mods=m2) == [f2b(7.0, 32)]
    # mixlo rounds once: 1 + 2**-11 + 2**-24 is above the f16 midpoint -> rounds up
    a = f2b(1.0 + 2.0**-11, 32)
    c = f2b(2.0**-24, 32)
    assert d("v_fma_mixlo_f16", a, f2b(1.0, 32), c, mods=ValuMods(opsel_hi=0)) == [0x3C01]


def test_dot_products() -> None:
    a = f2b(2.0, 16) << 16 | f2b(3.0, 16)
    b = f2b(4.0, 16) << 16 | f2b(5.0, 16)
    assert d("v_dot2_f32_f16", a, b, f2b(1.0, 32)) == [f2b(24.0, 32)]
    assert d("v_dot2acc_f32_f16", a, b, f2b(1.0, 32)) == [f2b(24.0, 32)]
    assert d("v_dot2_f32_f16", a, b, f2b(1.0, 32), mods=ValuMods(neg=(True, False, False))) == [
        f2b(-6.0, 32)]
    bf = lambda v: f2b(v, 32) >> 16  # noqa: E731
    assert d("v_dot2_f32_bf16", bf(2.0) << 16 | bf(3.0), bf(4.0) << 16 | bf(5.0),
             f2b(1.0, 32)) == [f2b(24.0, 32)]
    r = run("v_dot2_f16_f16", a, b, f2b(1.0, 16) << 16, mods=ValuMods(opsel=0b1100))
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (f2b(24.0, 16), 16, 16)
    r = run("v_dot2_bf16_bf16", bf(2.0) << 16 | bf(3.0), bf(4.0) << 16 | bf(5.0), bf(1.0))
    assert int(r.d[0]) == bf(24.0)
    # integer dots: NEG[1:0] selects signed inputs for the IU forms; CLAMP saturates
    x, y = 0xFF02_0304, 0x0105_FF06
    ub = lambda v, i: v >> 8 * i & 255  # noqa: E731
    sb = lambda v, i: ub(v, i) - 256 if ub(v, i) > 127 else ub(v, i)  # noqa: E731
    assert d("v_dot4_u32_u8", x, y, 10) == [10 + sum(ub(x, i) * ub(y, i) for i in range(4))]
    assert d("v_dot4_i32_iu8", x, y, 10, mods=ValuMods(neg=(True, True, False))) == [
        (10 + sum(sb(x, i) * sb(y, i) for i in range(4))) & M32]
    assert d("v_dot4_i32_iu8", x, y, 10, mods=ValuMods(neg=(True, False, False))) == [
        (10 + sum(sb(x, i) * ub(y, i) for i in range(4))) & M32]
    un = lambda v, i: v >> 4 * i & 15  # noqa: E731
    sn = lambda v, i: un(v, i) - 16 if un(v, i) > 7 else un(v, i)  # noqa: E731
    assert d("v_dot8_u32_u4", x, y, 0) == [sum(un(x, i) * un(y, i) for i in range(8))]
    assert d("v_dot8_i32_iu4", x, y, 0, mods=ValuMods(neg=(True, True, False))) == [
        sum(sn(x, i) * sn(y, i) for i in range(8)) & M32]
    assert d("v_dot4_u32_u8", M32, M32, M32, mods=ValuMods(clamp=True)) == [M32]
    assert d("v_dot4_i32_iu8", 0x7F7F7F7F, 0x7F7F7F7F, 0x7FFFFFFF,
             mods=ValuMods(neg=(True, True, False), clamp=True)) == [0x7FFFFFFF]

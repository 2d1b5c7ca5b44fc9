"""VALU float arithmetic against exact references (ISA guide §7.2.4, §16.7-16.12)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from radcc.emu.valu import ValuMods

try:
    from .test_valu_ref import (
        b2f,
        d,
        f2b,
        is_nan_b,
        random_float_bits,
        ref_round,
        run,
        special_bits,
    )
except ImportError:  # tests/emu not a package
    from test_valu_ref import (
        b2f,
        d,
        f2b,
        is_nan_b,
        random_float_bits,
        ref_round,
        run,
        special_bits,
    )

ALLOW = 0xF0  # all denormals allowed, IEEE=0, DX10_CLAMP=0
IEEE = 1 << 9
DX10 = 1 << 8
MODES = [0, 1, 2, 3]


def mode_for(bits: int, rm: int) -> int:
    return ALLOW | IEEE | DX10 | (rm if bits == 32 else rm << 2)


def _ref_binop(op: str, a: int, b: int, bits: int, rm: int) -> int | None:
    """Reference bits, or None for NaN results (checked separately)."""
    fa, fb = b2f(a, bits), b2f(b, bits)
    if math.isnan(fa) or math.isnan(fb):
        return None
    if math.isinf(fa) or math.isinf(fb):
        with np.errstate(all="ignore"):
            r = {"add": fa + fb, "sub": fa - fb, "mul": fa * fb}[op]
        return None if math.isnan(r) else f2b(r, bits)
    x = {
        "add": Fraction(fa) + Fraction(fb),
        "sub": Fraction(fa) - Fraction(fb),
        "mul": Fraction(fa) * Fraction(fb),
    }[op]
    if x == 0:
        if op == "mul":
            neg = (math.copysign(1, fa) < 0) != (math.copysign(1, fb) < 0)
        else:
            sb = -fb if op == "sub" else fb
            both = fa == 0 and sb == 0
            if both:
                neg = math.copysign(1, fa) < 0 and math.copysign(1, sb) < 0
                if rm == 2:
                    neg = math.copysign(1, fa) < 0 or math.copysign(1, sb) < 0
            else:
                neg = rm == 2
        return f2b(-0.0 if neg else 0.0, bits)
    fmax = float(np.finfo({16: np.float16, 32: np.float32, 64: np.float64}[bits]).max)
    if abs(x) > Fraction(fmax) * 2:
        return None  # overflow: covered by dedicated tests
    return ref_round(x, bits, rm)


@pytest.mark.parametrize(("bits", "op"), [(b, o) for b in (16, 32, 64)
                                           for o in ("add", "sub", "mul")
                                           if (b, o) != (64, "sub")])  # RDNA3 has no v_sub_f64
@pytest.mark.parametrize("rm", MODES)
def test_binop_all_round_modes(bits: int, op: str, rm: int) -> None:
    rng = np.random.default_rng(bits * 10 + rm)
    a = random_float_bits(rng, bits, 150)
    b = random_float_bits(rng, bits, 150)
    # close values for cancellation, plus all special pairs
    a += [x for x in a[:40]]
    b += [x ^ 1 for x in a[:40]]
    sp = special_bits(bits)
    a += [x for x in sp for _ in sp]
    b += [y for _ in sp for y in sp]
    got = d(f"v_{op}_f{bits}", a, b, mode=mode_for(bits, rm))
    for x, y, g in zip(a, b, got, strict=True):
        exp = _ref_binop(op, x, y, bits, rm)
        if exp is None:
            fa, fb = b2f(x, bits), b2f(y, bits)
            if math.isnan(fa) or math.isnan(fb) or not math.isfinite(fa * 0 + fb * 0):
                if not (math.isfinite(fa) and math.isfinite(fb)):
                    assert is_nan_b(g, bits) or math.isinf(b2f(g, bits)), (hex(x), hex(y), hex(g))
            continue
        assert g == exp, (op, bits, rm, hex(x), hex(y), hex(g), hex(exp))


def _fma_ref(a: int, b: int, c: int, bits: int, rm: int) -> int | None:
    fa, fb, fc = (b2f(v, bits) for v in (a, b, c))
    if not all(math.isfinite(v) for v in (fa, fb, fc)):
        return None
    x = Fraction(fa) * Fraction(fb) + Fraction(fc)
    if x == 0:
        return None
    fmax = float(np.finfo({16: np.float16, 32: np.float32, 64: np.float64}[bits]).max)
    if abs(x) > Fraction(fmax):
        return None
    return ref_round(x, bits, rm)


@pytest.mark.parametrize("bits", [16, 32, 64])
@pytest.mark.parametrize("rm", MODES)
def test_fma_single_rounding(bits: int, rm: int) -> None:
    rng = np.random.default_rng(7 + bits + rm)
    n = 300
    a = random_float_bits(rng, bits, n)
    b = random_float_bits(rng, bits, n)
    c = random_float_bits(rng, bits, n)
    # products that nearly cancel the addend: stress the single rounding
    for i in range(60):
        fa, fb = b2f(a[i], bits), b2f(b[i], bits)
        p = np.array(fa, dtype=np.float64) * fb
        c[i] = f2b(-float(p), bits) if np.isfinite(p) and abs(p) < 1e300 else c[i]
    got = d(f"v_fma_f{bits}", a, b, c, mode=mode_for(bits, rm))
    checked = 0
    for x, y, z, g in zip(a, b, c, got, strict=True):
        exp = _fma_ref(x, y, z, bits, rm)
        if exp is None:
            continue
        checked += 1
        assert g == exp, (bits, rm, hex(x), hex(y), hex(z), hex(g), hex(exp))
    assert checked > n // 2


def test_fma_double_rounding_case() -> None:
    # a*b = 1 + 2**-24 + 2**-48 exactly: RN64 would make a midpoint, f32 must round up
    a = 0x3F800001  # 1 + 2**-23
    b = 0x3F000001  # 0.5 + 2**-24 ... product = 0.5 + 2**-24 + 2**-23*0.5 + 2**-47
    x = Fraction(b2f(a, 32)) * Fraction(b2f(b, 32))
    c = f2b(0.5, 32)
    exp = ref_round(x + Fraction(1, 2), 32)
    assert d("v_fma_f32", a, b, c) == [exp]


def test_fmac_uses_old_vdst_and_fmamk_fmaak() -> None:
    one, two, three = f2b(1.0, 32), f2b(2.0, 32), f2b(3.0, 32)
    assert d("v_fmac_f32", two, three, one) == [f2b(7.0, 32)]
    assert d("v_fmamk_f32", two, three, one) == [f2b(7.0, 32)]  # S0 * K + S1
    assert d("v_fmaak_f32", two, three, one) == [f2b(7.0, 32)]  # S0 * S1 + K
    h = lambda v: f2b(v, 16)  # noqa: E731
    # v_fmac_f16 accumulates into the high half when OPSEL[3] is set
    r = run("v_fmac_f16", h(4.0), h(3.0), h(2.0) << 16 | h(100.0), mods=ValuMods(opsel=8))
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (h(14.0), 16, 16)
    with pytest.raises(ValueError):
        run("v_fmac_f32", two, three)


def test_dx9_zero_rules() -> None:
    inf, nan, zero = 0x7F800000, 0x7FC00000, 0
    five = f2b(5.0, 32)
    assert d("v_mul_dx9_zero_f32", [zero, inf, zero, five], [inf, zero, nan, five]) == [
        0,
        0,
        0,
        f2b(25.0, 32),
    ]
    assert d("v_fma_dx9_zero_f32", [zero, nan], [nan, zero], [five, five]) == [five, five]
    assert d("v_fmac_dx9_zero_f32", zero, inf, five) == [five]
    assert is_nan_b(d("v_mul_f32", zero, inf)[0], 32)


def test_denormal_flush_modes() -> None:
    den = 0x00000003  # 3 * 2**-149
    # MODE 0: flush inputs and outputs: denormal inputs read as zero
    assert d("v_add_f32", den, den, mode=0) == [0]
    assert d("v_mul_f32", 0x80000001, f2b(1.0, 32), mode=0) == [0x80000000]
    # inputs allowed, outputs flushed: the denormal sum flushes to +0
    assert d("v_add_f32", den, den, mode=0x10) == [0]
    # everything allowed: exact denormal sum
    assert d("v_add_f32", den, den, mode=0x30) == [6]
    # outputs allowed, inputs flushed
    assert d("v_add_f32", den, 0x00800000, mode=0x20) == [0x00800000]
    # f16 and f64 follow the other field
    assert d("v_add_f16", 1, 1, mode=0x30) == [0]
    assert d("v_add_f16", 1, 1, mode=0xC0) == [2]
    assert d("v_add_f64", 1, 1, mode=0x30) == [0]
    assert d("v_add_f64", 1, 1, mode=0xC0) == [2]
    # a result that only becomes denormal after rounding is flushed too
    assert d("v_mul_f32", 0x00800000, f2b(0.5, 32), mode=0x10) == [0]


def test_nan_results() -> None:
    snan, qnan = 0x7FA00001, 0x7FC00002
    one = f2b(1.0, 32)
    assert d("v_add_f32", snan, one) == [snan | 0x00400000]  # quieted, payload kept
    assert d("v_mul_f32", one, qnan) == [qnan]
    assert d("v_add_f32", 0x7F800000, 0xFF800000) == [0xFFC00000]  # default NaN
    assert d("v_fma_f16", 0x7C00, 0, 0x3C00) == [0xFE00]


def test_omod_and_clamp() -> None:
    one, half = f2b(1.0, 32), f2b(0.5, 32)
    m_noieee = 0x30 & ~0x20  # IEEE=0, inputs allowed, outputs flushed
    assert d("v_add_f32", one, half, mods=ValuMods(omod=1), mode=m_noieee) == [f2b(3.0, 32)]
    assert d("v_add_f32", one, half, mods=ValuMods(omod=2), mode=m_noieee) == [f2b(6.0, 32)]
    assert d("v_add_f32", one, half, mods=ValuMods(omod=3), mode=m_noieee) == [f2b(0.75, 32)]
    # ignored with IEEE=1 or with output denormals on (§7.2.3.1)
    assert d("v_add_f32", one, half, mods=ValuMods(omod=1), mode=m_noieee | IEEE) == [f2b(1.5, 32)]
    assert d("v_add_f32", one, half, mods=ValuMods(omod=1), mode=0x30) == [f2b(1.5, 32)]
    # clamp to [0, 1]; -0 -> +0; NaN -> 0 with DX10_CLAMP, NaN kept without
    c = ValuMods(clamp=True)
    assert d("v_add_f32", one, half, mods=c) == [one]
    assert d("v_mul_f32", 0x80000000, one, mods=c) == [0]
    assert d("v_add_f32", f2b(-3.0, 32), one, mods=c) == [0]
    assert d("v_add_f32", 0x7FC00000, one, mods=c, mode=DX10 | IEEE | 0xF0) == [0]
    assert d("v_add_f32", 0x7FC00000, one, mods=c, mode=IEEE | 0xF0) == [0x7FC00000]
    assert d("v_add_f16", f2b(0.75, 16), f2b(0.5, 16), mods=c) == [f2b(1.0, 16)]
    assert d("v_add_f64", f2b(0.25, 64), f2b(0.5, 64), mods=c) == [f2b(0.75, 64)]


def test_abs_neg_modifiers() -> None:
    a, b = f2b(-2.0, 32), f2b(3.0, 32)
    assert d("v_add_f32", a, b, mods=ValuMods(abs=(True, False, False))) == [f2b(5.0, 32)]
    assert d("v_add_f32", a, b, mods=ValuMods(neg=(True, True, False))) == [f2b(-1.0, 32)]
    assert d(
        "v_add_f32", a, b, mods=ValuMods(abs=(True, False, False), neg=(True, False, False))
    ) == [f2b(1.0, 32)]


def test_f16_op_sel_halves_and_dest() -> None:
    h = lambda v: f2b(v, 16)  # noqa: E731
    s0 = h(2.0) << 16 | h(5.0)
    s1 = h(7.0) << 16 | h(1.0)
    r = run("v_add_f16", s0, s1, mods=ValuMods(opsel=0b0011))
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (h(9.0), 16, 0)
    r = run("v_add_f16", s0, s1, mods=ValuMods(opsel=0b1001))
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (h(3.0), 16, 16)


def _mm_ref(a: int, b: int, is_max: bool, ieee: bool) -> int:
    """V_MIN/MAX_F32 pseudocode, written over Python floats."""
    fa, fb = b2f(a, 32), b2f(b, 32)
    sn = lambda x: math.isnan(b2f(x, 32)) and not x & 0x400000  # noqa: E731
    qn = lambda x: math.isnan(b2f(x, 32)) and bool(x & 0x400000)  # noqa: E731
    if ieee:
        if sn(a):
            return a | 0x400000
        if sn(b):
            return b | 0x400000
        if qn(b):
            return a
        if qn(a):
            return b
    else:
        if math.isnan(fb):
            return a
        if math.isnan(fa):
            return b
    neg = lambda x: bool(x >> 31)  # noqa: E731
    if is_max:
        pick = fa > fb or (fa == 0 and fb == 0 and not neg(a) and neg(b))
    else:
        pick = fa < fb or (fa == 0 and fb == 0 and neg(a) and not neg(b))
    return a if pick else b


@pytest.mark.parametrize("ieee", [False, True])
@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_nan_and_zero_rules(ieee: bool, op: str) -> None:
    sp = special_bits(32) + [0xFFA00000, 0x7F800001]
    a = [x for x in sp for _ in sp]
    b = [y for _ in sp for y in sp]
    mode = 0xF0 | (IEEE if ieee else 0)
    got = d(f"v_{op}_f32", a, b, mode=mode)
    for x, y, g in zip(a, b, got, strict=True):
        assert g == _mm_ref(x, y, op == "max", ieee), (hex(x), hex(y), hex(g))


def test_min3_max3_med3_minmax() -> None:
    v = lambda *xs: [f2b(x, 32) for x in xs]  # noqa: E731
    a, b, c = v(1.0, 5.0, -2.0), v(3.0, -1.0, 7.0), v(2.0, 0.0, 4.0)
    assert d("v_min3_f32", a, b, c) == v(1.0, -1.0, -2.0)
    assert d("v_max3_f32", a, b, c) == v(3.0, 5.0, 7.0)
    assert d("v_med3_f32", a, b, c) == v(2.0, 0.0, 4.0)
    # minmax = max(min(a, b), c); maxmin = min(max(a, b), c): clamp with low > high
    assert d("v_minmax_f32", v(5.0), v(1.0), v(3.0)) == v(3.0)
    assert d("v_maxmin_f32", v(5.0), v(1.0), v(3.0)) == v(3.0)
    assert d("v_maxmin_f16", f2b(0.5, 16), f2b(2.0, 16), f2b(1.0, 16)) == [f2b(1.0, 16)]
    # med3 with a NaN returns min3 (IEEE: the NaN operand is skipped)
    assert d("v_med3_f32", v(5.0), 0x7FC00000, v(3.0)) == v(3.0)
    # rng cross-check against sorted middle for ordinary values
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((3, 200)).astype(np.float32)
    bits = [[f2b(float(x), 32) for x in row] for row in xs]
    got = d("v_med3_f32", *bits)
    exp = [f2b(float(x), 32) for x in np.median(xs, axis=0)]
    assert got == exp


@pytest.mark.parametrize("bits", [16, 32, 64])
def test_round_to_integral(bits: int) -> None:
    rng = np.random.default_rng(bits)
    t = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
    xs = list((rng.standard_normal(200) * 40).astype(t)) + [
        t(x) for x in (0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0, 0.0, 0.49999997, np.inf, -np.inf)
    ]
    a = [f2b(float(x), bits) for x in xs]
    for name, f in (
        ("trunc", np.trunc),
        ("ceil", np.ceil),
        ("floor", np.floor),
        ("rndne", np.rint),
    ):
        got = d(f"v_{name}_f{bits}", a)
        exp = [f2b(float(f(x)), bits) for x in xs]
        assert got == exp, name


@pytest.mark.parametrize("bits", [16, 32, 64])
def test_fract_frexp_ldexp(bits: int) -> None:
    t = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
    # DX fract: fract(-1.2) = 0.8 (in the format's precision); tiny negatives clamp below 1
    x = t(-1.2)
    exp_fr = t(Fraction(float(x)) - math.floor(float(x)))
    assert d(f"v_fract_f{bits}", f2b(float(x), bits)) == [f2b(float(exp_fr), bits)]
    below_one = float(np.nextafter(t(1.0), t(0.0)))
    assert d(f"v_fract_f{bits}", f2b(-float(np.finfo(t).tiny), bits)) == [f2b(below_one, bits)]
    assert is_nan_b(d(f"v_fract_f{bits}", f2b(np.inf, bits))[0], bits)
    for v in (6.0, -0.375, 1e-3, 1000.0):
        m, e = math.frexp(float(t(v)))
        assert d(f"v_frexp_mant_f{bits}", f2b(v, bits)) == [f2b(m, bits)]
        er = run(f"v_frexp_exp_i{16 if bits == 16 else 32}_f{bits}", f2b(v, bits)).d
        assert int(er[0]) == e & (0xFFFF if bits == 16 else 0xFFFFFFFF)
    assert d(f"v_frexp_mant_f{bits}", f2b(np.inf, bits)) == [f2b(np.inf, bits)]
    assert d(f"v_frexp_exp_i{16 if bits == 16 else 32}_f{bits}", f2b(np.inf, bits)) == [0]
    n_bits = 16 if bits == 16 else 32
    assert d(f"v_ldexp_f{bits}", f2b(1.5, bits), 3) == [f2b(12.0, bits)]
    assert d(f"v_ldexp_f{bits}", f2b(1.5, bits), (1 << n_bits) - 2) == [f2b(0.375, bits)]
    huge = (1 << (n_bits - 1)) - 1
    assert d(f"v_ldexp_f{bits}", f2b(1.0, bits), huge) == [f2b(np.inf, bits)]
    assert d(f"v_ldexp_f{bits}", f2b(-1.0, bits), 1 << (n_bits - 1)) == [f2b(-0.0, bits)]


def test_ldexp_rounds_into_denormals() -> None:
    # 1.5 * 2**-149 = 1.5 denormal ulps -> ties to even: 2 * 2**-149
    assert d("v_ldexp_f32", f2b(1.5, 32), (-149) & 0xFFFFFFFF) == [2]
    assert d("v_ldexp_f32", f2b(1.5, 32), (-149) & 0xFFFFFFFF, mode=0x10) == [0]


def test_mullit_and_cube() -> None:
    v = lambda *xs: [f2b(x, 32) for x in xs]  # noqa: E731
    negmax = f2b(-float(np.finfo(np.float32).max), 32)
    assert d("v_mullit_f32", v(2.0), v(3.0), v(1.0)) == v(6.0)
    assert d("v_mullit_f32", v(2.0), v(3.0), v(0.0)) == [negmax]
    assert d("v_mullit_f32", v(2.0), 0x7FC00000, v(1.0)) == [negmax]
    assert d("v_mullit_f32", v(0.0), 0x7F800000, v(1.0)) == v(0.0)
    # major axis +x, -y, +z
    x, y, z = v(3.0, 1.0, 0.5), v(1.0, -4.0, 0.5), v(2.0, 2.0, -6.0)
    assert d("v_cubeid_f32", x, y, z) == v(0.0, 3.0, 5.0)
    assert d("v_cubema_f32", x, y, z) == v(6.0, -8.0, -12.0)
    assert d("v_cubesc_f32", x, y, z) == v(-2.0, 1.0, -0.5)
    assert d("v_cubetc_f32", x, y, z) == v(-1.0, -2.0, -0.5)


def test_mov_and_cndmask_modifiers() -> None:
    x = f2b(-2.5, 32)
    assert d("v_mov_b32", x, mods=ValuMods(abs=(True, False, False))) == [f2b(2.5, 32)]
    assert d("v_mov_b32", 0x00000001, mode=0) == [1]  # a move does not flush
    sel = [0, 1, 1, 0]
    got = d("v_cndmask_b32", [1, 2, 3, 4], [10, 20, 30, 40], sel)
    assert got == [1, 20, 30, 4]
    got = d("v_cndmask_b32", [0], [f2b(2.0, 32)], [1], mods=ValuMods(neg=(False, True, False)))
    assert got == [f2b(-2.0, 32)]
    r = run("v_cndmask_b16", 0x1111_2222, 0x3333_4444, 1, mods=ValuMods(opsel=0b1010))
    assert (int(r.d[0]), r.d_bits, r.d_shift) == (0x3333, 16, 16)


def _f32_div_llvm(a: list[int], b: list[int], mode: int) -> list[int]:
    """LLVM's f32 fdiv expansion (div_scale, rcp, fma chain, div_fmas, div_fixup)."""
    one = f2b(1.0, 32)
    n = len(a)
    neg0 = ValuMods(neg=(True, False, False))
    den = run("v_div_scale_f32", b, b, a, mode=mode)
    num = run("v_div_scale_f32", a, b, a, mode=mode)
    vcc = sum(1 << i for i, x in enumerate(num.sdst) if x)
    d_, n_ = den.d, num.d
    r = run("v_rcp_f32", d_, mode=mode).d
    e = run("v_fma_f32", d_, r, [one] * n, mods=neg0, mode=mode).d
    r = run("v_fma_f32", e, r, r, mode=mode).d
    q = run("v_mul_f32", n_, r, mode=mode).d
    e = run("v_fma_f32", d_, q, n_, mods=neg0, mode=mode).d
    q = run("v_fma_f32", e, r, q, mode=mode).d
    e = run("v_fma_f32", d_, q, n_, mods=neg0, mode=mode).d
    f = run("v_div_fmas_f32", e, r, q, mode=mode, lane_masks={"vcc": vcc}).d
    return d("v_div_fixup_f32", f, b, a, mode=mode)


def test_f32_division_sequence_is_correctly_rounded() -> None:
    rng = np.random.default_rng(11)
    xs = (rng.standard_normal(400) * np.exp2(rng.uniform(-60, 60, 400))).astype(np.float32)
    ys = (rng.standard_normal(400) * np.exp2(rng.uniform(-60, 60, 400))).astype(np.float32)
    xs = np.concatenate([xs, np.float32([1, 0, 3, np.inf, 1, 1e-40, 3e38, 1e-30])])
    ys = np.concatenate([ys, np.float32([3, 0, 0, np.inf, 1e-40, 3e-39, 1e-3, 1e10])])
    a = [f2b(float(x), 32) for x in xs]
    b = [f2b(float(y), 32) for y in ys]
    got = _f32_div_llvm(a, b, 0xF0 | IEEE | DX10)
    with np.errstate(all="ignore"):
        exp = [f2b(float(q), 32) for q in (xs / ys)]
    for x, y, g, e in zip(a, b, got, exp, strict=True):
        if is_nan_b(e, 32):
            assert is_nan_b(g, 32)
        else:
            assert g == e, (hex(x), hex(y), hex(g), hex(e))


def test_f64_division_sequence_is_correctly_rounded() -> None:
    rng = np.random.default_rng(12)
    xs = rng.standard_normal(200) * np.exp2(rng.uniform(-300, 300, 200))
    ys = rng.standard_normal(200) * np.exp2(rng.uniform(-300, 300, 200))
    a = [f2b(float(x), 64) for x in xs]
    b = [f2b(float(y), 64) for y in ys]
    one = [f2b(1.0, 64)] * len(a)
    neg0 = ValuMods(neg=(True, False, False))
    den = run("v_div_scale_f64", b, b, a).d
    r = run("v_rcp_f64", den).d
    e = run("v_fma_f64", den, r, one, mods=neg0).d
    r = run("v_fma_f64", r, e, r).d
    e = run("v_fma_f64", den, r, one, mods=neg0).d
    r = run("v_fma_f64", r, e, r).d
    num = run("v_div_scale_f64", a, b, a)
    vcc = sum(1 << i for i, x in enumerate(num.sdst) if x)
    q = run("v_mul_f64", num.d, r).d
    e = run("v_fma_f64", den, q, num.d, mods=neg0).d
    f = run("v_div_fmas_f64", e, r, q, lane_masks={"vcc": vcc}).d
    got = d("v_div_fixup_f64", f, b, a)
    exp = [f2b(float(q), 64) for q in xs / ys]
    assert got == exp


def test_div_fixup_special_cases() -> None:
    v = lambda x: f2b(x, 32)  # noqa: E731
    q = v(123.0)
    assert d("v_div_fixup_f32", q, v(0.0), v(0.0)) == [0xFFC00000]
    assert d("v_div_fixup_f32", q, v(np.inf), v(-np.inf)) == [0xFFC00000]
    assert d("v_div_fixup_f32", q, v(-0.0), v(1.0)) == [v(-np.inf)]
    assert d("v_div_fixup_f32", q, v(np.inf), v(1.0)) == [v(0.0)]
    assert d("v_div_fixup_f32", q, v(-2.0), v(1.0)) == [v(-123.0)]
    assert d("v_div_fixup_f32", q, 0x7FA00000, v(1.0)) == [0x7FE00000]
    assert d("v_div_fixup_f16", f2b(3.0, 16), f2b(0.0, 16), f2b(0.0, 16)) == [0xFE00]
    assert d("v_div_fixup_f64", f2b(3.0, 64), f2b(-1.0, 64), f2b(5.0, 64)) == [f2b(-3.0, 64)]


def test_div_fmas_scales_by_vcc() -> None:
    v = lambda x: f2b(x, 32)  # noqa: E731
    # the scale undoes v_div_scale's: 2**64 up for a large quotient (S2), down for a small one
    got = run(
        "v_div_fmas_f32",
        [v(1.0)] * 3,
        [v(2.0)] * 3,
        [v(1.0), v(1.0), v(2.0)],
        lane_masks={"vcc": 0b110},
    ).d
    assert [int(x) for x in got] == [v(3.0), v(3.0 * 2.0**-64), v(4.0 * 2.0**64)]
    got = d("v_div_fmas_f64", f2b(1.0, 64), f2b(2.0, 64), f2b(2.0, 64), lane_masks={"vcc": 1})
    assert got == [f2b(4.0 * 2.0**128, 64)]
    with pytest.raises(ValueError):
        run("v_div_fmas_f32", 0, 0, 0)


def test_trig_preop_segments_reassemble_two_over_pi() -> None:
    segs = [Fraction(b2f(d("v_trig_preop_f64", f2b(1.0, 64), i)[0], 64)) for i in range(4)]
    total = sum(segs)
    # 2/pi to better than 2**-200 (mpmath-free: Fraction of a 60-digit literal)
    two_over_pi = Fraction("0.636619772367581343075535053490057448137838582961825794990669")
    assert abs(total - two_over_pi) < Fraction(1, 2**190)
    # segment 0 is 2/pi truncated to 53 bits (round toward zero)
    assert d("v_trig_preop_f64", f2b(1.0, 64), 0) == [0x3FE45F306DC9C882]
    # large inputs shift the window: exponent 1077 + 10 skips ten more bits
    big = 1087 << 52
    s = Fraction(b2f(d("v_trig_preop_f64", big, 0)[0], 64))
    rest = two_over_pi - Fraction(math.floor(two_over_pi * 2**10), 2**10)
    assert abs(s - rest) < Fraction(1, 2**60)

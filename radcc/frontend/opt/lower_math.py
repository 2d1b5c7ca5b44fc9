"""lower_math: GLSL.std.450 and other operations GFX11 has no single instruction for.

What GFX11 has and isel receives unchanged: ``fexp2``/``flog2`` (``v_exp_f32``,
``v_log_f32``: base 2), ``fsqrt``, ``frsq``, ``frcp``, ``ffloor``, ``fceil``,
``ftrunc``, ``fround_even`` (``v_rndne``), ``ffract`` (``v_fract``), ``fldexp``,
``ffrexp_sig``/``ffrexp_exp`` (``v_frexp_mant``/``v_frexp_exp``), ``fsat`` (clamp),
``fisinf`` (``v_cmp_class``), ``fsin_amd``/
``fcos_amd`` (``v_sin_f32``/``v_cos_f32``: the argument in revolutions, valid to
+-256), ``ubfe``/``ibfe``/``bfm``/``bfi`` (``v_bfe_u32``, ``v_bfe_i32``,
``v_bfm_b32``, ``v_bfi_b32``), and on 32-bit integers ``ufind_msb``, ``ifind_msb``,
``find_lsb``, ``bit_count``, ``bitfield_reverse`` (``v_ffbh_u32``/``v_ffbh_i32``,
``v_ffbl_b32``, ``v_bcnt_u32_b32``, ``v_bfrev_b32``).

Lowered here (f16 operands of the composite ones are computed in f32):

* ``fdiv`` at 32 bits -> ``a * frcp(b)`` as NIR's ``lower_fdiv`` for ACO (``v_rcp``
  1 ULP, then one rounding: within GLSL's 2.5 ULP for ``|b|`` in [2^-126, 2^126];
  a constant divisor folds to a multiply by its reciprocal); at 16 bits the same in
  f32 and rounded to f16 once (as LLVM's f16 division: the f32 quotient is within
  about 2^-23 relative, so the f16 result is the correctly rounded quotient except
  in rare near-tie cases; ACO uses ``v_rcp_f16`` and ``v_mul_f16``, 1.5 f16 ULP);
* ``fsin``/``fcos`` -> ``fsin_amd``/``fcos_amd`` of ``x / 2pi``; ``ftan`` = sin / cos;
* ``fpow`` = ``exp2(y * log2 x)``; ``fmod`` = ``x - y * floor(x / y)`` (GLSL mod);
  ``frem`` = ``x - y * trunc(x / y)``; ``flrp`` = ``a * (1 - t) + b * t``;
  ``fstep``, ``fsign`` with compares and selects, ``isign`` (8/16/32-bit) as
  ``imin(imax(x, -1), 1)`` (one ``v_med3_i32``/``v_med3_i16``); 16/32-bit ``fsign`` as ACO:
  the same clamp of the bits of ``x + 0.0``, converted to float: 3 instructions);
* ``fatan`` by the polynomial of Abramowitz & Stegun 4.4.49 (|error| < 2e-8 on
  [0, 1]) after reducing |x| > 1 by ``pi/2 - atan(1/x)``; ``fatan2`` the same on
  ``min(|x|,|y|) / max(|x|,|y|)`` with the quadrant fixed afterwards;
  ``fasin(x) = atan(x / sqrt((1 - x)(1 + x)))``, ``facos(x) = 2 atan(sqrt((1 - x) /
  (1 + x)))``;
* ``fsinh``, ``fcosh``, ``ftanh`` (argument clamped to +-10), ``fasinh``, ``facosh``,
  ``fatanh`` by their exp/log formulas (Vulkan's precision: inherited from them);
* f64: ``fdiv``, ``frcp``, ``fsqrt`` and ``frsq`` refine the hardware estimate
  (``v_rcp_f64``, ``v_rsq_f64``, ``v_sqrt_f64`` are not correctly rounded) with two
  Newton-Raphson steps on fma (keeping the estimate where a step gives NaN: zeros,
  infinities; the estimates carry ``approx=True``); transcendental functions on f64 (GLSL has none; HLSL/OpenCL may)
  are evaluated in f32 - a documented approximation (about 1e-7 relative);
* bitfield operations of GLSL: ``ubitfield_extract``/``ibitfield_extract`` ->
  ``ubfe``/``ibfe`` (plus a select for a count of 32, which the hardware reads as
  0); ``bitfield_insert`` -> ``bfi(bfm(count, offset), insert << offset, base)``;
  8/16-bit operands of bit operations are widened to 32 bits (64-bit ones are
  ``lower_int64``'s);
* the integer dot products of four bytes (``sdot_4x8_iadd``, ``udot_4x8_uadd``,
  ``sudot_4x8_iadd``) the target lists in ``MirOptions.lowered_ops`` (no ``v_dot4``:
  GFX10.1; GFX10.3 for the mixed-sign one) -> the bytes by ``ibfe``/``ubfe``, multiplied
  and summed (the others are ``v_dot4_*``).
"""

from __future__ import annotations

import math

from ..mir import Instr, MirShader, Value
from ..mir_ops import DOT_4X8
from .lower_util import Emit, const_int, rewrite_instrs

# A&S 4.4.49: atan(x) ~ x * (1 + a2 x^2 + ... + a16 x^16) on [0, 1]
ATAN_COEFFS = (1.0, -0.3333314528, 0.1999355085, -0.1420889944, 0.1065626393,
               -0.0752896400, 0.0429096138, -0.0161657367, 0.0028662257)

COMPOSITE = frozenset("fpow fatan2 ftan fasin facos fatan fsinh fcosh ftanh fasinh facosh "
                      "fatanh".split())
TRANSCENDENTAL = COMPOSITE | {"fsin", "fcos", "fexp2", "flog2"}
BIT_OPS = frozenset("ufind_msb ifind_msb find_lsb bit_count bitfield_reverse ubitfield_extract "
                    "ibitfield_extract bitfield_insert".split())


class _F:
    """Float helpers at one bit size."""

    def __init__(self, e: Emit, bits: int) -> None:
        self.e = e
        self.b = bits

    def k(self, x: float) -> Value:
        return self.e.fconst(self.b, x)

    def __call__(self, op: str, *s: Value) -> Value:
        return self.e.alu(op, self.b, *s)

    def sel(self, c: Value, a: Value, b: Value) -> Value:
        return self.e.bcsel(c, a, b)

    def lt(self, a: Value, b: Value) -> Value:
        return self.e.alu("flt", 1, a, b)

    def fma(self, a: Value, b: Value, c: Value) -> Value:
        return self.e.alu("ffma", self.b, a, b, c)

    def exp(self, x: Value) -> Value:
        return self("fexp2", self("fmul", x, self.k(1 / math.log(2))))

    def log(self, x: Value) -> Value:
        return self("fmul", self("flog2", x), self.k(math.log(2)))

    def atan_01(self, t: Value) -> Value:
        """atan on [0, 1] (Horner in t^2)."""
        t2 = self("fmul", t, t)
        acc = self.k(ATAN_COEFFS[-1])
        for c in reversed(ATAN_COEFFS[:-1]):
            acc = self.fma(acc, t2, self.k(c))
        return self("fmul", acc, t)

    def atan(self, x: Value) -> Value:
        a = self("fabs", x)
        big = self.lt(self.k(1.0), a)
        t = self.sel(big, self("fdiv", self.k(1.0), a), a)
        p = self.atan_01(t)
        p = self.sel(big, self("fsub", self.k(math.pi / 2), p), p)
        return self.sel(self.lt(x, self.k(0.0)), self("fneg", p), p)

    def atan2(self, y: Value, x: Value) -> Value:
        ax, ay = self("fabs", x), self("fabs", y)
        mx = self("fmax", ax, ay)
        mn = self("fmin", ax, ay)
        t = self("fdiv", mn, mx)
        t = self.sel(self.e.alu("feq", 1, mx, self.k(0.0)), self.k(0.0), t)
        p = self.atan_01(t)
        p = self.sel(self.lt(ax, ay), self("fsub", self.k(math.pi / 2), p), p)
        p = self.sel(self.lt(x, self.k(0.0)), self("fsub", self.k(math.pi), p), p)
        return self.sel(self.lt(y, self.k(0.0)), self("fneg", p), p)

    def sin_cos(self, op: str, x: Value) -> Value:
        r = self("fmul", x, self.k(1 / (2 * math.pi)))
        return self(op + "_amd", r)


def _composite(f: _F, op: str, s: list[Value]) -> Value:
    x = s[0]
    one = f.k(1.0)
    if op == "fpow":
        return f("fexp2", f("fmul", s[1], f("flog2", x)))
    if op == "fatan":
        return f.atan(x)
    if op == "fatan2":
        return f.atan2(x, s[1])
    if op == "ftan":
        return f("fdiv", f.sin_cos("fsin", x), f.sin_cos("fcos", x))
    if op == "fasin":
        d = f("fsqrt", f("fmul", f("fsub", one, x), f("fadd", one, x)))
        return f.atan(f("fdiv", x, d))
    if op == "facos":
        q = f("fsqrt", f("fdiv", f("fsub", one, x), f("fadd", one, x)))
        return f("fmul", f.k(2.0), f.atan(q))
    if op in ("fsinh", "fcosh"):
        a, b = f.exp(x), f.exp(f("fneg", x))
        return f("fmul", f.k(0.5), f("fsub" if op == "fsinh" else "fadd", a, b))
    if op == "ftanh":
        c = f("fmin", f("fmax", x, f.k(-10.0)), f.k(10.0))
        e2 = f.exp(f("fmul", c, f.k(2.0)))
        return f("fdiv", f("fsub", e2, one), f("fadd", e2, one))
    if op == "fasinh":
        a = f("fabs", x)
        r = f.log(f("fadd", a, f("fsqrt", f.fma(a, a, one))))
        return f.sel(f.lt(x, f.k(0.0)), f("fneg", r), r)
    if op == "facosh":
        return f.log(f("fadd", x, f("fsqrt", f.fma(x, x, f.k(-1.0)))))
    if op == "fatanh":
        return f("fmul", f.k(0.5), f.log(f("fdiv", f("fadd", one, x), f("fsub", one, x))))
    raise AssertionError(op)


def _f64(f: _F, op: str, s: list[Value]) -> Value | None:
    """Newton-refined f64 division, reciprocal and square roots."""
    one = f.k(1.0)

    def keep_finite(refined: Value, estimate: Value) -> Value:
        return f.sel(f.e.alu("feq", 1, refined, refined), refined, estimate)

    def est(op: str, x: Value) -> Value:
        return f.e.alu(op, 64, x, approx=True)  # the hardware estimate (v_rcp_f64 ...)

    def rcp(x: Value) -> Value:
        r0 = est("frcp", x)
        r = r0
        nx = f("fneg", x)
        for _ in range(2):
            r = f.fma(r, f.fma(nx, r, one), r)
        return keep_finite(r, r0)

    if op == "frcp":
        return rcp(s[0])
    if op == "fdiv":
        a, b = s
        r = rcp(b)
        q0 = f("fmul", a, r)
        q = f.fma(r, f.fma(f("fneg", b), q0, a), q0)
        return keep_finite(q, q0)
    if op == "frsq":
        y0 = est("frsq", s[0])
        y = y0
        for _ in range(2):
            e = f.fma(f("fneg", f("fmul", s[0], y)), y, one)
            y = f.fma(f("fmul", y, f.k(0.5)), e, y)
        return keep_finite(y, y0)
    if op == "fsqrt":
        x = s[0]
        s0 = est("fsqrt", x)
        y = est("frsq", x)
        g = f("fmul", x, y)
        h = f("fmul", y, f.k(0.5))
        r = f.fma(f("fneg", g), h, f.k(0.5))
        g = f.fma(g, r, g)
        h = f.fma(h, r, h)
        d = f.fma(f("fneg", g), g, x)
        g = f.fma(d, h, g)
        return keep_finite(g, s0)
    return None


def _bits(ins: Instr, e: Emit) -> Value | None:
    op = ins.op
    d = ins.dest
    assert d is not None
    s = ins.srcs
    bits = s[0].bit_size
    if bits == 64:
        return None
    if bits < 32:
        signed = op in ("ifind_msb", "ibitfield_extract")
        ext = "i2i32" if signed else "u2u32"
        wide = [e.alu(ext, 32, s[0])] + [x if x.bit_size == 32 else e.alu("u2u32", 32, x)
                                         for x in s[1:]]
        if op == "bitfield_insert":
            wide[1] = e.alu("u2u32", 32, s[1])
        r = e.alu(op, 32, *wide)
        if op == "bitfield_reverse":
            r = e.alu("ushr", 32, r, e.const(32, 32 - bits))
        return r if d.bit_size == 32 else e.alu(f"u2u{d.bit_size}", d.bit_size, r)
    if op in ("ufind_msb", "ifind_msb", "find_lsb", "bit_count", "bitfield_reverse"):
        return None
    c32 = e.const(32, 32)
    if op in ("ubitfield_extract", "ibitfield_extract"):
        x, off, cnt = s
        r = e.alu("ubfe" if op[0] == "u" else "ibfe", 32, x, off, cnt)
        k = const_int(cnt)
        if k is not None and k < 32:
            return r
        return e.bcsel(e.alu("uge", 1, cnt, c32), x, r)
    base, insert, off, cnt = s
    m = e.alu("bfm", 32, cnt, off)
    r = e.alu("bfi", 32, m, e.alu("ishl", 32, insert, off), base)
    k = const_int(cnt)
    if k is not None and k < 32:
        return r
    return e.bcsel(e.alu("uge", 1, cnt, c32), insert, r)


def _dot_4x8(ins: Instr, e: Emit) -> Value | None:
    """A `DOT_4X8` op the target's isel has no instruction for: the bytes extracted
    (``ibfe``/``ubfe``), multiplied, summed, plus the accumulator."""
    opts = e.shader.options
    if opts is not None and ins.op not in opts.lowered_ops:
        return None
    sa, sb = DOT_4X8[ins.op]
    a, b, c = ins.srcs

    def byte(x: Value, signed: bool, k: int) -> Value:
        return e.alu("ibfe" if signed else "ubfe", 32, x, e.const(32, 8 * k), e.const(32, 8))

    acc: Value | None = None
    for k in range(4):
        p = e.alu("imul", 32, byte(a, sa, k), byte(b, sb, k))
        acc = p if acc is None else e.alu("iadd", 32, acc, p)
    assert acc is not None
    return e.alu("iadd", 32, acc, c)


# the float operations besides TRANSCENDENTAL that `_lower` rewrites (by width and mode)
_FLOAT_LOWERED = frozenset({"fmod", "frem", "flrp", "fstep", "fsign", "fdiv", "frcp", "frsq",
                            "fsqrt"})


def _lower(ins: Instr, e: Emit) -> Value | None:
    op = ins.op
    d = ins.dest
    if d is None:
        return None
    if op in DOT_4X8:
        return _dot_4x8(ins, e)
    if op in BIT_OPS:
        return _bits(ins, e)
    bits = d.bit_size
    s = list(ins.srcs)
    if op == "isign" and bits <= 32:  # the back-end optimizer makes it v_med3_i32/i16 (ACO)
        return e.alu("imin", bits, e.alu("imax", bits, s[0], e.const(bits, -1)),
                     e.const(bits, 1))
    if op == "isign":
        neg = e.alu("ishr", bits, s[0], e.const(32, bits - 1))
        nz = e.alu(f"b2i{bits}", bits, e.alu("ine", 1, s[0], e.const(bits, 0)))
        return e.alu("ior", bits, neg, nz)
    if op not in TRANSCENDENTAL and op not in _FLOAT_LOWERED:
        return None
    f = _F(e, bits)
    if op == "fmod" or op == "frem":
        q = f("ffloor" if op == "fmod" else "ftrunc", f("fdiv", s[0], s[1]))
        return f("fsub", s[0], f("fmul", s[1], q))
    if op == "flrp":
        a, b, t = s
        return f("fadd", f("fmul", a, f("fsub", f.k(1.0), t)), f("fmul", b, t))
    if op == "fstep":
        return f.sel(f.lt(s[1], s[0]), f.k(0.0), f.k(1.0))
    if op == "fsign" and bits in (16, 32):
        # ACO: x + 0.0 turns -0.0 into +0.0; its bits as an integer clamped to [-1, 1]
        # (v_med3_i32/i16) have the sign of x; converted back (NaN: +-1, GLSL leaves it
        # open); exact: algebraic's inexact x + 0.0 -> x would keep -0.0
        t = e.alu("fadd", bits, s[0], f.k(0.0), exact=True)
        r = e.alu("imin", bits, e.alu("imax", bits, t, e.const(bits, -1)), e.const(bits, 1))
        return e.alu(f"i2f{bits}", bits, r)
    if op == "fsign":
        x = s[0]
        zero = f.k(0.0)
        return f.sel(f.lt(zero, x), f.k(1.0), f.sel(f.lt(x, zero), f.k(-1.0), x))
    if bits == 64 and not ins.attrs.get("approx"):
        r64 = _f64(f, op, s)
        if r64 is not None:
            return r64
    if op == "fdiv" and bits == 16:
        a, b = (e.alu("f2f32", 32, x) for x in s)
        return e.alu("f2f16", 16, e.alu("fmul", 32, a, e.alu("frcp", 32, b)))
    if op == "fdiv":
        return f("fmul", s[0], f("frcp", s[1]))
    if op in ("frcp", "frsq", "fsqrt"):
        return None
    if bits != 32 and (op in COMPOSITE or bits == 64):
        # compute in f32
        narrow = [e.alu("f2f32", 32, x) for x in s]
        r32 = e.alu(op, 32, *narrow)
        return e.alu(f"f2f{bits}", bits, r32)
    if op in ("fsin", "fcos"):
        return f.sin_cos(op, s[0])
    if op in COMPOSITE:
        return _composite(f, op, s)
    return None


# the opcodes `_lower` may replace
_OPS = frozenset(DOT_4X8) | BIT_OPS | TRANSCENDENTAL | _FLOAT_LOWERED | {"isign"}


def lower_math(shader: MirShader) -> bool:
    return rewrite_instrs(shader, _lower, ops=_OPS)

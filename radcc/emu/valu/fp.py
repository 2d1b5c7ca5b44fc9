"""IEEE binary16/32/64 helpers: bits <-> floats, classes, denormal flushing,
NaN quieting, and rounding in the MODE register's four round modes.

Rounding model (ISA guide §7.2.4): an f16/f32 result is computed in float64
as ``hi`` plus an exact residual ``lo`` (value = hi + lo exactly; ``lo`` comes
from error-free transformations: TwoSum, exact products), then rounded once to
the target format in the requested mode, with the round-to-nearest-even tie
fixed when ``hi`` sits on a target midpoint. f64 results are numpy's (RNE);
directed modes nudge them by the residual's sign. v_fma_f64 is exact (integer
arithmetic per lane where the product is not exact in float64).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from radcc.emu.valu.float_mode import RDN, RNE, RTZ, RUP

U64 = np.uint64


@dataclass(frozen=True)
class Fmt:
    """One IEEE binary format; masks precomputed as np.uint64 constants."""

    name: str
    bits: int
    mant: int  # stored fraction bits
    expb: int  # exponent bits
    ftype: type
    utype: type
    bias: int = field(init=False)
    sign: np.uint64 = field(init=False)
    mask: np.uint64 = field(init=False)
    exp_mask: np.uint64 = field(init=False)
    mant_mask: np.uint64 = field(init=False)
    quiet: np.uint64 = field(init=False)
    default_nan: np.uint64 = field(init=False)  # sign set, quiet: 0xffc00000, 0xfe00
    max_bits: np.uint64 = field(init=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "bias", (1 << (self.expb - 1)) - 1)
        put(self, "sign", U64(1 << (self.bits - 1)))
        put(self, "mask", U64((1 << self.bits) - 1))
        put(self, "exp_mask", U64(((1 << self.expb) - 1) << self.mant))
        put(self, "mant_mask", U64((1 << self.mant) - 1))
        put(self, "quiet", U64(1 << (self.mant - 1)))
        put(self, "default_nan", self.sign | self.exp_mask | self.quiet)
        put(self, "max_bits", self.exp_mask - U64(1 << self.mant) + self.mant_mask)


F16 = Fmt("f16", 16, 10, 5, np.float16, np.uint16)
F32 = Fmt("f32", 32, 23, 8, np.float32, np.uint32)
F64 = Fmt("f64", 64, 52, 11, np.float64, np.uint64)
FMTS = {16: F16, 32: F32, 64: F64}


def bits_to_f(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    """Raw bits (uint64, low `fmt.bits` used) as values of the format's dtype."""
    return (bits & fmt.mask).astype(fmt.utype).view(fmt.ftype)


def f_to_bits(x: np.ndarray, fmt: Fmt) -> np.ndarray:
    """Values (already of fmt.ftype) to zero-extended uint64 bits."""
    return np.asarray(x, dtype=fmt.ftype).view(fmt.utype).astype(U64)


def bits_to_f64(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return bits_to_f(bits, fmt).astype(np.float64)


def is_nan(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return (bits & (fmt.mask ^ fmt.sign)) > fmt.exp_mask


def is_snan(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return is_nan(bits, fmt) & ((bits & fmt.quiet) == 0)


def is_qnan(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return is_nan(bits, fmt) & ((bits & fmt.quiet) != 0)


def is_inf(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return (bits & ~fmt.sign & fmt.mask) == fmt.exp_mask


def is_denorm(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return ((bits & fmt.exp_mask) == 0) & ((bits & fmt.mant_mask) != 0)


def is_zero(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return (bits & ~fmt.sign & fmt.mask) == 0


def exponent(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    """Biased exponent field as int64."""
    return ((bits & fmt.exp_mask) >> U64(fmt.mant)).astype(np.int64)


def sign_bit(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    return (bits & fmt.sign) != 0


def flush(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    """Denormals to zero of the same sign."""
    return np.where(is_denorm(bits, fmt), bits & fmt.sign, bits)


def quiet(bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    """Set the quiet bit of NaNs (cvtToQuietNAN)."""
    return np.where(is_nan(bits, fmt), bits | fmt.quiet, bits)


def abs_neg(bits: np.ndarray, fmt: Fmt, ab: bool, ng: bool) -> np.ndarray:
    """ABS then NEG input modifiers (§7.2.2.1): sign-bit operations."""
    b = bits & fmt.mask
    if ab:
        b = b & ~fmt.sign
    if ng:
        b = b ^ fmt.sign
    return b


def fix_nans(res: np.ndarray, fmt: Fmt, inputs: list[np.ndarray]) -> np.ndarray:
    """NaN results become the first NaN input, quieted, else the default NaN."""
    bad = is_nan(res, fmt)
    if not bad.any():
        return res
    out = np.full_like(res, fmt.default_nan)
    chosen = np.zeros(res.shape, bool)
    for b in inputs:
        n = is_nan(b, fmt) & ~chosen
        out = np.where(n, (b & fmt.mask) | fmt.quiet, out)
        chosen |= n
    return np.where(bad, out, res)


# --- rounding ---------------------------------------------------------------


def two_sum(a: np.ndarray, b: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Error of s = fl(a + b) (Knuth TwoSum); 0 where not finite."""
    with np.errstate(all="ignore"):
        bb = s - a
        err = (a - (s - bb)) + (b - bb)
    return np.where(np.isfinite(err), err, 0.0)


_SPLIT = 134217729.0  # 2**27 + 1


def two_prod(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Error of p = fl(a * b) (Dekker), and where that error is exact."""
    with np.errstate(all="ignore"):
        ca = _SPLIT * a
        ah = ca - (ca - a)
        al = a - ah
        cb = _SPLIT * b
        bh = cb - (cb - b)
        bl = b - bh
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        ok = (np.abs(a) < 2.0**995) & (np.abs(b) < 2.0**995) & (np.abs(p) > 2.0**-960)
        ok &= np.isfinite(err)
    return np.where(ok, err, 0.0), ok


def round_f64_to(hi: np.ndarray, lo: np.ndarray | None, fmt: Fmt, rmode: int) -> np.ndarray:
    """Round the exact value hi + lo (hi = RN64 of it) to `fmt`; bits (uint64)."""
    with np.errstate(all="ignore"):
        if lo is None and rmode == RNE:
            return f_to_bits(hi.astype(fmt.ftype), fmt)
        if fmt is F64:
            f = hi.astype(np.float64, copy=True)
            if rmode == RNE or lo is None:
                return f_to_bits(f, fmt)
            s = np.sign(lo)
        else:
            f = hi.astype(fmt.ftype)
            d = hi - f.astype(np.float64)
            s = np.sign(d)
            if lo is not None:
                s = np.where(d == 0, np.sign(lo), s)
                if rmode == RNE:
                    other = np.nextafter(f, np.where(d > 0, np.inf, -np.inf).astype(fmt.ftype))
                    mid = (f.astype(np.float64) + other.astype(np.float64)) * 0.5
                    fix = (d != 0) & (hi == mid) & (np.sign(lo) == np.sign(d))
                    if fix.any():
                        f = np.where(fix, other, f)
                    return f_to_bits(f, fmt)
        if rmode == RNE:
            return f_to_bits(f, fmt)
        ft = f.dtype.type
        if rmode == RUP:
            f = np.where(s > 0, np.nextafter(f, ft(np.inf)), f)
        elif rmode == RDN:
            f = np.where(s < 0, np.nextafter(f, ft(-np.inf)), f)
        elif rmode == RTZ:
            toward = ((f > 0) & (s < 0)) | ((f < 0) & (s > 0))
            f = np.where(toward, np.nextafter(f, ft(0)), f)
        return f_to_bits(f, fmt)


def directed_overflow(bits: np.ndarray, ovf: np.ndarray, fmt: Fmt, rmode: int) -> np.ndarray:
    """Finite operands, infinite RN result: the largest finite value where the
    round mode does not go toward that infinity (IEEE 754 §7.4)."""
    if rmode == RNE or not ovf.any():
        return bits
    neg = (bits & fmt.sign) != 0
    keep_inf = (rmode == RUP) & ~neg | (rmode == RDN) & neg
    fix = ovf & ~keep_inf & is_inf(bits, fmt)
    return np.where(fix, (bits & fmt.sign) | fmt.max_bits, bits)


def round_exact(neg: bool, n: int, e: int, fmt: Fmt, rmode: int) -> int:
    """Bits of (-1)**neg * n * 2**e (n >= 0 Python int) rounded to `fmt`."""
    sgn = 1 << (fmt.bits - 1) if neg else 0
    if n == 0:
        return sgn
    p = fmt.mant + 1
    emin = 1 - fmt.bias
    top = e + n.bit_length() - 1
    q = max(top - (p - 1), emin - (p - 1))
    shift = q - e
    if shift > 0:
        m = n >> shift
        rem = n - (m << shift)
        half = 1 << (shift - 1)
        if rmode == RNE:
            up = rem > half or (rem == half and m & 1)
        elif rmode == RUP:
            up = rem != 0 and not neg
        elif rmode == RDN:
            up = rem != 0 and neg
        else:
            up = False
        m += int(up)
    else:
        m = n << -shift
    if m == 1 << p:
        m >>= 1
        q += 1
    if m >= 1 << (p - 1):
        be = q + (p - 1) + fmt.bias
        if be >= (1 << fmt.expb) - 1:
            to_inf = rmode == RNE or (rmode == RUP and not neg) or (rmode == RDN and neg)
            mag = int(fmt.exp_mask) if to_inf else int(fmt.max_bits)
            return sgn | mag
        return sgn | (be << fmt.mant) | (m - (1 << (p - 1)))
    return sgn | m


def _decompose(x: float) -> tuple[bool, int, int]:
    """x = (-1)**neg * n * 2**e exactly (finite x)."""
    fr, ex = math.frexp(x)
    n = int(math.ldexp(abs(fr), 53))
    return x < 0 or (x == 0 and math.copysign(1.0, x) < 0), n, ex - 53


def fma_f64(a: np.ndarray, b: np.ndarray, c: np.ndarray, rmode: int) -> np.ndarray:
    """Exactly rounded fused a*b+c of float64 arrays; returns bits."""
    with np.errstate(all="ignore"):
        p = a * b
        plo, ok = two_prod(a, b, p)
        hi = p + c
        fast = ~np.isfinite(a) | ~np.isfinite(b) | ~np.isfinite(c) | (a == 0) | (b == 0) | (c == 0)
        fast |= ok & (plo == 0)
        if rmode == RNE:
            out = f_to_bits(hi, F64)
        else:
            lo = np.where(plo == 0, two_sum(p, c, hi), 0.0)
            out = round_f64_to(hi, lo, F64, rmode)
            fin = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
            out = directed_overflow(out, fin & ~np.isfinite(hi), F64, rmode)
            # a*b alone (c == 0, a or b zero): directed rounding of the product
            pz = (c == 0) & (a != 0) & (b != 0) & np.isfinite(p) & ~(ok & (plo == 0))
            fast &= ~pz
    slow = np.nonzero(~fast)[0]
    for i in slow:
        na, ma, ea = _decompose(float(a[i]))
        nb, mb, eb = _decompose(float(b[i]))
        nc, mc, ec = _decompose(float(c[i]))
        pv = ma * mb * (-1 if na != nb else 1)
        pe = ea + eb
        cv = mc * (-1 if nc else 1)
        e = min(pe, ec)
        tot = (pv << (pe - e)) + (cv << (ec - e))
        if tot == 0:
            out[i] = U64(1 << 63) if rmode == RDN else U64(0)
        else:
            out[i] = U64(round_exact(tot < 0, abs(tot), e, F64, rmode))
    return out

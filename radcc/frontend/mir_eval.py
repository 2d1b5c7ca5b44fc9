"""The semantics of every MIR ALU opcode (``mir_ops.ALU_OPS``), as NumPy code.

``eval_alu(op, dest_bits, dest_comps, srcs, src_bits, attrs)`` evaluates an ALU
instruction on arrays of shape (components, lanes) holding raw bits (unsigned
dtype of the bit size; ``bool`` for 1-bit values). The interpreter and the
constant folder share it, so folding means exactly what execution means.
Integer semantics follow NIR: shifts use the count modulo the bit size;
division by zero gives 0 (any value is allowed: GLSL leaves it undefined).
A separate module from the table so that a compile imports NumPy only when it
evaluates something; the folder (`mir_fold.fold`) comes here only for what plain
Python does not compute (the comparisons, the modular integer operations and the moves
are folded without NumPy, by the
rules of `mir_rules` that this module's table shares).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .mir_ops import ALU_OPS, CONVERSION
from .mir_rules import (
    COMPARISONS,
    FLOAT_ARITH,
    INTEGER_OPS,
    SELECTS,
    SHIFTS,
    components,
    is_denormal,
    is_move,
    shift_count,
)

Arr = np.ndarray

UNS = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
SIG = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
FLT = {16: np.float16, 32: np.float32, 64: np.float64}


def raw_dtype(bits: int) -> Any:
    return np.bool_ if bits == 1 else UNS[bits]


def as_type(a: Arr, kind: str, bits: int) -> Arr:
    """Reinterpret raw bits as ``kind`` (view, no copy)."""
    if bits == 1 or kind in ("bool", "any"):
        return a
    if kind == "float":
        return a.view(FLT[bits])
    if kind == "int":
        return a.view(SIG[bits])
    return a


def to_raw(a: Arr, bits: int) -> Arr:
    """Raw bits of a typed result (same bit size)."""
    if bits == 1:
        return np.asarray(a, dtype=np.bool_)
    a = np.asarray(a)
    if a.dtype.itemsize * 8 == bits and a.dtype.kind in "uif":
        return a.view(UNS[bits])
    raise AssertionError(f"result of {a.dtype} for {bits} bits")


def _trunc_div(a: Arr, b: Arr, bits: int) -> tuple[Arr, Arr]:
    """C-style signed division and remainder (quotient toward zero), b == 0 -> 0."""
    ai = a.astype(np.int64) if bits < 64 else a
    bi = b.astype(np.int64) if bits < 64 else b
    zero = bi == 0
    bs = np.where(zero, 1, bi)
    if bits == 64:
        # avoid INT64_MIN / -1 overflow
        bs = np.where((ai == np.iinfo(np.int64).min) & (bs == -1), 1, bs)
    q = np.abs(ai) // np.abs(bs)
    q = np.where((ai < 0) != (bs < 0), -q, q)
    r = ai - q * bs
    q = np.where(zero, 0, q)
    r = np.where(zero, 0, r)
    t = SIG[bits]
    return q.astype(t), r.astype(t)


def _find_msb_u(a: Arr, bits: int) -> Arr:
    out = np.full(a.shape, -1, np.int64)
    u = a.astype(np.uint64)
    for i in range(bits):
        out = np.where((u >> np.uint64(i)) & np.uint64(1), i, out)
    return out


def _find_lsb(a: Arr, bits: int) -> Arr:
    out = np.full(a.shape, -1, np.int64)
    u = a.astype(np.uint64)
    for i in reversed(range(bits)):
        out = np.where((u >> np.uint64(i)) & np.uint64(1), i, out)
    return out


def _popcount(a: Arr, bits: int) -> Arr:
    u = a.astype(np.uint64)
    out = np.zeros(a.shape, np.int64)
    for i in range(bits):
        out += ((u >> np.uint64(i)) & np.uint64(1)).astype(np.int64)
    return out


def _bitrev(a: Arr, bits: int) -> Arr:
    u = a.astype(np.uint64)
    out = np.zeros(a.shape, np.uint64)
    for i in range(bits):
        out |= ((u >> np.uint64(i)) & np.uint64(1)) << np.uint64(bits - 1 - i)
    return out


def _mul_high(a: Arr, b: Arr, bits: int, signed: bool) -> Arr:
    if bits < 64:
        wide = (a.astype(np.int64) * b.astype(np.int64)) if signed else (
            a.astype(np.uint64) * b.astype(np.uint64))
        return (wide >> bits).astype(SIG[bits] if signed else UNS[bits])
    fa = a.ravel().tolist()
    fb = b.ravel().tolist()
    res = [((int(x) * int(y)) >> 64) & (2**64 - 1) for x, y in zip(fa, fb, strict=True)]
    return np.array(res, np.uint64).reshape(a.shape)


def _bfe(v: Arr, off: Arr, cnt: Arr, bits: int, signed: bool) -> Arr:
    u = v.astype(np.uint64) & np.uint64((1 << bits) - 1) if bits < 64 else v.view(np.uint64)
    off = off.astype(np.uint64) & np.uint64(bits - 1) if bits > 1 else off.astype(np.uint64)
    cnt = cnt.astype(np.uint64)
    out = np.zeros(v.shape, np.uint64)
    for i in range(bits):
        ii = np.uint64(i)
        take = ii < cnt
        src = off + ii
        bit = np.where(src < np.uint64(bits), (u >> np.minimum(src, np.uint64(bits - 1))) &
                       np.uint64(1), np.uint64(0))
        out |= np.where(take, bit << ii, np.uint64(0))
    if signed:
        # sign extend from bit cnt-1
        top = np.where(cnt > 0, cnt - np.uint64(1), np.uint64(0))
        neg = ((out >> top) & np.uint64(1)).astype(bool) & (cnt > 0) & (cnt < np.uint64(bits))
        ext = ~((np.uint64(1) << np.minimum(cnt, np.uint64(63))) - np.uint64(1))
        out = np.where(neg, out | ext, out)
    out = np.where(cnt == 0, np.uint64(0), out)
    return (out & np.uint64((1 << bits) - 1) if bits < 64 else out).astype(UNS[bits])


def _dot_4x8(a: list[Arr], sa: bool, sb: bool) -> Arr:
    """`DOT_4X8`: the byte products of a[0] and a[1] (signed when sa/sb) plus a[2]."""
    acc = a[2].astype(np.int64)
    for k in range(4):
        x = ((a[0] >> np.uint32(8 * k)) & np.uint32(0xFF)).astype(np.int64)
        y = ((a[1] >> np.uint32(8 * k)) & np.uint32(0xFF)).astype(np.int64)
        if sa:
            x = np.where(x >= 128, x - 256, x)
        if sb:
            y = np.where(y >= 128, y - 256, y)
        acc = acc + x * y
    return (acc & 0xFFFFFFFF).astype(np.uint32)


def _bfi(base: Arr, ins: Arr, off: Arr, cnt: Arr, bits: int) -> Arr:
    b = base.astype(np.uint64)
    i = ins.astype(np.uint64)
    off = off.astype(np.uint64)
    cnt = cnt.astype(np.uint64)
    full = np.uint64((1 << bits) - 1) if bits < 64 else np.uint64(2**64 - 1)
    m = np.where(cnt >= np.uint64(bits), full,
                 (np.uint64(1) << np.minimum(cnt, np.uint64(63))) - np.uint64(1))
    m = (m << np.minimum(off, np.uint64(63))) & full
    out = (b & ~m) | ((i << np.minimum(off, np.uint64(63))) & m)
    return (out & full).astype(UNS[bits])


def _fround_even(x: Arr) -> Arr:
    return np.rint(x)


def _unorm(x: Arr, bits: int) -> Arr:
    scale = (1 << bits) - 1
    return np.rint(np.clip(x.astype(np.float64), 0, 1) * scale).astype(np.uint64)


def _snorm(x: Arr, bits: int) -> Arr:
    scale = (1 << (bits - 1)) - 1
    v = np.rint(np.clip(x.astype(np.float64), -1, 1) * scale).astype(np.int64)
    return (v & ((1 << bits) - 1)).astype(np.uint64)


def _cvt_pk_u8(a: list[Arr]) -> Arr:
    """v_cvt_pk_u8_f32 (NaN gives 0)."""
    x = np.where(np.isnan(a[0]), 0, a[0]).astype(np.float64)
    v = np.clip(np.rint(x), 0, 255).astype(np.uint64)
    sh = (a[1].astype(np.uint64) & np.uint64(3)) * np.uint64(8)
    acc = a[2].astype(np.uint64) & ~(np.uint64(0xFF) << sh)
    return ((acc | v << sh) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _pk_norm(a: list[Arr], signed: bool) -> Arr:
    """v_cvt_pk_norm_{i16,u16}_f32 (NaN gives 0)."""
    parts = [np.where(np.isnan(x), 0, x) for x in a]
    conv = _snorm if signed else _unorm
    return (conv(parts[0], 16) | conv(parts[1], 16) << np.uint64(16)).astype(np.uint32)


def _pack(parts: list[Arr], bits: int) -> Arr:
    out = np.zeros(parts[0].shape, np.uint64)
    for k, p in enumerate(parts):
        out |= p.astype(np.uint64) << np.uint64(k * bits)
    return out.astype(np.uint32)


def _f2i(x: Arr, bits: int, signed: bool) -> Arr:
    """Float to integer, truncating; out-of-range values saturate (NIR's behaviour on
    AMD hardware; GLSL leaves them undefined) and NaN gives 0."""
    t = (SIG if signed else UNS)[bits]
    info = np.iinfo(t)
    xf = np.nan_to_num(np.trunc(x.astype(np.float64)), nan=0.0)
    lo, hi = float(info.min), float(info.max)
    if bits == 64:
        res = np.empty(x.shape, t)
        flat = xf.ravel()
        vals = [int(min(max(v, lo), hi)) if math.isfinite(v) else (info.max if v > 0 else
                info.min) for v in flat.tolist()]
        vals = [min(max(v, int(info.min)), int(info.max)) for v in vals]
        res = np.array(vals, dtype=t).reshape(x.shape)
        return res
    return np.clip(xf, lo, hi).astype(t)


def eval_alu(
    op: str,
    dest_bits: int,
    dest_comps: int,
    srcs: list[Arr],
    src_bits: list[int],
    attrs: dict[str, Any],
) -> Arr:
    """Evaluate ``op`` on raw-bit arrays of shape (components, lanes); returns raw bits."""
    with np.errstate(all="ignore"):
        return _eval(op, dest_bits, dest_comps, srcs, src_bits, attrs)


def _eval(
    op: str, db: int, dc: int, srcs: list[Arr], sb: list[int], attrs: dict[str, Any]
) -> Arr:
    info = ALU_OPS[op]
    # ----- moves and vectors -----
    if is_move(op):  # (mir_rules: the moves' one definition)
        return np.stack(components(op, srcs, dc, attrs))
    if op == "bitcast":
        a = srcs[0]
        lanes = a.shape[1]
        raw = np.ascontiguousarray(a.T).view(np.uint8) if sb[0] != 1 else None
        assert raw is not None and db != 1
        return np.ascontiguousarray(raw.view(UNS[db]).reshape(lanes, dc).T)
    if op == "bcsel":
        c = srcs[0]
        if c.shape[0] != srcs[1].shape[0]:
            c = np.broadcast_to(c, srcs[1].shape)
        return np.where(c, srcs[1], srcs[2]).astype(raw_dtype(db))
    m = CONVERSION.match(op)
    if m:
        return _convert(m.group(1), m.group(2), db, srcs[0], sb[0])
    if not info.per_component:
        return _pack_op(op, srcs[0], dc)
    b0 = sb[0]
    a = [as_type(s, k, bits) for s, k, bits in zip(srcs, info.srcs, sb, strict=True)]
    fn = _TABLE.get(op)
    if fn is None:
        raise NotImplementedError(op)
    r = fn(a, b0)
    if info.dest == "bool":
        return np.asarray(r, dtype=np.bool_)
    if db == 1:
        return np.asarray(r, dtype=np.bool_)
    if info.dest == "float":
        return np.asarray(r, dtype=FLT[db]).view(UNS[db])
    r = np.asarray(r)
    if r.dtype.kind == "f":
        raise AssertionError(op)
    if r.dtype.kind == "b":
        return r.astype(UNS[db])
    return r.astype(SIG[db] if r.dtype.kind == "i" else UNS[db], copy=False).view(UNS[db])


def _convert(frm: str, to: str, db: int, a: Arr, sbits: int) -> Arr:
    if frm == "b":
        if to == "f":
            return a.astype(FLT[db]).view(UNS[db])
        return a.astype(UNS[db])
    if frm == "f":
        x = a.view(FLT[sbits])
        if to == "f":
            return x.astype(FLT[db]).view(UNS[db])
        return _f2i(x, db, to == "i").view(UNS[db])
    src = a.view(SIG[sbits]) if frm == "i" else a
    if to == "f":
        if db == 16:
            return src.astype(np.float64).astype(np.float16).view(np.uint16)
        return src.astype(FLT[db]).view(UNS[db])
    # integer resize: sign- or zero-extend, or truncate
    if frm == "i":
        return src.astype(SIG[db]).view(UNS[db])
    return src.astype(UNS[db])


def _pack_op(op: str, a: Arr, dc: int) -> Arr:
    if op == "pack_half_2x16":
        h = a.view(np.float32).astype(np.float16).view(np.uint16)
        return _pack([h[0:1], h[1:2]], 16)
    if op == "unpack_half_2x16":
        u = a.astype(np.uint32)
        lo = (u & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16)
        hi = (u >> np.uint32(16)).astype(np.uint16).view(np.float16)
        return np.concatenate([lo, hi]).astype(np.float32).view(np.uint32)
    if op in ("pack_unorm_2x16", "pack_snorm_2x16", "pack_unorm_4x8", "pack_snorm_4x8"):
        bits = 16 if "2x16" in op else 8
        n = 32 // bits
        f = a.view(np.float32)
        conv = _unorm if "unorm" in op else _snorm
        return _pack([conv(f[k:k + 1], bits) for k in range(n)], bits)
    if op.startswith("unpack_"):
        bits = 16 if "2x16" in op else 8
        n = 32 // bits
        u = a.astype(np.uint64)
        parts = []
        for k in range(n):
            p = (u >> np.uint64(k * bits)) & np.uint64((1 << bits) - 1)
            if "unorm" in op:
                parts.append(p.astype(np.float64) / ((1 << bits) - 1))
            else:
                s = np.where(p >= (1 << (bits - 1)), p.astype(np.int64) - (1 << bits),
                             p.astype(np.int64))
                parts.append(np.clip(s / ((1 << (bits - 1)) - 1), -1.0, 1.0))
        return np.concatenate(parts).astype(np.float32).view(np.uint32)
    raise NotImplementedError(op)


def _shift(op: str) -> Callable[[list[Arr], int], Arr]:
    """`mir_rules.SHIFTS[op]` on the operand widened to 64 bits (signed or unsigned)."""
    signed, fn = SHIFTS[op]

    def g(a: list[Arr], bits: int) -> Arr:
        count = shift_count(a[1].astype(np.uint64), bits)
        if signed:
            return fn(a[0].astype(np.int64), count.astype(np.int64)).astype(SIG[bits])
        return fn(a[0].view(UNS[bits]).astype(np.uint64), count).astype(UNS[bits])

    return g


def _where(a: list[Arr], b: int, fn: Callable[[list[Arr], Any], Arr]) -> Arr:
    return fn(a, np.where)


def _fsign(x: Arr) -> Arr:
    return np.where(np.isnan(x), x * 0, np.sign(x)).astype(x.dtype)


def _fmod_glsl(x: Arr, y: Arr) -> Arr:
    return (x - y * np.floor(x / y)).astype(x.dtype)


def _ldexp(x: Arr, e: Arr) -> Arr:
    return np.ldexp(x, np.clip(e.astype(np.int64), -2000, 2000).astype(np.int32)).astype(x.dtype)


def _frexp_exp(x: Arr) -> Arr:
    _, e = np.frexp(x)
    return np.where(np.isfinite(x), e, 0).astype(np.int32)


def _frexp_sig(x: Arr) -> Arr:
    s, _ = np.frexp(x)
    return s.astype(x.dtype)


def _wide(f: Callable[[Arr], Arr]) -> Callable[[list[Arr], int], Arr]:
    """A transcendental computed in double precision and rounded to the type."""

    def g(a: list[Arr], bits: int) -> Arr:
        x = a[0]
        return f(x.astype(np.float64)).astype(x.dtype)

    return g


def _rhs(x: Arr) -> Arr:
    return x


_TABLE: dict[str, Callable[[list[Arr], int], Arr]] = {
    "imul_high": lambda a, b: _mul_high(a[0], a[1], b, True),
    "umul_high": lambda a, b: _mul_high(a[0], a[1], b, False),
    "idiv": lambda a, b: _trunc_div(a[0], a[1], b)[0],
    "irem": lambda a, b: _trunc_div(a[0], a[1], b)[1],
    "imod": lambda a, b: np.where(a[1] == 0, 0, np.mod(a[0], np.where(a[1] == 0, 1, a[1]))),
    "uadd_carry": lambda a, b: (a[0] + a[1] < a[0]).astype(UNS[b]),
    "usub_borrow": lambda a, b: (a[0] < a[1]).astype(UNS[b]),
    "iabs": lambda a, b: np.abs(a[0]),
    "isign": lambda a, b: np.sign(a[0]),
    "bitfield_reverse": lambda a, b: _bitrev(a[0], b).astype(UNS[b]),
    "bit_count": lambda a, b: _popcount(a[0], b),
    "ufind_msb": lambda a, b: _find_msb_u(a[0].view(UNS[b]), b),
    "ifind_msb": lambda a, b: _find_msb_u(np.where(a[0] < 0, ~a[0], a[0]).view(UNS[b]), b),
    "find_lsb": lambda a, b: _find_lsb(a[0].view(UNS[b]), b),
    "bitfield_insert": lambda a, b: _bfi(a[0], a[1], a[2], a[3], b),
    "ibitfield_extract": lambda a, b: _bfe(a[0], a[1], a[2], b, True),
    "ubitfield_extract": lambda a, b: _bfe(a[0], a[1], a[2], b, False),
    **FLOAT_ARITH,  # (mir_rules, as the comparisons)
    "fdiv": lambda a, b: a[0] / a[1],
    "ffma": lambda a, b: (a[0].astype(np.float64) * a[1] + a[2]).astype(a[0].dtype)
    if b < 64 else a[0] * a[1] + a[2],
    "flrp": lambda a, b: a[0] * (1 - a[2]) + a[1] * a[2],
    "fmin": lambda a, b: np.fmin(a[0], a[1]),
    "fmax": lambda a, b: np.fmax(a[0], a[1]),
    "fstep": lambda a, b: np.where(a[1] < a[0], 0.0, 1.0).astype(a[0].dtype),
    "fpow": lambda a, b: np.power(a[0].astype(np.float64), a[1]).astype(a[0].dtype),
    "fmod": lambda a, b: _fmod_glsl(a[0], a[1]),
    "frem": lambda a, b: np.fmod(a[0], a[1]),
    "fatan2": lambda a, b: np.arctan2(a[0].astype(np.float64), a[1]).astype(a[0].dtype),
    "fneg": lambda a, b: -a[0],
    "fabs": lambda a, b: np.abs(a[0]),
    "fsign": lambda a, b: _fsign(a[0]),
    "ffloor": lambda a, b: np.floor(a[0]),
    "fceil": lambda a, b: np.ceil(a[0]),
    "ftrunc": lambda a, b: np.trunc(a[0]),
    "fround_even": lambda a, b: _fround_even(a[0]),
    "ffract": lambda a, b: a[0] - np.floor(a[0]),
    "fsat": lambda a, b: np.clip(a[0], 0, 1),
    "fsqrt": lambda a, b: np.sqrt(a[0]),
    "frsq": _wide(lambda x: 1 / np.sqrt(x)),
    "frcp": _wide(lambda x: 1 / x),
    "fexp2": _wide(np.exp2),
    "flog2": _wide(np.log2),
    "fsin": _wide(np.sin),
    "fcos": _wide(np.cos),
    "ftan": _wide(np.tan),
    "fasin": _wide(np.arcsin),
    "facos": _wide(np.arccos),
    "fatan": _wide(np.arctan),
    "fsinh": _wide(np.sinh),
    "fcosh": _wide(np.cosh),
    "ftanh": _wide(np.tanh),
    "fasinh": _wide(np.arcsinh),
    "facosh": _wide(np.arccosh),
    "fatanh": _wide(np.arctanh),
    "fldexp": lambda a, b: _ldexp(a[0], a[1]),
    "ffrexp_sig": lambda a, b: _frexp_sig(a[0]),
    "ffrexp_exp": lambda a, b: _frexp_exp(a[0]),
    "fisinf": lambda a, b: np.isinf(a[0]),
    "pack_64_2x32_split": lambda a, b: (a[0].astype(np.uint64) |
                                        (a[1].astype(np.uint64) << np.uint64(32))),
    "unpack_64_2x32_split_x": lambda a, b: (a[0] & np.uint64(0xFFFFFFFF)).astype(np.uint32),
    "unpack_64_2x32_split_y": lambda a, b: (a[0] >> np.uint64(32)).astype(np.uint32),
    "ubfe": lambda a, b: _bfe(a[0], a[1] & np.uint32(31), a[2] & np.uint32(31), 32, False),
    "ibfe": lambda a, b: _bfe(a[0], a[1] & np.uint32(31), a[2] & np.uint32(31), 32,
                              True).view(np.int32),
    "bfm": lambda a, b: (((np.uint64(1) << (a[0] & np.uint32(31)).astype(np.uint64)) -
                          np.uint64(1)) << (a[1] & np.uint32(31)).astype(np.uint64)
                         ).astype(np.uint32),
    "bfi": lambda a, b: (a[0] & a[1]) | (~a[0] & a[2]),
    "fsin_amd": _wide(lambda x: np.sin(2 * np.pi * x)),
    "fcos_amd": _wide(lambda x: np.cos(2 * np.pi * x)),
    "cvt_pk_u8_f32": lambda a, b: _cvt_pk_u8(a),
    "sdot_4x8_iadd": lambda a, b: _dot_4x8(a, True, True),
    "udot_4x8_uadd": lambda a, b: _dot_4x8(a, False, False),
    "sudot_4x8_iadd": lambda a, b: _dot_4x8(a, True, False),
    "pack_snorm_2x16_split": lambda a, b: _pk_norm(a, True),
    "pack_unorm_2x16_split": lambda a, b: _pk_norm(a, False),
    "pack_half_2x16_split": lambda a, b: (
        a[0].astype(np.float16).view(np.uint16).astype(np.uint32) |
        (a[1].astype(np.float16).view(np.uint16).astype(np.uint32) << np.uint32(16))),
    "unpack_half_2x16_split_x": lambda a, b: (a[0] & np.uint32(0xFFFF)).astype(
        np.uint16).view(np.float16).astype(np.float32),
    "unpack_half_2x16_split_y": lambda a, b: (a[0] >> np.uint32(16)).astype(
        np.uint16).view(np.float16).astype(np.float32),
    **COMPARISONS,  # written once, for NumPy and plain Python (mir_rules)
    **INTEGER_OPS,
    **{op: functools.partial(_where, fn=fn) for op, fn in SELECTS.items()},
    **{op: _shift(op) for op in SHIFTS},
    "fequ": lambda a, b: (a[0] == a[1]) | np.isnan(a[0]) | np.isnan(a[1]),
    "fneo": lambda a, b: (a[0] != a[1]) & ~np.isnan(a[0]) & ~np.isnan(a[1]),
    "fltu": lambda a, b: ~(a[0] >= a[1]),
    "fgeu": lambda a, b: ~(a[0] < a[1]),
}


def _flush_denormals(a: Arr, bits: int) -> Arr:
    """Raw float bits with every denormal (`mir_rules.is_denormal`) replaced by the zero
    of its sign."""
    sign = UNS[bits](1 << (bits - 1))
    return np.where(is_denormal(a, bits), a & sign, a).astype(UNS[bits])


def fold(op: str, dest_bits: int, dest_comps: int, srcs: list[tuple[int, ...]],
         src_bits: list[int], attrs: dict[str, Any],
         flush: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """``eval_alu`` on constants: each source's raw bits per component in, the
    result's out (one lane). `flush`: the float bit sizes whose denormals the kernel
    flushes (`FloatControls.flushed`): as NIR's constant folding under a flush-to-zero
    execution mode, float sources and float results of those sizes are flushed to the
    zero of their sign, so a folded value is what the instruction computes at run time."""
    arrays = [np.array(c, dtype=np.uint64).astype(raw_dtype(b)).reshape(-1, 1)
              for c, b in zip(srcs, src_bits, strict=True)]
    info = ALU_OPS[op]
    if flush and op not in ("mov", "bcsel", "bitcast") and not op.startswith("vec"):
        arrays = [_flush_denormals(a, b) if k == "float" and b in flush else a
                  for a, k, b in zip(arrays, info.srcs, src_bits, strict=True)]
    r = eval_alu(op, dest_bits, dest_comps, arrays, src_bits, attrs)
    if flush and info.dest == "float" and dest_bits in flush:
        r = _flush_denormals(np.asarray(r), dest_bits)
    return tuple(int(x) for x in np.asarray(r).reshape(-1))

"""Compares (ISA guide §16.9): V_CMP{,X}_{COMPF}_{F16,F32,F64}, the integer
compares of I16/U16/I32/U32/I64/U64, and V_CMP{,X}_CLASS_*. The result is
`sdst` (bool lanes); v_cmpx_* set `writes_exec` (GFX11 v_cmpx writes only
EXEC). Float compares honour ABS/NEG and input denormal flushing; CLASS sees
the operand unflushed (a denormal reports as denormal).
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.core import Ctx, ValuResult, add_op, s16, s32, u16, u32
from radcc.emu.valu.fops import fbits, fsrc
from radcc.emu.valu.fp import (
    F16,
    F32,
    F64,
    Fmt,
    exponent,
    is_qnan,
    is_snan,
    sign_bit,
)

FCMP = {
    "f": lambda a, b: np.zeros(a.shape, bool),
    "lt": lambda a, b: a < b,
    "eq": lambda a, b: a == b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "lg": lambda a, b: (a < b) | (a > b),
    "ge": lambda a, b: a >= b,
    "o": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "u": lambda a, b: np.isnan(a) | np.isnan(b),
    "nge": lambda a, b: ~(a >= b),
    "nlg": lambda a, b: ~((a < b) | (a > b)),
    "ngt": lambda a, b: ~(a > b),
    "nle": lambda a, b: ~(a <= b),
    "neq": lambda a, b: ~(a == b),
    "nlt": lambda a, b: ~(a < b),
    "t": lambda a, b: np.ones(a.shape, bool),
}
ICMP = {
    "f": FCMP["f"],
    "lt": FCMP["lt"],
    "eq": FCMP["eq"],
    "le": FCMP["le"],
    "gt": FCMP["gt"],
    "ne": lambda a, b: a != b,
    "ge": FCMP["ge"],
    "t": FCMP["t"],
}


def _result(name: str, r: np.ndarray) -> ValuResult:
    return ValuResult(None, sdst=np.asarray(r, bool), writes_exec=name.startswith("v_cmpx_"),
                      d_bits=0)


def _fcmp(cond: str, fmt: Fmt):
    f = FCMP[cond]

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        _, a = fsrc(ctx, srcs, 0, fmt)
        _, b = fsrc(ctx, srcs, 1, fmt)
        with np.errstate(all="ignore"):
            return _result(ctx.name, f(a, b))
    return fn


def _icmp(cond: str, bits: int, signed: bool):
    f = ICMP[cond]

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if bits == 16:
            a, b = u16(ctx, srcs, 0), u16(ctx, srcs, 1)
            if signed:
                a, b = s16(a), s16(b)
        elif bits == 32:
            a, b = (s32(srcs[0]), s32(srcs[1])) if signed else (u32(srcs, 0), u32(srcs, 1))
        else:
            a, b = (srcs[0].view(np.int64), srcs[1].view(np.int64)) if signed else (srcs[0], srcs[1])
        return _result(ctx.name, f(a, b))
    return fn


def fp_class(bits: np.ndarray, mask: np.ndarray, fmt: Fmt) -> np.ndarray:
    """V_CMP_CLASS: bit of the 10-bit class mask selected by the class of bits."""
    emax = (1 << fmt.expb) - 1
    e = exponent(bits, fmt)
    neg = sign_bit(bits, fmt)
    zero = (bits & ~fmt.sign & fmt.mask) == 0
    idx = np.where(zero, np.where(neg, 5, 6),
                   np.where(e == 0, np.where(neg, 4, 7),
                            np.where(e == emax, np.where(neg, 2, 9), np.where(neg, 3, 8))))
    idx = np.where(is_qnan(bits, fmt), 1, idx)
    idx = np.where(is_snan(bits, fmt), 0, idx)
    return ((mask >> idx.astype(np.uint64)) & np.uint64(1)) != 0


def _class(fmt: Fmt):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        b = fbits(ctx, srcs, 0, fmt, ftz=False)
        return _result(ctx.name, fp_class(b, u32(srcs, 1), fmt))
    return fn


for _x in ("v_cmp", "v_cmpx"):
    for _f in (F16, F32, F64):
        add_op(f"{_x}_class_{_f.name}", _class(_f))
        for _c in FCMP:
            add_op(f"{_x}_{_c}_{_f.name}", _fcmp(_c, _f))
    for _bits in (16, 32, 64):
        for _s, _t in ((True, "i"), (False, "u")):
            for _c in ICMP:
                if _bits == 16 and _c in ("f", "t"):
                    continue
                add_op(f"{_x}_{_c}_{_t}{_bits}", _icmp(_c, _bits, _s))

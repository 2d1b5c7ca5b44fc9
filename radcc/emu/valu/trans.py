"""Transcendental ops (ISA guide §16.8): rcp, rcp_iflag, rsq, sqrt, log, exp,
sin, cos.

Results are computed in float64 and rounded to nearest even once, which is
within the guide's stated accuracy (f32: 1 ULP; f16: 0.51 ULP; f64 rcp/rsq/
sqrt: 2**29 ULP). The f32 forms flush denormal inputs and outputs whatever
MODE says ("denormals are flushed"); sin/cos and the f16/f64 forms follow
MODE. sin/cos take their input in revolutions: sin(2*pi*x), reduced exactly
(x - rint(x), then quadrants) so that sin(0.25) == 1 and cos(0.25) == 0 as in
the guide's functional examples.
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.core import Ctx, ValuResult, add_op
from radcc.emu.valu.float_mode import RNE
from radcc.emu.valu.fops import fresult, fsrc
from radcc.emu.valu.fp import F16, F32, F64, Fmt


def _unary(fmt: Fmt, f, *, flush32: bool = True):
    ftz = True if (fmt is F32 and flush32) else None

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt, ftz=ftz)
        with np.errstate(all="ignore"):
            hi = f(a)
        return fresult(ctx, fmt, hi, None, [ab], rmode=RNE, ftz=ftz)
    return fn


def _rcp(a: np.ndarray) -> np.ndarray:
    return 1.0 / a


def _rsq(a: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(a)


def sin_cos_rev(x: np.ndarray, is_cos: bool) -> np.ndarray:
    """sin(2*pi*x) or cos(2*pi*x) with exact argument reduction (float64 x)."""
    with np.errstate(all="ignore"):
        r = x - np.rint(x)
        t = 4.0 * r
        k = np.rint(t)
        f = (t - k) * (np.pi / 2)
        q = np.where(np.isfinite(k), k, 0).astype(np.int64) % 4
        s, c = np.sin(f), np.cos(f)
        if is_cos:
            out = np.choose(q, [c, -s, -c, s])
        else:
            out = np.choose(q, [s, c, -s, -c])
        out = np.where(out == 0, 0.0, out)
        if not is_cos:
            out = np.where(x == 0, x, out)
        return np.where(np.isfinite(x), out, np.nan)


def _sin(a: np.ndarray) -> np.ndarray:
    return sin_cos_rev(a, False)


def _cos(a: np.ndarray) -> np.ndarray:
    return sin_cos_rev(a, True)


for _f in (F16, F32):
    _n = _f.name
    add_op(f"v_rcp_{_n}", _unary(_f, _rcp))
    add_op(f"v_rsq_{_n}", _unary(_f, _rsq))
    add_op(f"v_sqrt_{_n}", _unary(_f, np.sqrt))
    add_op(f"v_log_{_n}", _unary(_f, np.log2))
    add_op(f"v_exp_{_n}", _unary(_f, np.exp2))
    add_op(f"v_sin_{_n}", _unary(_f, _sin, flush32=False))
    add_op(f"v_cos_{_n}", _unary(_f, _cos, flush32=False))
add_op("v_rcp_iflag_f32", _unary(F32, _rcp))
add_op("v_rcp_f64", _unary(F64, _rcp))
add_op("v_rsq_f64", _unary(F64, _rsq))
add_op("v_sqrt_f64", _unary(F64, np.sqrt))

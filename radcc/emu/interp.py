"""Parameter interpolation (VINTERP; ISA guide 12.3 "VALU Parameter Interpolation", 16.13,
encoding 15.4.1): the second half of a pixel shader's attribute read, after
``lds_param_load`` (`radcc.emu.graphics`) put P0, P10 and P20 of each quad in its lanes
0, 1 and 2.

- ``v_interp_p10_f32 vD, a, i, c``: ``fma(a[quad lane 1], i, c[quad lane 0])``;
  ``v_interp_p2_f32 vD, a, j, t``: ``fma(a[quad lane 2], j, t)``: V_FMA_F32 of the VALU
  library with the fixed DPP8 lane selects, which read lanes whatever their EXEC ("acts
  as if fetch invalid = 1");
- the f16 forms (``v_interp_p10_f16_f32``, ``v_interp_p2_f16_f32`` and the ``_rtz_``
  ones) read the f16 halves OPSEL names, the p2 forms write an f16 half;
- NEG negates sources, ``clamp`` clamps to [0, 1]; ``wait_exp:N`` is a built-in
  ``s_waitcnt expcnt(N)`` (strict mode applies it before checking the reads:
  `radcc.emu.strict.Strict.pending`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from radcc.emu.decode import Inst
from radcc.emu.errors import UnsupportedInstruction
from radcc.emu.state import Wave

Handler = Callable[[Wave, Inst], None]


def _vgpr(code: int, i: Inst) -> int:
    if code < 256:
        raise UnsupportedInstruction(f"{i.where()}: a VINTERP source must be a VGPR")
    return code - 256


def _bind_vinterp(i: Inst) -> Handler:
    name = i.name
    f = i.f
    vdst = f.get("vdst", 0)
    s0, s1, s2 = (_vgpr(f.get(k, 256), i) for k in ("src0", "src1", "src2"))
    neg = f.get("neg", 0)
    opsel = f.get("opsel", 0)
    clamp = bool(f.get("clamp"))
    wait = f.get("wait_exp", 0)
    p10 = "_p10_" in name
    f16_in = "_f16_" in name
    f16_out = f16_in and not p10
    rtz = "_rtz_" in name
    if name not in ("v_interp_p10_f32", "v_interp_p2_f32", "v_interp_p10_f16_f32",
                    "v_interp_p2_f16_f32", "v_interp_p10_rtz_f16_f32",
                    "v_interp_p2_rtz_f16_f32"):
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")

    def read(w: Wave, r: int, sel: int, lane: int | None, half: bool) -> np.ndarray:
        x = w.v[r]
        if lane is not None:  # the fixed DPP8: the quad's lane `lane` (any EXEC)
            x = np.repeat(x.reshape(-1, 4)[:, lane], 4)
        if half:
            h = ((x >> 16) if sel else x) & 0xFFFF
            return h.astype(np.uint16).view(np.float16).astype(np.float64)
        return x.view(np.float32).astype(np.float64)

    if not f16_in:  # V_FMA_F32 with fixed DPP8 sources: the VALU library's FMA
        from radcc.emu.valu import Ctx, ValuMods, decode_mode, op_function
        from radcc.emu.vop import write_result

        fma = op_function("v_fma_f32")
        mods = ValuMods(neg=(bool(neg & 1), bool(neg & 2), bool(neg & 4)), clamp=clamp)
        lanes = (1, None, 0) if p10 else (2, None, None)

        def raw(w: Wave, r: int, lane: int | None) -> np.ndarray:
            x = w.v[r]
            if lane is not None:
                x = np.repeat(x.reshape(-1, 4)[:, lane], 4)
            return x.astype(np.uint64)

        def h32(w: Wave, i: Inst) -> None:
            if w.strict is not None:
                w.strict.waitcnt(w, i, expcnt=wait)
            ex = w.exec_mask()
            srcs = [raw(w, r, k) for r, k in zip((s0, s1, s2), lanes, strict=True)]
            ctx = Ctx("v_fma_f32", mods, w.size, ex, decode_mode(w.mode))
            write_result(w, vdst, fma(ctx, srcs), ex)
        return h32

    def h(w: Wave, i: Inst) -> None:
        if w.strict is not None:
            w.strict.waitcnt(w, i, expcnt=wait)
        a = read(w, s0, opsel & 1, 1 if p10 else 2, f16_in)
        b = read(w, s1, 0, None, False)
        c = read(w, s2, opsel >> 2 & 1, 0 if p10 else None, f16_in and p10)
        if neg & 1:
            a = -a
        if neg & 2:
            b = -b
        if neg & 4:
            c = -c
        # f16 x f32 products fit f64 exactly; the sum may round twice in rare cases
        r = a * b + c
        if clamp:
            r = np.clip(r, 0.0, 1.0)
        ex = w.exec_mask()
        row = w.v[vdst]
        if f16_out:
            if rtz:
                r16 = _f16_rtz(r)
            else:
                r16 = r.astype(np.float16).view(np.uint16).astype(np.uint32)
            if opsel >> 3 & 1:
                val = (row & 0xFFFF) | (r16 << 16)
            else:
                val = (row & 0xFFFF0000) | r16
            row[ex] = val[ex]
        else:
            row[ex] = r.astype(np.float32).view(np.uint32)[ex]
    return h


def _f16_rtz(r: np.ndarray) -> np.ndarray:
    """f64 -> f16 bits rounded toward zero."""
    near = r.astype(np.float16)
    back = near.astype(np.float64)
    over = np.abs(back) > np.abs(r)
    bits = near.view(np.uint16).astype(np.int64)
    bits = np.where(over & np.isfinite(r), bits - 1, bits)
    return (bits & 0xFFFF).astype(np.uint32)


BINDERS: dict[str, Callable[[Inst], Handler]] = {"VINTERP": _bind_vinterp}

__all__ = ["BINDERS"]

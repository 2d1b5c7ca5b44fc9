"""WMMA: the GFX11 wave matrix multiply-accumulate instructions (ISA guide 7.9,
"Wave Matrix Multiply Accumulate"; opcodes in 15.3.6's VOP3P table).

``v_wmma_<D>_16x16x16_<AB>  vD, vA, vB, C`` computes D = A x B + C on 16x16 matrices
held across the wave; EXEC is ignored (the pseudocode sets it to all ones) and every
lane of D is written. Register layouts (the ISA guide's WMMA VGPR diagram; the same
facts as Mesa's radv_nir_lower_cooperative_matrix.c for GFX11):

- A (16 x K): lane m (0-15) holds row m, element k of the row at bits k*E of its
  registers (E = 16 for f16/bf16: 8 VGPRs; 8 for iu8: 4 VGPRs; 4 for iu4: 2 VGPRs).
- B (K x 16): lane n (0-15) holds column n, element k at bits k*E.
- A and B must be replicated: lanes 16-31 (and 32-47, 48-63 in wave64) hold the same
  data as lanes 0-15. The emulator reads lanes 0-15; strict mode reports a copy that
  differs (`WMMAInputNotReplicated`): the hardware result is then undefined.
- C and D (16 x 16): VGPR j of lane l holds element (row j * W/16 + l / 16, column
  l % 16), W the wave size: 8 VGPRs in wave32, 4 in wave64. 32-bit elements fill the
  VGPR; 16-bit ones (f16/bf16 results) sit in the half OPSEL[2] selects, and D keeps
  the other half.
- C may be an inline constant (for 16-bit types the value of the low half).

Modifiers: for the float forms NEG[0]/NEG_HI[0] negate A's low/high halves, NEG[1]/
NEG_HI[1] B's, NEG[2] negates C and NEG_HI[2] takes its absolute value; for the IU
forms NEG[0]/NEG[1] say A/B are signed, and CLMP saturates the i32 result. Floats are
accumulated exactly and rounded once to the result type (round to nearest even, the
only mode WMMA supports; no denormal flushing): the hardware's internal order of
partial sums is not documented, so results may differ from the silicon in the last
place, which the tests allow for.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from radcc.emu.decode import Inst
from radcc.emu.errors import UnsupportedInstruction
from radcc.emu.regs import const_value
from radcc.emu.state import Wave
from radcc.emu.valu.fp import F16, F32, bits_to_f64, f_to_bits
from radcc.emu.valu.packed import bf16_to_f64, f64_to_bf16_bits
from radcc.isa.operands import VGPR0
from radcc.isa.wmma import KINDS, N, WmmaKind

U64 = np.uint64
def _bits(i: Inst, name: str) -> tuple[bool, bool, bool]:
    v = i.f.get(name, 0)
    return bool(v & 1), bool(v >> 1 & 1), bool(v >> 2 & 1)


def _elements(regs: np.ndarray, kind: WmmaKind, signed: bool, neg: tuple[bool, bool]
              ) -> np.ndarray:
    """[16 lanes, 16 elements] of an A or B operand as float64 (floats) or int64.

    `regs`: [vgprs, 16] raw dwords of lanes 0-15."""
    e = kind.ab_bits
    per = 32 // e
    out = np.empty((N, N), dtype=np.float64 if kind.ab in ("f16", "bf16") else np.int64)
    for k in range(N):
        raw = (regs[k // per].astype(U64) >> U64((k % per) * e)) & U64((1 << e) - 1)
        if kind.ab == "f16":
            v = bits_to_f64(raw, F16)
        elif kind.ab == "bf16":
            v = bf16_to_f64(raw)
        else:
            v = raw.astype(np.int64)
            if signed:
                v = np.where(v >= 1 << (e - 1), v - (1 << e), v)
        if kind.ab in ("f16", "bf16") and neg[k % 2]:
            v = -v
        out[:, k] = v
    return out


def _read_src(w: Wave, code: int, count: int) -> np.ndarray | None:
    """[count, wave] raw dwords of a VGPR range, or None for a constant."""
    if code < VGPR0:
        return None
    r = code - VGPR0
    return np.stack([w.v[(r + j) & 255].astype(U64) for j in range(count)])


def _c_values(w: Wave, i: Inst, kind: WmmaKind, nd: int) -> np.ndarray:
    """[nd, wave] C as float64 or int64 (neg/abs applied)."""
    code = i.f["src2"]
    regs = _read_src(w, code, nd)
    sel_hi = bool(i.f.get("opsel", 0) >> 2 & 1)
    if regs is None:
        typ = {"f32": "f32", "i32": "i32", "f16": "f16", "bf16": "bf16"}[kind.cd]
        k = const_value(code, 32 if kind.cd in ("f32", "i32") else 16, typ, i.f.get("literal"))
        if k is None:
            raise UnsupportedInstruction(f"{i.where()}: WMMA C operand code {code}")
        regs = np.full((nd, w.size), k, dtype=U64)
        sel_hi = False
    if kind.cd == "i32":
        v = regs.astype(np.int64)
        return np.where(v >= 1 << 31, v - (1 << 32), v)
    if kind.cd == "f32":
        v = bits_to_f64(regs, F32)
    else:
        half = (regs >> U64(16 if sel_hi else 0)) & U64(0xFFFF)
        v = bits_to_f64(half, F16) if kind.cd == "f16" else bf16_to_f64(half)
    ng, ab = _bits(i, "neg")[2], _bits(i, "neg_hi")[2]
    if ab:
        v = np.abs(v)
    if ng:
        v = -v
    return v


def _check_replicated(w: Wave, i: Inst, name: str, regs: np.ndarray) -> None:
    if w.strict is None:
        return
    for g in range(1, w.size // N):
        if not np.array_equal(regs[:, g * N:(g + 1) * N], regs[:, :N]):
            w.strict.undefined(
                "WMMAInputNotReplicated", i,
                f"'{i.text}' at pc {i.pc:#x}: matrix {name} in lanes {g * N}-{g * N + N - 1} "
                "differs from lanes 0-15 (ISA 7.9: A and B must be replicated)")
            return


def bind_wmma(i: Inst) -> Callable[[Wave, Inst], None]:
    """The handler of one decoded WMMA instruction."""
    kind = KINDS.get(i.name)
    if kind is None:
        raise UnsupportedInstruction(f"{i.where()}: {i.name} is not a GFX11 WMMA")
    iu = kind.ab in ("iu8", "iu4")

    def h(w: Wave, i: Inst) -> None:
        wave = w.size
        nd = kind.cd_vgprs(wave)
        neg, neg_hi = _bits(i, "neg"), _bits(i, "neg_hi")
        mats = []
        for idx, field in enumerate(("src0", "src1")):
            regs = _read_src(w, i.f[field], kind.ab_vgprs)
            if regs is None:
                raise UnsupportedInstruction(
                    f"{i.where()}: WMMA {'AB'[idx]} must be VGPRs (ISA 7.9)")
            _check_replicated(w, i, "AB"[idx], regs)
            signed = iu and neg[idx]
            mats.append(_elements(regs[:, :N], kind, signed, (neg[idx], neg_hi[idx])))
        a, b = mats  # a[m, k] (lane m holds row m), b[n, k] (lane n holds column n)
        prod = a @ b.T  # [m, n], exact for integers; float64 sums of exact products
        c = _c_values(w, i, kind, nd)
        lanes = np.arange(wave)
        rows = np.arange(nd)[:, None] * (wave // N) + lanes[None, :] // N
        cols = np.broadcast_to(lanes % N, rows.shape)
        d = prod[rows, cols] + c
        if iu:
            if i.f.get("clamp"):
                d = np.clip(d, -(1 << 31), (1 << 31) - 1)
            out = (d & 0xFFFFFFFF).astype(U64)
        elif kind.cd == "f32":
            out = f_to_bits(d.astype(np.float32), F32)
        else:
            half = f_to_bits(d.astype(np.float16), F16) if kind.cd == "f16" \
                else f64_to_bf16_bits(d)
            sh = U64(16) if i.f.get("opsel", 0) >> 2 & 1 else U64(0)
            keep = U64(0xFFFF) if sh else U64(0xFFFF0000)
            old = np.stack([w.v[(i.f["vdst"] + j) & 255].astype(U64) for j in range(nd)])
            out = (old & keep) | ((half & U64(0xFFFF)) << sh)
        vd = i.f["vdst"]
        for j in range(nd):
            w.v[(vd + j) & 255] = out[j].astype(np.uint32)
    return h


__all__ = ["bind_wmma"]

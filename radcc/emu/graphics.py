"""The graphics instructions of GFX11 waves: exports (EXP) and LDS parameter loads.

**Exports** (ISA guide chapter 14, encoding 15.10.1: EN [3:0], TARGET [9:4], DONE [11],
ROW [13], VSRC0-3 in the second dword): the wave's enabled sources are captured, with the
lanes EXEC enables, as an `Export` appended to `Wave.exports`; the draw pipeline
(`radcc.emu.draw`) reads them when the wave ends (positions and primitives of NGG
waves, colour and depth of pixel waves). In strict mode an export is an EXPcnt
operation; overwriting its source VGPRs or EXEC before an ``s_waitcnt expcnt`` covers it
is reported (ISA guide 14.3); a position export with DONE notes a store still outstanding
(`Export.store_pending`), which the draw pipeline reports for a stage without parameter
exports: the hardware then starts rasterization (and pixel waves reading the data) at
that export (ACO's README-ISA, "RDNA early rasterization"). Targets: ``mrt0-7`` 0-7, ``mrtz`` 8, ``pos0-4`` 12-16, ``prim`` 20
(`radcc.isa.formats.mem_exp.TARGETS`).

**LDS_PARAM_LOAD** (12.2.1, LDSDIR encoding: VDST [7:0], ATTR_CHAN [9:8], ATTR [15:10],
WAIT_VDST [19:16]): M0 is ``{0, new_prim_mask[15:1], lds_param_offset[15:0]}``; quad q
belongs to primitive ``popcount(new_prim_mask[q:1])`` (quad 0 always starts one), the
wave has ``popcount(new_prim_mask) + 1`` primitives, and lanes 0, 1, 2 of the quad
receive P0, P10, P20 of channel ATTR_CHAN of attribute ATTR from the dword at
``lds_param_offset + 4 * (ATTR * prims * 12 + prim * 12 + k * 4 + chan)``, k = 0, 1, 2
(lane 3 receives 0). Whole quads are written when any of their lanes is in EXEC. An
EXPcnt operation in strict mode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.state import M0, Wave

__all__ = ["BINDERS", "Export", "TARGET_MRTZ", "TARGET_POS0", "TARGET_PRIM"]

Handler = Callable[[Wave, Inst], None]

TARGET_MRTZ = 8
TARGET_POS0 = 12
TARGET_PRIM = 20


@dataclass
class Export:
    """One executed export: target, enabled sources (EN), done bit, the enabled sources'
    dwords per lane (4, wave) (disabled ones 0) and the lanes EXEC enabled."""

    target: int
    en: int
    done: bool
    data: np.ndarray
    lanes: np.ndarray
    # strict mode, a position export with DONE: a store still outstanding then (the draw
    # pipeline reports it when the stage has no parameter exports: README-ISA's "RDNA
    # early rasterization")
    store_pending: Inst | None = None


def _bind_exp(i: Inst) -> Handler:
    w0, w1 = i.words[0], i.words[1]
    en = w0 & 0xF
    target = w0 >> 4 & 0x3F
    done = bool(w0 >> 11 & 1)
    srcs = [(k, w1 >> (8 * k) & 0xFF) for k in range(4) if en >> k & 1]
    vsrcs = tuple(r for _k, r in srcs)

    def h(w: Wave, i: Inst) -> None:
        data = np.zeros((4, w.size), np.uint32)
        for k, r in srcs:
            data[k] = w.v[r]
        st = w.strict
        pending = None
        if st is not None and done and TARGET_POS0 <= target < TARGET_POS0 + 5 \
                and st.queues["vs"]:
            pending = st.queues["vs"][0].inst
        w.exports.append(Export(target, en, done, data, w.exec_mask().copy(), pending))
        if st is not None:
            st.export(w, i, vsrcs)
    return h


def _param_load(i: Inst) -> Handler:
    w0 = i.words[0]
    vdst = w0 & 0xFF
    chan = w0 >> 8 & 3
    attr = w0 >> 10 & 0x3F

    def h(w: Wave, i: Inst) -> None:
        m0 = w.s[M0]
        base = m0 & 0xFFFF
        newprim = (m0 >> 16 & 0x7FFF) << 1 | 1
        nquads = w.size // 4
        bits = np.array([newprim >> q & 1 for q in range(nquads)], np.int64)
        prim = np.cumsum(bits) - 1  # per quad
        nprims = int(bin(newprim & ((1 << nquads) - 1)).count("1"))
        ex = w.exec_mask().reshape(nquads, 4).any(axis=1)
        addr = base + 4 * (attr * nprims * 12 + prim[:, None] * 12
                           + np.arange(3)[None, :] * 4 + chan)  # (quads, 3)
        lds = w.wg.lds
        if ex.any() and int(addr[ex].max()) + 4 > w.wg.lds_size:
            raise EmuError(f"{i.where()}: parameter load at LDS {int(addr[ex].max()):#x} is "
                           f"outside the {w.wg.lds_size} bytes of parameters")
        vals = np.zeros((nquads, 4), np.uint32)
        a = np.clip(addr, 0, max(w.wg.lds_size - 4, 0))
        words = lds[: (len(lds) // 4) * 4].view(np.uint32)
        vals[:, :3] = words[a // 4]
        row = w.v[vdst].reshape(nquads, 4)
        row[ex] = vals[ex]
        if w.strict is not None:
            w.strict.issue(w, i, ("exp",), (vdst,), ())
    return h


def _direct_load(i: Inst) -> Handler:
    vdst = i.words[0] & 0xFF

    def h(w: Wave, i: Inst) -> None:
        m0 = w.s[M0]
        addr = m0 & 0xFFFF
        if addr + 4 > w.wg.lds_size:
            raise EmuError(f"{i.where()}: LDS direct load at {addr:#x} is outside LDS")
        val = int.from_bytes(w.wg.lds[addr:addr + 4].tobytes(), "little")
        ex = w.exec_mask()
        w.v[vdst][ex] = val
        if w.strict is not None:
            w.strict.issue(w, i, ("exp",), (vdst,), ())
    return h


def _bind_ldsdir(i: Inst) -> Handler:
    if i.name == "lds_direct_load":
        return _direct_load(i)
    if i.name == "lds_param_load":
        return _param_load(i)
    raise UnsupportedInstruction(f"{i.where()}: {i.name} is not supported")


BINDERS: dict[str, Callable[[Inst], Handler]] = {"EXP": _bind_exp, "LDSDIR": _bind_ldsdir}

"""LDS instructions (ISA guide chapter 11 "Data share operations", 16.12 DS opcodes).

Single address: LDS_ADDR = VGPR[addr] + {offset1, offset0}; the 2addr forms use
offset0 and offset1 scaled by the data size (x64 for the stride64 forms). An
access outside the workgroup's LDS allocation is reported as a fault (hardware
would drop it or read 0, 3.3.4.1; the emulator is stricter). ds_swizzle_b32 and
ds_permute/bpermute_b32 move data between lanes without touching LDS. Counted
on LGKMcnt, in order with other DS instructions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from radcc.emu.atomics import op_stem, type_bits
from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.memory import MemFault
from radcc.emu.state import M0, Wave
from radcc.emu.vmem import do_atomic, mem_gather, mem_scatter, read_vgprs_bytes, write_load

Handler = Callable[[Wave, Inst], None]
U64 = np.uint64

_LOAD = {"u8": (1, False, None), "i8": (1, True, None), "u16": (2, False, None),
         "i16": (2, True, None), "b32": (4, False, None), "b64": (8, False, None),
         "b96": (12, False, None), "b128": (16, False, None),
         "u8_d16": (1, False, "lo"), "i8_d16": (1, True, "lo"), "u16_d16": (2, False, "lo"),
         "u8_d16_hi": (1, False, "hi"), "i8_d16_hi": (1, True, "hi"),
         "u16_d16_hi": (2, False, "hi")}
_STORE = {"b8": (1, None), "b16": (2, None), "b32": (4, None), "b64": (8, None),
          "b96": (12, None), "b128": (16, None), "b8_d16_hi": (1, "hi"),
          "b16_d16_hi": (2, "hi")}


def _fault(i: Inst, e: MemFault) -> EmuError:
    return EmuError(f"{i.where()}: memory fault: {e}")


def _addr(w: Wave, i: Inst, lanes: np.ndarray, extra: int) -> np.ndarray:
    return (w.v[i.f["addr"], lanes].astype(np.int64) + extra).astype(U64)


def _issue(w: Wave, i: Inst, dests: tuple[int, ...]) -> None:
    if w.strict is not None:
        w.strict.issue(w, i, ("lgkm",), dests, ())


def _swizzle_src(offset: int, size: int) -> np.ndarray:
    """Source lane per lane of ds_swizzle_b32 (16.12 DS_SWIZZLE_B32 pseudocode)."""
    i = np.arange(size)
    if offset >= 0xE000:
        mask = offset & 0x1F
        rev = np.array([int(format(x & 0x1F, "05b")[::-1], 2) for x in i])
        j = (rev >> bin(mask).count("1")) | (i & mask) | (i & 0x20)
    elif offset >= 0xC000:
        rot = offset >> 5 & 0x1F
        mask = offset & 0x1F
        if offset >> 10 & 1:
            rot = -rot
        j = (i & mask) | ((i + rot) & ~mask & 0x1F) | (i & 0x20)
    elif offset & 0x8000:
        sel = np.array([offset >> (2 * (k & 3)) & 3 for k in i])
        j = (i & ~3) + sel
    else:
        and_m, or_m, xor_m = offset & 0x1F, offset >> 5 & 0x1F, offset >> 10 & 0x1F
        j = (((i & 0x1F) & and_m) | or_m) ^ xor_m | (i & 0x20)
    return j % size


def _bind_ds(i: Inst) -> Handler:
    name = i.name
    rest = name[3:]
    off = i.f.get("offset0", 0) | i.f.get("offset1", 0) << 8
    o0, o1 = i.f.get("offset0", 0), i.f.get("offset1", 0)
    vdst, d0, d1 = i.f.get("vdst", 0), i.f.get("data0", 0), i.f.get("data1", 0)
    if rest == "nop":
        return lambda w, i: None
    if rest == "swizzle_b32":
        def hsw(w: Wave, i: Inst) -> None:
            _issue(w, i, (vdst,))
            ex = w.exec_mask()
            src = _swizzle_src(off, w.size)
            val = np.where(ex[src], w.v[i.f["addr"]][src], 0).astype(np.uint32)
            w.v[vdst][ex] = val[ex]
        return hsw
    if rest in ("permute_b32", "bpermute_b32"):
        back = rest == "bpermute_b32"

        def hp(w: Wave, i: Inst) -> None:
            _issue(w, i, (vdst,))
            ex = w.exec_mask()
            lane = np.arange(w.size)
            sel = ((w.v[i.f["addr"]].astype(np.int64) + off) // 4) % 32 + (lane & ~31)
            data = w.v[d0]
            if back:
                val = np.where(ex[sel], data[sel], 0).astype(np.uint32)
            else:
                val = np.zeros(w.size, dtype=np.uint32)
                for k in np.flatnonzero(ex):  # later lanes win, as the pseudocode loops
                    val[sel[k]] = data[k]
            w.v[vdst][ex] = val[ex]
        return hp
    if rest.startswith("load_2addr") or rest.startswith("store_2addr"):
        is_load = rest.startswith("load")
        nb = 8 if rest.endswith("b64") else 4
        scale = nb * (64 if "stride64" in rest else 1)
        dests = tuple((vdst + k) & 255 for k in range(2 * nb // 4)) if is_load else ()

        def h2(w: Wave, i: Inst) -> None:
            _issue(w, i, dests)
            lanes = np.flatnonzero(w.exec_mask())
            if not len(lanes):
                return
            a0, a1 = _addr(w, i, lanes, o0 * scale), _addr(w, i, lanes, o1 * scale)
            try:
                if is_load:
                    r0 = mem_gather(w, "lds", a0, nb, lanes)
                    r1 = mem_gather(w, "lds", a1, nb, lanes)
                    write_load(w, vdst, np.concatenate([r0, r1], axis=1), lanes, False, None)
                else:
                    mem_scatter(w, "lds", a0, read_vgprs_bytes(w, d0, nb, lanes), lanes)
                    mem_scatter(w, "lds", a1, read_vgprs_bytes(w, d1, nb, lanes), lanes)
            except MemFault as e:
                raise _fault(i, e) from None
        return h2
    if rest.startswith("load_") and rest[5:] in _LOAD:
        nb, signed, d16 = _LOAD[rest[5:]]
        dests = tuple((vdst + k) & 255 for k in range((nb + 3) // 4))

        def hl(w: Wave, i: Inst) -> None:
            _issue(w, i, dests)
            lanes = np.flatnonzero(w.exec_mask())
            if not len(lanes):
                return
            try:
                data = mem_gather(w, "lds", _addr(w, i, lanes, off), nb, lanes)
            except MemFault as e:
                raise _fault(i, e) from None
            write_load(w, vdst, data, lanes, signed, d16)
        return hl
    if rest.startswith("store_") and rest[6:] in _STORE:
        nb, d16 = _STORE[rest[6:]]

        def hs(w: Wave, i: Inst) -> None:
            _issue(w, i, ())
            lanes = np.flatnonzero(w.exec_mask())
            if not len(lanes):
                return
            if d16 == "hi":
                hi = (w.v[d0, lanes] >> np.uint32(16)).astype(np.uint32)
                data = hi.view(np.uint8).reshape(len(lanes), 4)[:, :nb].copy()
            else:
                data = read_vgprs_bytes(w, d0, nb, lanes)
            try:
                mem_scatter(w, "lds", _addr(w, i, lanes, off), data, lanes)
            except MemFault as e:
                raise _fault(i, e) from None
        return hs
    if rest in ("load_addtid_b32", "store_addtid_b32"):
        is_load = rest.startswith("load")

        def ht(w: Wave, i: Inst) -> None:
            _issue(w, i, (vdst,) if is_load else ())
            lanes = np.flatnonzero(w.exec_mask())
            addrs = (off + lanes * 4 + w.s[M0]).astype(U64)
            try:
                if is_load:
                    write_load(w, vdst, mem_gather(w, "lds", addrs, 4, lanes), lanes, False, None)
                else:
                    mem_scatter(w, "lds", addrs, read_vgprs_bytes(w, d0, 4, lanes), lanes)
            except MemFault as e:
                raise _fault(i, e) from None
        return ht
    try:
        stem = op_stem(name)
        bits = type_bits(name)
        from radcc.emu.atomics import atomic_fn
        atomic_fn(stem, bits)
    except (KeyError, IndexError):
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported") from None
    rtn = "_rtn_" in name or name.startswith("ds_storexchg") or name.startswith("ds_wrap")
    if "2addr" in name or rest.startswith(("wrap", "condxchg", "gws", "append", "consume")):
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")
    nb = bits // 8
    if stem == "cmpst" and name.endswith(("f32", "f64")):  # a float compare: not yet
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")
    two = stem in ("cmpstore", "cmpst", "mskor")
    dests = tuple((vdst + k) & 255 for k in range(bits // 32)) if rtn else ()

    def ha(w: Wave, i: Inst) -> None:
        _issue(w, i, dests)
        lanes = np.flatnonzero(w.exec_mask())
        if not len(lanes):
            return
        d = read_vgprs_bytes(w, d0, nb, lanes)
        d2 = read_vgprs_bytes(w, d1, nb, lanes) if two else None
        try:
            old = do_atomic(w, "lds", _addr(w, i, lanes, off), lanes, stem, bits, d, d2)
        except MemFault as e:
            raise _fault(i, e) from None
        if rtn:
            write_load(w, vdst, old, lanes, False, None)
    return ha


BINDERS: dict[str, Callable[[Inst], Handler]] = {"DS": _bind_ds}

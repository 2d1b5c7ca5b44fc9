"""Vector memory: GLOBAL, SCRATCH, FLAT (ISA guide chapter 10 "Flat memory
instructions") and MUBUF/MTBUF buffers (chapter 9 "Vector memory operations",
9.1.5 buffer addressing, 9.1.8 range checking).

Addresses per lane:
- GLOBAL: SGPR[saddr] (64-bit) + VGPR[vaddr] (32-bit unsigned), or VGPR[vaddr:+1]
  (64-bit) when saddr is off; plus the signed 13-bit offset.
- SCRATCH: per-lane private offset SGPR[saddr] + VGPR[vaddr] (when SVE) + offset.
- FLAT: 64-bit VGPR address; the shared and private apertures (10.1.1) route to LDS
  and scratch.
- MUBUF/MTBUF: the V# in SGPR[srsrc:+3] (base [47:0], stride [61:48],
  num_records [95:64], swizzle off); offset = SGPR[soffset] + inst_offset +
  VGPR (offen); index = VGPR (idxen). Out-of-range lanes load 0 and drop stores.
- The private segment buffer (GFX10's scratch through MUBUF: AMDGPUUsage "Private
  Segment Buffer", the V# a dispatch hands the kernel in its first user SGPRs):
  `PRIVATE_SEGMENT_VSHARP`, at `PRIVATE_SEGMENT_BASE_HI` with ADD_TID_ENABLE, so
  that SGPR[soffset] + inst_offset + VGPR is swizzled per lane (ISA "Swizzled buffer
  addressing", element size 4, index stride the wave size): a lane's private byte
  Q = (base + SGPR[soffset]) / wave size + inst_offset + VGPR, the wave's per-lane
  scratch as SCRATCH instructions see it. The wave-level part must be a multiple of
  4 x wave size bytes (LLVM's stack pointer is); anything else is refused.
Loads and atomics-with-return count on VMcnt, stores and atomics without return
on VScnt (FLAT also on LGKMcnt); strict mode tracks them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from radcc.emu.atomics import atomic_fn, op_stem, type_bits
from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.memory import MemFault
from radcc.emu.regs import sread
from radcc.emu.state import NULL, PRIVATE_BASE_HI, SHARED_BASE_HI, Wave
from radcc.emu.texture import FORMATS as TEX_FORMATS
from radcc.emu.texture import IDENTITY, TexFormat, apply_dst_sel, pack_texels, unpack_texels

Handler = Callable[[Wave, Inst], None]
U64 = np.uint64

# load/store data shapes: suffix -> (bytes, signed, d16 placement: None/'lo'/'hi')
_LOAD = {
    "u8": (1, False, None), "i8": (1, True, None), "u16": (2, False, None),
    "i16": (2, True, None), "b32": (4, False, None), "b64": (8, False, None),
    "b96": (12, False, None), "b128": (16, False, None),
    "d16_u8": (1, False, "lo"), "d16_i8": (1, True, "lo"), "d16_b16": (2, False, "lo"),
    "d16_hi_u8": (1, False, "hi"), "d16_hi_i8": (1, True, "hi"), "d16_hi_b16": (2, False, "hi"),
    "format_x": (4, False, None), "format_xy": (8, False, None),
    "format_xyz": (12, False, None), "format_xyzw": (16, False, None),
}
_STORE = {
    "b8": (1, None), "b16": (2, None), "b32": (4, None), "b64": (8, None), "b96": (12, None),
    "b128": (16, None), "d16_hi_b8": (1, "hi"), "d16_hi_b16": (2, "hi"),
    "format_x": (4, None), "format_xy": (8, None), "format_xyz": (12, None),
    "format_xyzw": (16, None),
}


def fault(i: Inst, e: MemFault) -> EmuError:
    return EmuError(f"{i.where()}: memory fault: {e}")


def read_vgprs_bytes(w: Wave, reg: int, nbytes: int, lanes: np.ndarray) -> np.ndarray:
    """VGPR data of the given lanes as bytes [n, nbytes] (little endian, reg first)."""
    ndw = (nbytes + 3) // 4
    regs = [(reg + k) & 255 for k in range(ndw)]
    words = w.v[regs][:, lanes].T.copy()  # [n, ndw]
    return words.view(np.uint8).reshape(len(lanes), ndw * 4)[:, :nbytes]


def write_load(w: Wave, reg: int, data: np.ndarray, lanes: np.ndarray, signed: bool,
               d16: str | None) -> None:
    """Write loaded bytes [n, nbytes] into VGPRs with the load's extension rules."""
    n, nbytes = data.shape
    if nbytes >= 4:
        words = np.ascontiguousarray(data).view(np.uint32).reshape(n, nbytes // 4)
        for k in range(nbytes // 4):
            w.v[(reg + k) & 255, lanes] = words[:, k]
        return
    if nbytes == 1:
        v = data[:, 0].astype(np.int8 if signed else np.uint8)
    else:
        v = np.ascontiguousarray(data).view(np.int16 if signed else np.uint16)[:, 0]
    if d16 is None:
        w.v[reg, lanes] = v.astype(np.int32).view(np.uint32) if signed else v.astype(np.uint32)
        return
    h = v.astype(np.int16).view(np.uint16).astype(np.uint32) if signed else v.astype(np.uint32)
    old = w.v[reg, lanes]
    if d16 == "lo":
        w.v[reg, lanes] = (old & np.uint32(0xFFFF0000)) | h
    else:
        w.v[reg, lanes] = (old & np.uint32(0xFFFF)) | (h << np.uint32(16))


def _store_bytes(w: Wave, reg: int, nbytes: int, d16: str | None,
                 lanes: np.ndarray) -> np.ndarray:
    if d16 == "hi":
        hi = (w.v[reg, lanes] >> np.uint32(16)).astype(np.uint32)
        return hi.view(np.uint8).reshape(len(lanes), 4)[:, :nbytes].copy()
    return read_vgprs_bytes(w, reg, nbytes, lanes)


class Space:
    """Where a lane's address goes: 'global' memory, 'lds' or 'scratch'."""

    @staticmethod
    def split(addrs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hi = (addrs >> U64(32)).astype(np.int64)
        return hi == SHARED_BASE_HI, hi == PRIVATE_BASE_HI, ~((hi == SHARED_BASE_HI)
                                                              | (hi == PRIVATE_BASE_HI))


def lds_access(w: Wave, offs: np.ndarray, n: int, lanes: np.ndarray, write: bool) -> np.ndarray:
    """Byte indices [len, n] into LDS; faults (naming the lane) when out of range."""
    size = w.wg.lds_size
    bad = (offs < 0) | (offs + n > size)
    if bad.any():
        k = int(np.argmax(bad))
        raise MemFault(f"lane {int(lanes[k])}: LDS {'store' if write else 'load'} at "
                       f"{int(offs[k]):#x} ({n} bytes) is outside the {size}-byte LDS "
                       "allocation", int(offs[k]), int(lanes[k]))
    return offs[:, None] + np.arange(n, dtype=np.int64)


def scratch_index(w: Wave, offs: np.ndarray, n: int, lanes: np.ndarray,
                  write: bool) -> tuple[np.ndarray, np.ndarray]:
    size = w.scratch_bytes
    bad = (offs < 0) | (offs + n > size)
    if bad.any():
        k = int(np.argmax(bad))
        raise MemFault(f"lane {int(lanes[k])}: scratch {'store' if write else 'load'} at "
                       f"{int(offs[k]):#x} ({n} bytes) is outside the {size}-byte private "
                       "segment", int(offs[k]), int(lanes[k]))
    return lanes[:, None], offs[:, None] + np.arange(n, dtype=np.int64)


def mem_gather(w: Wave, space: str, addrs: np.ndarray, n: int, lanes: np.ndarray) -> np.ndarray:
    if space == "global":
        return w.memory.gather(addrs, n, lanes)
    offs = (addrs & U64(0xFFFFFFFF)).astype(np.int64)
    if space == "lds":
        return w.wg.lds[lds_access(w, offs, n, lanes, False)]
    li, bi = scratch_index(w, offs, n, lanes, False)
    return w.scratch[li, bi]


def mem_scatter(w: Wave, space: str, addrs: np.ndarray, data: np.ndarray,
                lanes: np.ndarray) -> None:
    n = data.shape[1]
    if space == "global":
        w.memory.scatter(addrs, data, lanes)
        return
    offs = (addrs & U64(0xFFFFFFFF)).astype(np.int64)
    if space == "lds":
        w.wg.lds[lds_access(w, offs, n, lanes, True)] = data
        return
    li, bi = scratch_index(w, offs, n, lanes, True)
    w.scratch[li, bi] = data


def _bytes_to_int(b: np.ndarray) -> int:
    return int.from_bytes(b.tobytes(), "little")


def do_atomic(w: Wave, space: str, addrs: np.ndarray, lanes: np.ndarray, stem: str, bits: int,
              data: np.ndarray, data2: np.ndarray | None) -> np.ndarray:
    """Apply an atomic lane by lane; returns the old values as bytes [n, bits/8]."""
    fn = atomic_fn(stem, bits)
    nb = bits // 8
    old_all = np.zeros((len(lanes), nb), dtype=np.uint8)
    for k in range(len(lanes)):
        a = addrs[k:k + 1]
        ln = lanes[k:k + 1]
        old_b = mem_gather(w, space, a, nb, ln)[0]
        old = _bytes_to_int(old_b)
        d = _bytes_to_int(data[k])
        c = _bytes_to_int(data2[k]) if data2 is not None else 0
        new = fn(old, d, c)
        nbytes = np.frombuffer(new.to_bytes(nb, "little"), dtype=np.uint8)[None, :]
        mem_scatter(w, space, a, nbytes, ln)
        old_all[k] = old_b
    return old_all


# --- address computation -------------------------------------------------------------
def _flat_like_addrs(w: Wave, i: Inst, lanes: np.ndarray) -> tuple[np.ndarray, str | None]:
    """(addresses, fixed space or None for flat aperture routing)."""
    f = i.f
    off = f.get("offset", 0)
    saddr = f.get("saddr", NULL)
    va = f["addr"]
    if i.enc == "SCRATCH":
        base = np.zeros(len(lanes), dtype=np.int64)
        if saddr != NULL:
            base += sread(w, saddr) & 0xFFFFFFFF
        if f.get("sve"):
            base += w.v[va, lanes].astype(np.int64)
        return ((base + off) & 0xFFFFFFFF).astype(U64), "scratch"
    if i.enc == "GLOBAL" and saddr != NULL:
        a = U64(sread(w, saddr, 64)) + w.v[va, lanes].astype(U64)
    else:
        a = w.v[va, lanes].astype(U64) | (w.v[(va + 1) & 255, lanes].astype(U64) << U64(32))
    a = a + U64(off & 0xFFFFFFFFFFFFFFFF) if off >= 0 else a - U64(-off)
    return a, ("global" if i.enc == "GLOBAL" else None)


def _flat_bind(i: Inst) -> Handler:
    name = i.name
    prefix, _, rest = name.partition("_")
    is_flat = i.enc == "FLAT"
    vdst, vdata = i.f.get("vdst", 0), i.f.get("data", 0)
    if rest.startswith("load_addtid") or rest.startswith("store_addtid"):
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")
    if rest.startswith("load_format_") or rest.startswith("load_"):
        if rest.startswith("load_format_"):
            return _typed_load(i, vdata, len(rest) - len("load_format_"))
        nbytes, signed, d16 = _LOAD[rest[5:]]
        ndw = (nbytes + 3) // 4
        dests = tuple((vdst + k) & 255 for k in range(ndw))

        def hl(w: Wave, i: Inst) -> None:
            lanes = np.flatnonzero(w.exec_mask())
            if w.strict is not None:
                w.strict.issue(w, i, ("vm", "lgkm") if is_flat else ("vm",), dests, ())
            if not len(lanes):
                return
            addrs, space = _flat_like_addrs(w, i, lanes)
            try:
                data = _gather_routed(w, space, addrs, nbytes, lanes)
            except MemFault as e:
                raise fault(i, e) from None
            write_load(w, vdst, data, lanes, signed, d16)
        return hl
    if rest.startswith("store_"):
        nbytes, d16 = _STORE[rest[6:]]

        def hs(w: Wave, i: Inst) -> None:
            lanes = np.flatnonzero(w.exec_mask())
            if w.strict is not None:
                w.strict.issue(w, i, ("vs", "lgkm") if is_flat else ("vs",), (), ())
            if not len(lanes):
                return
            addrs, space = _flat_like_addrs(w, i, lanes)
            data = _store_bytes(w, vdata, nbytes, d16, lanes)
            try:
                _scatter_routed(w, space, addrs, data, lanes)
            except MemFault as e:
                raise fault(i, e) from None
        return hs
    if rest.startswith("atomic_"):
        stem = op_stem(name)
        bits = type_bits(name)
        nb = bits // 8
        cmp = stem in ("cmpswap",)
        rtn = bool(i.f.get("glc"))
        dests = tuple((vdst + k) & 255 for k in range(bits // 32)) if rtn else ()

        def ha(w: Wave, i: Inst) -> None:
            lanes = np.flatnonzero(w.exec_mask())
            if w.strict is not None:
                cnt = "vm" if rtn else "vs"
                w.strict.issue(w, i, (cnt, "lgkm") if is_flat else (cnt,), dests, ())
            if not len(lanes):
                return
            addrs, space = _flat_like_addrs(w, i, lanes)
            data = read_vgprs_bytes(w, vdata, nb * (2 if cmp else 1), lanes)
            d, d2 = (data[:, :nb], data[:, nb:]) if cmp else (data, None)
            try:
                old = _atomic_routed(w, space, addrs, lanes, stem, bits, d, d2)
            except MemFault as e:
                raise fault(i, e) from None
            if rtn:
                write_load(w, vdst, old, lanes, False, None)
        return ha
    raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")


def _routes(space: str | None, addrs: np.ndarray) -> list[tuple[str, np.ndarray]]:
    if space is not None:
        return [(space, np.ones(len(addrs), dtype=bool))]
    lds, priv, glob = Space.split(addrs)
    return [(s, m) for s, m in (("global", glob), ("lds", lds), ("scratch", priv)) if m.any()]


def _gather_routed(w: Wave, space: str | None, addrs: np.ndarray, n: int,
                   lanes: np.ndarray) -> np.ndarray:
    routes = _routes(space, addrs)
    if len(routes) == 1:
        return mem_gather(w, routes[0][0], addrs, n, lanes)
    out = np.zeros((len(lanes), n), dtype=np.uint8)
    for s, m in routes:
        out[m] = mem_gather(w, s, addrs[m], n, lanes[m])
    return out


def _scatter_routed(w: Wave, space: str | None, addrs: np.ndarray, data: np.ndarray,
                    lanes: np.ndarray) -> None:
    for s, m in _routes(space, addrs):
        mem_scatter(w, s, addrs[m], data[m], lanes[m])


def _atomic_routed(w: Wave, space: str | None, addrs: np.ndarray, lanes: np.ndarray, stem: str,
                   bits: int, d: np.ndarray, d2: np.ndarray | None) -> np.ndarray:
    out = np.zeros((len(lanes), bits // 8), dtype=np.uint8)
    for s, m in _routes(space, addrs):
        out[m] = do_atomic(w, s, addrs[m], lanes[m], stem, bits, d[m],
                           None if d2 is None else d2[m])
    return out


# --- MUBUF / MTBUF ---------------------------------------------------------------------
_ADD_TID = 1 << 119  # V# ADD_TID_ENABLE (word 3 bit 23)
# the private segment buffer's base: the top 4 GiB of the 48-bit V# base range, where
# the emulator maps nothing (the private aperture itself lies above 48 bits)
PRIVATE_SEGMENT_BASE_HI = 0xFFFF
# its V#: that base, ADD_TID_ENABLE, the largest num_records (the per-lane allocation
# bounds the accesses instead)
PRIVATE_SEGMENT_VSHARP = PRIVATE_SEGMENT_BASE_HI << 32 | 0xFFFFFFFF << 64 | _ADD_TID


def buffer_desc(base: int, stride: int, num_records: int, fmt: int,
                dst_sel: tuple[int, int, int, int]) -> int:
    """A 128-bit V# (ISA 9.6, Table 47) of a typed buffer as RADV builds one for a texel
    buffer view on GFX11 (``radv_make_texel_buffer_descriptor``): base, stride = the
    element's bytes, num_records in elements, dst_sel, the format (Table 52 id), no
    swizzle, OOB_SELECT 0 (index >= num_records || offset + payload > stride), type 0."""
    if not 0 <= stride < 1 << 14 or not 0 <= num_records < 1 << 32 or base >> 48:
        raise ValueError(f"V# fields out of range: base {base:#x}, stride {stride}, "
                         f"{num_records} records")
    v = base | stride << 48 | num_records << 64 | (fmt & 0x3F) << 108
    for k, sel in enumerate(dst_sel):
        v |= (sel & 7) << (96 + 3 * k)
    return v


def _private_offsets(w: Wave, i: Inst, desc: int, lanes: np.ndarray) -> np.ndarray | None:
    """Per-lane private offsets of an access through the private segment buffer (module
    doc), or None when the V# in `srsrc` is not that buffer."""
    base = desc & ((1 << 48) - 1)
    if not desc & _ADD_TID or base >> 32 != PRIVATE_SEGMENT_BASE_HI:
        return None
    f = i.f
    if f.get("idxen"):
        raise EmuError(f"{i.where()}: an indexed access through the private segment "
                       "buffer is not supported")
    soff = sread(w, f["soffset"]) if f.get("soffset", NULL) != NULL else 0
    wave_part = (base & 0xFFFFFFFF) + soff
    if wave_part % (4 * w.size):
        raise EmuError(f"{i.where()}: private segment offset {wave_part:#x} is not a "
                       f"multiple of {4 * w.size} (4 x wave size): unsupported swizzle")
    voff = w.v[f["vaddr"], lanes].astype(np.int64) if f.get("offen") \
        else np.zeros(len(lanes), dtype=np.int64)
    return voff + (f.get("offset", 0) + wave_part // w.size)


def _buf_addrs(w: Wave, i: Inst, lanes: np.ndarray, nbytes: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """(addresses, in-range mask) per lane (ISA 9.1.5, 9.1.8 with swizzle disabled)."""
    f = i.f
    desc = sread(w, f["srsrc"], 128)
    base = desc & ((1 << 48) - 1)
    stride = desc >> 48 & 0x3FFF
    num = desc >> 64 & 0xFFFFFFFF
    soff = sread(w, f["soffset"]) if f.get("soffset", NULL) != NULL else 0
    va = f["vaddr"]
    k = 0
    index = np.zeros(len(lanes), dtype=np.int64)
    voff = np.zeros(len(lanes), dtype=np.int64)
    if f.get("idxen"):
        index = w.v[va, lanes].astype(np.int64)
        k = 1
    if f.get("offen"):
        voff = w.v[(va + k) & 255, lanes].astype(np.int64)
    offset = voff + f.get("offset", 0)
    if f.get("idxen") and stride:
        in_range = (index < num) & (offset + nbytes <= stride)
    else:
        in_range = offset + nbytes <= num
    addrs = (U64(base) + (index * stride + offset + soff).astype(U64))
    return addrs, np.asarray(in_range)


def _buffer_format(i: Inst, fid: int) -> TexFormat | None:
    """The buffer data format `fid` (ISA Table 52, ids 1-63 "Buffer and Image Formats",
    the texture unit's `radcc.emu.texture.FORMATS`); None for 0 (INVALID: an unbound
    V#)."""
    if fid == 0:
        return None
    fmt = TEX_FORMATS.get(fid)
    if fmt is None or fid >= 64:
        raise EmuError(f"{i.where()}: buffer data format {fid} is not supported by the "
                       "emulator (the uniform-channel 8/16/32-bit formats of Table 52 are, and "
                       "its packed 2_10_10_10 UNORM/SNORM/UINT/SINT, 10_11_11_FLOAT and "
                       "11_11_10_FLOAT)")
    return fmt


def _typed_load(i: Inst, vdata: int, count: int) -> Handler:
    """``buffer_load_format_x..xyzw`` / ``tbuffer_load_format_*`` through a V# (or MTBUF
    format): one element of the format's size per lane, range checked all or nothing
    (ISA 9.4.1), converted as the texture unit converts texels (missing channels read
    0, 0, 0, 1), out-of-range elements all zero, then the V#'s dst_sel (0 = 0, 1 = 1,
    4-7 = R, G, B, A; identity for MTBUF). An unbound V# (format 0) loads zero."""
    mtbuf = i.enc == "MTBUF"
    dests = tuple((vdata + k) & 255 for k in range(count + i.f.get("tfe", 0)))

    def h(w: Wave, i: Inst) -> None:
        desc = sread(w, i.f["srsrc"], 128)
        fmt = _buffer_format(i, i.f["format"] if mtbuf else desc >> 108 & 0x3F)
        lanes = np.flatnonzero(w.exec_mask())
        if w.strict is not None:
            w.strict.issue(w, i, ("vm",), dests, ())
        if not len(lanes):
            return
        if fmt is None:
            for c in range(count):
                w.v[dests[c], lanes] = 0
            return
        addrs, ok = _buf_addrs(w, i, lanes, fmt.bytes)
        data = np.zeros((len(lanes), fmt.bytes), dtype=np.uint8)
        try:
            data[ok] = w.memory.gather(addrs[ok], fmt.bytes, lanes[ok])
        except MemFault as e:
            raise fault(i, e) from None
        rgba = unpack_texels(fmt, data)
        rgba[~ok] = 0
        sel = IDENTITY if mtbuf else tuple((desc >> (96 + 3 * c)) & 7 for c in range(4))
        el = apply_dst_sel(fmt, rgba, sel)  # type: ignore[arg-type]
        for c in range(count):
            w.v[dests[c], lanes] = el[:, c]
    return h


def _typed_store(i: Inst, vdata: int, count: int) -> Handler:
    """``buffer_store_format_x..xyzw`` / ``tbuffer_store_format_*``: the `count`
    components from consecutive VGPRs (the format's other channels 0) converted to the
    V#'s (MTBUF: the instruction's) format as the texture unit's stores convert them,
    one element per lane, dropped when out of range (all or nothing) or unbound."""
    mtbuf = i.enc == "MTBUF"

    def h(w: Wave, i: Inst) -> None:
        desc = sread(w, i.f["srsrc"], 128)
        fmt = _buffer_format(i, i.f["format"] if mtbuf else desc >> 108 & 0x3F)
        lanes = np.flatnonzero(w.exec_mask())
        if w.strict is not None:
            w.strict.issue(w, i, ("vs",), (), ())
        if not len(lanes) or fmt is None:
            return
        rgba = np.zeros((len(lanes), 4), dtype=np.uint32)
        for c in range(count):
            rgba[:, c] = w.v[(vdata + c) & 255, lanes]
        data = pack_texels(fmt, rgba)
        addrs, ok = _buf_addrs(w, i, lanes, fmt.bytes)
        try:
            w.memory.scatter(addrs[ok], data[ok], lanes[ok])
        except MemFault as e:
            raise fault(i, e) from None
    return h


def _buf_bind(i: Inst) -> Handler:
    name = i.name
    rest = name.split("_", 1)[1]
    if rest in ("gl0_inv", "gl1_inv"):
        return lambda w, i: None
    vdata = i.f["vdata"]
    if i.enc == "MTBUF":
        rest = rest.replace("d16_", "")
    if rest.startswith("load_lds") or "d16_format" in rest or "d16_hi_format" in rest:
        raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")
    if rest.startswith("load_format_") or rest.startswith("load_"):
        if rest.startswith("load_format_"):
            return _typed_load(i, vdata, len(rest) - len("load_format_"))
        nbytes, signed, d16 = _LOAD[rest[5:]]
        dests = tuple((vdata + k) & 255 for k in range((nbytes + 3) // 4 + i.f.get("tfe", 0)))

        def hl(w: Wave, i: Inst) -> None:
            lanes = np.flatnonzero(w.exec_mask())
            if w.strict is not None:
                w.strict.issue(w, i, ("vm",), dests, ())
            if not len(lanes):
                return
            priv = _private_offsets(w, i, sread(w, i.f["srsrc"], 128), lanes)
            if priv is not None:
                try:
                    data = mem_gather(w, "scratch", priv.astype(U64), nbytes, lanes)
                except MemFault as e:
                    raise fault(i, e) from None
                write_load(w, vdata, data, lanes, signed, d16)
                return
            addrs, ok = _buf_addrs(w, i, lanes, nbytes)
            data = np.zeros((len(lanes), nbytes), dtype=np.uint8)
            try:
                data[ok] = w.memory.gather(addrs[ok], nbytes, lanes[ok])
            except MemFault as e:
                raise fault(i, e) from None
            write_load(w, vdata, data, lanes, signed, d16)
        return hl
    if rest.startswith("store_format_"):
        return _typed_store(i, vdata, len(rest) - len("store_format_"))
    if rest.startswith("store_"):
        nbytes, d16 = _STORE[rest[6:]]

        def hs(w: Wave, i: Inst) -> None:
            lanes = np.flatnonzero(w.exec_mask())
            if w.strict is not None:
                w.strict.issue(w, i, ("vs",), (), ())
            if not len(lanes):
                return
            data = _store_bytes(w, vdata, nbytes, d16, lanes)
            priv = _private_offsets(w, i, sread(w, i.f["srsrc"], 128), lanes)
            if priv is not None:
                try:
                    mem_scatter(w, "scratch", priv.astype(U64), data, lanes)
                except MemFault as e:
                    raise fault(i, e) from None
                return
            addrs, ok = _buf_addrs(w, i, lanes, nbytes)
            try:
                w.memory.scatter(addrs[ok], data[ok], lanes[ok])
            except MemFault as e:
                raise fault(i, e) from None
        return hs
    if rest.startswith("atomic_"):
        stem = op_stem(name)
        bits = type_bits(name)
        nb = bits // 8
        cmp = stem == "cmpswap"
        rtn = bool(i.f.get("glc"))
        dests = tuple((vdata + k) & 255 for k in range(bits // 32)) if rtn else ()

        def ha(w: Wave, i: Inst) -> None:
            lanes = np.flatnonzero(w.exec_mask())
            if w.strict is not None:
                w.strict.issue(w, i, ("vm" if rtn else "vs",), dests, ())
            if not len(lanes):
                return
            addrs, ok = _buf_addrs(w, i, lanes, nb)
            data = read_vgprs_bytes(w, vdata, nb * (2 if cmp else 1), lanes)
            d, d2 = (data[:, :nb], data[:, nb:]) if cmp else (data, None)
            old = np.zeros((len(lanes), nb), dtype=np.uint8)
            try:
                old[ok] = do_atomic(w, "global", addrs[ok], lanes[ok], stem, bits, d[ok],
                                    None if d2 is None else d2[ok])
            except MemFault as e:
                raise fault(i, e) from None
            if rtn:
                write_load(w, vdata, old, lanes, False, None)
        return ha
    raise UnsupportedInstruction(f"{i.where()}: {name} is not supported")


BINDERS: dict[str, Callable[[Inst], Handler]] = {
    "GLOBAL": _flat_bind, "SCRATCH": _flat_bind, "FLAT": _flat_bind,
    "MUBUF": _buf_bind, "MTBUF": _buf_bind,
}

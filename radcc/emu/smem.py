"""Scalar memory (ISA guide chapter 8, "Scalar memory operations"; 16.6 SMEM opcodes).

s_load_b{32..512}: ADDR = SGPR[sbase] + inst_offset + SGPR[soffset] (soffset NULL
= none), dword aligned. s_buffer_load_*: the base, stride and num_records come
from the buffer descriptor in SGPR[sbase:sbase+3]; dwords past num_records read 0.
Results are tracked by LGKMcnt (out of order between SMEM loads) in strict mode.
Cache invalidates and write-backs are no-ops. GFX10.1's s_store_dword{,x2,x4} write
SDATA at the s_load address.
"""

from __future__ import annotations

from collections.abc import Callable

from radcc.emu.decode import Inst
from radcc.emu.errors import EmuError, UnsupportedInstruction
from radcc.emu.memory import MemFault
from radcc.emu.regs import sread, swrite
from radcc.emu.state import NULL, Wave

Handler = Callable[[Wave, Inst], None]


def _bind_smem(i: Inst) -> Handler:
    name = i.name
    def hn(w: Wave, i: Inst) -> None:
        if w.strict is not None:
            w.strict.issue(w, i, ("lgkm",), (), (), smem=True)
    if name in ("s_dcache_inv", "s_gl1_inv", "s_atc_probe", "s_atc_probe_buffer"):
        return hn
    if name in ("s_dcache_wb", "s_dcache_wb_vol"):  # GFX10.1: the scalar cache writes back
        return hn
    if name in ("s_store_dword", "s_store_dwordx2", "s_store_dwordx4"):
        return _bind_store(i)
    if not name.startswith(("s_load_", "s_buffer_load_")):
        raise UnsupportedInstruction(f"{i.where()}: SMEM {name} is not supported")
    nbytes = int(name.rsplit("_b", 1)[1]) // 8
    sdata, sbase = i.f["sdata"], i.f["sbase"]
    off, soff = i.f["offset"], i.f.get("soffset", NULL)
    buffer = name.startswith("s_buffer_")
    ndw = nbytes // 4
    dests = tuple(range(sdata, sdata + ndw))

    def h(w: Wave, i: Inst) -> None:
        extra = sread(w, soff) if soff != NULL else 0
        if buffer:
            desc = sread(w, sbase, 128)
            base = desc & ((1 << 48) - 1)
            num = desc >> 64 & 0xFFFFFFFF
            o = (off + extra) & ~3
            words = []
            for k in range(ndw):
                a = o + 4 * k
                words.append(0 if a + 4 > num else _read(w, i, base + a, 4))
            value = sum(v << (32 * k) for k, v in enumerate(words))
        else:
            addr = (sread(w, sbase, 64) + off + extra) & ~3 & ((1 << 64) - 1)
            value = _read(w, i, addr, nbytes)
        swrite(w, sdata, value, nbytes * 8)
        if w.strict is not None:
            w.strict.issue(w, i, ("lgkm",), (), dests, smem=True)
    return h


def _bind_store(i: Inst) -> Handler:
    """GFX10.1's s_store_dword{,x2,x4}: SDATA's dwords to SGPR[sbase] + offset +
    SGPR[soffset] (RDNA1 guide, scalar memory writes), counted on LGKMcnt."""
    ndw = {"s_store_dword": 1, "s_store_dwordx2": 2, "s_store_dwordx4": 4}[i.name]
    sdata, sbase = i.f["sdata"], i.f["sbase"]
    off, soff = i.f["offset"], i.f.get("soffset", NULL)

    def h(w: Wave, i: Inst) -> None:
        extra = sread(w, soff) if soff != NULL else 0
        addr = (sread(w, sbase, 64) + off + extra) & ~3 & ((1 << 64) - 1)
        value = sread(w, sdata, 32 * ndw)
        try:
            w.memory.write(addr, value.to_bytes(4 * ndw, "little"))
        except MemFault as e:
            raise EmuError(f"{i.where()}: memory fault: scalar store to {e.addr:#x} "
                           f"({4 * ndw} bytes)") from None
        if w.strict is not None:
            w.strict.issue(w, i, ("lgkm",), (), (), smem=True)
    return h


def _read(w: Wave, i: Inst, addr: int, n: int) -> int:
    try:
        return int.from_bytes(w.memory.read(addr, n), "little")
    except MemFault as e:
        raise EmuError(f"{i.where()}: memory fault: scalar load from unmapped address "
                       f"{e.addr:#x} ({n} bytes)") from None


BINDERS: dict[str, Callable[[Inst], Handler]] = {"SMEM": _bind_smem}

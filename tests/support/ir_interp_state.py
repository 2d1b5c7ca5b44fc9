"""The state of the IR interpreter (`tests.support.ir_interp`): a wave's values
(`WaveState`) and dict-backed global memory (`FlatMemory`).

Memory is a set of mapped regions (a base address, bytes, writable or not),
as the emulator's `radcc.emu.memory` maps buffers: an access outside every
region, or a write to a read-only region, raises `InterpError` (the
emulator faults there too), so a program that computes a wrong address is
caught rather than reading zeros.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import numpy as np

from radcc.ir.program import Program
from radcc.ir.regclass import EXEC, EXEC_HI, SCC, VCC, Temp
from radcc.isa.table import get_table


class InterpError(Exception):
    """The program cannot be interpreted: bad IR, fault, unsupported op."""


@dataclass
class Region:
    name: str
    base: int
    data: bytearray
    writable: bool = True

    @property
    def end(self) -> int:
        return self.base + len(self.data)


class FlatMemory:
    """Byte-addressed memory made of mapped regions (dict of base -> Region)."""

    BASE = 0x1_0000_0000  # first mapping: above 4 GiB, so 32-bit truncation faults
    ALIGN = 0x1000

    def __init__(self) -> None:
        self.regions: dict[int, Region] = {}
        self._bases: list[int] = []
        self._next = self.BASE

    def map(self, name: str, data: bytes, *, size: int | None = None,
            writable: bool = True) -> Region:
        """Map `data` (zero-padded to `size`) at the next free aligned address."""
        n = max(len(data), size or 0, 1)
        buf = bytearray(n)
        buf[:len(data)] = data
        r = Region(name, self._next, buf, writable)
        self._next += (n + 2 * self.ALIGN - 1) // self.ALIGN * self.ALIGN  # + a guard page
        self.regions[r.base] = r
        bisect.insort(self._bases, r.base)
        return r

    def region(self, addr: int, n: int) -> Region:
        i = bisect.bisect_right(self._bases, addr) - 1
        if i >= 0:
            r = self.regions[self._bases[i]]
            if addr + n <= r.end:
                return r
        raise InterpError(f"memory access of {n} bytes at {addr:#x} is outside every buffer")

    def read(self, addr: int, n: int) -> bytes:
        r = self.region(addr, n)
        off = addr - r.base
        return bytes(r.data[off:off + n])

    def write(self, addr: int, data: bytes) -> None:
        r = self.region(addr, len(data))
        if not r.writable:
            raise InterpError(f"write to read-only {r.name} at {addr:#x}")
        off = addr - r.base
        r.data[off:off + len(data)] = data


__all__ = ["FlatMemory", "InterpError", "Region"]


class WaveState:
    """Values of one wave: SGPR temps (ints), VGPR temps (uint32 (dwords, lanes)),
    temp-less fixed registers, SCC, EXEC and the active lanes."""

    def __init__(self, program: Program, wave: int, memory: FlatMemory,
                 explicit_exec: bool) -> None:
        self.program = program
        self.table = get_table(program.gfx_level)
        self.wave = wave
        self.full = (1 << wave) - 1
        self.memory = memory
        self.explicit_exec = explicit_exec
        self.s: dict[int, int] = {}
        self.v: dict[int, np.ndarray] = {}
        self.phys: dict[int, int] = {}
        self.scc = 0
        self.exec = 0
        self.active = np.zeros(wave, dtype=bool)

    # lanes <-> masks
    def bools(self, mask: int) -> np.ndarray:
        return np.array([(mask >> i) & 1 for i in range(self.wave)], dtype=bool)

    def mask_of(self, lanes: np.ndarray) -> int:
        idx = np.flatnonzero(np.asarray(lanes, dtype=bool)[:self.wave])
        return sum(1 << int(i) for i in idx)

    def set_exec(self, value: int) -> None:
        self.exec = value & self.full
        self.active = self.bools(self.exec)

    def set_active(self, lanes: np.ndarray) -> None:
        self.active = lanes
        self.exec = self.mask_of(lanes)

    # VGPR temps
    def vget(self, tid: int) -> np.ndarray:
        try:
            return self.v[tid]
        except KeyError:
            if not self.active.any():
                # no lane runs this (a block the wave passes with EXEC empty, e.g.
                # after a divergent continue): the value is never observed
                rcs = self.program.temp_rc
                rc = rcs[tid] if tid < len(rcs) else None
                return np.zeros((rc.size if rc is not None else 1, self.wave), dtype=np.uint32)
            raise InterpError(f"%{tid} read before it is defined") from None

    def vdef(self, t: Temp) -> np.ndarray:
        arr = self.v.get(t.id)
        if arr is None:
            arr = self.v[t.id] = np.zeros((t.rc.size, self.wave), dtype=np.uint32)
        return arr

    # fixed registers without temps (exec, scc, vcc, m0 ...)
    def read_phys(self, reg: int, size: int) -> int:
        if reg == EXEC:
            return self.exec
        if reg == SCC:
            return self.scc
        return sum(self.phys.get(reg + k, 0) << (32 * k) for k in range(size))

    def write_phys(self, reg: int, value: int, size: int) -> None:
        if reg in (EXEC, EXEC_HI):
            if not self.explicit_exec:
                raise InterpError("EXEC written in a program read with implicit exec")
            self.set_exec(value)
            return
        if reg == SCC:
            self.scc = value & 1
            return
        for k in range(size):
            self.phys[reg + k] = (value >> (32 * k)) & 0xFFFFFFFF

    def phys_value(self, reg: int) -> int:
        return self.read_phys(reg, 2 if self.wave == 64 and reg == VCC else 1)

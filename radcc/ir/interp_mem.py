"""Dict-backed global memory for the IR interpreter (`radcc.ir.interp`).

Memory is a set of mapped regions (a base address, bytes, writable or not),
as the emulator's `radcc.emu.memory` maps buffers: an access outside every
region, or a write to a read-only region, raises `InterpError` (the
emulator faults there too), so a program that computes a wrong address is
caught rather than reading zeros.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass


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

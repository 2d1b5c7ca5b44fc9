"""Global memory: a flat 64-bit address space of NumPy-backed regions.

Regions are the loaded code object's PT_LOAD segments, the kernarg segment and
the buffers the caller allocates. Any access outside a region (unmapped, or
straddling a region's end) is a fault (`MemFault`) that the instruction
handlers turn into a clear error naming the instruction, the address and the
lane (ISA guide 9 "Vector memory operations" and 10 "Flat memory
instructions": the emulator is stricter than hardware, which may not fault).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from radcc.emu.errors import EmuError

# Global buffers live here and upward; the apertures of flat addressing sit far above.
HEAP_BASE = 0x1_0000_0000
GUARD = 0x1000  # unmapped bytes between regions, so overruns fault
# Robust mode: unmapped space on either side of a buffer, more than any 32-bit offset
# (radcc's addresses are a 64-bit base plus a 32-bit offset), so that an out-of-bounds
# access of one buffer never reaches another region.
ISOLATION = 1 << 34


class MemFault(EmuError):
    """An access outside every mapped region."""

    def __init__(self, message: str, addr: int = 0, lane: int | None = None) -> None:
        super().__init__(message)
        self.addr = addr
        self.lane = lane


@dataclass
class Region:
    name: str
    base: int
    data: np.ndarray  # uint8
    writable: bool = True

    @property
    def end(self) -> int:
        return self.base + len(self.data)


class Memory:
    """The flat address space (sorted, non-overlapping regions)."""

    def __init__(self, robust: bool = False) -> None:
        self.regions: list[Region] = []
        self._bases = np.zeros(0, dtype=np.uint64)
        self._next = HEAP_BASE
        # robust buffer access (Vulkan robustBufferAccess, as bounded buffer descriptors
        # give it): a load of unmapped bytes reads zero, a store to them is dropped,
        # byte by byte; without it such an access is a MemFault
        self.robust = robust

    def _index(self) -> None:
        self.regions.sort(key=lambda r: r.base)
        self._bases = np.array([r.base for r in self.regions], dtype=np.uint64)

    def map(self, name: str, data: bytes | np.ndarray, base: int | None = None,
            size: int | None = None, align: int = 256, writable: bool = True,
            isolate: bool = False) -> Region:
        """Map `data` (copied; zero-extended to `size`) at `base` or the next free address;
        `isolate`: with `ISOLATION` bytes of unmapped space before and after it."""
        raw = np.frombuffer(bytes(data), dtype=np.uint8) if isinstance(data, bytes | bytearray) \
            else np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        n = max(len(raw), size or 0)
        arr = np.zeros(n, dtype=np.uint8)
        arr[:len(raw)] = raw
        if base is None:
            start = self._next + (ISOLATION if isolate else 0)
            base = (start + align - 1) // align * align
        for r in self.regions:
            if base < r.end and r.base < base + max(n, 1):
                raise EmuError(f"region {name} at {base:#x} overlaps {r.name}")
        reg = Region(name, base, arr, writable)
        self.regions.append(reg)
        self._next = max(self._next, base + n + (ISOLATION if isolate else GUARD))
        self._index()
        return reg

    def region(self, name: str) -> Region:
        for r in self.regions:
            if r.name == name:
                return r
        raise KeyError(name)

    def find(self, addr: int, n: int = 1) -> Region | None:
        i = int(np.searchsorted(self._bases, np.uint64(addr), side="right")) - 1
        if i < 0:
            return None
        r = self.regions[i]
        return r if addr + n <= r.end else None

    # --- scalar access -----------------------------------------------------------
    def read_code(self, addr: int, n: int) -> bytes:
        r = self.find(addr, 4)
        if r is None:
            raise MemFault(f"unmapped address {addr:#x}", addr)
        o = addr - r.base
        return r.data[o:o + n].tobytes()

    def read(self, addr: int, n: int) -> bytes:
        r = self.find(addr, n)
        if r is None and self.robust:
            return self._robust_gather(np.array([addr], dtype=np.uint64), n)[0].tobytes()
        if r is None:
            raise MemFault(f"unmapped address {addr:#x} ({n} bytes)", addr)
        o = addr - r.base
        return r.data[o:o + n].tobytes()

    def write(self, addr: int, data: bytes) -> None:
        r = self.find(addr, len(data))
        if r is None and self.robust:
            self._robust_scatter(np.array([addr], dtype=np.uint64),
                                 np.frombuffer(data, dtype=np.uint8)[None, :])
            return
        if r is None or not r.writable:
            raise MemFault(f"unmapped or read-only address {addr:#x} ({len(data)} bytes)", addr)
        o = addr - r.base
        r.data[o:o + len(data)] = np.frombuffer(data, dtype=np.uint8)

    # --- vector access -----------------------------------------------------------
    def _locate(self, addrs: np.ndarray, n: int, lanes: np.ndarray,
                write: bool) -> np.ndarray:
        """Region index per address; MemFault naming the first bad lane."""
        idx = np.searchsorted(self._bases, addrs, side="right").astype(np.int64) - 1
        ok = idx >= 0
        if len(self.regions):
            ends = np.array([r.end for r in self.regions], dtype=np.uint64)
            safe = np.where(ok, idx, 0)
            ok &= (addrs + np.uint64(n)) <= ends[safe]
            if write:
                wr = np.array([r.writable for r in self.regions])
                ok &= wr[safe]
        if not ok.all():
            k = int(np.argmin(ok))
            a = int(addrs[k])
            raise MemFault(f"lane {int(lanes[k])}: {'store to' if write else 'load from'} "
                           f"unmapped address {a:#x} ({n} bytes)", a, int(lanes[k]))
        return idx

    def _single(self, addrs: np.ndarray, n: int, write: bool) -> Region | None:
        """The region holding every access when one does (the common case: the fast
        path of gather/scatter), else None (the general path, which names faults)."""
        lo = int(addrs.min())
        r = self.find(lo, n)
        if r is None or int(addrs.max()) + n > r.end or (write and not r.writable):
            return None
        return r

    def gather(self, addrs: np.ndarray, n: int, lanes: np.ndarray) -> np.ndarray:
        """Bytes [len(addrs), n] read at each address."""
        addrs = addrs.astype(np.uint64, copy=False)
        if not len(addrs):
            return np.empty((0, n), dtype=np.uint8)
        r = self._single(addrs, n, False)
        if r is not None:
            off = (addrs - np.uint64(r.base)).astype(np.int64)
            return r.data[off[:, None] + np.arange(n, dtype=np.int64)]
        if self.robust:
            return self._robust_gather(addrs, n)
        out = np.empty((len(addrs), n), dtype=np.uint8)
        idx = self._locate(addrs, n, lanes, False)
        step = np.arange(n, dtype=np.int64)
        for i in np.unique(idx):
            r = self.regions[int(i)]
            sel = idx == i
            off = (addrs[sel] - np.uint64(r.base)).astype(np.int64)
            out[sel] = r.data[off[:, None] + step]
        return out

    def scatter(self, addrs: np.ndarray, data: np.ndarray, lanes: np.ndarray) -> None:
        """Write data [len(addrs), n] bytes; later lanes win on overlap."""
        addrs = addrs.astype(np.uint64, copy=False)
        if not len(addrs):
            return
        n = data.shape[1]
        r1 = self._single(addrs, n, True)
        if r1 is not None:
            off = (addrs - np.uint64(r1.base)).astype(np.int64)
            r1.data[off[:, None] + np.arange(n, dtype=np.int64)] = data
            return
        if self.robust:
            self._robust_scatter(addrs, data)
            return
        idx = self._locate(addrs, n, lanes, True)
        step = np.arange(n, dtype=np.int64)
        for i in np.unique(idx):
            r = self.regions[int(i)]
            sel = idx == i
            off = (addrs[sel] - np.uint64(r.base)).astype(np.int64)
            r.data[off[:, None] + step] = data[sel]

    # --- robust buffer access ------------------------------------------------------
    def _bytes(self, addrs: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per byte of each access: its address, its region index and whether it is mapped."""
        b = (addrs.astype(np.uint64)[:, None] + np.arange(n, dtype=np.uint64)).reshape(-1)
        idx = np.searchsorted(self._bases, b, side="right").astype(np.int64) - 1
        ok = idx >= 0
        if len(self.regions):
            ends = np.array([r.end for r in self.regions], dtype=np.uint64)
            ok &= b < ends[np.where(ok, idx, 0)]
        return b, idx, ok

    def _robust_gather(self, addrs: np.ndarray, n: int) -> np.ndarray:
        """Bytes [len(addrs), n]; unmapped bytes read as zero."""
        b, idx, ok = self._bytes(addrs, n)
        out = np.zeros(len(b), dtype=np.uint8)
        for i in np.unique(idx[ok]):
            r = self.regions[int(i)]
            sel = ok & (idx == i)
            out[sel] = r.data[(b[sel] - np.uint64(r.base)).astype(np.int64)]
        return out.reshape(len(addrs), n)

    def _robust_scatter(self, addrs: np.ndarray, data: np.ndarray) -> None:
        """Write data [len(addrs), n]; unmapped bytes are dropped, a read-only region
        faults as without robustness; later lanes win on overlap."""
        b, idx, ok = self._bytes(addrs, data.shape[1])
        flat = data.reshape(-1)
        for i in np.unique(idx[ok]):
            r = self.regions[int(i)]
            sel = ok & (idx == i)
            if not r.writable:
                a = int(b[np.argmax(sel)])
                raise MemFault(f"store to read-only address {a:#x} ({r.name})", a)
            r.data[(b[sel] - np.uint64(r.base)).astype(np.int64)] = flat[sel]

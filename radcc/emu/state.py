"""Wave state (ISA guide chapter 3, "Wave state"): SGPRs, VCC, EXEC, M0, TTMPs,
SCC, PC, MODE, STATUS/TRAPSTS, VGPRs, plus the wave's view of LDS and scratch.

Scalar registers are a list of 128 Python ints indexed by the 7-bit SGPR code
(s0-s105, vcc_lo/hi 106/107, ttmp0-15 108-123, null 124, m0 125, exec_lo/hi
126/127), so scalar code works on plain ints. VGPRs are a NumPy uint32 array
[256, wave size] (`vr` lists its rows as views, which index faster); a 64-bit value
occupies two consecutive VGPRs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

# the named SGPRs are their source-operand codes (radcc.isa.operands; re-exported)
from radcc.isa.operands import EXEC_HI as EXEC_HI
from radcc.isa.operands import EXEC_LO as EXEC_LO
from radcc.isa.operands import M0 as M0
from radcc.isa.operands import NULL as NULL
from radcc.isa.operands import VCC_HI as VCC_HI
from radcc.isa.operands import VCC_LO as VCC_LO

if TYPE_CHECKING:
    from radcc.emu.memory import Memory
    from radcc.emu.strict import Strict

MASK32 = 0xFFFFFFFF

# lane masks as read-only per-lane arrays, by (mask, wave size, dtype): kernels test the
# same few masks over and over (EXEC, VCC of a loop's compare); cleared when it grows past
# _MASK_CACHE_MAX entries
_MASK_CACHE: dict[tuple[int, int, type], np.ndarray] = {}
_MASK_CACHE_MAX = 4096


def lane_array(m: int, size: int, dtype: type = bool) -> np.ndarray:
    """The lanes of mask `m` in a wave of `size` lanes as an array of `dtype` (bool, or
    0/1 integers), shared and read-only: do not modify."""
    key = (m, size, dtype)
    a = _MASK_CACHE.get(key)
    if a is None:
        if len(_MASK_CACHE) >= _MASK_CACHE_MAX:
            _MASK_CACHE.clear()
        b = np.frombuffer(m.to_bytes(8, "little"), dtype=np.uint8)
        a = np.unpackbits(b, bitorder="little")[:size].astype(dtype)
        a.flags.writeable = False
        _MASK_CACHE[key] = a
    return a


# Apertures for flat addressing (ISA 10.1.1, 3.3 "memory apertures"): the high
# 32 bits of the shared (LDS) and private (scratch) aperture bases.
SHARED_BASE_HI = 0x0001_0000
PRIVATE_BASE_HI = 0x0002_0000

# Hardware register ids for s_getreg/s_setreg (ISA 3.4 / table "Hardware registers").
HW_MODE, HW_STATUS, HW_TRAPSTS, HW_HW_ID1, HW_GPR_ALLOC, HW_LDS_ALLOC = 1, 2, 3, 23, 5, 6
HW_IB_STS, HW_SH_MEM_BASES, HW_FLAT_SCR_LO, HW_FLAT_SCR_HI = 7, 15, 20, 21
HW_HW_ID2, HW_POPS_PACKER, HW_SHADER_CYCLES = 24, 25, 29


class Workgroup:
    """What the waves of one workgroup share: LDS and the barrier."""

    def __init__(self, wg_id: tuple[int, int, int], lds_size: int, nwaves: int) -> None:
        self.id = wg_id
        self.lds = np.zeros(max(lds_size, 4), dtype=np.uint8)
        self.lds_size = lds_size
        self.nwaves = nwaves
        self.waves: list[Wave] = []


class Wave:
    """One wavefront's architectural state."""

    def __init__(self, size: int, wg: Workgroup, index: int, scratch_bytes: int,
                 vgprs: tuple[np.ndarray, list[np.ndarray]] | None = None) -> None:
        """`vgprs`: a VGPR array [256, size] and its row views to reuse (zeroed here) from a
        wave that has ended, instead of allocating them."""
        self.size = size
        self.wg = wg
        self.index = index  # wave index inside the workgroup
        self.s: list[int] = [0] * 128
        if vgprs is not None and vgprs[0].shape == (256, size):
            self.v = vgprs[0]
            self.v.fill(0)
            self.vr = vgprs[1]
        else:
            self.v = np.zeros((256, size), dtype=np.uint32)
            self.vr: list[np.ndarray] = list(self.v)  # row views of `v` (cheaper to index)
        self.scc = 0
        self.pc = 0
        self.mode = 0
        self.status = 0
        self.trapsts = 0
        self.done = False
        self.at_barrier = False
        self.scratch_bytes = scratch_bytes
        self.scratch = np.zeros((size, max(scratch_bytes, 4)), dtype=np.uint8)
        self.lane_ids = np.arange(size, dtype=np.int64)
        self.full = (1 << size) - 1
        self.count = 0  # instructions executed
        self.strict: Strict | None = None
        self.memory: Memory = None  # type: ignore[assignment]  # set by the dispatcher
        self.valid_lanes = np.ones(size, dtype=bool)
        # radcc.emu.graphics.Export (not imported: graphics imports this module)
        self.exports: list[Any] = []  # the exports executed
        self._exec_key = -1
        self._exec_arr = np.zeros(size, dtype=bool)

    # --- masks ---------------------------------------------------------------
    @property
    def exec(self) -> int:
        if self.size == 32:
            return self.s[EXEC_LO]
        return self.s[EXEC_LO] | self.s[EXEC_HI] << 32

    @exec.setter
    def exec(self, value: int) -> None:
        self.s[EXEC_LO] = value & MASK32
        if self.size == 64:
            self.s[EXEC_HI] = value >> 32 & MASK32

    @property
    def vcc(self) -> int:
        if self.size == 32:
            return self.s[VCC_LO]
        return self.s[VCC_LO] | self.s[VCC_HI] << 32

    def exec_mask(self) -> np.ndarray:
        """EXEC as a bool array (cached per value; do not modify)."""
        e = self.exec
        if e != self._exec_key:
            self._exec_key = e
            self._exec_arr = self.mask_to_bools(e)
        return self._exec_arr

    def mask_to_bools(self, m: int) -> np.ndarray:
        """The lanes of mask `m` as a bool array (shared and read-only: do not modify)."""
        return lane_array(m, self.size)

    @staticmethod
    def bools_to_mask(b: np.ndarray) -> int:
        return int.from_bytes(np.packbits(b, bitorder="little").tobytes(), "little")

    def read_mask(self, code: int) -> int:
        """A lane mask (wave-sized) from an SGPR pair/single by code."""
        lo = self.s[code] if code < 128 else 0
        if self.size == 32:
            return lo
        return lo | (self.s[code + 1] if code + 1 < 128 else 0) << 32

    def write_mask(self, code: int, value: int) -> None:
        if code == NULL:
            return
        self.s[code] = value & MASK32
        if self.size == 64:
            self.s[code + 1] = value >> 32 & MASK32

    # --- hardware registers (s_getreg / s_setreg) ------------------------------
    def get_hwreg(self, hw_id: int) -> int:
        if hw_id == HW_MODE:
            return self.mode
        if hw_id == HW_STATUS:
            return self.status | (self.scc & 1) | (int(self.exec == 0) << 9) \
                | (int(self.vcc == 0) << 10)
        if hw_id == HW_TRAPSTS:
            return self.trapsts
        if hw_id == HW_LDS_ALLOC:
            return (self.wg.lds_size + 511) // 512 << 12
        if hw_id in (HW_FLAT_SCR_LO, HW_FLAT_SCR_HI, HW_SH_MEM_BASES):
            return 0
        if hw_id == HW_HW_ID1:
            return self.index & 0x1F
        if hw_id == HW_SHADER_CYCLES:
            return self.count & 0xFFFFF
        return 0

    def set_hwreg(self, hw_id: int, value: int, mask: int) -> None:
        if hw_id == HW_MODE:
            self.mode = (self.mode & ~mask) | (value & mask)
        elif hw_id == HW_TRAPSTS:
            self.trapsts = (self.trapsts & ~mask) | (value & mask)
        elif hw_id == HW_STATUS:
            self.status = (self.status & ~mask) | (value & mask)

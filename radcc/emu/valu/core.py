"""Shared types of the VALU semantics library: modifiers, results, op registry.

An op is a function ``fn(ctx, srcs) -> ValuResult`` registered under its
canonical LLVM name (``OpInfo.name``). Sources arrive as ``np.uint64`` arrays
of raw bits, one element per lane, in ``OpInfo.operands`` order (ISA guide
§7.2 Operands); mask-like sources (cndmask select, carry-in) hold 0/1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from radcc.emu.valu.float_mode import FloatMode

U64 = np.uint64
M16 = U64(0xFFFF)
M32 = U64(0xFFFFFFFF)


@dataclass(frozen=True, slots=True)
class ValuMods:
    """Encoded VOP3/VOP3P modifiers (ISA guide §7.1, §7.5).

    abs/neg: per source (VOP3; for VOP3P `neg` is NEG_LO and `neg_hi` NEG_HI).
    opsel: VOP3 bits [0..2] = source high half, [3] = destination high half
      (VOP1/VOP2/VOPC 16-bit operands naming a ``.h`` register set the same
      bits); VOP3P: the low-result half selectors.
    opsel_hi: VOP3P high-result half selectors (default 0b111).
    clamp: CLMP bit. omod: 0 none, 1 *2, 2 *4, 3 /2.
    """

    abs: tuple[bool, bool, bool] = (False, False, False)
    neg: tuple[bool, bool, bool] = (False, False, False)
    neg_hi: tuple[bool, bool, bool] = (False, False, False)
    opsel: int = 0
    opsel_hi: int = 0b111
    clamp: bool = False
    omod: int = 0


NO_MODS = ValuMods()


@dataclass(slots=True)
class ValuResult:
    """What an op produces.

    d: raw result bits per lane (uint64) or None (compares, v_cmpx).
    sdst: bool per lane: compare result, carry-out, div_scale's VCC; lanes
      where exec is false are False (V_CMP writes 0 for inactive lanes).
    writes_exec: the compare result goes to EXEC (v_cmpx), not an SGPR.
    d_bits: 16, 32, 64 or 128 (v_mqsad_u32_u8: four dwords in a Python-int
      free layout: ``d`` then has shape (4, wave), dword i in row i).
    d_shift: for d_bits == 16, the bit offset (0 or 16) of the half of the
      32-bit VGPR to write; the other half keeps its old value (§7.1 OPSEL).
    """

    d: np.ndarray | None
    sdst: np.ndarray | None = None
    writes_exec: bool = False
    d_bits: int = 32
    d_shift: int = 0


@dataclass(slots=True)
class Ctx:
    """Per-instruction execution context handed to every op."""

    name: str
    mods: ValuMods
    wave: int
    exec_mask: np.ndarray
    fmode: FloatMode
    lane_masks: dict[str, int] = field(default_factory=dict)

    def sel(self, i: int) -> int:
        """OPSEL bit of source i (VOP3), or 3 for the destination."""
        return (self.mods.opsel >> i) & 1

    def lane_mask(self, name: str) -> np.ndarray:
        """A wave-wide bit mask from `lane_masks` as bool per lane."""
        try:
            m = self.lane_masks[name]
        except KeyError:
            raise ValueError(f"{self.name} needs lane_masks[{name!r}]") from None
        return lane_bits(m, self.wave)


OpFn = Callable[[Ctx, list[np.ndarray]], ValuResult]
REGISTRY: dict[str, OpFn] = {}


def register(*names: str) -> Callable[[OpFn], OpFn]:
    """Decorator: register `fn` under each of `names`."""

    def deco(fn: OpFn) -> OpFn:
        for n in names:
            if n in REGISTRY:
                raise ValueError(f"duplicate VALU op {n}")
            REGISTRY[n] = fn
        return fn

    return deco


def add_op(name: str, fn: OpFn) -> None:
    register(name)(fn)


def lane_bits(mask: int, wave: int) -> np.ndarray:
    """Bits 0..wave-1 of an integer mask as a bool array."""
    raw = (mask & ((1 << wave) - 1)).to_bytes((wave + 7) // 8, "little")
    return np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:wave].astype(bool)


def u16(ctx: Ctx, srcs: list[np.ndarray], i: int) -> np.ndarray:
    """16-bit source i (uint64 0..0xffff), half chosen by OPSEL[i]."""
    return (srcs[i] >> U64(16 * ctx.sel(i))) & M16


def u32(srcs: list[np.ndarray], i: int) -> np.ndarray:
    return srcs[i] & M32


def s32(x: np.ndarray) -> np.ndarray:
    """Low 32 bits reinterpreted as int64 values of int32."""
    return (x & M32).astype(np.uint32).view(np.int32).astype(np.int64)


def s16(x: np.ndarray) -> np.ndarray:
    return (x & M16).astype(np.uint16).view(np.int16).astype(np.int64)


_MASKS = {16: M16, 32: M32, 64: U64(0xFFFFFFFFFFFFFFFF)}


def to_u64(x: np.ndarray, bits: int = 32) -> np.ndarray:
    """Any integer array to uint64 raw bits truncated to `bits`."""
    m = _MASKS[bits] if bits in _MASKS else U64((1 << bits) - 1)
    if x.dtype == U64:
        return x & m  # a new array, as below
    return x.astype(np.int64).view(np.uint64) & m if x.dtype.kind == "i" else x.astype(U64) & m


def res32(x: np.ndarray) -> ValuResult:
    return ValuResult(to_u64(x, 32), d_bits=32)


def res64(x: np.ndarray) -> ValuResult:
    return ValuResult(to_u64(x, 64), d_bits=64)


def res16(ctx: Ctx, x: np.ndarray) -> ValuResult:
    """A 16-bit result written to the half chosen by OPSEL[3]."""
    return ValuResult(to_u64(x, 16), d_bits=16, d_shift=16 * ctx.sel(3))


def sat(x: np.ndarray, lo: int, hi: int) -> np.ndarray:
    return np.clip(x, lo, hi)

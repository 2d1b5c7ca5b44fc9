"""The MODE register's float controls (ISA guide §3.4.2 Mode register, §7.2.4).

FP_ROUND [3:0]: [1:0] single precision, [3:2] double and half precision;
round modes 0 = nearest even, 1 = +inf, 2 = -inf, 3 = toward zero.
FP_DENORM [7:4]: [5:4] single precision, [7:6] double and half precision;
each 2-bit field is {allow_output_denorms, allow_input_denorms}.
DX10_CLAMP [8]: with the CLAMP bit, NaN results clamp to 0 (else pass through).
IEEE [9]: IEEE-754-2008 min/max with signaling-NaN quieting; also makes the
hardware ignore OMOD (§7.2.3.1). GFX11 still has both bits (GFX12 drops them).
FP16_OVFL [23]: overflowed FP16 results clamp to +-MAX_F16 (true infinities stay).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

RNE, RUP, RDN, RTZ = 0, 1, 2, 3

# What a GFX11 compute wave gets from an LLVM-default kernel descriptor:
# round to nearest even, all denormals kept (mode 3 for both fields),
# DX10_CLAMP = 1, IEEE = 1.
DEFAULT_MODE = 0xF0 | (1 << 8) | (1 << 9)


@dataclass(frozen=True, slots=True)
class FloatMode:
    """Decoded float controls of one MODE value."""

    round32: int
    round64: int  # also f16
    in32: bool  # allow input denormals (f32)
    out32: bool  # allow output denormals (f32)
    in64: bool  # f64 and f16
    out64: bool
    dx10_clamp: bool
    ieee: bool
    fp16_ovfl: bool

    def round_for(self, bits: int) -> int:
        """Round mode for a result of `bits` (16/32/64) width."""
        return self.round32 if bits == 32 else self.round64

    def in_denorm(self, bits: int) -> bool:
        return self.in32 if bits == 32 else self.in64

    def out_denorm(self, bits: int) -> bool:
        return self.out32 if bits == 32 else self.out64


@cache
def decode_mode(mode: int) -> FloatMode:
    """Decode a MODE register value (cached: a wave's MODE rarely changes)."""
    return FloatMode(
        round32=mode & 3,
        round64=(mode >> 2) & 3,
        in32=bool(mode >> 4 & 1),
        out32=bool(mode >> 5 & 1),
        in64=bool(mode >> 6 & 1),
        out64=bool(mode >> 7 & 1),
        dx10_clamp=bool(mode >> 8 & 1),
        ieee=bool(mode >> 9 & 1),
        fp16_ovfl=bool(mode >> 23 & 1),
    )

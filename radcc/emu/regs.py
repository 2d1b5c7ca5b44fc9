"""Reading and writing operands by their 9-bit source codes (ISA guide 3.3,
"Scalar and vector source operands": SGPRs, VCC, TTMP, NULL, M0, EXEC, inline
integers 128-208, apertures 235-238, inline floats 240-248, VCCZ/EXECZ/SCC,
literal 255, VGPRs 256-511).

Inline constants follow 3.3 / 7.x: integers are 32-bit signed, sign-extended
for 64-bit operands; float constants are f32 bits, f64 bits for 64-bit
operands, f16 bits in the low half for 16-bit operands (high half zero). A
literal is 32 bits: for f64 operands it is the high dword, for signed 64-bit
integers sign-extended, otherwise zero-extended.
"""

from __future__ import annotations

import numpy as np

from radcc.emu.errors import EmuError
from radcc.emu.state import (
    EXEC_LO,
    MASK32,
    NULL,
    PRIVATE_BASE_HI,
    SHARED_BASE_HI,
    VCC_LO,
    Wave,
)
from radcc.isa.operands import (
    EXECZ,
    INLINE_FLOAT_FIRST,
    INLINE_INT_NEG_MAX,
    INLINE_INT_POS_MAX,
    INLINE_INT_ZERO,
    INV_2PI,
    LITERAL,
    PRIVATE_BASE,
    PRIVATE_LIMIT,
    SCC,
    SHARED_BASE,
    SHARED_LIMIT,
    VCCZ,
    VGPR0,
)

F32_CONST = (0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000,
             0x40800000, 0xC0800000, 0x3E22F983)
F64_CONST = (0x3FE0000000000000, 0xBFE0000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
             0x4000000000000000, 0xC000000000000000, 0x4010000000000000, 0xC010000000000000,
             0x3FC45F306DC9C882)
F16_CONST = (0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118)
_16BIT_TYPES = frozenset({"f16", "i16", "u16", "b16", "v2f16", "v2i16", "v2u16", "v2b16"})
MASK64 = (1 << 64) - 1


def const_value(code: int, bits: int, typ: str, literal: int | None) -> int | None:
    """Value of a constant source code (None if the code is a register)."""
    if INLINE_INT_ZERO <= code <= INLINE_INT_NEG_MAX:
        v = code - INLINE_INT_ZERO if code <= INLINE_INT_POS_MAX else INLINE_INT_POS_MAX - code
        if bits == 64:
            return v & MASK64
        if typ in _16BIT_TYPES:
            return v & 0xFFFF
        return v & MASK32
    if INLINE_FLOAT_FIRST <= code <= INV_2PI:
        k = code - INLINE_FLOAT_FIRST
        if bits == 64:
            return F64_CONST[k]
        if typ in _16BIT_TYPES:
            return F16_CONST[k]
        if typ == "bf16":
            return F32_CONST[k] >> 16
        return F32_CONST[k]
    if code == LITERAL:
        if literal is None:
            raise EmuError("literal operand without a literal dword")
        if bits == 64:
            if typ == "f64":
                return literal << 32
            if typ == "i64" and literal >> 31:
                return literal | 0xFFFFFFFF00000000
            return literal
        return literal
    if code == SHARED_BASE:
        return SHARED_BASE_HI if bits != 64 else SHARED_BASE_HI << 32
    if code == PRIVATE_BASE:
        return PRIVATE_BASE_HI if bits != 64 else PRIVATE_BASE_HI << 32
    if code in (SHARED_LIMIT, PRIVATE_LIMIT):
        hi = SHARED_BASE_HI if code == SHARED_LIMIT else PRIVATE_BASE_HI
        return hi if bits != 64 else (hi << 32) | 0xFFFFFFFF
    return None


def sread(w: Wave, code: int, bits: int = 32, typ: str = "", literal: int | None = None) -> int:
    """A scalar source value (zero-extended int of `bits`)."""
    if code < INLINE_INT_ZERO:  # SGPRs, VCC, TTMPs, NULL, M0, EXEC
        if code == NULL:
            return 0
        if bits <= 32:
            return w.s[code]
        if bits == 64:
            return w.s[code] | w.s[code + 1] << 32
        return sum(w.s[code + i] << (32 * i) for i in range((bits + 31) // 32))
    if code == SCC:
        return w.scc
    if code == VCCZ:
        return int(w.vcc == 0)
    if code == EXECZ:
        return int(w.exec == 0)
    v = const_value(code, bits, typ, literal)
    if v is None:
        raise EmuError(f"unsupported scalar source operand code {code}")
    return v


def swrite(w: Wave, code: int, value: int, bits: int = 32) -> None:
    """Write an SGPR (pair/tuple) by code; writes to NULL are dropped."""
    if code == NULL:
        return
    if code >= INLINE_INT_ZERO:
        raise EmuError(f"invalid scalar destination code {code}")
    if bits <= 32:
        w.s[code] = value & MASK32
    else:
        for i in range((bits + 31) // 32):
            if code + i < INLINE_INT_ZERO and code + i != NULL:
                w.s[code + i] = value >> (32 * i) & MASK32


def vread(w: Wave, code: int, bits: int = 32, typ: str = "",
          literal: int | None = None) -> np.ndarray:
    """A VALU source operand as a np.uint64 array [wave] (raw bits, zero-extended)."""
    if code >= VGPR0:
        r = code - VGPR0
        lo = w.v[r].astype(np.uint64)
        if bits == 64:
            return lo | (w.v[(r + 1) & 255].astype(np.uint64) << np.uint64(32))
        return lo
    if code in (VCC_LO, EXEC_LO) or code < INLINE_INT_ZERO:
        return np.full(w.size, sread(w, code, bits, typ), dtype=np.uint64)
    return np.full(w.size, sread(w, code, bits, typ, literal), dtype=np.uint64)


def vwrite(w: Wave, reg: int, value: np.ndarray, mask: np.ndarray, bits: int = 32) -> None:
    """Write the active lanes of VGPR `reg` (and reg+1 for 64 bits)."""
    if bits == 64:
        w.v[reg][mask] = (value[mask] & np.uint64(MASK32)).astype(np.uint32)
        w.v[(reg + 1) & 255][mask] = (value[mask] >> np.uint64(32)).astype(np.uint32)
    elif bits == 16:
        old = w.v[reg][mask]
        w.v[reg][mask] = (old & np.uint32(0xFFFF0000)) | \
            (value[mask] & np.uint64(0xFFFF)).astype(np.uint32)
    else:
        w.v[reg][mask] = value[mask].astype(np.uint32)

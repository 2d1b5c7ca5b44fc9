"""Helpers of the NumPy references: exact integer arithmetic of any width, float types."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

N = 256  # invocations of the simple one-dimensional cases (4 groups of 64)
WG = 64


def bits_of(dtype: Any) -> int:
    return np.dtype(dtype).itemsize * 8


def wrap(values: Iterable[Any], dtype: Any) -> np.ndarray:
    """Python ints (any size, any sign) wrapped two's-complement into `dtype`."""
    bits = bits_of(dtype)
    mask = (1 << bits) - 1
    u = np.array([int(v) & mask for v in values], dtype=f"u{bits // 8}")
    return u.view(dtype)


def py(a: np.ndarray) -> list[int]:
    return [int(v) for v in a.ravel()]


def tdiv(a: int, b: int) -> int:
    """C-style division (truncation toward zero), as OpSDiv."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trem(a: int, b: int) -> int:
    return a - b * tdiv(a, b)


def to_signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def popcount(v: int) -> int:
    return bin(v & ((1 << 64) - 1)).count("1")


def find_lsb(v: int, bits: int = 32) -> int:
    v &= (1 << bits) - 1
    return -1 if v == 0 else (v & -v).bit_length() - 1


def find_umsb(v: int, bits: int = 32) -> int:
    v &= (1 << bits) - 1
    return v.bit_length() - 1


def find_smsb(v: int, bits: int = 32) -> int:
    v = to_signed(v, bits)
    if v < 0:
        v = ~v
    return v.bit_length() - 1


def reverse_bits(v: int, bits: int = 32) -> int:
    return int(format(v & ((1 << bits) - 1), f"0{bits}b")[::-1], 2)


def f32(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def ulps(dtype: Any, n: float) -> float:
    """`n` units in the last place at 1.0 of `dtype` (as a relative tolerance)."""
    return float(np.finfo(dtype).eps) * n

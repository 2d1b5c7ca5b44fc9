"""The OpenCL C kernel suite: inputs and NumPy references per kernel.

Each case: kernel name (= tests/emu/kernels/NAME.cl), grid (groups, block),
a function making the arguments from a NumPy Generator, and a reference
function giving the expected output buffers (ints exact, floats within `rtol`).
`wave` is passed to references that depend on the wave size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

N = 256
Args = dict[str, Any]


@dataclass
class Case:
    name: str
    make: Callable[[np.random.Generator], Args]
    ref: Callable[[Args, int], dict[str, np.ndarray]]
    groups: tuple[int, ...] = (N // 64,)
    block: tuple[int, ...] = (64,)
    rtol: float = 0.0
    outputs: list[str] = field(default_factory=list)


def u32(r: np.random.Generator, n: int = N, hi: int = 1 << 32) -> np.ndarray:
    return r.integers(0, hi, n, dtype=np.uint64).astype(np.uint32)


def i32(r: np.random.Generator, lo: int = -(1 << 31), hi: int = 1 << 31, n: int = N) -> np.ndarray:
    return r.integers(lo, hi, n, dtype=np.int64).astype(np.int32)


def f32(r: np.random.Generator, lo: float = -10, hi: float = 10, n: int = N) -> np.ndarray:
    return r.uniform(lo, hi, n).astype(np.float32)


def z(dtype: Any, n: int = N) -> np.ndarray:
    return np.zeros(n, dtype=dtype)


M32 = np.uint64(0xFFFFFFFF)


def _wrap(x: np.ndarray) -> np.ndarray:
    return (x.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)


def _trunc_div(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    q = np.sign(a64) * np.sign(b64) * (np.abs(a64) // np.abs(b64))
    return q.astype(np.int32), (a64 - q * b64).astype(np.int32)


def _collatz(v: int) -> int:
    s = 0
    while v != 1 and s < 1000:
        v = (3 * v + 1) & 0xFFFFFFFF if v & 1 else v >> 1
        s += 1
    return s


def _xorshift(x: np.ndarray) -> np.ndarray:
    x = (x | 1).astype(np.uint32)
    for _ in range(16):
        x ^= x << np.uint32(13)
        x ^= x >> np.uint32(17)
        x ^= x << np.uint32(5)
    return x


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.array([bin(int(v)).count("1") for v in a], dtype=np.uint64)


def _clz(a: np.ndarray, bits: int) -> np.ndarray:
    return np.array([bits - int(v).bit_length() for v in a], dtype=np.uint64)


def _switch(v: int) -> int:
    k = v & 7
    r = {0: v + 5, 1: v * 7, 2: v ^ 0x55, 3: v - 100, 5: -v}.get(k, v >> 2)
    return ((r + 2**31) % 2**32) - 2**31


def _wave_chunks(n: int, block: int, wave: int) -> list[slice]:
    out = []
    for g in range(0, n, block):
        for w in range(g, g + block, wave):
            out.append(slice(w, min(w + wave, g + block)))
    return out


TAB = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3], dtype=np.uint32)
MV_COLS = 8

CASES: list[Case] = [
    Case("saxpy", lambda r: {"y": f32(r), "x": f32(r), "a": 1.5, "n": N},
         lambda a, w: {"y": np.float32(1.5) * a["x"] + a["y"]}, rtol=1e-6),
    Case("vadd_i32", lambda r: {"c": z(np.int32), "a": i32(r), "b": i32(r), "n": N},
         lambda a, w: {"c": (a["a"].astype(np.int64) + a["b"] - 3 * (a["a"] ^ a["b"]).astype(
             np.int64)).astype(np.int32)}),
    Case("mul_u32", lambda r: {"c": z(np.uint32), "a": u32(r), "b": u32(r), "n": N},
         lambda a, w: {"c": a["a"] * a["b"]}),
    Case("mulhi_u32", lambda r: {"c": z(np.uint32), "a": u32(r), "b": u32(r), "n": N},
         lambda a, w: {"c": ((a["a"].astype(np.uint64) * a["b"]) >> np.uint64(32)).astype(
             np.uint32)}),
    Case("divmod_u32", lambda r: {"q": z(np.uint32), "r": z(np.uint32), "a": u32(r),
                                  "b": np.maximum(u32(r, hi=1 << 20) >> (u32(r) & 15), 1),
                                  "n": N},
         lambda a, w: {"q": a["a"] // a["b"], "r": a["a"] % a["b"]}),
    Case("divmod_i32", lambda r: {"q": z(np.int32), "r": z(np.int32), "a": i32(r),
                                  "b": np.where((b := i32(r, -5000, 5000)) == 0, 7, b), "n": N},
         lambda a, w: dict(zip(("q", "r"), _trunc_div(a["a"], a["b"]), strict=True))),
    Case("i64_arith", lambda r: {"c": z(np.int64), "a": r.integers(-2**62, 2**62, N),
                                 "b": r.integers(-2**62, 2**62, N), "n": N},
         lambda a, w: {"c": a["a"] * a["b"] + (a["a"] >> 7) - (a["b"] << 3)}),
    Case("i64_div", lambda r: {"c": z(np.uint64),
                               "a": r.integers(0, 2**63, N, dtype=np.uint64),
                               "b": r.integers(1, 2**40, N, dtype=np.uint64) >> r.integers(
                                   0, 39, N, dtype=np.uint64) | np.uint64(1), "n": N},
         lambda a, w: {"c": a["a"] // a["b"] + a["a"] % a["b"]}),
    Case("shifts", lambda r: {"c": z(np.uint32), "a": u32(r), "b": u32(r), "n": N},
         lambda a, w: {"c": (a["a"] << (a["b"] & 31)) ^ (a["a"] >> (31 - (a["b"] & 31))) ^ (
             a["a"].view(np.int32) >> (a["b"] & 31).astype(np.int32)).view(np.uint32)}),
    Case("bitcount", lambda r: {"c": z(np.uint32), "a": u32(r), "n": N},
         lambda a, w: {"c": (_popcount(a["a"]) + 100 * _clz(a["a"] | 1, 32) + 10000 * np.array(
             [(int(v | 1) & -int(v | 1)).bit_length() - 1 for v in a["a"]], dtype=np.uint64)
                              ).astype(np.uint32)}),
    Case("bitrev", lambda r: {"c": z(np.uint32), "a": u32(r), "n": N},
         lambda a, w: {"c": np.array([int(format(int(v), "032b")[::-1], 2) ^ (
             ((int(v) << 5) | (int(v) >> 27)) & 0xFFFFFFFF) for v in a["a"]], dtype=np.uint32)}),
    Case("minmax_i32", lambda r: {"c": z(np.int32), "a": i32(r, -10**6, 10**6),
                                  "b": i32(r, -10**6, 10**6), "n": N},
         lambda a, w: {"c": np.minimum(a["a"], a["b"]) * 3 + np.maximum(a["a"], a["b"])}),
    Case("fminmax", lambda r: {"c": z(np.float32), "a": f32(r), "b": f32(r), "n": N},
         lambda a, w: {"c": np.fmin(a["a"], a["b"]) * np.float32(2) + np.fmax(a["a"], a["b"])},
         rtol=1e-6),
    Case("fma_f32", lambda r: {"d": z(np.float32), "a": f32(r), "b": f32(r), "c": f32(r), "n": N},
         lambda a, w: {"d": (a["a"].astype(np.float64) * a["b"] + a["c"]).astype(np.float32)},
         rtol=1e-6),
    Case("sqrt_f32", lambda r: {"c": z(np.float32), "a": f32(r, 0, 1000), "n": N},
         lambda a, w: {"c": np.sqrt(a["a"])}, rtol=2e-7),
    Case("div_f32", lambda r: {"c": z(np.float32), "a": f32(r), "b": f32(r, 0.5, 9), "n": N},
         lambda a, w: {"c": a["a"] / a["b"]}, rtol=2e-7),
    Case("f64_arith", lambda r: {"c": z(np.float64), "a": r.uniform(-9, 9, N),
                                 "b": r.uniform(0, 9, N), "n": N},
         lambda a, w: {"c": (a["a"] * a["b"] + a["a"]) / (a["b"] + 3.0)}, rtol=1e-15),
    Case("sqrt_f64", lambda r: {"c": z(np.float64), "a": r.uniform(0, 1e6, N), "n": N},
         lambda a, w: {"c": np.sqrt(a["a"])}, rtol=1e-15),
    Case("half_arith", lambda r: {"c": z(np.float16), "a": f32(r, -4, 4).astype(np.float16),
                                  "b": f32(r, -4, 4).astype(np.float16), "n": N},
         lambda a, w: {"c": (a["a"] * a["b"] + a["a"]).astype(np.float16)}, rtol=2e-3),
    Case("cvt_int_float", lambda r: {"c": z(np.int32), "d": z(np.float32), "a": f32(r, -1e6, 1e6),
                                     "b": i32(r), "n": N},
         lambda a, w: {"c": np.trunc(a["a"]).astype(np.int32),
                       "d": a["b"].astype(np.float32) + a["b"].view(np.uint32).astype(np.float32)},
         rtol=1e-6),
    Case("cvt_f32_f64", lambda r: {"c": z(np.float64), "d": z(np.float32), "a": f32(r),
                                   "b": r.uniform(-1e10, 1e10, N), "n": N},
         lambda a, w: {"c": a["a"].astype(np.float64) * 3.0, "d": a["b"].astype(np.float32)}),
    Case("cvt_half", lambda r: {"c": z(np.float16), "d": z(np.float32), "a": f32(r, -100, 100),
                                "b": f32(r).astype(np.float16), "n": N},
         lambda a, w: {"c": a["a"].astype(np.float16), "d": a["b"].astype(np.float32)},
         rtol=1e-3),
    Case("rounding", lambda r: {"c": z(np.float32), "a": f32(r, -50, 50), "n": N},
         lambda a, w: {"c": np.floor(a["a"]) + 10 * np.trunc(a["a"]) + 100 * np.ceil(a["a"])
                       + 1000 * np.rint(a["a"])}, rtol=1e-6),
    Case("fabs_copysign", lambda r: {"c": z(np.float32), "a": f32(r), "b": f32(r), "n": N},
         lambda a, w: {"c": np.abs(a["a"]) + np.copysign(a["b"], a["a"])}, rtol=1e-6),
    Case("select_div", lambda r: {"c": z(np.int32), "a": i32(r, -10**8, 10**8), "n": N},
         lambda a, w: {"c": np.where(a["a"] & 1, a["a"] * 3 + 1,
                                     _trunc_div(a["a"], np.full(N, 2, np.int32))[0])}),
    Case("loop_var", lambda r: {"c": z(np.uint32), "a": u32(r), "n": N},
         lambda a, w: {"c": np.array([sum((k * k) ^ int(v) for k in range(int(v) & 63))
                                      & 0xFFFFFFFF for v in a["a"]], dtype=np.uint32)}),
    Case("matvec", lambda r: {"y": z(np.float32), "m": f32(r, n=N * MV_COLS), "x": f32(
        r, n=MV_COLS), "n": N, "cols": MV_COLS},
         lambda a, w: {"y": a["m"].reshape(N, MV_COLS).astype(np.float64) @ a["x"]}, rtol=1e-4),
    Case("collatz", lambda r: {"c": z(np.uint32), "a": u32(r, hi=10**5) + 1, "n": N},
         lambda a, w: {"c": np.array([_collatz(int(v)) for v in a["a"]], dtype=np.uint32)}),
    Case("switch_case", lambda r: {"c": z(np.int32), "a": i32(r, -10**6, 10**6), "n": N},
         lambda a, w: {"c": np.array([_switch(int(v)) for v in a["a"]], dtype=np.int32)}),
    Case("lds_reduce", lambda r: {"out": z(np.uint32, 2), "a": u32(r, hi=1 << 20)},
         lambda a, w: {"out": a["a"].reshape(2, 128).sum(axis=1).astype(np.uint32)},
         groups=(2,), block=(128,)),
    Case("lds_reverse", lambda r: {"out": z(np.int32), "a": i32(r)},
         lambda a, w: {"out": a["a"].reshape(2, 128)[:, ::-1].reshape(-1)},
         groups=(2,), block=(128,)),
    Case("lds_transpose", lambda r: {"out": z(np.float32, 32 * 32), "a": f32(r, n=32 * 32),
                                     "w": 32},
         lambda a, w: {"out": a["a"].reshape(32, 32).T.reshape(-1)},
         groups=(2, 2), block=(16, 16)),
    Case("atomic_hist", lambda r: {"h": z(np.uint32, 16), "a": u32(r), "n": N},
         lambda a, w: {"h": np.bincount(a["a"] & 15, minlength=16).astype(np.uint32)}),
    Case("atomic_minmax", lambda r: {"mm": np.array([2**31 - 1, -2**31], np.int32), "a": i32(r),
                                     "n": N},
         lambda a, w: {"mm": np.array([a["a"].min(), a["a"].max()], np.int32)}),
    Case("atomic_cas", lambda r: {"cnt": z(np.uint32, 1), "slot": z(np.uint32), "n": N},
         lambda a, w: {"cnt": np.array([N], np.uint32)}),
    Case("lds_atomic", lambda r: {"h": z(np.uint32, 8), "a": u32(r)},
         lambda a, w: {"h": np.bincount(a["a"] & 7, minlength=8).astype(np.uint32)},
         groups=(2,), block=(128,)),
    Case("ballot", lambda r: {"out": z(np.uint64, 4), "a": u32(r)},
         lambda a, w: {"out": np.array([sum(int(b) << k for k, b in enumerate(
             a["a"][g * 64:g * 64 + w] & 1)) for g in range(4)], dtype=np.uint64)}),
    Case("bpermute", lambda r: {"out": z(np.int32), "a": i32(r)},
         lambda a, w: {"out": a["a"][(np.arange(N) & ~31) | ((np.arange(N) + 3) & 31)]}),
    Case("readfirstlane", lambda r: {"out": z(np.int32), "a": i32(r, -10**6, 10**6)},
         lambda a, w: {"out": np.concatenate([a["a"][s] - a["a"][s][0]
                                              for s in _wave_chunks(N, 64, w)])}),
    Case("mbcnt", lambda r: {"out": z(np.uint32)},
         lambda a, w: {"out": (np.arange(N) % w).astype(np.uint32)}),
    Case("grid2d", lambda r: {"out": z(np.uint32, 32 * 8), "w": 32},
         lambda a, w: {"out": (np.arange(32)[None, :] * 1000 + np.arange(8)[:, None]).astype(
             np.uint32).reshape(-1)}, groups=(2, 2), block=(16, 4)),
    Case("const_table", lambda r: {"out": z(np.uint32), "a": u32(r), "n": N},
         lambda a, w: {"out": TAB[a["a"] & 15] * TAB[(a["a"] >> 4) & 15]}),
    Case("private_array", lambda r: {"out": z(np.int32), "a": i32(r, -10**4, 10**4), "n": N},
         lambda a, w: {"out": a["a"] * (a["a"] & 7) + a["a"] * ((a["a"] >> 3) & 7)}),
    Case("bytes_shorts", lambda r: {"b": z(np.uint8), "s": z(np.int16),
                                    "a": u32(r, hi=256).astype(np.uint8),
                                    "c": i32(r, -2**15, 2**15).astype(np.int16), "n": N},
         lambda a, w: {"b": (a["a"].astype(np.int64) * 3 + 1).astype(np.uint8),
                       "s": (a["c"].astype(np.int64) * -2).astype(np.int16)}),
    Case("float4_vec", lambda r: {"c": z(np.float32, 4 * N), "a": f32(r, n=4 * N), "n": N},
         lambda a, w: {"c": (a["a"].reshape(N, 4)[:, ::-1] * 2 + a["a"].reshape(N, 4)).reshape(
             -1)}, rtol=1e-6),
    Case("xorshift", lambda r: {"out": z(np.uint32), "seed": u32(r), "n": N},
         lambda a, w: {"out": _xorshift(a["seed"])}),
    Case("u64_bits", lambda r: {"c": z(np.uint64), "a": r.integers(0, 2**63, N, np.uint64) << (
        r.integers(0, 2, N, np.uint64)), "n": N},
         lambda a, w: {"c": _popcount(a["a"]) + ((a["a"] >> np.uint64(13)) ^ (
             a["a"] << np.uint64(7))) + _clz(a["a"] | np.uint64(1), 64)}),
    Case("prefix_sum", lambda r: {"out": z(np.uint32), "a": u32(r, hi=1000)},
         lambda a, w: {"out": np.cumsum(a["a"].reshape(2, 128), axis=1).reshape(-1).astype(
             np.uint32)}, groups=(2,), block=(128,)),
    Case("dpp_shr", lambda r: {"out": z(np.int32), "a": i32(r)},
         lambda a, w: {"out": np.where(np.arange(N) % 16 == 0, -1, np.roll(a["a"], 1))}),
    Case("poly_f32", lambda r: {"c": z(np.float32), "a": f32(r, -1, 1), "n": N},
         lambda a, w: {"c": sum(((k + 1) * 0.125) * a["a"].astype(np.float64) ** k
                                for k in range(8))}, rtol=1e-5),
]
BY_NAME = {c.name: c for c in CASES}

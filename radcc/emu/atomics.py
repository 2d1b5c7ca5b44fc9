"""Atomic read-modify-write operations shared by VMEM and DS (ISA 16.13-16.15
pseudocode: tmp = MEM[ADDR]; MEM[ADDR] = f(tmp, DATA[, DATA2]); RETURN_DATA = tmp).

Lanes are applied one after another in lane order, so lanes hitting the same
address see each other's updates, as the hardware serialises them.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

import numpy as np


def _f32(v: int) -> float:
    return struct.unpack("<f", struct.pack("<I", v & 0xFFFFFFFF))[0]


def _bf32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f64(v: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", v))[0]


def _bf64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _sx(v: int, bits: int) -> int:
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def _fmin(a: float, b: float) -> float:
    if a != a:
        return b
    if b != b:
        return a
    return min(a, b)


def _fmax(a: float, b: float) -> float:
    if a != a:
        return b
    if b != b:
        return a
    return max(a, b)


def atomic_fn(op: str, bits: int) -> Callable[[int, int, int], int]:
    """new = f(old, data, data2) for an atomic op name stem (add, cmpswap, min_f32...)."""
    m = (1 << bits) - 1
    table: dict[str, Callable[[int, int, int], int]] = {
        "swap": lambda o, d, c: d,
        "storexchg": lambda o, d, c: d,
        "cmpswap": lambda o, d, c: d if o == c else o,
        "cmpstore": lambda o, d, c: d if o == c else o,
        # GFX10's ds_cmpst_*: DATA (the first source) is the compare value, DATA2 the
        # value stored (RDNA2 guide, DS_CMPST_B32)
        "cmpst": lambda o, d, c: c if o == d else o,
        "add": lambda o, d, c: (o + d) & m,
        "sub": lambda o, d, c: (o - d) & m,
        "rsub": lambda o, d, c: (d - o) & m,
        "csub": lambda o, d, c: 0 if o < d else o - d,
        "and": lambda o, d, c: o & d,
        "or": lambda o, d, c: o | d,
        "xor": lambda o, d, c: o ^ d,
        "mskor": lambda o, d, c: (o & ~d & m) | c,
        "inc": lambda o, d, c: 0 if o >= d else o + 1,
        "dec": lambda o, d, c: d if o == 0 or o > d else o - 1,
        "min_u": lambda o, d, c: min(o, d),
        "max_u": lambda o, d, c: max(o, d),
        "min_i": lambda o, d, c: o if _sx(o, bits) <= _sx(d, bits) else d,
        "max_i": lambda o, d, c: o if _sx(o, bits) >= _sx(d, bits) else d,
    }
    if bits == 32:
        table.update({
            "add_f": lambda o, d, c: _bf32(np.float32(_f32(o)) + np.float32(_f32(d))),
            "min_f": lambda o, d, c: _bf32(_fmin(_f32(o), _f32(d))),
            "max_f": lambda o, d, c: _bf32(_fmax(_f32(o), _f32(d))),
        })
    else:
        table.update({
            "add_f": lambda o, d, c: _bf64(_f64(o) + _f64(d)),
            "min_f": lambda o, d, c: _bf64(_fmin(_f64(o), _f64(d))),
            "max_f": lambda o, d, c: _bf64(_fmax(_f64(o), _f64(d))),
        })
    if op not in table:
        raise KeyError(op)
    return table[op]


def op_stem(name: str) -> str:
    """'global_atomic_min_i32' -> 'min_i', 'ds_add_rtn_f32' -> 'add_f', 'ds_cmpstore_b64' -> 'cmpstore'."""
    parts = name.split("_")
    core = [p for p in parts[1:] if p not in ("atomic", "rtn")]
    op = core[0]
    typ = core[-1]
    if op in ("min", "max", "add") and typ[0] in "iuf" and not (op == "add" and typ[0] in "iu"):
        return f"{op}_{typ[0]}"
    if op in ("cmpswap", "cmpstore", "cmpst"):
        return op
    return op


def type_bits(name: str) -> int:
    return 64 if name.endswith(("64", "x2")) else 32

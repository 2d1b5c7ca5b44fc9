"""Machine-IR programs around one reduction/scan, and their NumPy per-lane reading.

`program_text(kind, op, cluster, wave)` writes the IR instruction selection
would give (before insert_exec_mask): each lane loads ``x[tid]`` and
``act[tid]``; lanes with ``act != 0`` enter a divergent if whose then-side
runs the ``p_reduce`` / ``p_inclusive_scan`` / ``p_exclusive_scan`` with undef
linear scratch operands (`setup_reduce_temp` fills them) and stores the result
to ``out[tid]``. A whole-wave reduce defines an SGPR (copied to a VGPR to
store). `expected(...)` is the reading of the same computation lane by lane.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

OPS = ("iadd", "imul", "fadd", "fmul", "imin", "umin", "fmin", "imax", "umax", "fmax",
       "iand", "ior", "ixor")
BLOCK = 64
GROUPS = 2
N = BLOCK * GROUPS


def program_text(kind: str, op: str, bits: int, cluster: int, wave: int,
                 name: str = "red") -> str:
    n = bits // 32
    lm = "s2" if wave == 64 else "s1"
    vr = f"v{n}"
    sgpr_dst = kind == "p_reduce" and cluster == wave
    dst_rc = f"s{n}" if sgpr_dst else vr
    load = "global_load_b64" if n == 2 else "global_load_b32"
    store = "global_store_b64" if n == 2 else "global_store_b32"
    defs = [f"{dst_rc}: %20", f"{lm}: %21"]
    if kind != "p_reduce" or cluster == 64:
        defs.append(f"s{n}: %22")
    defs.append("s1: %23:scc")
    if bits == 64 and op in ("iadd", "imul", "imin", "umin", "imax", "umax"):
        defs.append(f"{lm}: %24:vcc")
    red = (f"   {', '.join(defs)} = {kind} %10, lv{n}: undef, lv{n}: undef "
           f"op:{op}{bits} cluster_size:{cluster}")
    copy = f"   {vr}: %25 = p_parallelcopy %20\n" if sgpr_dst else ""
    res = "%25" if sgpr_dst else "%20"
    return f"""program gfx1100 wave{wave} compute name:{name}
BB0
/* logical preds: / linear preds: / kind: top-level, branch, */
   s2: %1:s[0-1], s1: %2:s[2], v1: %3:v[0] = p_startpgm
   p_logical_start
   s4: %4 = s_load_b128 %1, 0
   s2: %5, s2: %6 = p_split_vector %4
   s2: %7 = s_load_b64 %1, 16
   v1: %8 = v_mad_u32_u24 %2, {BLOCK}, %3
   v1: %9 = v_lshlrev_b32 {1 + n}, %8
   v1: %11 = v_lshlrev_b32 2, %8
   {vr}: %10 = {load} %9, %6
   v1: %12 = global_load_b32 %11, %7
   {lm}: %13 = v_cmp_ne_u32_e64 0, %12
   p_logical_end
   p_cbranch_z %13 BB2, BB1
BB1
/* logical preds: BB0, / linear preds: BB0, / kind: uniform, */
   p_logical_start
{red}
{copy}   {store} %9, {res}, %5
   p_logical_end
   p_branch BB3
BB2
/* logical preds: / linear preds: BB0, / kind: uniform, */
   p_branch BB3
BB3
/* logical preds: / linear preds: BB1, BB2, / kind: invert, */
   p_branch BB5
BB4
/* logical preds: BB0, / linear preds: BB3, / kind: uniform, */
   p_logical_start
   p_logical_end
   p_branch BB6
BB5
/* logical preds: / linear preds: BB3, / kind: uniform, */
   p_branch BB6
BB6
/* logical preds: BB1, BB4, / linear preds: BB4, BB5, / kind: top-level, merge, */
   p_logical_start
   p_logical_end
   s_endpgm
"""


def dtype(op: str, bits: int) -> type:
    if op.startswith("f"):
        return np.float32 if bits == 32 else np.float64
    if op in ("imin", "imax"):
        return np.int32 if bits == 32 else np.int64
    return np.uint32 if bits == 32 else np.uint64


def inputs(op: str, bits: int, rng: np.random.Generator) -> np.ndarray:
    """Values whose reductions are exact in any order (floats: small integers or
    powers of two), integers over their full range (products wrap)."""
    dt = np.dtype(dtype(op, bits))
    if op == "fmul":
        v = rng.choice([0.5, 1.0, 2.0, -1.0, -2.0, 1.0, 1.0, 1.0], N).astype(dt)
    elif dt.kind == "f":
        v = rng.integers(-64, 64, N).astype(dt)
    elif op == "imul" and bits == 64:
        v = rng.choice([1, 3, 5, 0xFFFFFFFFFFFFFFFF, 0x100000001, 0xFFFFFFFF, 1, 1],
                       N).astype(dt)
    elif op == "imul":
        v = rng.choice([1, 3, 5, 7, 0xFFFFFFFF, 2, 1, 1], N).astype(dt)
    else:
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, N, dtype=dt, endpoint=True)
    return v


def _fold(op: str, dt: np.dtype) -> Callable[[object, object], object]:
    def f(a, b):  # noqa: ANN001, ANN202
        with np.errstate(over="ignore"):
            if op in ("iadd", "fadd"):
                return dt.type(a + b)
            if op in ("imul", "fmul"):
                return dt.type(a * b)
            if op in ("imin", "umin", "fmin"):
                return min(a, b)
            if op in ("imax", "umax", "fmax"):
                return max(a, b)
            if op == "iand":
                return dt.type(a & b)
            if op == "ior":
                return dt.type(a | b)
            return dt.type(a ^ b)
    return f


def identity(op: str, dt: np.dtype) -> object:
    if dt.kind == "f":
        return dt.type({"fadd": -0.0, "fmul": 1.0, "fmin": np.inf, "fmax": -np.inf}[op])
    info = np.iinfo(dt)
    return dt.type({"iadd": 0, "imul": 1, "imin": info.max, "umin": info.max,
                    "imax": info.min, "umax": 0, "iand": info.max if info.min == 0 else -1,
                    "ior": 0, "ixor": 0}[op])


def expected(kind: str, op: str, bits: int, cluster: int, wave: int, x: np.ndarray,
             act: np.ndarray) -> np.ndarray:
    dt = np.dtype(dtype(op, bits))
    fold = _fold(op, dt)
    out = np.zeros(N, dt)
    for base in range(0, N, wave):
        lanes = [base + k for k in range(wave) if act[base + k]]
        for ln in lanes:
            if kind == "p_reduce":
                c0 = ln - (ln - base) % cluster
                mem = [j for j in lanes if c0 <= j < c0 + cluster]
            elif kind == "p_inclusive_scan":
                mem = [j for j in lanes if j <= ln]
            else:
                mem = [j for j in lanes if j < ln]
            acc = identity(op, dt)
            for j in mem:
                acc = fold(acc, x[j])
            out[ln] = acc
    return out

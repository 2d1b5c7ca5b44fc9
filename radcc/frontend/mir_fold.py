"""Constant folding without NumPy where plain Python computes the same bits (start-up,
issue 14: importing NumPy is ~0.1 s of a one-shader compile).

`fold` is the folder's entry (``spirv_to_mir``'s translation-time folds and the
``constant_folding`` pass): the moves (``mov``, ``vecN``), the comparisons
(`mir_rules.COMPARISONS`) and the modular integer operations (`mir_rules.INTEGER_OPS`:
results masked to the destination's bits) are folded here on Python numbers (under a
flush-to-zero mode too, unless a float source is a denormal, which the mode flushes);
every other op, and such a comparison, goes to ``mir_eval.fold`` (NumPy), which is then
imported. Each rule is written once, in `mir_rules`, for both: the comparisons and
integer operations are expressions of Python operators that NumPy's `mir_eval.eval_alu`
applies to its typed arrays and this module to typed Python numbers, and
`mir_rules.components` is what the moves select. The sources' raw bits are read as the
op's types (`mir_ops.ALU_OPS`) as ``mir_eval.as_type`` reads them: ``int`` two's
complement, ``float`` IEEE half/single/double (a float's exact value: comparing two
exactly converted values orders them as the narrower type does), 1-bit values as
booleans. Where that reading is not defined here (other bit sizes, a constant outside
0..2**64-1, sources of different lengths) the NumPy path decides.
"""

from __future__ import annotations

import struct
from typing import Any

from .mir_ops import ALU_OPS
from .mir_rules import BITWISE, COMPARISONS, INTEGER_OPS, components, is_denormal, is_move

_FLOAT_FORMATS = {16: "<e", 32: "<f", 64: "<d"}


def _typed(x: int, kind: str, bits: int) -> Any:
    """Raw bits `x` (already in range) read as `kind`; None where undefined here."""
    if bits == 1:
        return bool(x)
    if kind == "int":
        return x - (1 << bits) if x >> (bits - 1) else x
    if kind == "float":
        fmt = _FLOAT_FORMATS.get(bits)
        if fmt is None:
            return None
        return struct.unpack(fmt, x.to_bytes(bits // 8, "little"))[0]
    return x


def _raw(c: tuple[int, ...], bits: int) -> list[int] | None:
    """A constant's components as raw bits of `bits` (1-bit: 0/1), as ``mir_eval.fold``
    reads them; None if a component lies outside 0..2**64-1."""
    if any(not 0 <= x < 1 << 64 for x in c):
        return None
    if bits == 1:
        return [int(bool(x)) for x in c]
    mask = (1 << bits) - 1
    return [x & mask for x in c]


def fold_plain(op: str, dest_bits: int, dest_comps: int, srcs: list[tuple[int, ...]],
               src_bits: list[int], attrs: dict[str, Any],
               flush: frozenset[int] = frozenset()) -> tuple[int, ...] | None:
    """`fold` for the ops this module folds (module docstring); None for the others."""
    if is_move(op):
        raws = [_raw(c, b) for c, b in zip(srcs, src_bits, strict=True)]
        if any(r is None for r in raws):
            return None
        return tuple(components(op, raws, dest_comps, attrs))  # type: ignore[arg-type]
    fn = COMPARISONS.get(op)
    mask = 0
    if fn is None:
        fn = INTEGER_OPS.get(op)
        if fn is None or any(b != dest_bits for b in src_bits) or \
                (dest_bits == 1 and op not in BITWISE):
            return None
        mask = (1 << dest_bits) - 1  # the result's bits: modulo 2**dest_bits
    kinds = ALU_OPS[op].srcs
    if len({len(c) for c in srcs}) != 1:
        return None
    typed: list[list[Any]] = []
    for c, k, b in zip(srcs, kinds, src_bits, strict=True):
        raw = _raw(c, b)
        if raw is None:
            return None
        if k == "float" and b in flush and any(is_denormal(x, b) for x in raw):
            return None  # flushing a denormal is mir_eval's rule (others stay as they are)
        vals = [_typed(x, k, b) for x in raw]
        if any(v is None for v in vals):
            return None
        typed.append(vals)
    results = [fn(list(a), src_bits[0]) for a in zip(*typed, strict=True)]
    if mask == 0 or dest_bits == 1:  # a comparison's (or a 1-bit op's) boolean
        return tuple(int(bool(r)) for r in results)
    return tuple(int(r) & mask for r in results)


def fold(op: str, dest_bits: int, dest_comps: int, srcs: list[tuple[int, ...]],
         src_bits: list[int], attrs: dict[str, Any],
         flush: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """``mir_eval.fold``'s result (each source's raw bits per component in, the
    result's out), computed without NumPy where `fold_plain` can."""
    r = fold_plain(op, dest_bits, dest_comps, srcs, src_bits, attrs, flush)
    if r is not None:
        return r
    from .mir_eval import fold as fold_numpy  # NumPy: only for what plain Python lacks

    return fold_numpy(op, dest_bits, dest_comps, srcs, src_bits, attrs, flush)

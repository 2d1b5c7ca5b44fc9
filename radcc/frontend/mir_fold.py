"""Constant folding without NumPy where plain Python computes the same bits (start-up,
issue 14: importing NumPy is ~0.1 s of a one-shader compile).

`fold` is the folder's entry (``spirv_to_mir``'s translation-time folds and the
``constant_folding`` pass): the moves (``mov``, ``vecN``), the comparisons
(`mir_rules.COMPARISONS`), the modular integer operations (`mir_rules.INTEGER_OPS`:
results masked to the destination's bits), unsigned division and remainder and the
integer min/max (`mir_rules.SELECTS`), the shifts (`mir_rules.SHIFTS`), the float
min/max of sources that are not NaN (`mir_rules.ORDERED_MIN_MAX`), the float
arithmetic ``fadd``, ``fsub`` and ``fmul`` (`mir_rules.FLOAT_ARITH`, `_fold_float_arith`:
not to a NaN) and the float resizes ``f2fN`` (`_fold_float_resize`) are folded here on Python numbers (under a
flush-to-zero mode too, unless a float source is a denormal, which the mode flushes);
every other op, and such a comparison, goes to ``mir_eval.fold`` (NumPy), which is then
imported. Of 60 random shaders of the ggml and ncnn corpus, 34 needed NumPy to fold
(``ishl``, ``udiv``, ``ushr``, ``fmin``/``fmax``, ``f2f32``, ``imin``/``imax``,
``umod``, a 1-bit ``inot``, ``f2f16``, ``f2i32``) before those operations were added,
1 after (``f2i32``). Each rule is written once, in `mir_rules`, for both: the comparisons and
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
from .mir_rules import (
    BITWISE,
    COMPARISONS,
    FLOAT_ARITH,
    FLOAT_EXPONENT,
    INTEGER_OPS,
    ORDERED_MIN_MAX,
    SELECTS,
    SHIFTS,
    components,
    is_denormal,
    is_move,
    select,
    shift_count,
)

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
    if (op in SELECTS or op in SHIFTS or op in ORDERED_MIN_MAX) and dest_bits > 1:
        return _fold_select_or_shift(op, dest_bits, srcs, src_bits, flush)
    if op.startswith("f2f"):
        return _fold_float_resize(dest_bits, srcs, src_bits, flush)
    if op in FLOAT_ARITH:
        return _fold_float_arith(op, dest_bits, srcs, src_bits, flush)
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
    if mask == 0:  # a comparison's boolean
        return tuple(int(bool(r)) for r in results)
    return tuple(int(r) & mask for r in results)  # 1-bit: ~True is -2, its low bit 0


def _fold_select_or_shift(op: str, bits: int, srcs: list[tuple[int, ...]],
                          src_bits: list[int], flush: frozenset[int]) -> tuple[int, ...] | None:
    """`mir_rules.SELECTS` (with `select` for NumPy's ``where``), `mir_rules.SHIFTS` and
    `mir_rules.ORDERED_MIN_MAX` on Python numbers; None where the NumPy path decides:
    sources of other widths (a shift's count aside), a NaN source of a float min/max or
    +0 against -0, a denormal that a flush-to-zero mode flushes. A float result is one
    of the sources (not NaN), so its bits are exact."""
    kinds = ALU_OPS[op].srcs
    widths = src_bits[:1] if op in SHIFTS else src_bits
    if any(b != bits for b in widths) or len({len(c) for c in srcs}) != 1 or 1 in src_bits:
        return None
    maybe = [_raw(c, b) for c, b in zip(srcs, src_bits, strict=True)]
    raws = [r for r in maybe if r is not None]
    if len(raws) != len(maybe):
        return None
    mask = (1 << bits) - 1
    if op in SHIFTS:
        signed, shift = SHIFTS[op]
        values = raws[0] if not signed else [_typed(x, "int", bits) for x in raws[0]]
        return tuple(shift(x, shift_count(c, bits)) & mask
                     for x, c in zip(values, raws[1], strict=True))
    if op in SELECTS:
        typed = [[_typed(x, k, bits) for x in r] for r, k in zip(raws, kinds, strict=True)]
        return tuple(int(SELECTS[op](list(a), select)) & mask for a in zip(*typed, strict=True))
    fmt = _FLOAT_FORMATS.get(bits)
    if fmt is None:
        return None
    exp = FLOAT_EXPONENT[bits]
    mantissa = ((1 << (bits - 1)) - 1) & ~exp
    for r in raws:
        for x in r:
            if (x & exp) == exp and x & mantissa:
                return None  # a NaN
            if bits in flush and is_denormal(x, bits):
                return None
    out = []
    for r0, r1 in zip(*raws, strict=True):
        a = [_typed(r0, "float", bits), _typed(r1, "float", bits)]
        if a[0] == a[1] and r0 != r1:
            return None  # +0 and -0: NumPy's loops differ
        out.append(int.from_bytes(struct.pack(fmt, ORDERED_MIN_MAX[op](a)), "little"))
    return tuple(out)


def _fold_float_arith(op: str, bits: int, srcs: list[tuple[int, ...]], src_bits: list[int],
                      flush: frozenset[int]) -> tuple[int, ...] | None:
    """`mir_rules.FLOAT_ARITH` (``fadd``, ``fsub``, ``fmul``) on Python floats, each
    result rounded to the type by ``struct`` packing (nearest even); None (NumPy decides)
    for sources of other widths, a NaN result (NumPy's payload bits), a result out of
    the type's range (``struct`` refuses it) and, under a flush-to-zero mode, a denormal
    source or result (the mode flushes them)."""
    fmt = _FLOAT_FORMATS.get(bits)
    if fmt is None or any(b != bits for b in src_bits) or len({len(c) for c in srcs}) != 1:
        return None
    maybe = [_raw(c, bits) for c in srcs]
    raws = [r for r in maybe if r is not None]
    if len(raws) != len(maybe):
        return None
    flushed = bits in flush
    if flushed and any(is_denormal(x, bits) for r in raws for x in r):
        return None
    fn = FLOAT_ARITH[op]
    out = []
    for a in zip(*raws, strict=True):
        r = _rounded(fn([_typed(x, "float", bits) for x in a], bits), fmt, bits, flushed)
        if r is None:
            return None
        out.append(r)
    return tuple(out)


def _fold_float_resize(bits: int, srcs: list[tuple[int, ...]], src_bits: list[int],
                       flush: frozenset[int]) -> tuple[int, ...] | None:
    """``f2fN``: a float to another width, as NumPy's ``astype`` converts (`mir_eval`):
    widening is exact, narrowing rounds to nearest even, which ``struct`` packing does
    from the source's exact value. None (NumPy decides) for a NaN source (NumPy keeps
    its payload bits, ``struct`` does not), a result out of range (``struct`` refuses
    it) and a denormal result that a flush-to-zero mode flushes."""
    fmt, src_fmt = _FLOAT_FORMATS.get(bits), _FLOAT_FORMATS.get(src_bits[0])
    raw = _raw(srcs[0], src_bits[0])
    if fmt is None or src_fmt is None or raw is None:
        return None
    out = []
    flushed = bits in flush
    for x in raw:
        r = _rounded(_typed(x, "float", src_bits[0]), fmt, bits, flushed)
        if r is None:
            return None
        out.append(r)
    return tuple(out)


def _rounded(v: float, fmt: str, bits: int, flushed: bool) -> int | None:
    """The bits of `v` rounded to the `bits`-wide float (``struct`` packing: nearest
    even), or None where NumPy decides: a NaN (NumPy keeps its payload, ``struct`` does
    not), a value out of range (``struct`` refuses it) and, `flushed`, a denormal."""
    if v != v:
        return None
    try:
        r = int.from_bytes(struct.pack(fmt, v), "little")
    except OverflowError:
        return None
    if flushed and is_denormal(r, bits):
        return None
    return r


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

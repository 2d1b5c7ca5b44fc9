"""`radcc.frontend.mir_fold`: the comparisons, moves, integer and float arithmetic folded
without NumPy give the bits NumPy computes (the oracle: each comparison evaluated here with NumPy's operator on
the sources' bits viewed as the op's type), and every other fold still goes to NumPy."""

from __future__ import annotations

import itertools
import operator
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from radcc.compiled import is_compiled
from radcc.frontend import mir_eval, mir_fold
from radcc.frontend.mir_ops import ALU_OPS

ROOT = Path(__file__).resolve().parents[3]
NUMPY_OP = {"ieq": operator.eq, "ine": operator.ne, "ilt": operator.lt, "ige": operator.ge,
            "ult": operator.lt, "uge": operator.ge, "feq": operator.eq, "fneu": operator.ne,
            "flt": operator.lt, "fge": operator.ge}
DTYPES = {("int", 8): np.int8, ("int", 16): np.int16, ("int", 32): np.int32,
          ("int", 64): np.int64, ("uint", 8): np.uint8, ("uint", 16): np.uint16,
          ("uint", 32): np.uint32, ("uint", 64): np.uint64, ("float", 16): np.float16,
          ("float", 32): np.float32, ("float", 64): np.float64}


def _edge_bits(kind: str, bits: int) -> list[int]:
    """Raw patterns: zero, one, the sign bit, all ones, max/min signed, and for floats
    +-0, +-1, +-inf, a quiet NaN, the smallest denormal and the largest finite value."""
    if bits == 1:
        return [0, 1]
    top, ones = 1 << (bits - 1), (1 << bits) - 1
    out = [0, 1, 2, top, ones, top - 1, top + 1, 0x5A5A5A5A5A5A5A5A & ones]
    if kind == "float":
        exp = {16: 5, 32: 8, 64: 11}[bits]
        man = bits - 1 - exp
        inf = ((1 << exp) - 1) << man
        one = ((1 << (exp - 1)) - 1) << man
        out += [inf, inf | top, inf | (1 << (man - 1)), one, one | top, 1, inf - 1,
                (inf - 1) | top]
    return out


@pytest.mark.parametrize(("op", "bits"), [
    (op, bits) for op in sorted(mir_fold.COMPARISONS) for bits in (1, 8, 16, 32, 64)
    if ALU_OPS[op].srcs[0] != "float" or bits >= 16])  # floats: 16, 32 and 64 bits
def test_comparisons_fold_as_numpy_computes(op: str, bits: int) -> None:
    kind = ALU_OPS[op].srcs[0]
    vals = _edge_bits(kind, bits)
    pairs = list(itertools.product(vals, vals))
    a = tuple(x for x, _ in pairs)
    b = tuple(y for _, y in pairs)
    got = mir_fold.fold_plain(op, 1, len(pairs), [a, b], [bits, bits], {})
    if bits == 1:
        want_arr = NUMPY_OP[op](np.array(a, bool), np.array(b, bool))
    else:
        dt = DTYPES[(kind, bits)]
        raw = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
        with np.errstate(all="ignore"):
            want_arr = NUMPY_OP[op](np.array(a, raw).view(dt), np.array(b, raw).view(dt))
    assert got == tuple(int(x) for x in want_arr)
    # and the folder's entry agrees with the NumPy folder
    assert mir_fold.fold(op, 1, len(pairs), [a, b], [bits, bits], {}) == \
        mir_eval.fold(op, 1, len(pairs), [a, b], [bits, bits], {})


NUMPY_INT_OP = {"iadd": operator.add, "isub": operator.sub, "imul": operator.mul,
                "iand": operator.and_, "ior": operator.or_, "ixor": operator.xor,
                "inot": operator.invert, "ineg": operator.neg}


@pytest.mark.parametrize("op", sorted(mir_fold.INTEGER_OPS))
@pytest.mark.parametrize("bits", [1, 8, 16, 32, 64])
def test_integer_ops_fold_as_numpy_computes(op: str, bits: int) -> None:
    """Wrapping arithmetic and bitwise operations: NumPy on the bits viewed as the op's
    type (the oracle) against the plain fold; 1-bit only for the bitwise three."""
    kind = ALU_OPS[op].srcs[0]
    n = len(ALU_OPS[op].srcs)
    vals = _edge_bits(kind, bits)
    combos = list(itertools.product(vals, repeat=n))
    srcs = [tuple(c[i] for c in combos) for i in range(n)]
    got = mir_fold.fold_plain(op, bits, len(combos), srcs, [bits] * n, {})
    if bits == 1:
        if op not in ("iand", "ior", "ixor", "inot"):
            assert got is None
            return
        bools = NUMPY_INT_OP[op](*(np.array(s, bool) for s in srcs))
        assert got == tuple(int(x) for x in bools)
        return
    raw = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    dt = DTYPES[(kind, bits)]
    with np.errstate(all="ignore"):
        want = NUMPY_INT_OP[op](*(np.array(s, raw).view(dt) for s in srcs)).astype(dt)
    assert got == tuple(int(x) for x in want.view(raw))
    assert mir_fold.fold(op, bits, len(combos), srcs, [bits] * n, {}) == \
        mir_eval.fold(op, bits, len(combos), srcs, [bits] * n, {})


def _np_select(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The oracle for the selects and shifts: NumPy's own operations on the typed bits
    (division by zero gives 0, the shift count modulo the bit size, as NIR)."""
    if op in ("imin", "umin"):
        return np.minimum(a, b)
    if op in ("imax", "umax"):
        return np.maximum(a, b)
    if op in ("fmin", "fmax"):
        return (np.fmin if op == "fmin" else np.fmax)(a, b)
    if op in ("udiv", "umod"):
        safe = np.where(b == 0, 1, b)
        return np.where(b == 0, 0, a // safe if op == "udiv" else a % safe)
    bits = a.dtype.itemsize * 8
    count = (b.astype(np.uint64) % np.uint64(bits)).astype(np.uint64)
    if op == "ishr":
        return (a.astype(np.int64) >> count.astype(np.int64)).astype(a.dtype)
    u = a.view(f"u{bits // 8}").astype(np.uint64)
    return ((u << count) if op == "ishl" else (u >> count)).astype(f"u{bits // 8}")


@pytest.mark.parametrize(("op", "bits"), [
    (op, bits) for op in ("udiv", "umod", "imin", "imax", "umin", "umax", "fmin", "fmax",
                          "ishl", "ushr", "ishr")
    for bits in ((16, 32, 64) if op.startswith("f") else (8, 16, 32, 64))])
def test_selects_and_shifts_fold_as_numpy_computes(op: str, bits: int) -> None:
    """Division, integer and float min/max and shifts (the ops most often folded in real
    shaders after the comparisons): the plain fold against NumPy on the bits viewed as
    the op's types (shift counts of every width), and against the NumPy folder; a float
    min/max with a NaN source is left to NumPy."""
    kinds = ALU_OPS[op].srcs
    raw = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
    shift = op in ("ishl", "ushr", "ishr")
    for cbits in ((8, 16, 32, 64) if shift else (bits,)):
        v0 = _edge_bits(kinds[0], bits) + [bits - 1, bits, bits + 1, 7, 0x1234 & ((1 << bits) - 1)]
        v1 = _edge_bits(kinds[1], cbits) + [bits - 1, bits, bits + 1, 7]
        pairs = list(itertools.product(v0, v1))
        a = tuple(x for x, _ in pairs)
        b = tuple(y for _, y in pairs)
        got = mir_fold.fold_plain(op, bits, len(pairs), [a, b], [bits, cbits], {})
        with np.errstate(all="ignore"):
            want = _np_select(op, np.array(a, raw[bits]).view(DTYPES[(kinds[0], bits)]),
                              np.array(b, raw[cbits]).view(DTYPES[(kinds[1], cbits)]))
        want_bits = tuple(int(x) for x in np.asarray(want).astype(
            DTYPES[(kinds[0], bits)]).view(raw[bits]))
        if op in ("fmin", "fmax"):
            assert got is None  # the edge values include NaNs
            typed = [np.array(p, raw[bits]).view(DTYPES[("float", bits)]) for p in pairs]
            fine = [i for i, (t, p) in enumerate(zip(typed, pairs, strict=True))
                    if not np.isnan(t).any() and (t[0] != t[1] or p[0] == p[1])]
            assert mir_fold.fold_plain(op, bits, 1, [(0,), (1 << (bits - 1),)], [bits] * 2,
                                       {}) is None  # +0, -0: NumPy's loops differ
            got = mir_fold.fold_plain(op, bits, len(fine), [tuple(a[i] for i in fine),
                                      tuple(b[i] for i in fine)], [bits, bits], {})
            want_bits = tuple(want_bits[i] for i in fine)
            a, b = tuple(a[i] for i in fine), tuple(b[i] for i in fine)
        assert got == want_bits
        for x, y in list(zip(a, b, strict=True))[::7]:  # the folder entry, per component
            assert mir_fold.fold(op, bits, 1, [(x,), (y,)], [bits, cbits], {}) == \
                mir_eval.fold(op, bits, 1, [(x,), (y,)], [bits, cbits], {})


@pytest.mark.parametrize(("src", "dest"), [(s, d) for s in (16, 32, 64) for d in (16, 32, 64)])
def test_float_resizes_fold_as_numpy_converts(src: int, dest: int) -> None:
    """``f2fN``: every float16 (all 65,536 patterns), and edge and random float32/float64
    patterns (around the narrower type's largest value and denormals, halfway cases),
    converted by NumPy's ``astype`` (the oracle) against the plain fold, with and without
    flush-to-zero of the result; NaN sources and results out of range go to NumPy."""
    raw = {16: np.uint16, 32: np.uint32, 64: np.uint64}
    flt = {16: np.float16, 32: np.float32, 64: np.float64}
    if src == 16:
        vals = list(range(1 << 16))
    else:
        rng = np.random.default_rng(src * 100 + dest)
        vals = [int(x) for x in rng.integers(0, 1 << 63, 3000, dtype=np.uint64)]
        vals += _edge_bits("float", src)
        for f in (65504.0, 65520.0, 2.0 ** -24, 2.0 ** -25, 2.0 ** -14, 3.4028234663852886e38):
            centre = int(np.array([f], flt[src]).view(raw[src])[0])
            vals += [centre + d for d in range(-2, 3)]
        vals += [v | (1 << (src - 1)) for v in list(vals)]
        vals = [v & ((1 << src) - 1) for v in vals]
    srcs = np.array(vals, raw[src]).view(flt[src])
    with np.errstate(all="ignore"):
        want = srcs.astype(flt[dest]).view(raw[dest])
    exp = {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}[dest]
    folded = 0
    for x, w, v in zip(vals, want.tolist(), srcs.tolist(), strict=True):
        for flush in (frozenset(), frozenset({dest})):
            got = mir_fold.fold_plain(f"f2f{dest}", dest, 1, [(x,)], [src], {}, flush)
            denormal_result = (w & exp) == 0 and w & ((1 << (dest - 1)) - 1)
            if v != v or (w & exp) == exp and v not in (float("inf"), float("-inf")) or \
                    (flush and denormal_result):
                assert got is None, hex(x)
                continue
            assert got == (w,), hex(x)
            folded += 1
    assert folded > len(vals)  # most fold here


@pytest.mark.parametrize("bits", [16, 32, 64])
@pytest.mark.parametrize("op", ["fadd", "fsub", "fmul"])
def test_float_arithmetic_folds_as_numpy_computes(op: str, bits: int) -> None:
    """``fadd``/``fsub``/``fmul``: edge, random and near-tie patterns (products and sums
    of values around 1, the largest finite value and the denormals) computed by NumPy's
    operator in the type (the oracle) against the plain fold, with and without
    flush-to-zero; NaN results, results out of range and (flushed) denormal sources or
    results go to NumPy, and the folder's entry agrees with the NumPy folder."""
    raw = {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    flt = DTYPES[("float", bits)]
    rng = np.random.default_rng(bits)
    vals = [int(x) & ((1 << bits) - 1) for x in rng.integers(0, 1 << 63, 120, dtype=np.uint64)]
    vals += _edge_bits("float", bits)
    for f in (1.0, 1.5, 3.0, 0.1, 65504.0, 2.0 ** -14, 2.0 ** -24, 3.4028234663852886e38):
        with np.errstate(all="ignore"):
            centre = int(np.array([f], flt).view(raw)[0])
        vals += [(centre + d) & ((1 << bits) - 1) for d in range(-2, 3)]
    vals += [v ^ (1 << (bits - 1)) for v in vals[-40:]]
    pairs = list(itertools.product(vals, vals[::2]))
    a = np.array([x for x, _ in pairs], raw)
    b = np.array([y for _, y in pairs], raw)
    with np.errstate(all="ignore"):
        want = {"fadd": operator.add, "fsub": operator.sub, "fmul": operator.mul}[op](
            a.view(flt), b.view(flt)).astype(flt).view(raw).tolist()
    exp = {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}[bits]
    man = (1 << (bits - 1)) - 1 & ~exp

    def denormal(x: int) -> bool:
        return (x & exp) == 0 and bool(x & man)

    folded = 0
    for (x, y), w in zip(pairs, want, strict=True):
        for flush in (frozenset(), frozenset({bits})):
            got = mir_fold.fold_plain(op, bits, 1, [(x,), (y,)], [bits, bits], {}, flush)
            if (w & exp) == exp and w & man or \
                    (flush and (denormal(x) or denormal(y) or denormal(w))):
                assert got is None, (hex(x), hex(y))  # a NaN, a flushed denormal
                continue
            if got is None:  # out of range (struct refuses it): NumPy's infinity
                assert (w & exp) == exp and (x & exp) != exp and (y & exp) != exp
                continue
            assert got == (w,), (hex(x), hex(y))
            folded += 1
    assert folded > len(pairs)  # most fold here
    for x, y in pairs[::97]:
        for flush in (frozenset(), frozenset({bits})):
            assert mir_fold.fold(op, bits, 1, [(x,), (y,)], [bits, bits], {}, flush) == \
                mir_eval.fold(op, bits, 1, [(x,), (y,)], [bits, bits], {}, flush)
    two = mir_fold.fold_plain(op, bits, 2, [(vals[0], vals[1]), (vals[2], vals[3])],
                              [bits, bits], {})
    assert two is None or two == mir_eval.fold(op, bits, 2, [(vals[0], vals[1]),
                                               (vals[2], vals[3])], [bits, bits], {})


def test_moves_fold_as_numpy_computes() -> None:
    src = (7, 0xFFFFFFFF, 1 << 31, 0x12345678)
    assert mir_fold.fold_plain("mov", 32, 2, [src], [32], {"comps": [3, 1]}) == (0x12345678,
                                                                             0xFFFFFFFF)
    assert mir_fold.fold_plain("mov", 32, 3, [src], [32], {}) == src[:3]
    assert mir_fold.fold_plain("vec4", 16, 4, [(1,), (2,), (3,), (0xFFFF,)], [16] * 4, {}) == \
        (1, 2, 3, 0xFFFF)
    assert mir_fold.fold_plain("vec2", 1, 2, [(5,), (0,)], [1, 1], {}) == (1, 0)
    # wider constants are truncated to the bit size, as NumPy's astype does
    assert mir_fold.fold_plain("vec2", 32, 2, [(0x1_0000_0003,), (2,)], [32, 32], {}) == (3, 2)
    for op, srcs, bits, attrs in [("mov", [src], [32], {"comps": [3, 1]}),
                                  ("vec2", [(0x1_0000_0003,), (2,)], [32, 32], {}),
                                  ("vec3", [(1,), (0,), (1,)], [1, 1, 1], {}),
                                  ("vec2", [(2**64 - 1,), (0,)], [64, 64], {})]:
        n = len(attrs.get("comps", ())) or len(srcs)
        assert mir_fold.fold(op, bits[0], n, srcs, bits, attrs) == \
            mir_eval.fold(op, bits[0], n, srcs, bits, attrs)


def test_what_plain_python_does_not_fold_goes_to_numpy() -> None:
    # an op without a plain rule, a flushed float comparison, a constant out of range
    assert mir_fold.fold_plain("idiv", 32, 1, [(1,), (2,)], [32, 32], {}) is None
    nan32 = (0x7FC00000,)
    assert mir_fold.fold_plain("fmin", 32, 1, [nan32, (0,)], [32, 32], {}) is None
    assert mir_fold.fold_plain("fmax", 32, 1, [(1,), (0x00000001,)], [32, 32], {},
                               frozenset({32})) is None  # a flushed denormal
    assert mir_fold.fold_plain("iadd", 1, 1, [(1,), (1,)], [1, 1], {}) is None  # NumPy's bools
    assert mir_fold.fold_plain("iadd", 64, 1, [(1,), (2,)], [32, 32], {}) is None  # widths
    denorm = (1,)
    assert mir_fold.fold_plain("feq", 1, 1, [denorm, (0,)], [32, 32], {},
                               frozenset({32})) is None
    assert mir_fold.fold("feq", 1, 1, [denorm, (0,)], [32, 32], {}, frozenset({32})) == (1,)
    assert mir_fold.fold("feq", 1, 1, [denorm, (0,)], [32, 32], {}) == (0,)
    # under flush-to-zero a comparison of normal values (and zeros) folds here
    one, neg_zero = (0x3F800000,), (0x80000000,)
    assert mir_fold.fold_plain("feq", 1, 1, [neg_zero, (0,)], [32, 32], {},
                               frozenset({32})) == (1,)
    assert mir_fold.fold_plain("flt", 1, 1, [one, (0,)], [32, 32], {}, frozenset({32})) == (0,)
    for a, b in [(denorm, (0,)), (one, (0,)), ((0x80000001,), neg_zero), ((0x00400000,), one)]:
        assert mir_fold.fold("fge", 1, 1, [a, b], [32, 32], {}, frozenset({32})) == \
            mir_eval.fold("fge", 1, 1, [a, b], [32, 32], {}, frozenset({32}))
    assert mir_fold.fold_plain("ieq", 1, 1, [(-1,), (0,)], [32, 32], {}) is None
    assert mir_fold.fold("iadd", 32, 1, [(0xFFFFFFFF,), (2,)], [32, 32], {}) == (1,)


def test_a_folding_compile_does_not_load_numpy(tmp_path: Path) -> None:
    """A shader whose specialization constants are compared (ncnn's pattern: the
    translation folds ieq, feq, vecN and mov), shifted, divided and clamped, with a
    counted loop (loop_unroll's trip count), compiles without importing NumPy."""
    src = tmp_path / "k.comp"
    src.write_text("""#version 450
layout(constant_id = 0) const int act = 0;
layout(constant_id = 1) const float slope = 0.0;
layout(constant_id = 2) const uint shift = 2u;
layout(constant_id = 3) const int lo = 1;
const uint stride = (64u << shift) / 3u;
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { vec4 v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = v[i];
    if (act == 1) x = x * 2.0;
    if (slope == 0.0) x = max(x, vec4(0.0)); else x = x * slope;
    int clamped = max(min(lo, 5), 0);
    for (int k = 0; k < 3; ++k) x += v[i + stride * uint(k + clamped)];
    v[i] = x;
}
""")
    spv = tmp_path / "k.spv"
    subprocess.run(["glslangValidator", "-V", str(src), "-o", str(spv)], check=True,
                   capture_output=True)
    code = ("import sys\n"
            "from radcc.frontend import mir_fold\n"
            "ops = []\n"
            "plain = mir_fold.fold_plain\n"
            "def spy(op, *a, **k):\n"
            "    ops.append(op)\n"
            "    return plain(op, *a, **k)\n"
            "mir_fold.fold_plain = spy\n"
            "from radcc import cli\n"
            f"sys.argv = ['radcc', 'compile', '--no-validate', {str(spv)!r}, '-o', "
            f"{str(tmp_path / 'k.o')!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('FOLDED', ' '.join(sorted(set(ops))))\n"
            "print('NUMPY', 'numpy' in sys.modules)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    folded = r.stdout.split("FOLDED", 1)[1].split("\n", 1)[0].split()
    # the spy sees the folds only when mir_fold runs interpreted: compiled (mypyc), its
    # callers call fold_plain natively, past the module attribute
    if not is_compiled("radcc.frontend.mir_fold"):
        assert {"ieq", "feq", "ishl", "udiv", "imin", "imax"} <= set(folded), folded
    assert "NUMPY False" in r.stdout

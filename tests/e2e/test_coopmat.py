"""Cooperative matrices (SPV_KHR_cooperative_matrix) end to end on GFX11 WMMA: our
GLSL shaders (tests/e2e/coopmat/*.comp) compiled by radcc and run in the strict
emulator against NumPy (lavapipe has no cooperative matrices), wave32 and wave64, with
the IR validated after every phase.

Debian 12's glslang 12 predates GL_KHR_cooperative_matrix, so each shader is kept as
the SPIR-V text a newer glslang (16.5: ``glslang -V --target-env vulkan1.3``) produced
from the .comp beside it, disassembled by radcc (NAME.spvasm), and assembled here by
`tests.support.spirv_asm`; the round trip through radcc's disassembler is checked.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from radcc.driver.run import run_compute
from radcc.frontend.spirv.disasm import disassemble
from radcc.passes.options import DebugOptions
from tests.support.spirv_asm import assemble

HERE = Path(__file__).parent / "coopmat"
WAVES = [32, 64]
CHECKED = DebugOptions.parse("validateir,validatera")


def _spirv(name: str) -> bytes:
    return assemble((HERE / f"{name}.spvasm").read_text())


def _run(name: str, wave: int, buffers: dict, groups=(1, 1, 1), push: bytes = b"") -> dict:
    return run_compute(_spirv(name), groups=groups, buffers=buffers, push_constants=push,
                       spec_constants={0: wave}, wave_size=wave, debug_options=CHECKED)


@pytest.mark.parametrize("name", ["matmul", "tiled", "convert", "big", "bf16",
                                  "bf16_convert", "flex", "flex_int"])
def test_spvasm_round_trip(name: str) -> None:
    text = (HERE / f"{name}.spvasm").read_text()
    drop = lambda t: [ln for ln in t.splitlines() if not ln.startswith("; Generator")]  # noqa: E731
    assert drop(disassemble(assemble(text))) == drop(text)


def _f16(r: np.random.Generator, *shape: int) -> np.ndarray:
    return r.uniform(-2, 2, shape).astype(np.float16)


@pytest.mark.parametrize("wave", WAVES)
def test_matmul(wave: int) -> None:
    r = np.random.default_rng(wave)
    a = _f16(r, 17, 24)  # A at element 4 of a row-stride-24 array
    b = _f16(r, 16, 16)  # column-major: b[n][k] = B[k][n]
    c = r.uniform(-4, 4, (16, 16)).astype(np.float32)
    out = _run("matmul", wave, {(0, 0): a.tobytes(), (0, 1): b.tobytes(),
                                (0, 2): c.tobytes(), (0, 3): np.zeros(256, np.float32)})
    am = a.reshape(-1)[4:4 + 16 * 24].reshape(16, 24)[:, :16].astype(np.float64)
    want = 2 * (am @ b.T.astype(np.float64) + c)
    got = np.frombuffer(out[(0, 3)], np.float32).reshape(16, 16)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("wave", WAVES)
def test_tiled_matmul_loop(wave: int) -> None:
    m, n, k = 32, 48, 64
    r = np.random.default_rng(100 + wave)
    a, b = _f16(r, m, k), _f16(r, k, n)
    out = _run("tiled", wave, {(0, 0): a.tobytes(), (0, 1): b.tobytes(),
                               (0, 2): np.zeros(m * n, np.float32)},
               groups=(m // 16, n // 16, 1), push=struct.pack("<3I", m, n, k))
    want = a.astype(np.float64) @ b.astype(np.float64)
    got = np.frombuffer(out[(0, 2)], np.float32).reshape(m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("wave", WAVES)
def test_accumulate_and_convert(wave: int) -> None:
    r = np.random.default_rng(200 + wave)
    a, b = _f16(r, 16, 16), _f16(r, 16, 16)
    c = r.uniform(-4, 4, (16, 16)).astype(np.float32)  # column-major in memory
    f = _f16(r, 16, 16)
    a8 = r.integers(-128, 128, (16, 16)).astype(np.int8)
    b8 = r.integers(-128, 128, (16, 16)).astype(np.int8)
    h = r.integers(-1 << 20, 1 << 20, (16, 16)).astype(np.int32)
    out = _run("convert", wave, {
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): c.T.copy().tobytes(),
        (0, 3): f.tobytes(), (0, 4): np.zeros(256, np.float16), (0, 5): a8.tobytes(),
        (0, 6): b8.tobytes(), (0, 7): h.tobytes()})
    ab = a.astype(np.float64) @ b.astype(np.float64)
    mc = (ab + c).astype(np.float32).astype(np.float16)
    mf = (ab + f.astype(np.float64)).astype(np.float16)
    want = (mc.astype(np.float32) - mf.astype(np.float32)).astype(np.float16)
    got = np.frombuffer(out[(0, 4)], np.float16).reshape(16, 16).T  # stored column-major
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=0, atol=4e-3)
    gi = np.frombuffer(out[(0, 7)], np.int32).reshape(16, 16)
    np.testing.assert_array_equal(gi, a8.astype(np.int64) @ b8.astype(np.int64) + h)


@pytest.mark.parametrize("wave", WAVES)
def test_matrices_of_several_tiles(wave: int) -> None:
    """32x48 A (from shared memory, row-major) x 48x32 B (column-major) + 32x32 C: four
    accumulator tiles of three WMMAs each; then per element (length() loop), times a
    scalar, converted to f16 and stored column-major (tests/e2e/coopmat/big.comp)."""
    r = np.random.default_rng(300 + wave)
    a, b = _f16(r, 32, 48), _f16(r, 48, 32)
    c = r.uniform(-4, 4, (32, 32)).astype(np.float32)
    out = _run("big", wave, {(0, 0): a.tobytes(), (0, 1): b.T.copy().tobytes(),
                             (0, 2): c.tobytes(), (0, 3): np.zeros(32 * 32, np.float16)})
    want = ((a.astype(np.float64) @ b.astype(np.float64) + c + 1) * 0.5).astype(np.float16)
    got = np.frombuffer(out[(0, 3)], np.float16).reshape(32, 32).T  # stored column-major
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=2e-3, atol=2e-3)


def _bf16_bits(x: np.ndarray) -> np.ndarray:
    """bfloat16 bits of float32 values: round to nearest even, NaN made quiet."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF
    return np.where(np.isnan(x), (u >> 16) | 0x40, r).astype(np.uint16)


def _bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("wave", WAVES)
def test_bfloat16(wave: int) -> None:
    """tests/e2e/coopmat/bf16.comp: bfloat16 WMMA into float32, bfloat16 and float16
    accumulators against NumPy in float64 (float32 accumulators within 1e-5; the bfloat16
    result within one bfloat16 rounding, 2^-8 relative; the float16 one within one float16
    rounding, 2^-11 relative), and the scalar conversions bit-exact: round to
    nearest even with ties both ways, denormals, overflow to infinity, infinities, NaNs."""
    r = np.random.default_rng(400 + wave)
    a = _bf16_bits(r.uniform(-2, 2, (16, 16)).astype(np.float32))
    b = _bf16_bits(r.uniform(-2, 2, (16, 16)).astype(np.float32))
    c = r.uniform(-4, 4, (16, 16)).astype(np.float32)
    specials = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20, -(1 + 2 ** -8),
                         1e-40, -3e-39, 3.4e38, -3.4e38, np.inf, -np.inf, np.nan, 0.0, -0.0,
                         65504.0, 2 ** -126, 1.0], np.float32)
    f = np.concatenate([specials, r.uniform(-1e6, 1e6, 48).astype(np.float32)])
    nan_bits = np.array([0x7FC00001, 0xFF800001], np.uint32)  # quiet, signalling (negative)
    f[[20, 21]] = nan_bits.view(np.float32)
    gi = r.integers(0, 1 << 16, 64).astype(np.uint16)
    out = _run("bf16", wave, {
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): c.tobytes(),
        (0, 3): np.zeros(256, np.float32), (0, 4): np.zeros(256, np.uint16),
        (0, 5): f.tobytes(), (0, 6): np.zeros(64, np.uint16), (0, 7): gi.tobytes(),
        (0, 8): np.zeros(64, np.float32), (0, 9): np.zeros(256, np.float16)})
    am, bm = _bf16_value(a).astype(np.float64), _bf16_value(b).astype(np.float64)
    got_d = np.frombuffer(out[(0, 3)], np.float32).reshape(16, 16)
    np.testing.assert_allclose(got_d, am @ bm + c, rtol=1e-5, atol=1e-5)
    want_e = am @ bm + _bf16_value(_bf16_bits(c)).astype(np.float64)
    got_e = _bf16_value(np.frombuffer(out[(0, 4)], np.uint16)).reshape(16, 16)
    np.testing.assert_allclose(got_e, want_e, rtol=2 ** -8, atol=2 ** -7)
    want_h = am @ bm + c.astype(np.float16).astype(np.float64)
    got_h16 = np.frombuffer(out[(0, 9)], np.float16).reshape(16, 16).astype(np.float64)
    np.testing.assert_allclose(got_h16, want_h, rtol=2 ** -11, atol=2 ** -10)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 6)], np.uint16), _bf16_bits(f))
    got_h = np.frombuffer(out[(0, 8)], np.float32).view(np.uint32)
    np.testing.assert_array_equal(got_h, gi.astype(np.uint32) << 16)


def test_bfloat16_without_float16() -> None:
    """tests/e2e/coopmat/bf16_convert.comp, its SPIR-V without the Float16 capability
    (a bfloat16 type needs BFloat16TypeKHR only): accepted by radcc's validation, and
    its conversions bit-exact against NumPy."""
    text = (HERE / "bf16_convert.spvasm").read_text()
    assert "OpCapability Float16" not in text
    r = np.random.default_rng(7)
    f = r.uniform(-1e3, 1e3, 64).astype(np.float32)
    gi = r.integers(0, 1 << 16, 128).astype(np.uint16)
    out = run_compute(assemble(text), groups=(1, 1, 1), buffers={
        (0, 0): f.tobytes(), (0, 1): gi.tobytes()}, wave_size=32, debug_options=CHECKED)
    g = np.frombuffer(out[(0, 1)], np.uint16)
    np.testing.assert_array_equal(g[:64], _bf16_bits(f))
    got = np.frombuffer(out[(0, 0)], np.float32).view(np.uint32)
    np.testing.assert_array_equal(got, gi[64:].astype(np.uint32) << 16)


# --- the flexible layout: sizes that are not 16x16 tiles, the whole matrix in every lane --
# (tests/e2e/coopmat/flex*.comp compiled by glslangValidator 13.1.1 -V --target-env
# vulkan1.3, accepted by spirv-val 2025.5, disassembled by radcc)


@pytest.mark.parametrize("wave", WAVES)
def test_flexible_sizes(wave: int) -> None:
    """tests/e2e/coopmat/flex.comp: 4x4x4 float16 -> float32 with strided row- and
    column-major loads and stores, llama.cpp's 4x1 x 1x2 into a 4x2 float16 accumulator
    (eight steps of K), ncnn's 1x1, element-wise arithmetic, a conversion, indexing and
    length(), against NumPy in float64."""
    r = np.random.default_rng(500 + wave)
    sa, sb = 7, 5
    a = _f16(r, 3 + 4 * sa)
    b = _f16(r, 4 * sb)
    c = r.uniform(-4, 4, 16).astype(np.float32)
    g, q = _f16(r, 4, 8), _f16(r, 8, 2)
    h = r.uniform(-1, 1, (4, 2)).astype(np.float16)
    out = _run("flex", wave, {
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): c.tobytes(),
        (0, 3): np.zeros(32, np.float32), (0, 4): g.tobytes(), (0, 5): q.tobytes(),
        (0, 6): h.tobytes(), (0, 7): np.zeros(8, np.float16),
        (0, 8): np.zeros(17, np.float32), (0, 9): np.zeros(16, np.float16),
        (0, 10): np.zeros(4, np.uint32)}, push=struct.pack("<2I", sa, sb))
    am = np.array([[a[3 + i * sa + k] for k in range(4)] for i in range(4)], np.float64)
    bm = np.array([[b[j * sb + k] for j in range(4)] for k in range(4)], np.float64)
    cm = c.reshape(4, 4).astype(np.float64)
    dm = am @ bm + cm
    d = np.frombuffer(out[(0, 3)], np.float32)
    got_d = np.array([[d[1 + j * 6 + i] for j in range(4)] for i in range(4)])
    np.testing.assert_allclose(got_d, dm, rtol=1e-6, atol=1e-6)
    untouched = [k for k in range(32) if (k - 1) % 6 >= 4 or not 1 <= k < 1 + 4 * 6]
    assert not d[untouched].any()
    want_h = g.astype(np.float64) @ q.astype(np.float64) + h.astype(np.float64)
    got_h = np.frombuffer(out[(0, 7)], np.float16).reshape(2, 4).T.astype(np.float64)
    np.testing.assert_allclose(got_h, want_h, rtol=0, atol=8 * 2.0 ** -9)
    e = np.frombuffer(out[(0, 8)], np.float32)
    assert e[16] == np.float32(float(a[0]) * float(b[1]) + 0.25)
    want_e = -(dm * 0.5 + cm) + np.arange(16).reshape(4, 4)
    np.testing.assert_allclose(e[:16].reshape(4, 4), want_e, rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 9)], np.float16),
                                  e[:16].astype(np.float16))
    np.testing.assert_array_equal(np.frombuffer(out[(0, 10)], np.uint32), [16, 8, 1, 16])


@pytest.mark.parametrize("wave", WAVES)
def test_flexible_integer_saturation(wave: int) -> None:
    """tests/e2e/coopmat/flex_int.comp: 8x8x8 signed 8-bit into 32-bit accumulators,
    wrapping and saturating (accumulators near both ends of int32), and unsigned 8-bit
    into unsigned accumulators near 2^32, saturating, against NumPy in int64."""
    r = np.random.default_rng(600 + wave)
    a = r.integers(-128, 128, (8, 8)).astype(np.int8)
    b = r.integers(-128, 128, (8, 8)).astype(np.int8)  # column-major: b[n][k] = B[k][n]
    c = r.integers(-1000, 1000, (8, 8)).astype(np.int64)
    c[:2] += (1 << 31) - 1000  # rows 0-1 near the top, rows 2-3 near the bottom
    c[2:4] -= (1 << 31) - 1000
    ua = r.integers(0, 256, (8, 8)).astype(np.uint8)
    ub = r.integers(0, 256, (8, 8)).astype(np.uint8)
    uc = r.integers(0, 1 << 20, (8, 8)).astype(np.int64)
    uc[:3] += (1 << 32) - (1 << 20)
    out = _run("flex_int", wave, {
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): c.astype(np.int32).tobytes(),
        (0, 3): np.zeros(64, np.int32), (0, 4): np.zeros(64, np.int32),
        (0, 5): ua.tobytes(), (0, 6): ub.tobytes(), (0, 7): uc.astype(np.uint32).tobytes()})
    exact = a.astype(np.int64) @ b.T.astype(np.int64) + c
    lo, hi = -(1 << 31), (1 << 31) - 1
    assert (exact > hi).any() and (exact < lo).any()  # both saturations are exercised
    wrapped = ((exact - lo) % (1 << 32) + lo).astype(np.int32)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 3)], np.int32).reshape(8, 8), wrapped)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 4)], np.int32).reshape(8, 8),
                                  np.clip(exact, lo, hi))
    uexact = ua.astype(np.int64) @ ub.astype(np.int64) + uc
    assert (uexact > (1 << 32) - 1).any()
    np.testing.assert_array_equal(np.frombuffer(out[(0, 7)], np.uint32).reshape(8, 8),
                                  np.clip(uexact, 0, (1 << 32) - 1))


# --- bad input: refused with the type's name and its declaration's word offset, exit 1 --

_A_TYPE = "%13 = OpTypeCooperativeMatrixKHR %9 %10 %11 %11 %12"


def _compile_cli(spv: bytes, tmp_path) -> str:
    """radcc compile's stderr, checked for exit status 1 and no traceback."""
    import subprocess
    import sys

    f = tmp_path / "bad.spv"
    f.write_bytes(spv)
    r = subprocess.run([sys.executable, "-m", "radcc", "compile", str(f), "-o",
                        str(tmp_path / "bad.o")], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    return r.stderr


_B_TYPE = "%27 = OpTypeCooperativeMatrixKHR %9 %10 %11 %11 %8"
_C_TYPE = "%39 = OpTypeCooperativeMatrixKHR %37 %10 %11 %11 %38"


@pytest.mark.parametrize("types,name,why", [
    # M = 20: 320 elements in A and C, above what the flexible layout holds (MAX_FLEX)
    ({_A_TYPE: "%9 %10 %100 %11 %12", _C_TYPE: "%37 %10 %100 %11 %38"},
     "float16 20x16 MatrixA", "320 elements, above the 256"),
    ({_A_TYPE: "%9 %101 %11 %11 %12", _B_TYPE: "%9 %101 %11 %11 %8",  # workgroup scope
      _C_TYPE: "%37 %101 %11 %11 %38"},
     "float16 16x16 MatrixA", "only subgroup scope is supported"),
    # a 16-bit integer A: not one of WMMA's component types
    ({_A_TYPE: "%102 %10 %11 %11 %12"}, "int16 16x16 MatrixA",
     "A and B float16, bfloat16 or 8-bit"),
])
def test_unsupported_cooperative_matrix_is_refused(types: dict[str, str], name: str, why: str,
                                                   tmp_path) -> None:
    from radcc.frontend.spirv import read_spirv

    text = (HERE / "matmul.spvasm").read_text()
    text = text.replace("         %12 = OpConstant %6 0\n",
                        "         %12 = OpConstant %6 0\n        %100 = OpConstant %6 20\n"
                        "        %101 = OpConstant %6 2\n        %102 = OpTypeInt 16 1\n")
    text = text.replace("OpCapability Float16\n", "OpCapability Float16\nOpCapability Int16\n")
    for old, operands in types.items():
        assert old in text
        text = text.replace(old, old.split("=")[0] + "= OpTypeCooperativeMatrixKHR " + operands)
    spv = assemble(text)
    word = read_spirv(spv).defs[13].offset
    err = _compile_cli(spv, tmp_path)
    assert f"word {word}: OpTypeCooperativeMatrixKHR: cooperative matrix of type {name}" \
        in err, err
    assert why in err, err


# (types changed in flex.spvasm, the MulAdd concerned, radcc's words) -- spirv-val 2025.5
# refuses each of these modules too ("Cooperative matrix 'K' mismatch", "'M' mismatch",
# "Cooperative matrix type must be A Type")
_FLEX_BAD = [
    ("%107 = OpTypeCooperativeMatrixKHR %9 %10 %8 %48 %8",
     "%107 = OpTypeCooperativeMatrixKHR %9 %10 %48 %48 %8", 125,
     "the matrices' K do not agree (1 and 2"),
    ("%95 = OpTypeCooperativeMatrixKHR %9 %10 %11 %8 %12",
     "%95 = OpTypeCooperativeMatrixKHR %9 %10 %48 %8 %12", 125,
     "the matrices' M do not agree (2 and 4"),
    ("%65 = OpCooperativeMatrixMulAddKHR %49 %62 %63 %64",
     "%65 = OpCooperativeMatrixMulAddKHR %49 %63 %62 %64", 65,
     "operand 0 of OpCooperativeMatrixMulAddKHR is not a cooperative matrix of use MatrixA"),
]


@pytest.mark.parametrize("old,new,rid,words", _FLEX_BAD)
def test_muladd_shape_mismatch_is_refused(old: str, new: str, rid: int, words: str,
                                          tmp_path) -> None:
    from radcc.frontend.spirv import read_spirv

    text = (HERE / "flex.spvasm").read_text()
    assert old in text
    spv = assemble(text.replace(old, new))
    word = read_spirv(spv).defs[rid].offset
    err = _compile_cli(spv, tmp_path)
    assert f"word {word}: OpCooperativeMatrixMulAddKHR: " in err, err
    assert words in err, err


def test_muladd_mixing_tiles_and_flexible_is_refused(tmp_path) -> None:
    """16x8 A times 8x16 B (the flexible layout) into a 16x16 accumulator (16x16 tiles):
    refused naming both layouts at the MulAdd's word offset."""
    from radcc.frontend.spirv import read_spirv

    text = (HERE / "matmul.spvasm").read_text()
    text = text.replace("         %12 = OpConstant %6 0\n",
                        "         %12 = OpConstant %6 0\n        %100 = OpConstant %6 8\n")
    text = text.replace(_A_TYPE, "%13 = OpTypeCooperativeMatrixKHR %9 %10 %11 %100 %12")
    text = text.replace("%27 = OpTypeCooperativeMatrixKHR %9 %10 %11 %11 %8",
                        "%27 = OpTypeCooperativeMatrixKHR %9 %10 %100 %11 %8")
    spv = assemble(text)
    word = read_spirv(spv).defs[52].offset
    err = _compile_cli(spv, tmp_path)
    assert f"word {word}: OpCooperativeMatrixMulAddKHR: OpCooperativeMatrixMulAddKHR of " \
        "float16 16x8 MatrixA, float16 8x16 MatrixB, float32 16x16 MatrixAccumulator -> " \
        "float32 16x16 MatrixAccumulator mixes 16x16 tiles with the flexible layout" in err, err


def test_bfloat16_dot_product_is_refused_by_name(tmp_path) -> None:
    """SPV_KHR_bfloat16's BFloat16DotProductKHR (OpDot on bfloat16) is refused naming it
    at its word offset, exit 1."""
    import subprocess
    import sys

    text = (HERE / "bf16.spvasm").read_text()
    text = text.replace('               OpCapability BFloat16TypeKHR\n',
                        '               OpCapability BFloat16TypeKHR\n'
                        '               OpCapability BFloat16DotProductKHR\n')
    spv = assemble(text)
    f = tmp_path / "bf16.spv"
    f.write_bytes(spv)
    r = subprocess.run([sys.executable, "-m", "radcc", "compile", str(f), "-o",
                        str(tmp_path / "bf16.o")], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    # the fifth OpCapability: five header words and four two-word capabilities before it
    assert "word 13: OpCapability: unsupported capability BFloat16DotProductKHR: bfloat16 " \
        "dot products (OpDot on bfloat16) are not supported yet" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_bfloat16_arithmetic_is_refused_by_name() -> None:
    """Arithmetic on bfloat16 (not allowed by SPV_KHR_bfloat16) is refused naming the
    instruction at its word offset."""
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv import SpirvError, read_spirv

    line = "%127 = OpLoad %9 %126"
    text = (HERE / "bf16.spvasm").read_text()
    assert line in text, text
    text = text.replace(line, line + "\n        %200 = OpFAdd %9 %127 %127")
    spv = assemble(text.replace("Bound: 136", "Bound: 201"))
    word = read_spirv(spv).defs[200].offset
    with pytest.raises(SpirvError, match="OpFAdd on bfloat16: .*bfloat16 arithmetic is not "
                       "supported") as e:
        compile_spirv(spv, wave_size=32, spirv_val=False)
    assert e.value.word_offset == word


def test_gfx10_has_no_wmma(tmp_path) -> None:
    """A chip without WMMA names the instruction it lacks (exit 1)."""
    import subprocess
    import sys

    f = tmp_path / "m.spv"
    f.write_bytes(_spirv("matmul"))
    r = subprocess.run([sys.executable, "-m", "radcc", "compile", "--mcpu=gfx1030", str(f),
                        "-o", str(tmp_path / "m.o")], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert "v_wmma_f32_16x16x16_f16 in VOP3P encoding does not exist on gfx1030" in r.stderr
    assert "Traceback" not in r.stderr


def test_length_of_a_non_matrix_is_refused() -> None:
    """OpCooperativeMatrixLengthKHR of a type that is no cooperative matrix: a located
    error, not an internal one."""
    from radcc.driver.compile import compile_spirv
    from radcc.frontend.spirv import SpirvError, read_spirv

    line = "%75 = OpCooperativeMatrixLengthKHR %6 %47"
    text = (HERE / "convert.spvasm").read_text()
    assert line in text
    spv = assemble(text.replace(line, "%75 = OpCooperativeMatrixLengthKHR %6 %6"))
    word = read_spirv(spv).defs[75].offset
    with pytest.raises(SpirvError, match="is not a cooperative matrix type") as e:
        compile_spirv(spv, wave_size=32, spirv_val=False)
    assert e.value.word_offset == word

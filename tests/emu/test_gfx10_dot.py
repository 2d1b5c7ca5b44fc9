"""GFX10.3's integer dot products and GFX10's v_clrexcp in the strict emulator: clang-19's
gfx1030 code for the sdot/udot builtins (every form, with and without clamp) against NumPy,
wave32 and wave64."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from radcc.emu.api import load
from tests.emu.conftest import CLANG, KERNELS, clang_flags

N = 128
# the instructions clang-19 selects for the kernel's builtins on gfx1030
OPS = ("v_dot2_i32_i16", "v_dot2_u32_u16", "v_dot4_i32_i8", "v_dot4c_i32_i8",
       "v_dot4_u32_u8", "v_dot8_i32_i4", "v_dot8_u32_u4", "v_clrexcp")


def _fields(x: np.ndarray, bits: int, signed: bool) -> list[np.ndarray]:
    u = x.astype(np.uint32).astype(np.int64)
    out = []
    for k in range(32 // bits):
        f = (u >> (bits * k)) & ((1 << bits) - 1)
        if signed:
            f = np.where(f >= 1 << (bits - 1), f - (1 << bits), f)
        out.append(f)
    return out


def _dot(a: np.ndarray, b: np.ndarray, c: np.ndarray, bits: int, signed: bool,
         clamp: bool) -> np.ndarray:
    """LLVM's llvm.amdgcn.[su]dot{2,4,8}: the fields' products plus c, wrapped to 32 bits or
    (clamp) saturated to the signed/unsigned 32-bit range."""
    acc = c.astype(np.int64) if signed else c.astype(np.uint32).astype(np.int64)
    for fa, fb in zip(_fields(a, bits, signed), _fields(b, bits, signed), strict=True):
        acc = acc + fa * fb
    if clamp:
        acc = np.clip(acc, -(1 << 31), (1 << 31) - 1) if signed else np.clip(acc, 0, (1 << 32) - 1)
    return (acc & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


def _reference(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    cols = []
    for bits, signed in ((8, True), (8, False), (4, True), (4, False), (16, True),
                         (16, False)):
        for clamp in (False, True):
            cols.append(_dot(a, b, c, bits, signed, clamp))
    return np.stack(cols, axis=1).reshape(-1)


@pytest.fixture(scope="module", params=[32, 64])
def code_object(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                ) -> tuple[int, bytes]:
    wave = int(request.param)
    obj = tmp_path_factory.mktemp("dot") / f"dot_{wave}.o"
    subprocess.run([CLANG, *clang_flags("O3", wave, "gfx1030"),
                    str(KERNELS / "dot_gfx1030.cl"), "-o", str(obj)],
                   check=True, capture_output=True)
    return wave, obj.read_bytes()


def test_clang_selects_every_form(code_object: tuple[int, bytes], tmp_path) -> None:
    """The kernel exercises what it claims: each instruction is in clang-19's code."""
    obj = tmp_path / "k.o"
    obj.write_bytes(code_object[1])
    text = subprocess.run(["llvm-objdump-19", "-d", str(obj)], check=True,
                          capture_output=True, text=True).stdout
    for op in OPS:
        assert f"{op} " in text or text.count(op + "\n"), op


def test_dot_products_match_numpy(code_object: tuple[int, bytes]) -> None:
    wave, blob = code_object
    rng = np.random.default_rng(1030 + wave)
    a = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64).astype(np.int32)
    b = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64).astype(np.int32)
    c = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64).astype(np.int32)
    # saturation both ways: large accumulators near the ends of both ranges
    c[:8] = [2**31 - 1, 2**31 - 5, -(2**31), -(2**31) + 3, -1, -2, 0x7FFF0000, 0]
    a[:4] = b[:4] = np.int32(0x7F7F7F7F)
    a[4:8] = np.uint32(0x80808080).view(np.int32)  # bytes of -128
    b[4:8] = np.int32(0x7F7F7F7F)
    mod = load(blob)
    res = mod.run("dot_gfx1030", (N // 64,), (64,),
                  {"out": np.zeros(12 * N, np.int32), "a": a, "b": b, "c": c},
                  wave_size=wave)
    assert res.violations == [], "\n".join(map(str, res.violations))
    np.testing.assert_array_equal(res.buffers["out"], _reference(a, b, c))

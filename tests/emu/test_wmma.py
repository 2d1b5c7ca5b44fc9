"""GFX11 WMMA in the emulator (ISA guide 7.9): clang-19's `__builtin_amdgcn_wmma_*`
kernels (tests/emu/kernels/wmma.cl), -O0/-O3, wave32/wave64, run in strict mode
against NumPy matrix products; strict mode's WMMA checks on hand-written code."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.emu.api import load

GROUPS = 3  # independent 16x16x16 problems, one per workgroup (one wave each)


def _bf16(r: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Random bfloat16 bits (int16) and their values (float64)."""
    f = r.uniform(-2, 2, shape).astype(np.float32)
    bits = (f.view(np.uint32) >> 16).astype(np.uint16)
    vals = (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return bits.view(np.int16), vals


def _to_bf16_bits(x: np.ndarray) -> np.ndarray:
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return r.astype(np.uint16).view(np.int16)


def _pack(vals: np.ndarray, bits: int) -> np.ndarray:
    """[G, 16 rows, 16] small ints -> [G, 16, 16*bits/32] int32 dwords (element k at
    bit k*bits)."""
    u = vals.astype(np.int64) & ((1 << bits) - 1)
    per = 32 // bits
    g, n, k = u.shape
    u = u.reshape(g, n, k // per, per)
    out = np.zeros((g, n, k // per), dtype=np.int64)
    for i in range(per):
        out |= u[..., i] << (i * bits)
    return out.astype(np.uint32).view(np.int32)


def _mats(r: np.random.Generator, lo: float = -2, hi: float = 2) -> np.ndarray:
    return r.uniform(lo, hi, (GROUPS, 16, 16))


def _run(compile_cl, kernel: str, opt: str, wave: int, args: dict) -> dict[str, np.ndarray]:
    mod = load(compile_cl("wmma", opt, wave))
    res = mod.run(kernel, (GROUPS,), (wave,), args, wave_size=wave)
    assert res.violations == [], "\n".join(map(str, res.violations))
    return res.buffers


CASES = ["wmma_f32_f16", "wmma_f32_f16_chain", "wmma_f32_bf16", "wmma_f16_f16",
         "wmma_bf16_bf16", "wmma_i32_iu8", "wmma_i32_iu4"]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("opt", ["O0", "O3"])
@pytest.mark.parametrize("kernel", CASES)
def test_wmma_kernel(kernel: str, opt: str, wave: int, compile_cl) -> None:
    r = np.random.default_rng(abs(hash((kernel, opt, wave))) % 2**32)
    flat = lambda x: np.ascontiguousarray(x).reshape(-1)  # noqa: E731
    if kernel.startswith("wmma_f32_f16") or kernel == "wmma_f16_f16":
        a, b = _mats(r).astype(np.float16), _mats(r).astype(np.float16)
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        if kernel == "wmma_f16_f16":
            c = _mats(r, -4, 4).astype(np.float16)
            out = _run(compile_cl, kernel, opt, wave,
                       {"d": np.zeros(GROUPS * 256, np.float16),
                        "e": np.zeros(GROUPS * 256, np.float16),
                        "a": flat(a), "b": flat(b), "c": flat(c)})
            want = flat((a64 @ b64 + c.astype(np.float64)).astype(np.float16))
            np.testing.assert_allclose(out["d"].astype(np.float64), want, rtol=2e-3, atol=2e-3)
            np.testing.assert_allclose(out["e"].astype(np.float64), want, rtol=2e-3, atol=2e-3)
            return
        c = _mats(r, -4, 4).astype(np.float32)
        out = _run(compile_cl, kernel, opt, wave,
                   {"d": np.zeros(GROUPS * 256, np.float32), "a": flat(a), "b": flat(b),
                    "c": flat(c)})
        want = a64 @ b64 + c
        if kernel.endswith("chain"):  # A, B registers swapped: A' = B^T, B' = A^T
            want = np.swapaxes(a64 @ b64, 1, 2) + want.astype(np.float32)
        np.testing.assert_allclose(out["d"], flat(want), rtol=1e-5, atol=1e-5)
    elif kernel in ("wmma_f32_bf16", "wmma_bf16_bf16"):
        (abits, a64), (bbits, b64) = _bf16(r, (GROUPS, 16, 16)), _bf16(r, (GROUPS, 16, 16))
        if kernel == "wmma_f32_bf16":
            c = _mats(r, -4, 4).astype(np.float32)
            out = _run(compile_cl, kernel, opt, wave,
                       {"d": np.zeros(GROUPS * 256, np.float32), "a": flat(abits),
                        "b": flat(bbits), "c": flat(c)})
            np.testing.assert_allclose(out["d"], flat(a64 @ b64 + c), rtol=1e-5, atol=1e-5)
            return
        cbits, c64 = _bf16(r, (GROUPS, 16, 16))
        out = _run(compile_cl, kernel, opt, wave,
                   {"d": np.zeros(GROUPS * 256, np.int16), "a": flat(abits),
                    "b": flat(bbits), "c": flat(cbits)})
        got = (out["d"].view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        np.testing.assert_allclose(got, flat(a64 @ b64 + c64), rtol=8e-3, atol=8e-3)
    else:
        bits = 8 if kernel.endswith("iu8") else 4
        a = r.integers(-(1 << (bits - 1)), 1 << (bits - 1), (GROUPS, 16, 16))
        b = r.integers(-(1 << (bits - 1)), 1 << (bits - 1), (GROUPS, 16, 16))
        ua, ub = a & ((1 << bits) - 1), b & ((1 << bits) - 1)
        big = 1 << 31
        c = r.integers(-big, big, (GROUPS, 16, 16))
        if bits == 8:  # some sums near the i32 limits so that clamping matters
            c[:, 0, :] = big - 1
            c[:, 1, :] = -big
        args = {"d": np.zeros(GROUPS * 256, np.int32), "e": np.zeros(GROUPS * 256, np.int32),
                "a": flat(_pack(a, bits)), "bt": flat(_pack(np.swapaxes(b, 1, 2), bits)),
                "c": flat(c.astype(np.int32))}
        if bits == 8:
            args["f"] = np.zeros(GROUPS * 256, np.int32)
        out = _run(compile_cl, kernel, opt, wave, args)
        exact = a @ b + c
        wrap = lambda x: flat(((x + big) % (1 << 32)) - big).astype(np.int32)  # noqa: E731
        np.testing.assert_array_equal(out["d"], wrap(exact))
        # e: unsigned A and B for iu8; unsigned A, signed B for iu4
        ue = ua @ ub + c if bits == 8 else ua @ b + c
        np.testing.assert_array_equal(out["e"], wrap(ue))
        if bits == 8:
            np.testing.assert_array_equal(out["f"], flat(np.clip(exact, -big, big - 1)))


# --- strict mode (hand-written gfx1100 wave32 code, llvm-mc-19 + ld.lld-19) -------------
# v[0:7] zero, then: a WMMA writes D = v[16:23]; the next WMMA reads v[16:23] as A
_HAZARD = """
  v_mov_b32 v0, 0
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  v_mov_b32 v4, 0
  v_mov_b32 v5, 0
  v_mov_b32 v6, 0
  v_mov_b32 v7, 0
  v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[0:7], 0
  {between}
  v_wmma_f32_16x16x16_f16 v[24:31], v[16:23], v[0:7], 0"""


def _strict_kinds(body: str, build_gfx11) -> list[str]:
    res = load(build_gfx11(body)).run("k", groups=1, block=32,
                                      args={"p": np.zeros(16, np.uint32)})
    return [v.kind for v in res.violations]


@pytest.fixture(scope="module")
def build_gfx11(tmp_path_factory: pytest.TempPathFactory):
    import subprocess
    from pathlib import Path

    from tests.emu.test_gfx10_hazards import _KERNEL
    out = tmp_path_factory.mktemp("wmmahz")
    n = [0]

    def run(body: str) -> bytes:
        n[0] += 1
        src, obj, so = (out / f"k{n[0]}.{x}" for x in ("s", "o", "so"))
        src.write_text(_KERNEL.format(chip="gfx1100", body=body, wgp=1)
                       .replace("next_free_vgpr 32", "next_free_vgpr 40"))
        subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                        "--filetype=obj", str(src), "-o", str(obj)], check=True,
                       capture_output=True)
        subprocess.run(["ld.lld-19", "-shared", str(obj), "-o", str(so)], check=True,
                       capture_output=True)
        return Path(so).read_bytes()
    return run


def test_strict_wmma_hazard_named(build_gfx11) -> None:
    """ISA 7.9: back to back, D of the first as A of the second needs one VALU between."""
    assert _strict_kinds(_HAZARD.format(between=""), build_gfx11) == ["WMMAHazard"]


@pytest.mark.parametrize("between", ["v_nop", "v_mov_b32 v32, 0"])
def test_strict_wmma_hazard_mitigated(between: str, build_gfx11) -> None:
    assert _strict_kinds(_HAZARD.format(between=between), build_gfx11) == []


def test_strict_wmma_c_dependency_is_no_hazard(build_gfx11) -> None:
    """D of the first WMMA as C (the accumulator) of the next needs nothing (ISA 7.9)."""
    body = _HAZARD.format(between="").replace("v[24:31], v[16:23], v[0:7], 0",
                                              "v[16:23], v[0:7], v[0:7], v[16:23]")
    assert _strict_kinds(body, build_gfx11) == []


def test_strict_wmma_unreplicated_input(build_gfx11) -> None:
    """Lane 16's copy of A differs from lane 0's: undefined, reported."""
    body = _HAZARD.format(between="v_nop").replace(
        "  v_mov_b32 v7, 0", "  v_mov_b32 v7, 0\n  v_cmp_eq_u32_e32 vcc_lo, 16, v0\n"
        "  v_cndmask_b32_e64 v3, 0, 1.0, vcc_lo")
    # v0 holds the local id at entry; zero it only after the compare
    body = body.replace("  v_mov_b32 v0, 0\n", "", 1).replace(
        "  v_mov_b32 v7, 0\n", "  v_mov_b32 v7, 0\n", 1)
    body = body.replace("  v_wmma_f32_16x16x16_f16 v[16:23], v[0:7]",
                        "  v_mov_b32 v0, 0\n  v_wmma_f32_16x16x16_f16 v[16:23], v[0:7]", 1)
    assert "WMMAInputNotReplicated" in _strict_kinds(body, build_gfx11)

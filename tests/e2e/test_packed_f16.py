"""Packed f16 math (issue 9: ncnn's fp16 arithmetic): pairs of f16 operations on the
halves of one dword are one VOP3P instruction (``vectorize_alu16`` + ``alu16``'s
packed selection, ``pack16``: OPSEL/OPSEL_HI for the halves, NEG_LO/NEG_HI for a
negation, constants inline, as a literal or packed in an SGPR).

Checked in the strict emulator, wave32 and wave64, against NumPy float16. Tolerance 0
(bit-exact): each shader operation is one correctly rounded f16 operation (add, sub,
mul, min/max are exact in NumPy's float32 before its one rounding to float16, 24 >=
2*11+2 significand bits), and ``fma``'s reference is computed in float64, where it is
exact for these inputs (magnitudes in [2^-6, 2^6], a few subnormals in x only: the
exact a*b+c spans at most 47 bits) and rounded once. The mixed shader (f16 storage,
f32 arithmetic) is NumPy float32 then float16 (round to nearest even), also exact.
NaN lanes of min/max/clamp (f16 and f32) are left out (GLSL leaves the result undefined). The
listing has one VOP3P instruction per pair and no per-half f16 instruction, and
every VOP3P line encodes as llvm-mc-19 encodes it."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from radcc.isa.assembler import assemble
from radcc.oracle import llvm_mc
from radcc.target import get_target
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { f16vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { f16vec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { f16vec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer O { f16vec4 o[]; };
layout(set = 0, binding = 4) uniform U { f16vec4 k; };
layout(push_constant) uniform P { float16_t scale; float16_t bias; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec4 x = a[i], y = b[i], z = c[i];
    uint n = 11u * i;
    o[n] = x + y;
    o[n + 1u] = x * y;
    o[n + 2u] = fma(x, y, z);
    o[n + 3u] = min(x, y);
    o[n + 4u] = max(x * p.scale + p.bias, f16vec4(0.0hf));  // v*scale+bias, relu
    o[n + 5u] = clamp(x - y, f16vec4(-1.0hf), f16vec4(6.0hf));
    o[n + 6u] = -x * y.yxwz + f16vec4(1.0hf, 2.0hf, 3.0hf, 4.0hf);  // halves swapped
    o[n + 7u] = f16vec4(x.yy * z.xy, x.ww * z.zw) * float16_t(3.0) - float16_t(0.5);
                                              // a high half read twice, a literal
    o[n + 8u] = x * (k * k);  // a uniform packed product
    o[n + 9u] = f16vec4(clamp(vec4(x) * 2.0 + 1.0, -3.0, 3.0));  // f16 storage, f32 math
    o[n + 10u] = clamp(x * y, f16vec4(0.0hf), f16vec4(1.0hf));  // two packed ops
}
"""

N = 64
SCALE, BIAS = np.float16(1.5), np.float16(-0.75)
K = np.array([0.5, -3.0, 7.0, 0.125], np.float16)


def _inputs(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)

    def one() -> np.ndarray:
        m = np.exp2(rng.uniform(-6, 6, N * 4))
        return (m * rng.choice([-1.0, 1.0], N * 4)).astype(np.float16)

    x, y, z = one(), one(), one()
    x[:10] = [np.inf, -np.inf, np.nan, -0.0, 0.0, 6e-8, -3e-5, 64, 1, -1]
    y[:4] = [1, 2, -0.0, np.nan]
    return x, y, z


def _f16(v: np.ndarray) -> np.ndarray:
    return v.astype(np.float16)


@pytest.mark.parametrize("wave", [32, 64])
def test_packed_f16(wave: int) -> None:
    spirv = glsl_to_spirv(SRC)
    asm = compile_spirv(spirv, wave_size=wave).asm
    body = [ln.strip() for ln in asm.splitlines() if ln.strip().startswith("v_")]
    pk = [ln for ln in body if ln.startswith("v_pk_")]
    assert not [ln for ln in body if ln.split()[0].split("_e")[0] in (
        "v_add_f16", "v_sub_f16", "v_mul_f16", "v_fma_f16", "v_min_f16", "v_max_f16")], asm
    for opc in ("v_pk_add_f16", "v_pk_mul_f16", "v_pk_fma_f16", "v_pk_min_f16",
                "v_pk_max_f16"):
        assert any(ln.startswith(opc) for ln in pk), (opc, asm)
    assert any("neg_lo:" in ln and "neg_hi:" in ln for ln in pk), asm
    assert any("op_sel:[1" in ln for ln in pk), asm  # y.yxwz: the high half first
    _encodings_agree_with_llvm_mc(pk, wave)
    x, y, z = _inputs(wave)
    out = run_compute(spirv, groups=(1, 1, 1), wave_size=wave, buffers={
        (0, 0): x.tobytes(), (0, 1): y.tobytes(), (0, 2): z.tobytes(),
        (0, 3): bytes(N * 88), (0, 4): K.tobytes()},
        push_constants=np.array([SCALE, BIAS], np.float16).tobytes())
    o = np.frombuffer(out[(0, 3)], np.float16).reshape(N, 11, 4)
    xv, yv, zv = (v.reshape(N, 4) for v in (x, y, z))
    x32, y32, z32 = (v.astype(np.float32) for v in (xv, yv, zv))
    with np.errstate(all="ignore"):
        want = {
            0: _f16(x32 + y32), 1: _f16(x32 * y32),
            2: _f16(xv.astype(np.float64) * yv + zv.astype(np.float64)),
            3: np.minimum(xv, yv),
            4: np.maximum(_f16(_f16(x32 * np.float32(SCALE)) + np.float32(BIAS)),
                          np.float16(0)),
            5: np.clip(_f16(x32 - y32), np.float16(-1), np.float16(6)),
            6: _f16(_f16(-x32 * y32[:, [1, 0, 3, 2]]) + np.float32([1, 2, 3, 4])),
            7: _f16(_f16(_f16(x32[:, [1, 1, 3, 3]] * z32) * 3) - np.float32(0.5)),
            8: _f16(x32 * _f16(K.astype(np.float32) ** 2).astype(np.float32)),
            9: _f16(np.clip(x32 * np.float32(2) + np.float32(1), -3, 3)),
            10: np.clip(_f16(x32 * y32), np.float16(0), np.float16(1)),
        }
    nan_in = np.isnan(xv) | np.isnan(yv)
    for slot, w in want.items():
        got = o[:, slot]
        keep = ~nan_in if slot in (3, 5) else ~np.isnan(xv) if slot in (4, 9) else \
            ~np.isnan(want[1]) if slot == 10 else np.ones_like(nan_in)
        g, r = got[keep], w[keep]
        np.testing.assert_array_equal(np.isnan(g), np.isnan(r), err_msg=f"slot {slot}")
        num = ~np.isnan(r)
        np.testing.assert_array_equal(g[num].view(np.uint16), r[num].view(np.uint16),
                                      err_msg=f"slot {slot}")


def _encodings_agree_with_llvm_mc(lines: list[str], wave: int) -> None:
    if not llvm_mc.available():
        pytest.skip("llvm-mc-19 not installed")
    ref = llvm_mc.encode(lines, wave64=wave == 64)
    target = get_target("gfx1100")
    for r in ref:
        assert r.error is None and r.data is not None, (r.line, r.error)
        res = assemble(r.line, target, wave_size=wave)
        assert res.ok, (r.line, res.diagnostics)
        got = [st.data for st in res.statements if st.kind == "inst"]
        assert got == [r.data], (r.line, got, r.data.hex())


SRC_I16 = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { i16vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { i16vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { i16vec4 o[]; };
layout(set = 0, binding = 3) writeonly buffer U { u16vec4 u[]; };
layout(push_constant) uniform P { int16_t k; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    i16vec4 x = a[i], y = b[i];
    u16vec4 ux = u16vec4(x), uy = u16vec4(y);
    uint n = 6u * i;
    o[n] = x + y;
    o[n + 1u] = x - y.yxwz;  // halves swapped
    o[n + 2u] = x * p.k + int16_t(-3);  // uniform splat, inline -3
    o[n + 3u] = min(x, y) * int16_t(1000);  // a literal
    o[n + 4u] = max(x, y) + i16vec4(1, 2, 3, 4);  // two packed SGPR constants
    o[n + 5u] = i16vec4(p.k, p.k, p.k, p.k) * i16vec4(int16_t(5), int16_t(7), int16_t(5), int16_t(7));
    u[2u * i] = min(ux, uy);
    u[2u * i + 1u] = max(ux, uy);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_packed_i16(wave: int) -> None:
    """Divergent 16-bit integer pairs are v_pk_add_u16/sub_u16/mul_lo_u16/min/max
    (wrapping, as NumPy's int16/uint16: bit-exact); the uniform product of the push
    constant stays SALU."""
    spirv = glsl_to_spirv(SRC_I16)
    asm = compile_spirv(spirv, wave_size=wave).asm
    pk = [ln.strip() for ln in asm.splitlines() if ln.strip().startswith("v_pk_")]
    for opc in ("v_pk_add_u16", "v_pk_sub_u16", "v_pk_mul_lo_u16", "v_pk_min_i16",
                "v_pk_max_i16", "v_pk_min_u16", "v_pk_max_u16"):
        assert any(ln.startswith(opc) for ln in pk), (opc, asm)
    assert not any(ln.strip().startswith(("v_add_nc_u16", "v_sub_nc_u16", "v_mul_lo_u16",
                                          "v_min_i16", "v_max_i16", "v_min_u16",
                                          "v_max_u16")) for ln in asm.splitlines()), asm
    _encodings_agree_with_llvm_mc(pk, wave)
    rng = np.random.default_rng(wave + 1)
    x = rng.integers(-32768, 32768, N * 4).astype(np.int16)
    y = rng.integers(-32768, 32768, N * 4).astype(np.int16)
    x[:4] = [-32768, 32767, 0, -1]
    y[:4] = [-1, 1, -32768, 32767]
    k = np.int16(-1234)
    out = run_compute(spirv, groups=(1, 1, 1), wave_size=wave, buffers={
        (0, 0): x.tobytes(), (0, 1): y.tobytes(), (0, 2): bytes(N * 48),
        (0, 3): bytes(N * 16)}, push_constants=np.array([k, 0], np.int16).tobytes())
    o = np.frombuffer(out[(0, 2)], np.int16).reshape(N, 6, 4)
    u = np.frombuffer(out[(0, 3)], np.uint16).reshape(N, 2, 4)
    xv, yv = x.reshape(N, 4), y.reshape(N, 4)
    with np.errstate(over="ignore"):
        want = [xv + yv, xv - yv[:, [1, 0, 3, 2]], xv * k + np.int16(-3),
                np.minimum(xv, yv) * np.int16(1000),
                np.maximum(xv, yv) + np.array([1, 2, 3, 4], np.int16),
                np.broadcast_to(np.array([k * 5, k * 7, k * 5, k * 7], np.int16), (N, 4))]
    for slot, w in enumerate(want):
        np.testing.assert_array_equal(o[:, slot], w, err_msg=f"slot {slot}")
    ux, uy = xv.view(np.uint16), yv.view(np.uint16)
    np.testing.assert_array_equal(u[:, 0], np.minimum(ux, uy))
    np.testing.assert_array_equal(u[:, 1], np.maximum(ux, uy))
